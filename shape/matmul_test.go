package shape

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestMatmulShapes(t *testing.T) {
	tests := []struct {
		a, b       []int
		out, batch []int
		m, k, n    int
	}{
		// 1-D·1-D: the dot product is 0-d.
		{a: []int{3}, b: []int{3}, out: []int{}, batch: []int{}, m: 1, k: 3, n: 1},
		{a: []int{0}, b: []int{0}, out: []int{}, batch: []int{}, m: 1, k: 0, n: 1},
		// 2-D@2-D.
		{a: []int{2, 3}, b: []int{3, 4}, out: []int{2, 4}, batch: []int{}, m: 2, k: 3, n: 4},
		{a: []int{0, 3}, b: []int{3, 4}, out: []int{0, 4}, batch: []int{}, m: 0, k: 3, n: 4},
		{a: []int{2, 0}, b: []int{0, 4}, out: []int{2, 4}, batch: []int{}, m: 2, k: 0, n: 4},
		{a: []int{1, 1}, b: []int{1, 1}, out: []int{1, 1}, batch: []int{}, m: 1, k: 1, n: 1},
		// 1-D@2-D and 2-D@1-D drop the added dimension.
		{a: []int{3}, b: []int{3, 4}, out: []int{4}, batch: []int{}, m: 1, k: 3, n: 4},
		{a: []int{3, 4}, b: []int{4}, out: []int{3}, batch: []int{}, m: 3, k: 4, n: 1},
		// 1-D with batched N-D, on either side.
		{a: []int{10, 3, 4}, b: []int{4}, out: []int{10, 3}, batch: []int{10}, m: 3, k: 4, n: 1},
		{a: []int{4}, b: []int{10, 4, 5}, out: []int{10, 5}, batch: []int{10}, m: 1, k: 4, n: 5},
		{a: []int{4}, b: []int{2, 3, 4, 5}, out: []int{2, 3, 5}, batch: []int{2, 3}, m: 1, k: 4, n: 5},
		// The documented examples.
		{a: []int{10, 3, 4}, b: []int{10, 4, 5}, out: []int{10, 3, 5}, batch: []int{10}, m: 3, k: 4, n: 5},
		{a: []int{10, 3, 4}, b: []int{4, 5}, out: []int{10, 3, 5}, batch: []int{10}, m: 3, k: 4, n: 5},
		{a: []int{7, 1, 2, 3}, b: []int{5, 3, 4}, out: []int{7, 5, 2, 4}, batch: []int{7, 5}, m: 2, k: 3, n: 4},
		{a: []int{7, 1, 3, 3}, b: []int{5, 3, 3}, out: []int{7, 5, 3, 3}, batch: []int{7, 5}, m: 3, k: 3, n: 3},
		// Batch broadcasting with 1 and 0.
		{a: []int{1, 2, 3}, b: []int{6, 3, 2}, out: []int{6, 2, 2}, batch: []int{6}, m: 2, k: 3, n: 2},
		{a: []int{0, 2, 3}, b: []int{1, 3, 2}, out: []int{0, 2, 2}, batch: []int{0}, m: 2, k: 3, n: 2},
		{a: []int{0, 2, 3}, b: []int{3, 2}, out: []int{0, 2, 2}, batch: []int{0}, m: 2, k: 3, n: 2},
		{a: []int{2, 1, 1, 2, 3}, b: []int{4, 1, 3, 5}, out: []int{2, 4, 1, 2, 5}, batch: []int{2, 4, 1}, m: 2, k: 3, n: 5},
	}
	for _, tc := range tests {
		got, err := Matmul(tc.a, tc.b)
		if err != nil {
			t.Errorf("Matmul(%v, %v): %v", tc.a, tc.b, err)
			continue
		}
		if !Equal(got.Out, tc.out) || !Equal(got.Batch, tc.batch) || got.M != tc.m || got.K != tc.k || got.N != tc.n {
			t.Errorf("Matmul(%v, %v) = out %v batch %v m,k,n %d,%d,%d; want out %v batch %v m,k,n %d,%d,%d",
				tc.a, tc.b, got.Out, got.Batch, got.M, got.K, got.N, tc.out, tc.batch, tc.m, tc.k, tc.n)
		}
		if got.AVector != (len(tc.a) == 1) || got.BVector != (len(tc.b) == 1) {
			t.Errorf("Matmul(%v, %v): AVector %v BVector %v", tc.a, tc.b, got.AVector, got.BVector)
		}
	}
}

func TestMatmulShapeErrors(t *testing.T) {
	tests := []struct {
		a, b []int
		want string // a fragment of the message
	}{
		{[]int{}, []int{3}, "at least one dimension"},
		{[]int{3}, []int{}, "at least one dimension"},
		{[]int{}, []int{}, "at least one dimension"},
		{[]int{3}, []int{4}, "inner sizes 3 and 4 differ"},
		{[]int{2, 3}, []int{4, 5}, "inner sizes 3 and 4 differ"},
		{[]int{2, 3}, []int{2}, "inner sizes 3 and 2 differ"},
		{[]int{3}, []int{2, 3}, "inner sizes 3 and 2 differ"},
		{[]int{2, 2, 3}, []int{3, 3, 4}, "batch dimensions (2,) and (3,) do not broadcast"},
		{[]int{0, 2, 3}, []int{2, 3, 4}, "do not broadcast"},
		// Matrix dimensions never broadcast, even when one of them is 1.
		{[]int{2, 1}, []int{3, 4}, "inner sizes 1 and 3 differ"},
		{[]int{5, 2, 3}, []int{5, 1, 4}, "inner sizes 3 and 1 differ"},
		{[]int{-1, 3}, []int{3, 4}, "negative"},
		{[]int{math.MaxInt/2 + 1, 1 << 20, 1}, []int{1, 1 << 20}, "more elements than fit"},
	}
	for _, tc := range tests {
		_, err := Matmul(tc.a, tc.b)
		if err == nil {
			t.Errorf("Matmul(%v, %v): no error", tc.a, tc.b)
			continue
		}
		if !errors.Is(err, ErrShape) {
			t.Errorf("Matmul(%v, %v): %v is not ErrShape", tc.a, tc.b, err)
		}
		msg := err.Error()
		for _, want := range []string{tc.want, String(tc.a), String(tc.b)} {
			if !strings.Contains(msg, want) {
				t.Errorf("Matmul(%v, %v): message %q lacks %q", tc.a, tc.b, msg, want)
			}
		}
	}
}

// TestMatmulShapesExhaustive checks every rank pair up to 4-D against the
// rule written independently: pad the vectors, broadcast the batches, drop
// the padded dimensions.
func TestMatmulShapesExhaustive(t *testing.T) {
	batches := [][]int{{}, {1}, {3}, {0}, {2, 1}, {1, 3}, {2, 3}}
	for ra := 1; ra <= 4; ra++ {
		for rb := 1; rb <= 4; rb++ {
			for _, ba := range batches {
				for _, bb := range batches {
					if (ra <= 2 && len(ba) > 0) || (rb <= 2 && len(bb) > 0) || len(ba) != max(ra-2, 0) || len(bb) != max(rb-2, 0) {
						continue
					}
					a := append(append([]int{}, ba...), 2, 5)
					b := append(append([]int{}, bb...), 5, 4)
					if ra == 1 {
						a = []int{5}
					}
					if rb == 1 {
						b = []int{5}
					}
					checkMatmulRule(t, a, b)
				}
			}
		}
	}
}

func checkMatmulRule(t *testing.T, a, b []int) {
	t.Helper()
	pa, pb := a, b
	if len(a) == 1 {
		pa = []int{1, a[0]}
	}
	if len(b) == 1 {
		pb = []int{b[0], 1}
	}
	batch, berr := Broadcast(pa[:len(pa)-2], pb[:len(pb)-2])
	got, err := Matmul(a, b)
	if berr != nil {
		if err == nil {
			t.Errorf("Matmul(%v, %v): no error, batches do not broadcast", a, b)
		}
		return
	}
	if err != nil {
		t.Errorf("Matmul(%v, %v): %v", a, b, err)
		return
	}
	want := append([]int{}, batch...)
	if len(a) > 1 {
		want = append(want, pa[len(pa)-2])
	}
	if len(b) > 1 {
		want = append(want, pb[len(pb)-1])
	}
	if !Equal(got.Out, want) {
		t.Errorf("Matmul(%v, %v).Out = %v, want %v", a, b, got.Out, want)
	}
}

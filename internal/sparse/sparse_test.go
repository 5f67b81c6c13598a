package sparse

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestNewCOORejects(t *testing.T) {
	ok := []int64{0, 1}
	vals := []float64{1, 2}
	cases := []struct {
		name       string
		rows, cols int
		r, c       []int64
		v          []float64
		mention    string
	}{
		{"negative rows", -1, 2, nil, nil, nil, "-1×2"},
		{"negative cols", 2, -3, nil, nil, nil, "2×-3"},
		{"short RowIdx", 2, 2, []int64{0}, ok, vals, "RowIdx has 1"},
		{"short ColIdx", 2, 2, ok, []int64{1}, vals, "ColIdx has 1"},
		{"short Values", 2, 2, ok, ok, vals[:1], "RowIdx has 2"},
		{"row too big", 2, 2, []int64{0, 2}, ok, vals, "RowIdx[1] = 2"},
		{"row negative", 2, 2, []int64{-1, 0}, ok, vals, "RowIdx[0] = -1"},
		{"col too big", 2, 2, ok, []int64{0, 5}, vals, "ColIdx[1] = 5"},
		{"col negative", 2, 2, ok, []int64{-7, 0}, vals, "ColIdx[0] = -7"},
		{"any index with zero rows", 0, 2, []int64{0}, []int64{0}, vals[:1], "RowIdx[0] = 0"},
	}
	for _, tc := range cases {
		_, err := NewCOO(tc.rows, tc.cols, tc.r, tc.c, tc.v)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("%s: got %v, want ErrInvalid mentioning %q", tc.name, err, tc.mention)
		}
	}
}

func TestNewCSRRejects(t *testing.T) {
	cases := []struct {
		name       string
		rows, cols int
		ptr, c     []int64
		v          []float32
		mention    string
	}{
		{"negative rows", -2, 2, []int64{0}, nil, nil, "-2×2"},
		{"negative cols", 1, -1, []int64{0, 0}, nil, nil, "1×-1"},
		{"RowPtr too short", 2, 2, []int64{0, 0}, nil, nil, "RowPtr has 2 entries, want rows+1 = 3"},
		{"RowPtr too long", 1, 2, []int64{0, 0, 0}, nil, nil, "RowPtr has 3"},
		{"RowPtr empty", 0, 2, nil, nil, nil, "RowPtr has 0"},
		{"RowPtr[0] not 0", 1, 2, []int64{1, 1}, []int64{0}, []float32{1}, "RowPtr[0] = 1"},
		{"RowPtr decreasing", 3, 2, []int64{0, 2, 1, 2}, []int64{0, 1}, []float32{1, 2}, "RowPtr[2] = 1 is less than RowPtr[1] = 2"},
		{"last below nnz", 1, 2, []int64{0, 1}, []int64{0, 1}, []float32{1, 2}, "RowPtr[1] = 1 but there are 2"},
		{"last above nnz", 1, 2, []int64{0, 3}, []int64{0, 1}, []float32{1, 2}, "RowPtr[1] = 3 but there are 2"},
		{"ColIdx/Values mismatch", 1, 2, []int64{0, 2}, []int64{0, 1}, []float32{1}, "ColIdx has 2 entries but Values has 1"},
		{"col too big", 1, 2, []int64{0, 2}, []int64{0, 2}, []float32{1, 2}, "ColIdx[1] = 2"},
		{"col negative", 1, 2, []int64{0, 2}, []int64{-1, 1}, []float32{1, 2}, "ColIdx[0] = -1"},
		{"col with zero cols", 1, 0, []int64{0, 1}, []int64{0}, []float32{1}, "ColIdx[0] = 0"},
	}
	for _, tc := range cases {
		_, err := NewCSR(tc.rows, tc.cols, tc.ptr, tc.c, tc.v)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("%s: got %v, want ErrInvalid mentioning %q", tc.name, err, tc.mention)
		}
	}
}

func TestNewDetectsCanonicalOrder(t *testing.T) {
	coo := func(r, c []int64) bool {
		m, err := NewCOO(3, 3, r, c, make([]int8, len(r)))
		if err != nil {
			t.Fatal(err)
		}
		return m.Coalesced
	}
	if !coo(nil, nil) || !coo([]int64{0, 0, 2}, []int64{1, 2, 0}) {
		t.Error("sorted distinct COO entries not flagged Coalesced")
	}
	if coo([]int64{0, 0}, []int64{1, 1}) || coo([]int64{1, 0}, []int64{0, 2}) || coo([]int64{0, 0}, []int64{2, 1}) {
		t.Error("repeated or unordered COO entries flagged Coalesced")
	}
	csr := func(ptr, c []int64) bool {
		m, err := NewCSR(len(ptr)-1, 3, ptr, c, make([]int8, len(c)))
		if err != nil {
			t.Fatal(err)
		}
		return m.Sorted
	}
	if !csr([]int64{0, 2, 3}, []int64{0, 2, 0}) || !csr([]int64{0}, nil) {
		t.Error("sorted CSR not flagged Sorted")
	}
	if csr([]int64{0, 2, 3}, []int64{2, 0, 0}) || csr([]int64{0, 2}, []int64{1, 1}) {
		t.Error("unsorted CSR flagged Sorted")
	}
}

// randomCOO returns a rows×cols COO matrix of about nnz entries in random
// order, some of them repeating an earlier position, with values from gen.
func randomCOO[T Number](rng *rand.Rand, rows, cols, nnz int, gen func(*rand.Rand) T) *COO[T] {
	if rows == 0 || cols == 0 {
		nnz = 0
	}
	r, c := make([]int64, nnz), make([]int64, nnz)
	v := make([]T, nnz)
	for p := range nnz {
		if p > 0 && rng.IntN(4) == 0 { // a duplicate of an earlier entry
			q := rng.IntN(p)
			r[p], c[p] = r[q], c[q]
		} else {
			r[p], c[p] = rng.Int64N(int64(rows)), rng.Int64N(int64(cols))
		}
		v[p] = gen(rng)
	}
	m, err := NewCOO(rows, cols, r, c, v)
	if err != nil {
		panic(err)
	}
	return m
}

// naiveDense returns the row-major dense form of coordinate entries,
// summing repeats in storage order from +0.
func naiveDense[T Number](rows, cols int, r, c []int64, v []T) []T {
	d := make([]T, rows*cols)
	for p := range v {
		d[int(r[p])*cols+int(c[p])] += v[p]
	}
	return d
}

func denseOfCOO[T Number](m *COO[T]) []T {
	return naiveDense(m.Rows, m.Cols, m.RowIdx, m.ColIdx, m.Values)
}

func denseOfCSR[T Number](m *CSR[T]) []T {
	var r []int64
	for i := 0; i < m.Rows; i++ {
		for p := m.RowPtr[i]; p < m.RowPtr[i+1]; p++ {
			r = append(r, int64(i))
		}
	}
	return naiveDense(m.Rows, m.Cols, r, m.ColIdx, m.Values)
}

// checkCanonical fails unless m passes NewCSR and is sorted and unique.
func checkCanonical[T Number](t *testing.T, what string, m *CSR[T]) {
	t.Helper()
	again, err := NewCSR(m.Rows, m.Cols, m.RowPtr, m.ColIdx, m.Values)
	if err != nil {
		t.Fatalf("%s: invalid CSR: %v", what, err)
	}
	if !m.Sorted || !again.Sorted {
		t.Fatalf("%s: not sorted (flag %v, content %v)", what, m.Sorted, again.Sorted)
	}
}

var shapes = [][2]int{{0, 0}, {0, 5}, {5, 0}, {1, 1}, {1, 9}, {9, 1}, {7, 13}, {40, 30}, {3, 2000}}

func TestConversionsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func(r *rand.Rand) int64 { return r.Int64N(7) - 3 } // zeros and cancellations included
	for _, sh := range shapes {
		for _, nnz := range []int{0, 1, 5, sh[0] * sh[1] / 3, 2 * sh[0] * sh[1]} {
			m := randomCOO(rng, sh[0], sh[1], nnz, gen)
			want := denseOfCOO(m)

			co := m.Coalesce()
			if !co.Coalesced || !inCanonicalOrder(co.RowIdx, co.ColIdx) {
				t.Fatalf("%v nnz %d: Coalesce result not in canonical order", sh, nnz)
			}
			if !slices.Equal(denseOfCOO(co), want) {
				t.Fatalf("%v nnz %d: Coalesce changed the matrix", sh, nnz)
			}
			distinct := map[[2]int64]bool{}
			for p := range m.RowIdx {
				distinct[[2]int64{m.RowIdx[p], m.ColIdx[p]}] = true
			}
			if co.Nnz() != len(distinct) {
				t.Fatalf("%v nnz %d: Coalesce kept %d entries for %d positions (zero sums must stay)", sh, nnz, co.Nnz(), len(distinct))
			}
			if again := co.Coalesce(); !slices.Equal(again.Values, co.Values) || !slices.Equal(again.ColIdx, co.ColIdx) {
				t.Fatal("Coalesce of a coalesced matrix changed it")
			}

			csr := m.ToCSR()
			checkCanonical(t, "ToCSR", csr)
			if !slices.Equal(csr.ColIdx, co.ColIdx) || !slices.Equal(csr.Values, co.Values) {
				t.Fatalf("%v: ToCSR entries differ from Coalesce", sh)
			}
			back := csr.ToCOO()
			if !back.Coalesced || !slices.Equal(back.RowIdx, co.RowIdx) || !slices.Equal(back.ColIdx, co.ColIdx) || !slices.Equal(back.Values, co.Values) {
				t.Fatalf("%v: ToCSR then ToCOO differs from Coalesce", sh)
			}

			grouped := m.GroupRows()
			if _, err := NewCSR(grouped.Rows, grouped.Cols, grouped.RowPtr, grouped.ColIdx, grouped.Values); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(denseOfCSR(grouped), want) {
				t.Fatalf("%v: GroupRows changed the matrix", sh)
			}
			if uc := grouped.ToCOO(); uc.Coalesced != grouped.Sorted || !slices.Equal(denseOfCOO(uc), want) {
				t.Fatalf("%v: ToCOO of an uncoalesced CSR changed the matrix", sh)
			}
			can := grouped.Canonical()
			checkCanonical(t, "Canonical", can)
			if !slices.Equal(can.RowPtr, csr.RowPtr) || !slices.Equal(can.ColIdx, csr.ColIdx) || !slices.Equal(can.Values, csr.Values) {
				t.Fatalf("%v: Canonical differs from ToCSR", sh)
			}

			// ToDense fills every element, FromDense drops exactly the zeros.
			for _, view := range denseViews[int64](sh[0], sh[1]) {
				fillAll(view.Data, 99)
				csr.ToDense(view)
				checkDenseEqual(t, "CSR.ToDense", view, want)
				fillAll(view.Data, 99)
				m.ToDense(view)
				checkDenseEqual(t, "COO.ToDense", view, want)
				fd := mustFromDense(FromDense(view, 0))
				checkCanonical(t, "FromDense", fd)
				if !slices.Equal(denseOfCSR(fd), want) || slices.Contains(fd.Values, 0) {
					t.Fatalf("%v: FromDense wrong", sh)
				}
				if fc := mustFromDense(FromDenseCOO(view, 0)); !fc.Coalesced || !slices.Equal(denseOfCOO(fc), want) {
					t.Fatalf("%v: FromDenseCOO wrong", sh)
				}
			}
		}
	}
}

// TestCoalesceTallMatrix covers the comparison sort taken when rows far
// outnumber entries, and the order in which duplicates are summed.
func TestCoalesceTallMatrix(t *testing.T) {
	rows := int64(min(1<<40, math.MaxInt/2)) // 2^30 - 1 with a 32-bit int
	m, err := NewCOO(int(rows), 3, []int64{rows - 1, 5, rows - 1, 5, 0}, []int64{2, 1, 2, 0, 2},
		[]float64{1e16, 2, -1e16, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	co := m.Coalesce()
	wantR, wantC := []int64{0, 5, 5, rows - 1}, []int64{2, 0, 1, 2}
	wantV := []float64{4, 3, 2, 0} // 1e16 + -1e16 kept as an explicit zero
	if !slices.Equal(co.RowIdx, wantR) || !slices.Equal(co.ColIdx, wantC) || !slices.Equal(co.Values, wantV) {
		t.Fatalf("got %v %v %v", co.RowIdx, co.ColIdx, co.Values)
	}
	// Storage order decides the rounding of duplicate sums: 1 + 1e16 - 1e16
	// is 0 in float64, -1e16 + 1e16 + 1 is 1.
	for _, order := range []struct {
		v    []float64
		want float64
	}{{[]float64{1, 1e16, -1e16}, 0}, {[]float64{-1e16, 1e16, 1}, 1}} {
		m, _ := NewCOO(2, 2, []int64{1, 1, 1}, []int64{0, 0, 0}, order.v)
		if got := m.Coalesce().Values; len(got) != 1 || got[0] != order.want {
			t.Errorf("sum of %v = %v, want %v", order.v, got, order.want)
		}
		if got := m.GroupRows().Canonical().Values; len(got) != 1 || got[0] != order.want {
			t.Errorf("Canonical sum of %v = %v, want %v", order.v, got, order.want)
		}
	}
}

// denseViews returns empty rows×cols views of several layouts: row-major,
// column-major, negative strides and padded with a margin around, all with
// extra elements in Data outside the view.
func denseViews[T Number](rows, cols int) []Dense[T] {
	const pad = 3
	n := rows*cols + 2*pad
	padded := (cols + 2) * max(rows, 1)
	return []Dense[T]{
		{Data: make([]T, n), Off: pad, RS: cols, CS: 1, Rows: rows, Cols: cols},
		{Data: make([]T, n), Off: pad, RS: 1, CS: rows, Rows: rows, Cols: cols},
		{Data: make([]T, n), Off: pad + max(rows*cols-1, 0), RS: -cols, CS: -1, Rows: rows, Cols: cols},
		{Data: make([]T, padded+2*pad), Off: pad + 1, RS: cols + 2, CS: 1, Rows: rows, Cols: cols},
	}
}

func fillAll[T any](s []T, v T) {
	for k := range s {
		s[k] = v
	}
}

// checkDenseEqual fails unless view holds want (row-major) and every
// element of Data outside the view still holds the sentinel 99.
func checkDenseEqual[T Number](t *testing.T, what string, view Dense[T], want []T) {
	t.Helper()
	inside := map[int]bool{}
	for i := range view.Rows {
		for j := range view.Cols {
			k := view.Off + i*view.RS + j*view.CS
			inside[k] = true
			if got := view.Data[k]; got != want[i*view.Cols+j] {
				t.Fatalf("%s: (%d,%d) = %v, want %v", what, i, j, got, want[i*view.Cols+j])
			}
		}
	}
	for k, v := range view.Data {
		if !inside[k] && v != 99 {
			t.Fatalf("%s: wrote outside the view at %d", what, k)
		}
	}
}

// mustFromDense returns the matrix of a conversion that cannot fail.
func mustFromDense[M any](m M, err error) M {
	if err != nil {
		panic(err)
	}
	return m
}

// TestFromDenseBoundsItsAllocation checks that a conversion of a view that
// costs nothing (a huge dimension beside a zero one, or a broadcast) is
// refused with a SizeError before anything is allocated, instead of
// panicking in make or aborting the process, and that the empty rows of a
// zero-column matrix are not walked.
func TestFromDenseBoundsItsAllocation(t *testing.T) {
	const limit = 1 << 30
	empty := Dense[float32]{Rows: math.MaxInt/2 + 1, Cols: 0} // 2^62 (2^30 with a 32-bit int)
	if _, err := FromDense(empty, limit); !isSizeError(err) {
		t.Errorf("FromDense of 2^62×0: %v, want a SizeError", err)
	}
	if c, err := FromDenseCOO(empty, limit); err != nil || len(c.RowIdx) != 0 || c.Rows != math.MaxInt/2+1 {
		t.Errorf("FromDenseCOO of 2^62×0: %v, want an empty COO matrix", err)
	}
	ones := Dense[float64]{Data: []float64{1}, Rows: 1 << 20, Cols: 1 << 20} // every element the same one
	if _, err := FromDenseCOO(ones, limit); !isSizeError(err) {
		t.Errorf("FromDenseCOO of a broadcast 2^20×2^20: %v, want a SizeError", err)
	}
	n := uint64(math.MaxInt)
	want := n*24 + (n+1)*8 // fits a uint64 when int has 32 bits
	if math.MaxInt == math.MaxInt64 {
		want = math.MaxUint64 // saturated
	}
	if got := Bytes(math.MaxInt, math.MaxInt, 16, true); got != want {
		t.Errorf("Bytes(MaxInt, MaxInt, 16, csr) = %d, want %d", got, want)
	}
	if c, err := FromDense(Dense[float64]{Rows: 1000, Cols: 0}, limit); err != nil || len(c.RowPtr) != 1001 {
		t.Errorf("FromDense of 1000×0: %v", err)
	}
}

func isSizeError(err error) bool {
	var se *SizeError
	return errors.As(err, &se)
}

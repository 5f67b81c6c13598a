package tensor

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"
)

// arangeShaped returns 0, 1, 2, ... as an int64 tensor of the given shape.
func arangeShaped(t *testing.T, s ...int) *Tensor {
	t.Helper()
	n := 1
	for _, d := range s {
		n *= d
	}
	return Must(Must(Arange(n, Int64)).Reshape(s...))
}

// sameStorage reports whether two tensors are views of the same memory.
func sameStorage(a, b *Tensor) bool { return a.storage == b.storage }

// TestSliceGolden checks every combination of bounds and steps of
// testdata/slice_golden.json, written by Python itself.
func TestSliceGolden(t *testing.T) {
	raw, err := os.ReadFile("testdata/slice_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases [][]json.RawMessage
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	opt := func(m json.RawMessage) *int {
		var p *int
		if err := json.Unmarshal(m, &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range cases {
		var n int
		var want []int64
		json.Unmarshal(c[0], &n)
		json.Unmarshal(c[4], &want)
		start, stop, step := opt(c[1]), opt(c[2]), opt(c[3])
		var r Range
		switch {
		case start != nil && stop != nil:
			r = Span(*start, *stop)
		case start != nil:
			r = From(*start)
		case stop != nil:
			r = Until(*stop)
		default:
			r = All()
		}
		if step != nil {
			r = r.By(*step)
		}
		x := Must(Arange(n, Int64))
		v, err := x.Slice(r)
		if err != nil {
			t.Fatalf("n=%d [%v]: %v", n, r, err)
		}
		got := mustSlice[int64](t, v)
		if len(want) == 0 && len(got) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("n=%d [%v] = %v, want %v", n, r, got, want)
		}
	}
}

func TestSliceMultiDim(t *testing.T) {
	x := arangeShaped(t, 2, 3, 4)
	v := Must(x.Slice(Index(-1), All().By(-1), Span(1, 3)))
	checkMeta(t, v, Int64, 3, 2)
	if !sameStorage(v, x) {
		t.Error("Slice copied")
	}
	for i := range 3 {
		for j := range 2 {
			got, _ := v.At(i, j)
			want, _ := x.At(1, 2-i, 1+j)
			if got != want {
				t.Errorf("v[%d,%d] = %v, want %v", i, j, got, want)
			}
		}
	}
	// Fewer ranges than dimensions keep the rest whole; all Index gives 0-d.
	checkMeta(t, Must(x.Slice(From(1))), Int64, 1, 3, 4)
	s := Must(x.Slice(Index(1), Index(2), Index(3)))
	checkMeta(t, s, Int64)
	if got, _ := s.Item(); got != int64(23) {
		t.Errorf("x[1,2,3] = %v", got)
	}
	// A slice of a slice composes offsets and strides.
	w := Must(Must(x.Slice(All(), All().By(-1), All().By(-2))).Slice(Span(1, 2), From(1)))
	checkMeta(t, w, Int64, 1, 2, 2)
	if got := mustSlice[int64](t, w); !reflect.DeepEqual(got, []int64{19, 17, 15, 13}) {
		t.Errorf("composed slice %v", got)
	}
	// An empty selection is a valid empty view.
	checkMeta(t, Must(x.Slice(Span(2, 1))), Int64, 0, 3, 4)
}

func TestSliceErrors(t *testing.T) {
	x := arangeShaped(t, 2, 3)
	cases := []struct {
		r    []Range
		want error
	}{
		{[]Range{All(), All(), All()}, ErrIndex},
		{[]Range{Index(2)}, ErrIndex},
		{[]Range{All(), Index(-4)}, ErrIndex},
		{[]Range{All().By(0)}, ErrValue},
	}
	for _, c := range cases {
		if _, err := x.Slice(c.r...); !errors.Is(err, c.want) {
			t.Errorf("Slice(%v) error %v, want %v", c.r, err, c.want)
		}
	}
}

func TestRangeString(t *testing.T) {
	cases := map[string]Range{
		":": All(), "1:3": Span(1, 3), "2:": From(2), ":-1": Until(-1), "-2": Index(-2),
		"::-1": All().By(-1), "5:1:-2": Span(5, 1).By(-2), "::0": All().By(0),
	}
	for want, r := range cases {
		if got := r.String(); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
}

func TestReshape(t *testing.T) {
	x := arangeShaped(t, 2, 3, 4)
	r := Must(x.Reshape(4, -1))
	checkMeta(t, r, Int64, 4, 6)
	if !sameStorage(r, x) {
		t.Error("reshaping a contiguous tensor copied")
	}
	if got, _ := r.At(3, 5); got != int64(23) {
		t.Errorf("r[3,5] = %v", got)
	}
	checkMeta(t, Must(Must(Arange(1)).Reshape()), Int32) // no dimensions: 0-d
	checkMeta(t, Must(Must(Full(1, Int8)).Reshape(1, 1, -1)), Int8, 1, 1, 1)
	checkMeta(t, Must(Must(Zeros(Int8, 0, 3)).Reshape(3, -1)), Int8, 3, 0)
	if _, err := Must(Zeros(Int8, 0, 3)).Reshape(-1, 5, 0); !errors.Is(err, ErrShape) {
		t.Errorf("ambiguous -1 with a zero dimension: %v", err)
	}

	for _, s := range [][]int{{}, {5, -1}, {-1, -1}, {-2, 12}, {25}, {0, -1}, {hugeInt, hugeInt}} {
		if _, err := x.Reshape(s...); !errors.Is(err, ErrShape) {
			t.Errorf("Reshape(%v) error %v, want ErrShape", s, err)
		}
	}

	// A transposed matrix cannot be flattened without a copy, but it can
	// gain and lose unit dimensions and split its outer dimension.
	m := arangeShaped(t, 3, 4).Transpose()
	flat := Must(m.Reshape(-1))
	if sameStorage(flat, m) {
		t.Error("flattening a transpose did not copy")
	}
	if got := mustSlice[int64](t, flat); !reflect.DeepEqual(got, []int64{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}) {
		t.Errorf("flattened transpose %v", got)
	}
	for _, s := range [][]int{{1, 4, 1, 3}, {2, 2, 3}, {4, 3, 1}} {
		v := Must(m.Reshape(s...))
		if !sameStorage(v, m) {
			t.Errorf("Reshape%v of a transpose copied", s)
		}
		if !reflect.DeepEqual(mustSlice[int64](t, v), mustSlice[int64](t, m)) {
			t.Errorf("Reshape%v of a transpose changed the order", s)
		}
	}
	// Every other column is evenly spaced in memory: it flattens as a view.
	// The first half of each row is not: it can only split its rows.
	even := Must(arangeShaped(t, 4, 6).Slice(All(), All().By(2)))
	if v := Must(even.Reshape(12)); !sameStorage(v, even) {
		t.Error("flattening evenly strided columns copied")
	}
	half := Must(arangeShaped(t, 4, 6).Slice(All(), Until(3)))
	if v := Must(half.Reshape(2, 2, 3)); !sameStorage(v, half) {
		t.Error("splitting rows of a sliced view copied")
	}
	if v := Must(half.Reshape(12)); sameStorage(v, half) {
		t.Error("merging unevenly laid out columns did not copy")
	}
}

// TestReshapeRandomViews reshapes random views (permuted, reversed,
// strided, broadcast) into random shapes of the same size: the elements in
// row-major order must never change, view or copy.
func TestReshapeRandomViews(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	views := 0
	for range 2000 {
		rank := 1 + rng.IntN(4)
		s := make([]int, rank)
		for i := range s {
			s[i] = 1 + rng.IntN(4)
		}
		x := arangeShaped(t, s...)
		x = Must(x.Permute(rng.Perm(rank)...))
		ranges := make([]Range, rank)
		for i := range ranges {
			switch rng.IntN(4) {
			case 0:
				ranges[i] = All().By(-1)
			case 1:
				ranges[i] = From(rng.IntN(2)).By(1 + rng.IntN(2))
			default:
				ranges[i] = All()
			}
		}
		x = Must(x.Slice(ranges...))
		if rng.IntN(4) == 0 {
			x = Must(x.BroadcastTo(append([]int{2}, x.Shape()...)...))
		}
		want := mustSlice[int64](t, x)
		target := randomFactorisation(rng, len(want))
		r, err := x.Reshape(target...)
		if err != nil {
			t.Fatalf("Reshape %v (strides %v) to %v: %v", x.Shape(), x.Strides(), target, err)
		}
		if sameStorage(r, x) {
			views++
		}
		if got := mustSlice[int64](t, r); !reflect.DeepEqual(got, want) {
			t.Fatalf("Reshape %v (strides %v) to %v: %v, want %v", x.Shape(), x.Strides(), target, got, want)
		}
	}
	if views < 500 {
		t.Errorf("only %d of 2000 reshapes were views", views)
	}
}

// randomFactorisation returns a random shape with n elements, with unit
// dimensions sprinkled in.
func randomFactorisation(rng *rand.Rand, n int) []int {
	var s []int
	for n > 1 {
		d := 2 + rng.IntN(n-1)
		for n%d != 0 {
			d--
		}
		if d == 1 {
			d = n
		}
		s = append(s, d)
		n /= d
		if rng.IntN(4) == 0 {
			s = append(s, 1)
		}
	}
	if n == 0 {
		s = append(s, 0)
	}
	rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	return s
}

func TestTransposePermuteMT(t *testing.T) {
	x := arangeShaped(t, 2, 3, 4)
	tr := x.Transpose()
	checkMeta(t, tr, Int64, 4, 3, 2)
	p := Must(x.Permute(1, -1, 0))
	checkMeta(t, p, Int64, 3, 4, 2)
	mt := Must(x.MT())
	checkMeta(t, mt, Int64, 2, 4, 3)
	for i := range 2 {
		for j := range 3 {
			for k := range 4 {
				want, _ := x.At(i, j, k)
				a, _ := tr.At(k, j, i)
				b, _ := p.At(j, k, i)
				c, _ := mt.At(i, k, j)
				if a != want || b != want || c != want {
					t.Fatalf("[%d,%d,%d]: transpose %v permute %v mT %v, want %v", i, j, k, a, b, c, want)
				}
			}
		}
	}
	if !sameStorage(tr, x) || !sameStorage(p, x) || !sameStorage(mt, x) {
		t.Error("a transpose copied")
	}
	checkMeta(t, Must(Arange(3)).Transpose(), Int32, 3)
	for _, axes := range [][]int{{0, 1}, {0, 1, 1}, {0, 1, 3}, {0, 1, -4}, {0, 1, 2, 3}} {
		if _, err := x.Permute(axes...); !errors.Is(err, ErrAxis) {
			t.Errorf("Permute(%v) error %v, want ErrAxis", axes, err)
		}
	}
	if _, err := Must(Arange(3)).MT(); !errors.Is(err, ErrAxis) {
		t.Errorf("MT of 1-d: %v", err)
	}
}

func TestBroadcastTo(t *testing.T) {
	x := arangeShaped(t, 3, 1)
	b := Must(x.BroadcastTo(2, 3, 4))
	checkMeta(t, b, Int64, 2, 3, 4)
	if !reflect.DeepEqual(b.Strides(), []int{0, 1, 0}) {
		t.Errorf("strides %v", b.Strides())
	}
	want := []int64{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}
	if got := mustSlice[int64](t, b); !reflect.DeepEqual(got, append(want, want...)) {
		t.Errorf("values %v", got)
	}
	checkMeta(t, Must(Must(Full(2.5, Float64)).BroadcastTo(0, 2)), Float64, 0, 2)
	for _, s := range [][]int{{3}, {2, 2}, {2, 4}, {-1, 3, 1}} {
		if _, err := x.BroadcastTo(s...); !errors.Is(err, ErrShape) {
			t.Errorf("BroadcastTo(%v) error %v, want ErrShape", s, err)
		}
	}
}

func TestContiguousClone(t *testing.T) {
	x := arangeShaped(t, 3, 4)
	if c := Must(x.Contiguous()); c != x {
		t.Error("Contiguous of a contiguous tensor is not the tensor itself")
	}
	tr := x.Transpose()
	c := Must(tr.Contiguous())
	if sameStorage(c, tr) || !c.IsContiguous() {
		t.Error("Contiguous of a transpose did not copy")
	}
	if !reflect.DeepEqual(mustSlice[int64](t, c), mustSlice[int64](t, tr)) {
		t.Error("Contiguous changed the elements")
	}
	k := Must(x.Clone())
	if sameStorage(k, x) {
		t.Fatal("Clone shares storage")
	}
	storageOf[int64](k)[0] = 100
	if v, _ := x.At(0, 0); v != int64(0) {
		t.Error("writing to a clone changed the original")
	}
	// Every dtype's element size goes through the copy.
	for _, dt := range []DType{Bool, Int8, Int16, Float16, Int32, Float32, Int64, Complex64, Complex128} {
		r := Must(Rand(5, dt, 0, 9, 3, 5))
		want := r.String()
		cc := Must(r.Transpose().Clone())
		if got := cc.Transpose().String(); got != want {
			t.Errorf("%v: clone of the transpose, transposed back, prints %s, want %s", dt, got, want)
		}
	}
}

func TestSqueezeExpandDims(t *testing.T) {
	x := arangeShaped(t, 1, 3, 1, 2)
	checkMeta(t, Must(x.Squeeze()), Int64, 3, 2)
	checkMeta(t, Must(x.Squeeze(0)), Int64, 3, 1, 2)
	checkMeta(t, Must(x.Squeeze(-2, 0)), Int64, 3, 2)
	s := Must(x.Squeeze())
	if !sameStorage(s, x) || !reflect.DeepEqual(mustSlice[int64](t, s), mustSlice[int64](t, x)) {
		t.Error("Squeeze changed the elements or copied")
	}
	for _, c := range []struct {
		axes []int
		want error
	}{{[]int{1}, ErrShape}, {[]int{4}, ErrAxis}, {[]int{0, 0}, ErrAxis}, {[]int{-5}, ErrAxis}} {
		if _, err := x.Squeeze(c.axes...); !errors.Is(err, c.want) {
			t.Errorf("Squeeze(%v) error %v, want %v", c.axes, err, c.want)
		}
	}

	y := arangeShaped(t, 2, 3)
	for _, c := range []struct {
		axis int
		want []int
	}{{0, []int{1, 2, 3}}, {1, []int{2, 1, 3}}, {2, []int{2, 3, 1}}, {-1, []int{2, 3, 1}}, {-3, []int{1, 2, 3}}} {
		e := Must(y.ExpandDims(c.axis))
		checkMeta(t, e, Int64, c.want...)
		if !e.IsContiguous() || !sameStorage(e, y) {
			t.Errorf("ExpandDims(%d) is not a contiguous view", c.axis)
		}
		if !reflect.DeepEqual(mustSlice[int64](t, e), mustSlice[int64](t, y)) {
			t.Errorf("ExpandDims(%d) changed the elements", c.axis)
		}
	}
	for _, axis := range []int{3, -4} {
		if _, err := y.ExpandDims(axis); !errors.Is(err, ErrAxis) {
			t.Errorf("ExpandDims(%d) error %v, want ErrAxis", axis, err)
		}
	}
	checkMeta(t, Must(Must(Full(1, Int8)).ExpandDims(0)), Int8, 1)
}

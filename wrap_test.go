package tensor

import (
	"errors"
	"slices"
	"testing"
	"unsafe"
)

func TestWrapSharesTheSlice(t *testing.T) {
	data := []float32{1, 2, 3, 4, 5, 6}
	x := Must(Wrap(data, 2, 3))
	if x.DType() != Float32 || !slices.Equal(x.Shape(), []int{2, 3}) || !x.IsContiguous() {
		t.Fatalf("Wrap gave %v %v", x.DType(), x.Shape())
	}
	data[4] = 50 // a write by the caller is seen by the tensor
	if v, _ := Get[float32](x, 1, 1); v != 50 {
		t.Fatalf("x[1,1] = %v after data[4] = 50", v)
	}
	if err := MulInto(x, x, 2); err != nil { // and a write by the tensor by the caller
		t.Fatal(err)
	}
	if want := []float32{2, 4, 6, 8, 100, 12}; !slices.Equal(data, want) {
		t.Fatalf("data after x *= 2 = %v, want %v", data, want)
	}
	if v := Must(Wrap([]int{7, 8})); v.DType() != dtypeOf[int]() {
		t.Fatalf("Wrap([]int) is %v", v.DType())
	}
	if e := Must(Wrap([]float64{}, 0, 3)); e.Size() != 0 {
		t.Fatalf("empty Wrap has size %d", e.Size())
	}
}

func TestWrapErrors(t *testing.T) {
	for _, s := range [][]int{{4}, {2, 2}, {-1, -3}, {hugeInt, hugeInt}} {
		if _, err := Wrap([]int8{1, 2, 3}, s...); !errors.Is(err, ErrShape) {
			t.Errorf("Wrap(3 elements, %v) = %v, want ErrShape", s, err)
		}
	}
}

// TestWrapReleaseKeepsTheSlice checks that Release of a wrapped tensor
// leaves the caller's memory out of the pool: the next results of the same
// size never land in it.
func TestWrapReleaseKeepsTheSlice(t *testing.T) {
	data := make([]float64, 64<<10)
	for i := range data {
		data[i] = float64(i)
	}
	x := Must(Wrap(data))
	x.Release()
	for range 4 {
		y := Must(Mul(Must(Ones(Float64, len(data))), 3.0))
		if &Must2(Elements[float64](y))[0] == &data[0] {
			t.Fatal("a result was computed into a released wrapped slice")
		}
		y.Release()
	}
	if data[5] != 5 {
		t.Fatalf("data[5] = %v after Release", data[5])
	}
}

// TestElementsKeepsReleaseAway checks that Release does not recycle a
// buffer whose elements the caller holds through Elements.
func TestElementsKeepsReleaseAway(t *testing.T) {
	a := Must(Full(2.0, Float64, 64<<10))
	y := Must(Mul(a, a))
	e := Must2(Elements[float64](y))
	y.Release()
	for range 4 {
		z := Must(Mul(a, 5.0))
		if z.storage == unsafePointerOf(e) {
			t.Fatal("a result reused the buffer the caller holds through Elements")
		}
		z.Release()
	}
	if e[0] != 4 {
		t.Fatalf("e[0] = %v after Release", e[0])
	}
}

// TestWrappedOverlapIsDetected checks that two wrapped, overlapping parts of
// one Go array are recognised as sharing memory, so that an output written
// while its operand is read goes through a temporary.
func TestWrappedOverlapIsDetected(t *testing.T) {
	data := []int32{1, 2, 3, 4, 5, 6, 7, 8}
	lo, hi := Must(Wrap(data[:6])), Must(Wrap(data[2:]))
	if err := MulInto(hi, lo, 10); err != nil { // hi[i] = 10 * lo[i]
		t.Fatal(err)
	}
	if want := []int32{1, 2, 10, 20, 30, 40, 50, 60}; !slices.Equal(data, want) {
		t.Fatalf("shifted product = %v, want %v", data, want)
	}
	data = []int32{1, 2, 3, 4, 5, 6, 7, 8}
	lo, hi = Must(Wrap(data[:6])), Must(Wrap(data[2:]))
	if err := Copy(lo, hi); err != nil {
		t.Fatal(err)
	}
	if want := []int32{3, 4, 5, 6, 7, 8, 7, 8}; !slices.Equal(data, want) {
		t.Fatalf("shifted copy = %v, want %v", data, want)
	}
	data = []int32{1, 2, 3, 4, 5, 6, 7, 8}
	a, b := Must(Wrap(data[:4], 2, 2)), Must(Wrap(data[2:6], 2, 2))
	if err := MatmulInto(b, a, a); err != nil {
		t.Fatal(err)
	}
	if want := []int32{1, 2, 7, 10, 15, 22, 7, 8}; !slices.Equal(data, want) {
		t.Fatalf("overlapping matmul = %v, want %v", data, want)
	}
	if sharesStorage(Must(Wrap(data[:4])), Must(Wrap(data[4:]))) {
		t.Fatal("adjacent halves of one array reported as sharing memory")
	}
}

// Must2 is Must for the generic accessors.
func Must2[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func unsafePointerOf[T any](s []T) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s)) }

func TestWrapStrided(t *testing.T) {
	// A 2×3 block of a 3×5 row-major matrix, starting at (1, 1).
	data := make([]float64, 15)
	for i := range data {
		data[i] = float64(i)
	}
	x, err := WrapStrided(data, 6, []int{2, 3}, []int{5, 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := floats(t, x); !slices.Equal(got, []float64{6, 7, 8, 11, 12, 13}) {
		t.Fatalf("block = %v", got)
	}
	if err := MulInto(x, x, -1.0); err != nil {
		t.Fatal(err)
	}
	if data[5] != 5 || data[6] != -6 || data[13] != -13 || data[14] != 14 {
		t.Fatalf("writing the block wrote %v", data)
	}
	back, strides, err := StridedElements[float64](x)
	if err != nil || &back[0] != &data[6] || len(back) != 8 || !slices.Equal(strides, []int{5, 1}) {
		t.Fatalf("StridedElements = %v %v %v", back, strides, err)
	}
	if _, _, err := StridedElements[float64](Must(x.Slice(All().By(-1)))); !errors.Is(err, ErrLayout) {
		t.Errorf("StridedElements of a reversed view: %v", err)
	}
	if _, _, err := StridedElements[float32](x); !errors.Is(err, ErrDType) {
		t.Errorf("StridedElements[float32] of float64: %v", err)
	}
	// Column-major and unit dimensions are fine.
	if c, err := WrapStrided(data[:6], 0, []int{2, 1, 3}, []int{1, 99, 2}); err != nil || c.Size() != 6 {
		t.Errorf("column-major: %v", err)
	}
	for _, c := range []struct {
		offset         int
		shape, strides []int
	}{
		{0, []int{3, 5}, []int{5}},     // stride count
		{0, []int{3, 6}, []int{5, 1}},  // rows overlap
		{0, []int{3, 3}, []int{1, 1}},  // overlap
		{0, []int{3, 3}, []int{0, 1}},  // broadcast
		{0, []int{3, 3}, []int{-5, 1}}, // reversed
		{11, []int{2, 3}, []int{5, 1}}, // past the end
		{-1, []int{2, 3}, []int{5, 1}}, // before the start
		{0, []int{2, 2}, []int{hugeInt, 1}},
	} {
		if _, err := WrapStrided(data, c.offset, c.shape, c.strides); !errors.Is(err, ErrShape) {
			t.Errorf("WrapStrided(offset %d, %v, %v) = %v, want ErrShape", c.offset, c.shape, c.strides, err)
		}
	}
	if e, err := WrapStrided([]int8{}, 0, []int{0, 4}, []int{4, 1}); err != nil || e.Size() != 0 {
		t.Errorf("empty WrapStrided: %v", err)
	}
}

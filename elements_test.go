package tensor

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestElementsInPlace(t *testing.T) {
	x := arangeShaped(t, 2, 3)
	e, err := Elements[int64](x)
	if err != nil || !slices.Equal(e, []int64{0, 1, 2, 3, 4, 5}) {
		t.Fatalf("Elements = %v, %v", e, err)
	}
	e[1] = 10
	if v, _ := x.At(0, 1); v != int64(10) {
		t.Fatalf("x[0,1] = %v after writing the slice", v)
	}
	row := Must(x.Slice(Index(1)))
	if e, _ := Elements[int64](row); !slices.Equal(e, []int64{3, 4, 5}) {
		t.Fatalf("Elements of row 1 = %v", e)
	}
	col := Must(x.Slice(All(), Index(2)))
	_, err = Elements[int64](col)
	if !errors.Is(err, ErrLayout) || !strings.Contains(err.Error(), "elements") || !strings.Contains(err.Error(), "strides (3,)") {
		t.Fatalf("Elements of a column: %v", err)
	}
	if _, err := Elements[int64](x.Transpose()); !errors.Is(err, ErrLayout) {
		t.Fatalf("Elements of a transpose: %v", err)
	}
	if _, err := Elements[float64](x); !errors.Is(err, ErrDType) {
		t.Fatalf("Elements[float64] of int64: %v", err)
	}
	if e, err := Elements[int64](Must(Zeros(Int64, 0, 4))); err != nil || len(e) != 0 {
		t.Fatalf("Elements of an empty tensor = %v, %v", e, err)
	}
}

func TestGetSet(t *testing.T) {
	x := Must(Zeros(Float32, 2, 3))
	xt := x.Transpose()
	for _, c := range []struct {
		idx []int
		v   float32
	}{{[]int{0, 0}, 1.5}, {[]int{2, 1}, -2}, {[]int{-1, -2}, 7}} {
		if err := Set(xt, c.v, c.idx...); err != nil {
			t.Fatal(err)
		}
		if got, err := Get[float32](xt, c.idx...); err != nil || got != c.v {
			t.Fatalf("Get%v = %v, %v, want %v", c.idx, got, err, c.v)
		}
	}
	if got := asFloats(t, x); !slices.Equal(got, []float64{1.5, 0, 7, 0, 0, -2}) {
		t.Fatalf("x after Set through its transpose = %v", got)
	}
	// Other Go numbers convert as weak scalars.
	if err := Set(x, 0.1, 0, 0); err != nil {
		t.Fatal(err)
	}
	if got, _ := Get[float32](x, 0, 0); got != float32(0.1) {
		t.Fatalf("Set(float64 0.1) stored %v", got)
	}
	if err := Set(x, 3, 0, 1); err != nil {
		t.Fatal(err)
	}
	if got, _ := Get[float32](x, 0, 1); got != 3 {
		t.Fatalf("Set(int 3) stored %v", got)
	}
	u := Must(Zeros(Uint8, 2))
	for _, c := range []struct {
		v    any
		want error
	}{{300, ErrValue}, {-1, ErrValue}, {1.5, ErrDType}, {1i, ErrDType}} {
		var err error
		switch v := c.v.(type) {
		case int:
			err = Set(u, v, 0)
		case float64:
			err = Set(u, v, 0)
		case complex128:
			err = Set(u, v, 0)
		}
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), "set") {
			t.Errorf("Set(uint8, %v) = %v, want %v", c.v, err, c.want)
		}
	}
	for _, idx := range [][]int{{}, {2}, {0, 0}, {-3}} {
		if _, err := Get[uint8](u, idx...); !errors.Is(err, ErrIndex) {
			t.Errorf("Get%v = %v, want ErrIndex", idx, err)
		}
		if err := Set(u, uint8(1), idx...); !errors.Is(err, ErrIndex) {
			t.Errorf("Set%v = %v, want ErrIndex", idx, err)
		}
	}
	if _, err := Get[int8](u, 0); !errors.Is(err, ErrDType) {
		t.Errorf("Get[int8] of uint8: %v", err)
	}
	b := Must(Must(Zeros(Uint8, 3)).BroadcastTo(2, 3))
	if err := Set(b, uint8(1), 0, 0); !errors.Is(err, ErrLayout) {
		t.Errorf("Set into a broadcast view: %v", err)
	}
	s := Must(Must(Zeros(Float64, 2, 2)).ToSparseCOO())
	if _, err := Get[float64](s, 0, 0); !errors.Is(err, ErrLayout) {
		t.Errorf("Get of a sparse tensor: %v", err)
	}
	z := ScalarOf(complex64(2 + 1i))
	if got, err := Get[complex64](z); err != nil || got != 2+1i {
		t.Errorf("Get of a 0-d tensor = %v, %v", got, err)
	}
}

func TestEachInIndexOrder(t *testing.T) {
	x := arangeShaped(t, 2, 3, 4)
	views := []*Tensor{
		x,
		Must(x.Permute(2, 0, 1)),
		Must(x.Slice(All(), All().By(-2), Span(1, 4).By(2))),
		Must(Must(x.Slice(Index(0), Index(0))).BroadcastTo(3, 2, 4)),
		Must(Zeros(Int64, 3, 0)),
		ScalarOf(int64(9)),
	}
	for _, v := range views {
		want := Must2(ToSlice[int64](v))
		seq, err := Each[int64](v)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for i, e := range seq {
			if i != len(got) {
				t.Fatalf("Each yielded position %d after %d elements", i, len(got))
			}
			got = append(got, e)
		}
		if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("Each of %v strides %v = %v, want %v", v.Shape(), v.Strides(), got, want)
		}
		// Stopping early stops.
		n := 0
		for range seq {
			if n++; n == 2 {
				break
			}
		}
		if n != min(2, len(want)) {
			t.Errorf("Each did not stop at break: %d", n)
		}
	}
	if _, err := Each[float32](x); !errors.Is(err, ErrDType) {
		t.Errorf("Each[float32] of int64: %v", err)
	}
	f := Must(FromSlice([]float64{1, math.NaN()}))
	seq, _ := Each[float64](f)
	for i, v := range seq {
		if i == 1 && !math.IsNaN(v) {
			t.Errorf("Each[1] = %v", v)
		}
	}
}

func TestCopy(t *testing.T) {
	x := Must(Zeros(Float32, 3, 4))
	// A broadcast row into a strided view.
	view := Must(x.Slice(All().By(2), Span(1, 4)))
	if err := Copy(view, []float64{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	want := []float64{0, 1, 2, 3, 0, 0, 0, 0, 0, 1, 2, 3}
	if got := asFloats(t, x); !slices.Equal(got, want) {
		t.Fatalf("x after Copy of a row into rows 0, 2 = %v", got)
	}
	// A scalar into a column of the transpose.
	if err := Copy(Must(x.Transpose().Slice(Index(0))), 9); err != nil {
		t.Fatal(err)
	}
	want[0], want[4], want[8] = 9, 9, 9
	if got := asFloats(t, x); !slices.Equal(got, want) {
		t.Fatalf("x after Copy of 9 into column 0 = %v", got)
	}
	// Out into a Go slice, with the source's shape.
	out := make([]float64, 12)
	if err := Copy(out, x); err != nil || !slices.Equal(out, want) {
		t.Fatalf("Copy into []float64 = %v, %v", out, err)
	}
	// int64 into int8 wraps, as MulInto's results do.
	i8 := Must(Zeros(Int8, 2))
	if err := Copy(i8, Must(FromSlice([]int64{300, -1}))); err != nil {
		t.Fatal(err)
	}
	if got := asFloats(t, i8); !slices.Equal(got, []float64{44, -1}) {
		t.Fatalf("int64 into int8 = %v", got)
	}
	// In place through an overlapping view: reversed onto itself.
	r := Must(FromSlice([]int32{1, 2, 3, 4}))
	if err := Copy(r, Must(r.Slice(All().By(-1)))); err != nil {
		t.Fatal(err)
	}
	if got := asFloats(t, r); !slices.Equal(got, []float64{4, 3, 2, 1}) {
		t.Fatalf("reversed in place = %v", got)
	}
	errs := []struct {
		dst, src any
		want     error
	}{
		{i8, 1.5, ErrDType},
		{i8, Must(Zeros(Float32, 2)), ErrDType},
		{x, Must(Zeros(Complex64, 4)), ErrDType},
		{i8, 300, ErrValue},
		{x, Must(Zeros(Float32, 3)), ErrShape},
		{x, Must(Zeros(Float32, 2, 3, 4)), ErrShape},
		{Must(Must(Zeros(Float32, 4)).BroadcastTo(3, 4)), 1, ErrLayout},
		{Must(Must(Zeros(Float64, 2, 2)).ToSparseCOO()), 1, ErrLayout},
		{x, "1", ErrDType},
		{[]string{"a"}, 1, ErrDType},
		{(*Tensor)(nil), 1, ErrValue},
	}
	for _, c := range errs {
		if err := Copy(c.dst, c.src); !errors.Is(err, c.want) || !strings.HasPrefix(err.Error(), "tensor: copy: ") {
			t.Errorf("Copy(%T, %T) = %v, want %v", c.dst, c.src, err, c.want)
		}
	}
}

// asFloats returns the elements of any real tensor as float64s.
func asFloats(t *testing.T, x *Tensor) []float64 {
	t.Helper()
	return floats(t, Must(x.AsType(Float64)))
}

// The typed accessors against At, which boxes every element in an any
// (issue 19 measured 142 ms for a loop over 1M elements with At).
func BenchmarkElementAccess(b *testing.B) {
	x := Must(Rand(1, Float32, 0, 1, 1000, 1000))
	b.Run("At", func(b *testing.B) {
		for b.Loop() {
			var s float32
			for i := range 1000 {
				for j := range 1000 {
					v, _ := x.At(i, j)
					s += v.(float32)
				}
			}
			_ = s
		}
	})
	b.Run("Get", func(b *testing.B) {
		for b.Loop() {
			var s float32
			for i := range 1000 {
				for j := range 1000 {
					v, _ := Get[float32](x, i, j)
					s += v
				}
			}
			_ = s
		}
	})
	b.Run("Each", func(b *testing.B) {
		for b.Loop() {
			var s float32
			seq, _ := Each[float32](x)
			for _, v := range seq {
				s += v
			}
			_ = s
		}
	})
}

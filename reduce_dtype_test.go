package tensor

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tensor-go/tensor/dtype"
)

// TestWithDType: the Array API's result dtype for Prod and Sum: the result
// has that dtype, is accumulated in it (exact int64 factorials, float32
// sums not rounded to float32), lower kinds are refused.
func TestWithDType(t *testing.T) {
	x := Must(ArangeRange(1, 21, 1, Int32)) // 1..20
	got := Must(Prod(x, WithDType(Int64)))
	if got.dtype != Int64 || contiguousData[int64](got)[0] != 2432902008176640000 {
		t.Errorf("prod(arange(1, 21), dtype=int64) = %v", got)
	}
	if g := contiguousData[int32](Must(Prod(x)))[0]; g != -2102132736 {
		t.Errorf("int32 20! wraps to %d, want -2102132736", g)
	}
	// int8 into int64: accumulated in int64, not wrapped in int32.
	x8 := Must(FromSlice(slices.Repeat([]int8{100}, 6)))
	if g := contiguousData[int64](Must(Prod(x8, WithDType(Int64))))[0]; g != 1e12 {
		t.Errorf("int8 100^6 in int64 = %d", g)
	}
	if g := contiguousData[int64](Must(Sum(x8, WithDType(Int64))))[0]; g != 600 {
		t.Errorf("int8 sum in int64 = %d", g)
	}
	// float32 summed in float64 and returned unrounded.
	f := Must(FromSlice([]float32{1, 0x1p-30, 0x1p-30}))
	s := Must(Sum(f, WithDType(Float64)))
	if s.dtype != Float64 || contiguousData[float64](s)[0] != 1+0x1p-29 {
		t.Errorf("float32 sum as float64 = %v", s)
	}
	if g := contiguousData[float32](Must(Sum(f)))[0]; g != 1 {
		t.Errorf("float32 sum = %v, want 1 (rounded)", g)
	}
	p := Must(Prod(Must(FromSlice([]float32{3, 1.0 / 3})), WithDType(Float64)))
	if p.dtype != Float64 || contiguousData[float64](p)[0] != float64(float32(1.0/3))*3 {
		t.Errorf("float32 prod as float64 = %v", p)
	}
	// Same kind, narrower: float64 converted to float32 first; float16
	// input into float32 keeps the float32 accumulator unrounded.
	d := Must(FromSlice([]float64{1, 1e-10}))
	if g := Must(Sum(d, WithDType(Float32))); g.dtype != Float32 || contiguousData[float32](g)[0] != 1 {
		t.Errorf("float64 sum as float32 = %v", g)
	}
	h := mpFromFloat64s(Float16, []float64{2048, 1})
	if g := Must(Sum(h, WithDType(Float32))); g.dtype != Float32 || mpFloatAt(g, 0) != 2049 {
		t.Errorf("float16 sum as float32 = %v", g)
	}
	// Higher kinds: int into float and complex; bool into bool.
	if g := Must(Sum(x, WithDType(Complex128))); g.dtype != Complex128 || contiguousData[complex128](g)[0] != 210 {
		t.Errorf("int32 sum as complex128 = %v", g)
	}
	b := Must(FromSlice([]bool{true, false, true}))
	if g := Must(Sum(b, WithDType(Bool))); g.dtype != Bool || !contiguousData[bool](g)[0] {
		t.Errorf("bool sum as bool = %v", g)
	}
	if g := Must(Prod(b, WithDType(Bool))); g.dtype != Bool || contiguousData[bool](g)[0] {
		t.Errorf("bool prod as bool = %v", g)
	}
	// Axes, keepdims and the into-form with a dtype.
	m := Must(FromSlice([]int16{300, 300, 300, 2, 3, 4}, 2, 3))
	g := Must(Prod(m, Axis(1), KeepDims(true), WithDType(Int64)))
	if g.dtype != Int64 || !slices.Equal(g.shape, []int{2, 1}) || !slices.Equal(contiguousData[int64](g), []int64{27000000, 24}) {
		t.Errorf("int16 prod over axis 1 as int64 = %v", g)
	}
	out := Must(Zeros(Float64, 3))
	if err := SumInto(out, m, Axis(0), WithDType(Int64)); err != nil || !slices.Equal(contiguousData[float64](out), []float64{302, 303, 304}) {
		t.Errorf("SumInto float64 with int64 dtype: %v %v", out, err)
	}
	if err := SumInto(Must(Zeros(Int32, 3)), Must(FromSlice([]float32{1, 2, 3}, 1, 3)), Axis(0), WithDType(Float64)); !errors.Is(err, ErrDType) {
		t.Errorf("float64 result into int32: %v", err)
	}
	// Lower kinds are an ErrDType naming the operation.
	for _, c := range []struct {
		name string
		f    func() error
	}{
		{"prod", func() error { _, err := Prod(f, WithDType(Int64)); return err }},
		{"sum", func() error { _, err := Sum(Must(FromSlice([]complex64{1})), WithDType(Float64)); return err }},
		{"sum", func() error { _, err := Sum(x, WithDType(Bool)); return err }},
		{"prod", func() error { _, err := Prod(x, WithDType(dtype.DType(200))); return err }},
	} {
		if err := c.f(); !errors.Is(err, ErrDType) || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s with a lower dtype: %v, want ErrDType naming it", c.name, err)
		}
	}
	// An empty reduction in a given dtype.
	e := Must(Zeros(Int8, 0))
	if g := Must(Prod(e, WithDType(Float64))); g.dtype != Float64 || contiguousData[float64](g)[0] != 1 {
		t.Errorf("empty prod as float64 = %v", g)
	}
	if g := Must(Sum(e, WithDType(Float16))); g.dtype != Float16 || mpFloatAt(g, 0) != 0 || math.Signbit(mpFloatAt(g, 0)) {
		t.Errorf("empty sum as float16 = %v", g)
	}
}

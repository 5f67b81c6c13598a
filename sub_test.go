package tensor

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

type subNumber interface {
	int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64 | float32 | float64 | complex64 | complex128
}

// subValues draws n values of T, with the extremes of integers (so that
// differences wrap) and, for floats, zeros of both signs, infinities and
// NaN.
func subValues[T subNumber](rng *rand.Rand, n int) []T {
	v := make([]T, n)
	for i := range v {
		switch p := any(&v[i]).(type) {
		case *float32:
			*p = float32(sprinkled(rng, 1)[0] * 100)
		case *float64:
			*p = sprinkled(rng, 1)[0] * 1e10
		case *complex64:
			*p = complex(float32(sprinkled(rng, 1)[0]), float32(sprinkled(rng, 1)[0]))
		case *complex128:
			*p = complex(sprinkled(rng, 1)[0], sprinkled(rng, 1)[0])
		case *int8:
			*p = int8(rng.Uint64())
		case *uint8:
			*p = uint8(rng.Uint64())
		case *int16:
			*p = int16(rng.Uint64())
		case *uint16:
			*p = uint16(rng.Uint64())
		case *int32:
			*p = int32(rng.Uint64())
		case *uint32:
			*p = uint32(rng.Uint64())
		case *int64:
			*p = int64(rng.Uint64())
		case *uint64:
			*p = rng.Uint64()
		}
	}
	return v
}

func sameValue[T subNumber](a, b T) bool {
	switch x := any(a).(type) {
	case float32:
		y := any(b).(float32)
		return math.Float32bits(x) == math.Float32bits(y) || x != x && y != y
	case float64:
		y := any(b).(float64)
		return math.Float64bits(x) == math.Float64bits(y) || x != x && y != y
	case complex64:
		y := any(b).(complex64)
		return sameValue(real(x), real(y)) && sameValue(imag(x), imag(y))
	case complex128:
		y := any(b).(complex128)
		return sameValue(real(x), real(y)) && sameValue(imag(x), imag(y))
	}
	return a == b
}

// checkSub compares Sub and Neg with Go's operators, element for element,
// on contiguous runs (of lengths around the negation buffer), a scalar on
// either side, a reversed view, broadcasting and the in-place forms.
func checkSubOf[T subNumber](t *testing.T, dt DType) {
	rng := rand.New(rand.NewPCG(1, uint64(dt)))
	for _, n := range []int{1, 5, negChunkLen - 1, negChunkLen + 1, 3*negChunkLen + 7} {
		xs, ys := subValues[T](rng, n), subValues[T](rng, n)
		x, y := Must(FromSlice(xs, n)), Must(FromSlice(ys, n))
		want := func(name string, got *Tensor, f func(i int) T) {
			t.Helper()
			v, err := ToSlice[T](got)
			if err != nil || len(v) != n || got.DType() != dt {
				t.Fatalf("%v %s n=%d: %v, %d elements of %v", dt, name, n, err, len(v), got.DType())
			}
			for i := range v {
				if w := f(i); !sameValue(v[i], w) {
					t.Fatalf("%v %s n=%d: element %d = %v, want %v", dt, name, n, i, v[i], w)
				}
			}
		}
		want("x - y", Must(Sub(x, y)), func(i int) T { return xs[i] - ys[i] })
		want("x - y[0]", Must(Sub(x, Must(y.Slice(Span(0, 1))))), func(i int) T { return xs[i] - ys[0] })
		want("x[0] - y", Must(Sub(Must(Must(x.Slice(Span(0, 1))).Reshape()), y)), func(i int) T { return xs[0] - ys[i] })
		want("x - reversed y", Must(Sub(x, Must(y.Slice(All().By(-1))))), func(i int) T { return xs[i] - ys[n-1-i] })
		want("-x", Must(Neg(x)), func(i int) T { return -xs[i] })
		want("-reversed x", Must(Neg(Must(x.Slice(All().By(-1))))), func(i int) T { return -xs[n-1-i] })
		in := Must(x.Clone())
		if err := SubInto(in, in, y); err != nil {
			t.Fatal(err)
		}
		want("x -= y", in, func(i int) T { return xs[i] - ys[i] })
		in = Must(y.Clone())
		if err := SubInto(in, x, in); err != nil {
			t.Fatal(err)
		}
		want("y = x - y", in, func(i int) T { return xs[i] - ys[i] })
		in = Must(x.Clone())
		if err := NegInto(in, in); err != nil {
			t.Fatal(err)
		}
		want("x = -x", in, func(i int) T { return -xs[i] })
	}
	// Broadcasting both ways: (3, 1) - (4,) is (3, 4).
	xs, ys := subValues[T](rng, 3), subValues[T](rng, 4)
	got, _ := ToSlice[T](Must(Sub(Must(FromSlice(xs, 3, 1)), Must(FromSlice(ys, 4)))))
	for i := range 3 {
		for j := range 4 {
			if w := xs[i] - ys[j]; !sameValue(got[i*4+j], w) {
				t.Fatalf("%v broadcast (%d, %d) = %v, want %v", dt, i, j, got[i*4+j], w)
			}
		}
	}
}

const negChunkLen = 512 // ewise's negation buffer

func TestSubAndNegEveryDType(t *testing.T) {
	mpWithFastPaths(t, func(t *testing.T) {
		{
			checkSubOf[int8](t, Int8)
			checkSubOf[uint8](t, Uint8)
			checkSubOf[int16](t, Int16)
			checkSubOf[uint16](t, Uint16)
			checkSubOf[int32](t, Int32)
			checkSubOf[uint32](t, Uint32)
			checkSubOf[int64](t, Int64)
			checkSubOf[uint64](t, Uint64)
			checkSubOf[float32](t, Float32)
			checkSubOf[float64](t, Float64)
			checkSubOf[complex64](t, Complex64)
			checkSubOf[complex128](t, Complex128)
		}
	})
}

// float16 and bfloat16 differences are the float32 difference rounded
// once; negation flips the sign bit.
func TestSubHalves(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, dt := range []DType{Float16, BFloat16} {
		for _, n := range []int{1, 9, 1100} {
			x := Must(Must(FromSlice(sprinkled(rng, n), n)).AsType(dt))
			y := Must(Must(FromSlice(sprinkled(rng, n), n)).AsType(dt))
			x32, y32 := Must(x.AsType(Float32)), Must(y.AsType(Float32))
			sameBits(t, dt.String()+" x - y", Must(Sub(x, y)), Must(Must(Sub(x32, y32)).AsType(dt)))
			y0 := Must(y.Slice(Span(0, 1)))
			sameBits(t, dt.String()+" x - y0", Must(Sub(x, y0)), Must(Must(Sub(x32, Must(y0.AsType(Float32)))).AsType(dt)))
			sameBits(t, dt.String()+" y0 - x", Must(Sub(y0, x)), Must(Must(Sub(Must(y0.AsType(Float32)), x32)).AsType(dt)))
			sameBits(t, dt.String()+" -x", Must(Neg(x)), Must(Must(Neg(x32)).AsType(dt)))
		}
	}
}

// The exact IEEE cases, promotion and weak scalars as Add has them.
func TestSubRules(t *testing.T) {
	negZero := math.Copysign(0, -1)
	x := Must(FromSlice([]float64{0, negZero, negZero, math.Inf(1), 1, 2}, 6))
	y := Must(FromSlice([]float64{0, 0, negZero, math.Inf(1), math.NaN(), 0.5}, 6))
	got := must2(ToSlice[float64](Must(Sub(x, y))))
	wantBits := []float64{0, negZero, 0, math.NaN(), math.NaN(), 1.5}
	for i, w := range wantBits {
		if !sameValue(got[i], w) {
			t.Errorf("sub element %d = %v, want %v", i, got[i], w)
		}
	}
	if v := must2(ToSlice[float64](Must(Neg(Must(FromSlice([]float64{0}, 1)))))); math.Float64bits(v[0]) != math.Float64bits(negZero) {
		t.Errorf("-(+0) = %v, want -0", v[0])
	}
	i32 := Must(FromSlice([]int32{5, math.MinInt32}, 2))
	if r := Must(Sub(i32, 2.5)); r.DType() != Float32 {
		t.Errorf("int32 - 2.5 is %v, want float32 (a weak float scalar)", r.DType())
	}
	if r := Must(Sub(1, i32)); r.DType() != Int32 || must2(ToSlice[int32](r))[1] != math.MinInt32+1 {
		t.Errorf("1 - int32 = %v, want int32 [-4 %d]", r, math.MinInt32+1)
	}
	if v := must2(ToSlice[int32](Must(Neg(i32)))); v[0] != -5 || v[1] != math.MinInt32 {
		t.Errorf("-int32 = %v, want [-5 %d] (wrapping)", v, math.MinInt32)
	}
	if r := Must(Sub(Must(FromSlice([]float32{1}, 1)), Must(FromSlice([]int64{3}, 1)))); r.DType() != Float32 {
		t.Errorf("float32 - int64 is %v, want float32", r.DType())
	}
	b := Must(FromSlice([]bool{true, false}, 2))
	for name, err := range map[string]error{
		"bool - bool": func() error { _, err := Sub(b, b); return err }(),
		"int - bool":  func() error { _, err := Sub(i32, b); return err }(),
		"int - true":  func() error { _, err := Sub(i32, true); return err }(),
		"-bool":       func() error { _, err := Neg(b); return err }(),
		"shapes":      func() error { _, err := Sub(i32, Must(Zeros(Int32, 3))); return err }(),
	} {
		want := ErrDType
		if name == "shapes" {
			want = ErrShape
		}
		if !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", name, err, want)
		}
	}
}

func must2[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

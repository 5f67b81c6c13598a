package tensor

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tensor-go/tensor/bfloat16"
	"github.com/x448/float16"
)

// mustSlice is ToSlice for tests.
func mustSlice[T Element](t *testing.T, x *Tensor) []T {
	t.Helper()
	s, err := ToSlice[T](x)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func checkMeta(t *testing.T, x *Tensor, dt DType, s ...int) {
	t.Helper()
	if x.DType() != dt || !reflect.DeepEqual(x.Shape(), append([]int{}, s...)) {
		t.Fatalf("got %v %v, want %v %v", x.DType(), x.Shape(), dt, s)
	}
}

func TestFromNested(t *testing.T) {
	x := Must(FromNested([][]int32{{1, 2, 3}, {4, 5, 6}}))
	checkMeta(t, x, Int32, 2, 3)
	if got := mustSlice[int32](t, x); !reflect.DeepEqual(got, []int32{1, 2, 3, 4, 5, 6}) {
		t.Errorf("values %v", got)
	}

	checkMeta(t, Must(FromNested([]int{1, 2})), goIntDType, 2)
	checkMeta(t, Must(FromNested([]float64{1})), Float64, 1)
	checkMeta(t, Must(FromNested([][][]bool{{{true}, {false}}})), Bool, 1, 2, 1)
	checkMeta(t, Must(FromNested([2][3]float32{})), Float32, 2, 3)
	if got := mustSlice[int8](t, Must(FromNested([2][2]int8{{1, 2}, {3, 4}}))); !reflect.DeepEqual(got, []int8{1, 2, 3, 4}) {
		t.Errorf("Go arrays: %v", got)
	}
	checkMeta(t, Must(FromNested([][]float32{})), Float32, 0, 0)
	checkMeta(t, Must(FromNested([][]float32{{}, {}})), Float32, 2, 0)
	checkMeta(t, Must(FromNested([]float16.Float16{float16.Fromfloat32(1.5)})), Float16, 1)
	checkMeta(t, Must(FromNested([]bfloat16.BFloat16{bfloat16.FromFloat32(1.5)})), BFloat16, 1)
	checkMeta(t, Must(FromNested([]complex64{1i})), Complex64, 1)

	type celsius float64
	c := Must(FromNested([]celsius{20.5, -3}))
	checkMeta(t, c, Float64, 2)
	if got := mustSlice[float64](t, c); !reflect.DeepEqual(got, []float64{20.5, -3}) {
		t.Errorf("named type values %v", got)
	}

	s := Must(FromNested(uint8(7)))
	checkMeta(t, s, Uint8)
	if v, _ := s.Item(); v != uint8(7) {
		t.Errorf("0-d value %v", v)
	}

	f := Must(FromNested([]float16.Float16{float16.Fromfloat32(-2.25)}))
	if v, _ := f.At(0); v.(float16.Float16).Float32() != -2.25 {
		t.Errorf("float16 value %v", v)
	}
}

func TestFromNestedErrors(t *testing.T) {
	cases := []struct {
		v    any
		want error
	}{
		{[][]int{{1, 2}, {3}}, ErrShape},
		{[][][]int{{{1}}, {{1}, {2}}}, ErrShape},
		{[][]any{{1}}, ErrDType},
		{[]string{"a"}, ErrDType},
		{nil, ErrDType},
		{map[int]int{}, ErrDType},
	}
	for _, c := range cases {
		if _, err := FromNested(c.v); !errors.Is(err, c.want) {
			t.Errorf("FromNested(%#v) error %v, want %v", c.v, err, c.want)
		}
	}
}

func TestZerosOnesFull(t *testing.T) {
	for _, dt := range []DType{Bool, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64,
		Float16, BFloat16, Float32, Float64, Complex64, Complex128} {
		z := Must(Zeros(dt, 2, 3))
		o := Must(Ones(dt, 3, 2))
		f := Must(Full(true, dt, 5))
		checkMeta(t, z, dt, 2, 3)
		checkMeta(t, o, dt, 3, 2)
		for i := range 6 {
			zv, _ := z.At(i/3, i%3)
			ov, _ := o.At(i/2, i%2)
			if asComplex(zv) != 0 || asComplex(ov) != 1 {
				t.Errorf("%v: zeros %v ones %v", dt, zv, ov)
			}
		}
		for i := range 5 {
			if v, _ := f.At(i); asComplex(v) != 1 {
				t.Errorf("%v: full(true) %v", dt, v)
			}
		}
	}
}

// asComplex converts any element to complex128 for comparisons.
func asComplex(v any) complex128 {
	switch x := v.(type) {
	case bool:
		if x {
			return 1
		}
		return 0
	case float16.Float16:
		return complex(float64(x.Float32()), 0)
	case bfloat16.BFloat16:
		return complex(x.Float64(), 0)
	case complex64:
		return complex128(x)
	case complex128:
		return x
	}
	rv := reflect.ValueOf(v)
	switch {
	case rv.CanInt():
		return complex(float64(rv.Int()), 0)
	case rv.CanUint():
		return complex(float64(rv.Uint()), 0)
	}
	return complex(rv.Float(), 0)
}

func TestFullValues(t *testing.T) {
	cases := []struct {
		value any
		dt    DType
		want  any
	}{
		{int64(math.MinInt64), Int64, int64(math.MinInt64)},
		{uint64(math.MaxUint64), Uint64, uint64(math.MaxUint64)},
		{int64(1<<53 + 1), Int64, int64(1<<53 + 1)},
		{-128, Int8, int8(-128)},
		{255, Uint8, uint8(255)},
		{3.0, Int32, int32(3)},
		{float32(-7), Int16, int16(-7)},
		{2.5, Float32, float32(2.5)},
		{1e5, Float16, float16.Inf(1)},
		{0.1, BFloat16, bfloat16.FromFloat64(0.1)},
		{complex(3, 0), Int8, int8(3)},
		{1 + 2i, Complex64, complex64(1 + 2i)},
		{uint8(200), Float64, 200.0},
		{float16.Fromfloat32(0.5), Float64, 0.5},
		{-2, Bool, true},
		{0.0, Bool, false},
		{false, Int32, int32(0)},
		{true, Uint64, uint64(1)},
		{math.NaN(), Float64, nil}, // checked below: NaN != NaN
	}
	for _, c := range cases {
		x, err := Full(c.value, c.dt)
		if err != nil {
			t.Errorf("Full(%v, %v): %v", c.value, c.dt, err)
			continue
		}
		got, _ := x.Item()
		if c.want == nil {
			if !math.IsNaN(got.(float64)) {
				t.Errorf("Full(NaN) = %v", got)
			}
			continue
		}
		if got != c.want {
			t.Errorf("Full(%v, %v) = %v (%T), want %v (%T)", c.value, c.dt, got, got, c.want, c.want)
		}
	}
}

func TestFullErrors(t *testing.T) {
	cases := []struct {
		value any
		dt    DType
		shape []int
		want  error
	}{
		{300, Int8, nil, ErrValue},
		{-1, Uint8, nil, ErrValue},
		{uint64(math.MaxUint64), Int64, nil, ErrValue},
		{int64(1) << 31, Int32, nil, ErrValue},
		{1.5, Int32, nil, ErrValue},
		{math.Inf(1), Int64, nil, ErrValue},
		{math.NaN(), Int64, nil, ErrValue},
		{9.3e18, Int64, nil, ErrValue},
		{1.9e19, Uint64, nil, ErrValue},
		{1 + 1i, Float32, nil, ErrValue},
		{"1", Float32, nil, ErrDType},
		{1, DType(0), nil, ErrDType},
		{1, DType(200), nil, ErrDType},
		{1, Float32, []int{-1}, ErrShape},
		{1, Float32, []int{hugeInt, hugeInt}, ErrShape},
		{1, Float64, []int{min(1<<38, math.MaxInt)}, ErrShape},  // beyond the allocation limit
		{1, Float64, []int{math.MaxInt/4 + 1}, ErrShape},        // its bytes wrap to 0 in an int
		{1, Complex128, []int{2, math.MaxInt/32 + 1}, ErrShape}, // likewise, at rank 2
	}
	for _, c := range cases {
		if _, err := Full(c.value, c.dt, c.shape...); !errors.Is(err, c.want) {
			t.Errorf("Full(%v, %v, %v) error %v, want %v", c.value, c.dt, c.shape, err, c.want)
		}
	}
	if _, err := Zeros(Float32, 2, -3); !errors.Is(err, ErrShape) {
		t.Errorf("Zeros with a negative dimension: %v", err)
	}
	if _, err := Zeros(DType(99), 2); !errors.Is(err, ErrDType) {
		t.Errorf("Zeros with an invalid dtype: %v", err)
	}
}

func TestArange(t *testing.T) {
	x := Must(Arange(5))
	checkMeta(t, x, Int32, 5)
	if got := mustSlice[int32](t, x); !reflect.DeepEqual(got, []int32{0, 1, 2, 3, 4}) {
		t.Errorf("Arange(5) = %v", got)
	}
	if got := mustSlice[float64](t, Must(Arange(3, Float64))); !reflect.DeepEqual(got, []float64{0, 1, 2}) {
		t.Errorf("Arange(3, float64) = %v", got)
	}
	checkMeta(t, Must(Arange(0)), Int32, 0)
	if _, err := Arange(-1); !errors.Is(err, ErrShape) {
		t.Errorf("Arange(-1): %v", err)
	}
	if _, err := Arange(200, Int8); !errors.Is(err, ErrValue) {
		t.Errorf("Arange(200, int8): %v", err)
	}
	if _, err := Arange(2, Int8, Int16); !errors.Is(err, ErrValue) {
		t.Errorf("two dtypes: %v", err)
	}
	checkMeta(t, Must(Arange(128, Int8)), Int8, 128)
	// Every dtype counts the same way.
	for _, dt := range []DType{Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64,
		Float16, BFloat16, Float32, Float64, Complex64, Complex128} {
		x := Must(Arange(100, dt))
		for i := range 100 {
			if v, _ := x.At(i); asComplex(v) != complex(float64(i), 0) {
				t.Fatalf("Arange(100, %v)[%d] = %v", dt, i, v)
			}
		}
	}
	if got := mustSlice[bool](t, Must(Arange(2, Bool))); !reflect.DeepEqual(got, []bool{false, true}) {
		t.Errorf("Arange(2, bool) = %v", got)
	}
}

func BenchmarkArange(b *testing.B) {
	for range b.N {
		Must(Arange(1<<16, Float32))
	}
}

func TestArangeRange(t *testing.T) {
	cases := []struct {
		start, stop, step float64
		dt                DType
		want              []float64
	}{
		{0, 1, 0.25, Float32, []float64{0, 0.25, 0.5, 0.75}},
		{1, 2, 0.3, Float64, []float64{1, 1.3, 1.6, 1 + 3*0.3}},
		{5, 0, -2, Int32, []float64{5, 3, 1}},
		{0, -3, 1, Int64, nil},
		{-2, 2, 1, Int8, []float64{-2, -1, 0, 1}},
		{0, 0, 1, Float32, nil},
		{0, 2, 1, Complex64, []float64{0, 1}},
	}
	for _, c := range cases {
		x, err := ArangeRange(c.start, c.stop, c.step, c.dt)
		if err != nil {
			t.Errorf("ArangeRange(%v, %v, %v, %v): %v", c.start, c.stop, c.step, c.dt, err)
			continue
		}
		checkMeta(t, x, c.dt, len(c.want))
		for i, w := range c.want {
			v, _ := x.At(i)
			if got := asComplex(v); got != complex(float64(float32OrNot(w, c.dt)), 0) {
				t.Errorf("ArangeRange(%v, %v, %v, %v)[%d] = %v, want %v", c.start, c.stop, c.step, c.dt, i, got, w)
			}
		}
	}
	bad := []struct {
		start, stop, step float64
		dt                DType
		want              error
	}{
		{0, 1, 0, Float32, ErrValue},
		{0, math.Inf(1), 1, Float32, ErrValue},
		{math.NaN(), 1, 1, Float32, ErrValue},
		{0, 1, 0.5, Int32, ErrValue},
		{0.5, 3, 1, Int32, ErrValue},
		{0, 300, 1, Uint8, ErrValue},
		{0, 1e300, 1, Float32, ErrShape},
		{0, 3, 1, Bool, ErrValue},
		{0, 3, 1, DType(77), ErrDType},
	}
	for _, c := range bad {
		if _, err := ArangeRange(c.start, c.stop, c.step, c.dt); !errors.Is(err, c.want) {
			t.Errorf("ArangeRange(%v, %v, %v, %v) error %v, want %v", c.start, c.stop, c.step, c.dt, err, c.want)
		}
	}
}

// float32OrNot rounds w as the dtype stores it.
func float32OrNot(w float64, dt DType) float64 {
	if dt == Float32 || dt == Complex64 {
		return float64(float32(w))
	}
	return w
}

func TestRand(t *testing.T) {
	for _, dt := range []DType{Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64,
		Float16, BFloat16, Float32, Float64, Complex64, Complex128} {
		lo, hi := -3.0, 5.0
		if dt.IsInteger() && !dt.IsSigned() {
			lo, hi = 2, 10
		}
		a := Must(Rand(7, dt, lo, hi, 1000))
		b := Must(Rand(7, dt, lo, hi, 1000))
		c := Must(Rand(8, dt, lo, hi, 1000))
		seen := map[complex128]bool{}
		same, differ := true, false
		for i := range 1000 {
			va, _ := a.At(i)
			vb, _ := b.At(i)
			vc, _ := c.At(i)
			x := asComplex(va)
			same = same && x == asComplex(vb)
			differ = differ || x != asComplex(vc)
			seen[x] = true
			parts := []float64{real(x)}
			if dt.IsComplex() {
				parts = append(parts, imag(x))
			}
			for _, part := range parts {
				if part < lo || part > hi || (part == hi && !(dt == Float16 || dt == BFloat16)) {
					t.Fatalf("%v: value %v outside [%v, %v)", dt, x, lo, hi)
				}
			}
			if !dt.IsComplex() && imag(x) != 0 {
				t.Fatalf("%v: imaginary part in %v", dt, x)
			}
		}
		if !same || !differ {
			t.Errorf("%v: same seed same values %v, other seed differs %v", dt, same, differ)
		}
		if dt.IsInteger() && len(seen) != 8 {
			t.Errorf("%v: %d distinct values in [%v, %v), want all 8", dt, len(seen), lo, hi)
		}
	}
	bools := mustSlice[bool](t, Must(Rand(1, Bool, 0, 0, 1000)))
	trues := 0
	for _, b := range bools {
		if b {
			trues++
		}
	}
	if trues < 400 || trues > 600 {
		t.Errorf("%d of 1000 coin flips are true", trues)
	}
	// Ranges wider than the dtype are clipped to it, the full 64-bit ones
	// included.
	Must(Rand(1, Int64, math.MinInt64, math.MaxInt64, 10))
	Must(Rand(1, Uint64, 0, math.MaxUint64, 10))
	for _, v := range mustSlice[int8](t, Must(Rand(1, Int8, -1e9, -126, 100))) {
		if v != -128 && v != -127 {
			t.Errorf("int8 in [-1e9, -126) drew %d", v)
		}
	}
	for _, v := range mustSlice[uint8](t, Must(Rand(1, Uint8, 254, 1e9, 100))) {
		if v != 254 && v != 255 {
			t.Errorf("uint8 in [254, 1e9) drew %d", v)
		}
	}
	for _, c := range []struct {
		dt     DType
		lo, hi float64
		want   error
	}{
		{Float32, 1, 1, ErrValue},
		{Float32, 2, 1, ErrValue},
		{Float32, 0, math.Inf(1), ErrValue},
		{Float32, math.NaN(), 1, ErrValue},
		{Int32, 0.2, 0.9, ErrValue},
		{Uint8, -5, -1, ErrValue},
		{Int8, 128, 1000, ErrValue},
		{Int16, -1e9, -32769, ErrValue},
		{DType(0), 0, 1, ErrDType},
	} {
		if _, err := Rand(1, c.dt, c.lo, c.hi, 3); !errors.Is(err, c.want) {
			t.Errorf("Rand(%v, %v, %v) error %v, want %v", c.dt, c.lo, c.hi, err, c.want)
		}
	}
}

// TestHalfFromFloat64 checks single rounding against the neighbours of the
// result: no float16 may be nearer to the input, and a tie goes to the
// even one.
func TestHalfFromFloat64(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(f float64) {
		h := halfFromFloat64(f)
		got := float64(h.Float32())
		if math.IsNaN(f) {
			if !h.IsNaN() {
				t.Errorf("halfFromFloat64(NaN) = %v", h)
			}
			return
		}
		for _, nb := range []uint16{h.Bits() - 1, h.Bits() + 1} {
			other := float64(float16.Frombits(nb).Float32())
			if math.IsNaN(other) || math.Signbit(other) != math.Signbit(got) {
				continue
			}
			dg, do := math.Abs(got-f), math.Abs(other-f)
			if do < dg || (do == dg && h.Bits()&1 == 1) {
				t.Errorf("halfFromFloat64(%v) = %v, but %v is nearer or the even tie", f, got, other)
			}
		}
	}
	for range 100000 {
		// Random values around the float16 range, and exact midpoints
		// nudged by a float64 ulp, which rounding through float32 gets wrong.
		check(math.Ldexp(rng.Float64()*2-1, rng.IntN(40)-26))
		h := float16.Frombits(uint16(rng.IntN(0x7bff)))
		mid := (float64(h.Float32()) + float64(float16.Frombits(h.Bits()+1).Float32())) / 2
		check(mid)
		check(math.Nextafter(mid, math.Inf(1)))
		check(math.Nextafter(mid, math.Inf(-1)))
	}
	check(math.NaN())
	if h := halfFromFloat64(1e6); !h.IsInf(1) {
		t.Errorf("halfFromFloat64(1e6) = %v, want +Inf", h)
	}
}

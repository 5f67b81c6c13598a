package cast

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/bfloat16"
	"github.com/tensor-go/tensor/dtype"
	"github.com/x448/float16"
)

// Integer specials, truncated to each width: wrap boundaries, the largest
// values float32 and float64 hold exactly and their neighbours, and
// 2^24+2^16+1, which float32 rounds to a bfloat16 midpoint.
var intSpecials = []uint64{
	0, 1, 2, 127, 128, 255, 256, 300, 32767, 32768, 65504, 65519, 65520, 65535, 65536,
	1 << 24, 1<<24 + 1, 1<<24 + 1<<16 + 1, 1<<24 + 3<<16, 1<<31 - 1, 1 << 31, 1<<32 - 1,
	1<<53 + 1, 1<<63 - 1, 1 << 63, 1<<64 - 1, 1<<64 - 300, 1<<64 - (1<<24 + 1<<16 + 1),
	1<<63 + 1<<39 + 1, 0x8000008000000001,
}

// Float specials: signed zeros, infinities, NaN, integer-conversion
// boundaries, the 16-bit formats' limits and midpoints, and values just off
// a midpoint that float32 rounds onto it (the double-rounding traps).
var floatSpecials = []float64{
	math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 0.9, -0.9,
	1.5, -1.5, 2.5, -2.7, 127.9, -128.9, 255.5, 300.5, -300.5, 65504, 65519, 65520, 65520 - 0x1p-30,
	65536, 1e5, -1e5, 1e10, -1e10, 0x1p31, -0x1p31, 0x1p31 - 0.5, 0x1p32, 0x1p63, -0x1p63,
	0x1p63 - 1024, 0x1p64, 0x1p64 - 2048, 1e19, -1e19, 1e300, -1e300, math.MaxFloat64,
	5e-324, 0x1p-24, 0x1p-25, -0x1p-25, 3 * 0x1p-25, 0x1p-25 + 0x1p-60, 0x1p-14, 0x1p-126, 0x1p-133,
	0x1p-134, 3 * 0x1p-134, 0x1p-149, 0x1p-150, 0x1p-150 + 0x1p-170, 1 + 0x1p-11, 1 + 0x1p-11 + 0x1p-40,
	-1 - 0x1p-11 - 0x1p-40, 1 + 3*0x1p-11, 1 + 0x1p-8, 1 + 0x1p-8 + 0x1p-40, 1 + 3*0x1p-8,
	math.MaxFloat32, -math.MaxFloat32, 0x1p128 - 0x1p104, 0x1p128 - 0x1p103, 0x1p128 - 0x1p119,
	0x1p128 - 0x1p119 - 0x1p90, 0x1p128 - 0x1p120, 16777217, 16777219,
}

// Raw bit patterns per float dtype: NaNs whose rounding could carry into
// the infinity or sign bits, subnormal edges and ties at 1.
var (
	float32Bits = []uint32{
		0x7fffffff, 0xffffffff, 0x7f800001, 0x7fc00000, 0xff800001, 0x7f80ffff, 0x7fff8000,
		0x3f808000, 0x3f818000, 0x3f801000, 0x3f803000, 0x00000001, 0x80000001, 0x007fffff,
		0x7f7fffff, 0x7f7f8000, 0x7f7f7fff,
	}
	float16Bits  = []uint16{0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe01, 0x8000, 0x0000, 0x0001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x3c00}
	bfloat16Bits = []uint16{0x7f80, 0xff80, 0x7fc0, 0x7f81, 0xffff, 0x8000, 0x0001, 0x7f7f, 0x3f80, 0x4b81}
)

// sample returns the specials of dt followed by random elements, n in all
// (at least the number of specials), as raw little-endian bytes.
func sample(dt dtype.DType, n int, rng *rand.Rand) []byte {
	size := dt.Size()
	var elems [][]byte
	add := func(bits uint64) {
		e := make([]byte, size)
		for k := range min(size, 8) {
			e[k] = byte(bits >> (8 * k))
		}
		elems = append(elems, e)
	}
	addComplex := func(re, im uint64) {
		add(re)
		if size == 8 {
			elems[len(elems)-1] = append(elems[len(elems)-1][:4], byte(im), byte(im>>8), byte(im>>16), byte(im>>24))
		} else {
			e := elems[len(elems)-1]
			for k := range 8 {
				e[8+k] = byte(im >> (8 * k))
			}
		}
	}
	f32 := func(f float64) uint64 { return uint64(math.Float32bits(float32(f))) }
	f64 := math.Float64bits
	moderate := func() float64 { return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(24)-10)) }
	switch dt.Kind() {
	case dtype.KindBool:
		add(0)
		add(1)
		for len(elems) < n {
			add(rng.Uint64N(2))
		}
	case dtype.KindSigned, dtype.KindUnsigned:
		for _, u := range intSpecials {
			add(u)
			add(-u)
		}
		for len(elems) < n {
			u := rng.Uint64()
			if rng.IntN(2) == 0 {
				u >>= rng.IntN(64) // small magnitudes too
			}
			add(u)
		}
	case dtype.KindFloat:
		for _, f := range floatSpecials {
			switch dt {
			case dtype.Float16:
				add(uint64(float16.Fromfloat32(float32(f)).Bits()))
			case dtype.BFloat16:
				add(uint64(bfloat16.FromFloat64(f).Bits()))
			case dtype.Float32:
				add(f32(f))
			case dtype.Float64:
				add(f64(f))
			}
		}
		switch dt {
		case dtype.Float16:
			for _, b := range float16Bits {
				add(uint64(b))
			}
		case dtype.BFloat16:
			for _, b := range bfloat16Bits {
				add(uint64(b))
			}
		case dtype.Float32:
			for _, b := range float32Bits {
				add(uint64(b))
			}
		}
		for len(elems) < n {
			if rng.IntN(2) == 0 {
				add(rng.Uint64())
			} else if dt == dtype.Float64 {
				add(f64(moderate()))
			} else {
				add(f32(moderate()))
			}
		}
	case dtype.KindComplex:
		part := func(f float64) uint64 {
			if dt == dtype.Complex64 {
				return f32(f)
			}
			return f64(f)
		}
		for i, f := range floatSpecials {
			addComplex(part(f), part(floatSpecials[(i*7)%len(floatSpecials)]))
			addComplex(part(0), part(f))
		}
		for len(elems) < n {
			addComplex(part(moderate()), part(moderate()))
			if dt == dtype.Complex64 {
				addComplex(uint64(rng.Uint32()), uint64(rng.Uint32()))
			} else {
				addComplex(rng.Uint64(), rng.Uint64())
			}
		}
	}
	out := make([]byte, 0, len(elems)*size)
	for _, e := range elems {
		out = append(out, e...)
	}
	return out
}

// words returns n zeroed bytes backed by uint64s, so every element type is
// aligned.
func words(n int) []byte {
	w := make([]uint64, (n+7)/8+1)
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), n)
}

func describe(dt dtype.DType, p unsafe.Pointer) string {
	v := load(dt, p)
	switch v.kind {
	case dtype.KindBool:
		return fmt.Sprint(v.b)
	case dtype.KindSigned:
		return fmt.Sprint(v.i)
	case dtype.KindUnsigned:
		return fmt.Sprint(v.u)
	case dtype.KindFloat:
		return fmt.Sprintf("%g (%x)", v.f, v.f)
	}
	return fmt.Sprint(v.c)
}

// TestAllPairs converts contiguous runs between every pair of dtypes and
// checks every element against the reference.
func TestAllPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, st := range dtype.All {
		src := sample(st, 700, rng)
		n := len(src) / st.Size()
		for _, dt := range dtype.All {
			dst := words(n * dt.Size())
			Run(unsafe.Pointer(&dst[0]), dt, dt.Size(), unsafe.Pointer(&src[0]), st, st.Size(), n)
			bad := 0
			for i := range n {
				sp := unsafe.Pointer(&src[i*st.Size()])
				dp := unsafe.Pointer(&dst[i*dt.Size()])
				want := expect(load(st, sp), dt)
				if !same(load(dt, dp), want) {
					if bad++; bad <= 5 {
						t.Errorf("%v → %v: element %d %s gave %s, want %+v", st, dt, i, describe(st, sp), describe(dt, dp), want)
					}
				}
			}
		}
	}
}

// TestStrides runs every pair with positive, zero and negative strides on
// runs longer than one staging chunk, and checks that no byte of the
// destination outside the written elements changes.
func TestStrides(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = chunk + 45
	const guard = 64
	const sentinel = 0xA5
	strides := [][2]int{{1, 1}, {3, 2}, {-1, -1}, {0, 1}, {-2, 3}, {2, -3}, {0, -1}, {3, 1}, {-2, 1}}
	for _, st := range dtype.All {
		elems := sample(st, n, rng)[:n*st.Size()]
		for _, dt := range dtype.All {
			for _, s := range strides {
				ss, ds := s[0]*st.Size(), s[1]*dt.Size()
				// Lay the source out with stride ss: element i at sbase+i*ss.
				sspan := (n-1)*abs(ss) + st.Size()
				src := words(sspan)
				sbase := 0
				if ss < 0 {
					sbase = (n - 1) * -ss
				}
				for i := range n {
					j := i
					if ss == 0 {
						j = 0
					}
					copy(src[sbase+i*ss:], elems[j*st.Size():(j+1)*st.Size()])
				}
				dspan := (n-1)*abs(ds) + dt.Size()
				dst := words(dspan + 2*guard)
				for k := range dst {
					dst[k] = sentinel
				}
				dbase := guard
				if ds < 0 {
					dbase += (n - 1) * -ds
				}
				Run(unsafe.Pointer(&dst[dbase]), dt, ds, unsafe.Pointer(&src[sbase]), st, ss, n)
				written := make([]bool, len(dst))
				for i := range n {
					off := dbase + i*ds
					for k := range dt.Size() {
						written[off+k] = true
					}
					j := i
					if ss == 0 {
						j = 0
					}
					want := expect(load(st, unsafe.Pointer(&elems[j*st.Size()])), dt)
					if got := load(dt, unsafe.Pointer(&dst[off])); !same(got, want) {
						t.Fatalf("%v → %v strides %v: element %d gave %s, want %+v", st, dt, s, i, describe(dt, unsafe.Pointer(&dst[off])), want)
					}
				}
				for k, w := range written {
					if !w && dst[k] != sentinel {
						t.Fatalf("%v → %v strides %v: byte %d outside the elements changed", st, dt, s, k)
					}
				}
			}
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// one converts a single Go value with Run.
func one[D, S any](dt, st dtype.DType, s S) D {
	var d D
	Run(unsafe.Pointer(&d), dt, 0, unsafe.Pointer(&s), st, 0, 1)
	return d
}

// TestDocumentedExamples checks the examples of the package comment and
// the traps that motivated the design, with expected values worked out by
// hand.
func TestDocumentedExamples(t *testing.T) {
	nan := math.NaN()
	check := func(name string, got, want any) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	check("int32 300 → int8", one[int8](dtype.Int8, dtype.Int32, int32(300)), 44)
	check("int8 -1 → uint8", one[uint8](dtype.Uint8, dtype.Int8, int8(-1)), 255)
	check("uint8 255 → int8", one[int8](dtype.Int8, dtype.Uint8, uint8(255)), -1)
	check("int16 -1 → uint32", one[uint32](dtype.Uint32, dtype.Int16, int16(-1)), uint32(math.MaxUint32))
	check("uint16 65535 → int64", one[int64](dtype.Int64, dtype.Uint16, uint16(65535)), 65535)
	check("uint64 max → float32", one[float32](dtype.Float32, dtype.Uint64, uint64(math.MaxUint64)), float32(0x1p64))
	check("int32 16777217 → float32", one[float32](dtype.Float32, dtype.Int32, int32(16777217)), float32(16777216))
	check("int32 16777219 → float32", one[float32](dtype.Float32, dtype.Int32, int32(16777219)), float32(16777220))
	check("float32 300.5 → int8", one[int8](dtype.Int8, dtype.Float32, float32(300.5)), 44)
	check("float64 -1.5 → uint8", one[uint8](dtype.Uint8, dtype.Float64, -1.5), 255)
	check("float64 -2.7 → int32", one[int32](dtype.Int32, dtype.Float64, -2.7), -2)
	check("float64 -0.9 → uint8", one[uint8](dtype.Uint8, dtype.Float64, -0.9), 0)
	check("float32 NaN → int64", one[int64](dtype.Int64, dtype.Float32, float32(nan)), int64(math.MinInt64))
	check("float64 NaN → uint64", one[uint64](dtype.Uint64, dtype.Float64, nan), uint64(1<<63))
	check("float64 NaN → int8", one[int8](dtype.Int8, dtype.Float64, nan), 0)
	check("float64 1e10 → int32", one[int32](dtype.Int32, dtype.Float64, 1e10), int32(1410065408))
	check("float64 1e19 → int64", one[int64](dtype.Int64, dtype.Float64, 1e19), int64(math.MinInt64))
	check("float64 1e19 → uint64", one[uint64](dtype.Uint64, dtype.Float64, 1e19), uint64(1e19))
	check("float64 -inf → int16", one[int16](dtype.Int16, dtype.Float64, math.Inf(-1)), 0)

	half := func(name string, got float16.Float16, want uint16) {
		t.Helper()
		if got.Bits() != want {
			t.Errorf("%s = %#04x, want %#04x", name, got.Bits(), want)
		}
	}
	half("float64 1+2^-11+2^-40 → float16", one[float16.Float16](dtype.Float16, dtype.Float64, 1+0x1p-11+0x1p-40), 0x3c01)
	half("float64 1+2^-11 → float16", one[float16.Float16](dtype.Float16, dtype.Float64, 1+0x1p-11), 0x3c00)
	half("float64 2^-25+2^-60 → float16", one[float16.Float16](dtype.Float16, dtype.Float64, 0x1p-25+0x1p-60), 0x0001)
	half("float64 2^-25 → float16", one[float16.Float16](dtype.Float16, dtype.Float64, 0x1p-25), 0x0000)
	half("float64 65520-2^-30 → float16", one[float16.Float16](dtype.Float16, dtype.Float64, 65520-0x1p-30), 0x7bff)
	half("float64 65520 → float16", one[float16.Float16](dtype.Float16, dtype.Float64, float64(65520)), 0x7c00)
	half("int32 100000 → float16", one[float16.Float16](dtype.Float16, dtype.Int32, int32(100000)), 0x7c00)
	half("int64 -65519 → float16", one[float16.Float16](dtype.Float16, dtype.Int64, int64(-65519)), 0xfbff)
	half("bool true → float16", one[float16.Float16](dtype.Float16, dtype.Bool, true), 0x3c00)
	half("complex128 (-2+5i) → float16", one[float16.Float16](dtype.Float16, dtype.Complex128, complex(-2, 5)), 0xc000)
	half("bfloat16 NaN → float16 is NaN", float16.Frombits(one[float16.Float16](dtype.Float16, dtype.BFloat16, bfloat16.BFloat16(0x7fc1)).Bits()&0x7e00), 0x7e00)

	bf := func(name string, got bfloat16.BFloat16, want uint16) {
		t.Helper()
		if got.Bits() != want {
			t.Errorf("%s = %#04x, want %#04x", name, got.Bits(), want)
		}
	}
	bf("float64 1+2^-8+2^-40 → bfloat16", one[bfloat16.BFloat16](dtype.BFloat16, dtype.Float64, 1+0x1p-8+0x1p-40), 0x3f81)
	bf("int32 2^24+2^16+1 → bfloat16", one[bfloat16.BFloat16](dtype.BFloat16, dtype.Int32, int32(1<<24+1<<16+1)), 0x4b81)
	bf("uint64 2^24+2^16+1 → bfloat16", one[bfloat16.BFloat16](dtype.BFloat16, dtype.Uint64, uint64(1<<24+1<<16+1)), 0x4b81)
	bf("int64 -(2^24+2^16+1) → bfloat16", one[bfloat16.BFloat16](dtype.BFloat16, dtype.Int64, int64(-(1<<24+1<<16+1))), 0xcb81)
	bf("float16 65504 → bfloat16", one[bfloat16.BFloat16](dtype.BFloat16, dtype.Float16, float16.Fromfloat32(65504)), 0x4780)
	bf("float32 0x7fffffff (NaN) → bfloat16 stays NaN", one[bfloat16.BFloat16](dtype.BFloat16, dtype.Float32, math.Float32frombits(0x7fffffff))&0x7fc0, 0x7fc0)
	bf("float32 0xff800001 (NaN) → bfloat16 stays NaN", one[bfloat16.BFloat16](dtype.BFloat16, dtype.Float32, math.Float32frombits(0xff800001))&0x7fc0, 0x7fc0)

	check("complex128 3+4i → float32", one[float32](dtype.Float32, dtype.Complex128, complex(3, 4)), 3)
	check("complex64 300.5+2i → int8", one[int8](dtype.Int8, dtype.Complex64, complex64(complex(300.5, 2))), 44)
	check("complex64 1i → bool", one[bool](dtype.Bool, dtype.Complex64, complex64(1i)), true)
	check("complex128 0 → bool", one[bool](dtype.Bool, dtype.Complex128, complex128(0)), false)
	check("float64 2.5 → complex64", one[complex64](dtype.Complex64, dtype.Float64, 2.5), complex64(2.5))
	check("bool → complex128", one[complex128](dtype.Complex128, dtype.Bool, true), complex128(1))
	check("float64 NaN → bool", one[bool](dtype.Bool, dtype.Float64, nan), true)
	check("float32 -0 → bool", one[bool](dtype.Bool, dtype.Float32, float32(math.Copysign(0, -1))), false)
	check("bfloat16 -0 → bool", one[bool](dtype.Bool, dtype.BFloat16, bfloat16.BFloat16(0x8000)), false)
	check("bool true → int16", one[int16](dtype.Int16, dtype.Bool, true), 1)
	check("int64 -5 → bool", one[bool](dtype.Bool, dtype.Int64, int64(-5)), true)
	if got := one[float32](dtype.Float32, dtype.Float64, math.Copysign(0, -1)); !math.Signbit(float64(got)) {
		t.Errorf("float64 -0 → float32 lost the sign")
	}
}

// TestZeroLength checks that n = 0 touches nothing, even with nil pointers.
func TestZeroLength(t *testing.T) {
	for _, dt := range dtype.All {
		for _, st := range dtype.All {
			Run(nil, dt, dt.Size(), nil, st, st.Size(), 0)
		}
	}
}

// TestInvalidDType checks the documented panic on a bad dtype.
func TestInvalidDType(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Run with dtype.Invalid did not panic")
		}
	}()
	var x, y float32
	Run(unsafe.Pointer(&x), dtype.Invalid, 4, unsafe.Pointer(&y), dtype.Float32, 4, 1)
}

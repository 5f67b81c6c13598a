package vec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// roundRef rounds p to a binary format with mant fraction bits, smallest
// subnormal 2^minSub and overflow at 2^maxExp, to nearest even, by scaling
// to an integer in float64 (exact for the formats tested). It is written
// independently of the kernels' bit tricks.
func roundRef(p float64, mant, minSub, maxExp int) float64 {
	if p == 0 || math.IsNaN(p) || math.IsInf(p, 0) {
		return p
	}
	_, e := math.Frexp(p) // |p| in [2^(e-1), 2^e)
	q := max(e-1-mant, minSub)
	r := math.Ldexp(math.RoundToEven(math.Ldexp(p, -q)), q)
	if math.Abs(r) >= math.Ldexp(1, maxExp) {
		return math.Copysign(math.Inf(1), p)
	}
	return r
}

func sameValue(x, y float64) bool {
	return math.Float64bits(x) == math.Float64bits(y) || x != x && y != y
}

// TestMulNaive compares every exported multiply with a plain loop computed
// another way: integers through wider arithmetic, floats as exact float64
// products rounded once.
func TestMulNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const n = 1037
	f32 := func() ([]float32, []float32) {
		a, b := make([]float32, n), make([]float32, n)
		for i := range a {
			a[i], b[i] = randF32(r), randF32(r)
		}
		return a, b
	}
	a, b := f32()
	dst := make([]float32, n)
	MulF32(dst, a, b)
	for i := range dst {
		if want := float32(float64(a[i]) * float64(b[i])); !sameF32(dst[i], want) {
			t.Fatalf("MulF32 %v*%v = %v, want %v", a[i], b[i], dst[i], want)
		}
	}
	MulScalarF32(dst, a, b[0])
	for i := range dst {
		if want := float32(float64(a[i]) * float64(b[0])); !sameF32(dst[i], want) {
			t.Fatalf("MulScalarF32 %v*%v = %v, want %v", a[i], b[0], dst[i], want)
		}
	}
	bi := make([]int32, n)
	for i := range bi {
		bi[i] = randSmallI32(r)
	}
	MulF32I32(dst, a, bi)
	for i := range dst {
		if want := float32(float64(a[i]) * float64(float32(bi[i]))); !sameF32(dst[i], want) {
			t.Fatalf("MulF32I32 %v*%v = %v, want %v", a[i], bi[i], dst[i], want)
		}
	}

	i8a, i8b, i8d := make([]int8, n), make([]int8, n), make([]int8, n)
	i16a, i16b, i16d := make([]int16, n), make([]int16, n), make([]int16, n)
	i32a, i32b, i32d := make([]int32, n), make([]int32, n), make([]int32, n)
	i64a, i64b, i64d := make([]int64, n), make([]int64, n), make([]int64, n)
	for i := range n {
		i8a[i], i8b[i] = randI8(r), randI8(r)
		i16a[i], i16b[i] = randI16(r), randI16(r)
		i32a[i], i32b[i] = randI32(r), randI32(r)
		i64a[i], i64b[i] = randI64(r), randI64(r)
	}
	MulI8(i8d, i8a, i8b)
	MulI16(i16d, i16a, i16b)
	MulI32(i32d, i32a, i32b)
	MulI64(i64d, i64a, i64b)
	for i := range n {
		if want := int8(int64(i8a[i]) * int64(i8b[i]) & 0xff); i8d[i] != want {
			t.Fatalf("MulI8 %d*%d = %d, want %d", i8a[i], i8b[i], i8d[i], want)
		}
		if want := int16(int64(i16a[i]) * int64(i16b[i]) & 0xffff); i16d[i] != want {
			t.Fatalf("MulI16 %d*%d = %d, want %d", i16a[i], i16b[i], i16d[i], want)
		}
		if want := int32(int64(i32a[i]) * int64(i32b[i])); i32d[i] != want {
			t.Fatalf("MulI32 %d*%d = %d, want %d", i32a[i], i32b[i], i32d[i], want)
		}
		lo := uint64(i64a[i]) * uint64(i64b[i]) // unsigned wrap: the same low bits
		if int64(lo) != i64d[i] {
			t.Fatalf("MulI64 %d*%d = %d, want %d", i64a[i], i64b[i], i64d[i], int64(lo))
		}
	}
	MulScalarI8(i8d, i8a, i8b[0])
	MulScalarI16(i16d, i16a, i16b[0])
	MulScalarI32(i32d, i32a, i32b[0])
	MulScalarI64(i64d, i64a, i64b[0])
	for i := range n {
		if want := int8(int64(i8a[i]) * int64(i8b[0]) & 0xff); i8d[i] != want {
			t.Fatalf("MulScalarI8 %d*%d = %d, want %d", i8a[i], i8b[0], i8d[i], want)
		}
		if want := int16(int64(i16a[i]) * int64(i16b[0]) & 0xffff); i16d[i] != want {
			t.Fatalf("MulScalarI16 %d*%d = %d, want %d", i16a[i], i16b[0], i16d[i], want)
		}
		if want := int32(int64(i32a[i]) * int64(i32b[0])); i32d[i] != want {
			t.Fatalf("MulScalarI32 %d*%d = %d, want %d", i32a[i], i32b[0], i32d[i], want)
		}
		if want := int64(uint64(i64a[i]) * uint64(i64b[0])); i64d[i] != want {
			t.Fatalf("MulScalarI64 %d*%d = %d, want %d", i64a[i], i64b[0], i64d[i], want)
		}
	}
}

// TestMulHalvesRounding checks float16 and bfloat16 products, rounded once
// to nearest even, against roundRef of the exact float64 product. float16
// inputs are random bits (every class); bfloat16 inputs keep their products
// inside float32's normal range, where computing in float32 is exact.
func TestMulHalvesRounding(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	const n = 20000
	ha, hb, hd := make([]uint16, n), make([]uint16, n), make([]uint16, n)
	ba, bb, bd := make([]uint16, n), make([]uint16, n), make([]uint16, n)
	randBF := func() uint16 {
		// exponents 127±60; the mantissa is random, so ties happen often.
		return uint16(r.IntN(2))<<15 | uint16(67+r.IntN(121))<<7 | uint16(r.IntN(128))
	}
	for i := range n {
		ha[i], hb[i] = randBits(r), randBits(r)
		ba[i], bb[i] = randBF(), randBF()
	}
	// Known ties: 1.5 * (1+2^-7) in bfloat16 and (1+2^-10) * (1+2^-1) in
	// float16 both fall exactly halfway between neighbours.
	ba[0], bb[0] = 0x3fc0, 0x3f81
	ha[0], hb[0] = 0x3c01, 0x3e00
	MulF16(hd, ha, hb)
	MulBF16(bd, ba, bb)
	for i := range n {
		want := roundRef(float64(f16ToF32(ha[i]))*float64(f16ToF32(hb[i])), 10, -24, 16)
		if got := float64(f16ToF32(hd[i])); !sameValue(got, want) {
			t.Fatalf("MulF16 %#04x*%#04x = %v (%#04x), want %v", ha[i], hb[i], got, hd[i], want)
		}
		want = roundRef(float64(bf16ToF32(ba[i]))*float64(bf16ToF32(bb[i])), 7, -133, 128)
		if got := float64(bf16ToF32(bd[i])); !sameValue(got, want) {
			t.Fatalf("MulBF16 %#04x*%#04x = %v (%#04x), want %v", ba[i], bb[i], got, bd[i], want)
		}
	}
	s := f16ToF32(hb[1])
	MulScalarF16(hd, ha, s)
	sb := bf16ToF32(bb[1])
	MulScalarBF16(bd, ba, sb)
	for i := range n {
		want := roundRef(float64(f16ToF32(ha[i]))*float64(s), 10, -24, 16)
		if got := float64(f16ToF32(hd[i])); !sameValue(got, want) {
			t.Fatalf("MulScalarF16 %#04x*%v = %v, want %v", ha[i], s, got, want)
		}
		want = roundRef(float64(bf16ToF32(ba[i]))*float64(sb), 7, -133, 128)
		if got := float64(bf16ToF32(bd[i])); !sameValue(got, want) {
			t.Fatalf("MulScalarBF16 %#04x*%v = %v, want %v", ba[i], sb, got, want)
		}
	}
}

// TestMulSpecials checks the spec's examples under every implementation.
func TestMulSpecials(t *testing.T) {
	defer func(saved binaryKernels) { mulImpl = saved }(mulImpl)
	sets := mulTable.Variants()
	negZero := float32(math.Copysign(0, -1))
	inf := float32(math.Inf(1))
	for _, v := range sets {
		mulImpl = v.K
		// Lengths past one vector so that both the vector body and the tail
		// see each case.
		const n = 37
		i8 := make([]int8, n)
		MulI8(i8, fill[int8](n, 100), fill[int8](n, 3))
		i64 := make([]int64, n)
		MulI64(i64, fill[int64](n, math.MinInt64), fill[int64](n, -1))
		f := make([]float32, n)
		MulF32(f, fill(n, negZero), fill[float32](n, 5))
		for i := range n {
			if i8[i] != 44 {
				t.Fatalf("%s: int8 100*3 = %d, want 44", v.Name(), i8[i])
			}
			if i64[i] != math.MinInt64 {
				t.Fatalf("%s: int64 min*-1 = %d, want min", v.Name(), i64[i])
			}
			if f[i] != 0 || !math.Signbit(float64(f[i])) {
				t.Fatalf("%s: -0*5 = %v, want -0", v.Name(), f[i])
			}
		}
		MulF32(f, fill(n, negZero), fill(n, negZero))
		if f[n-1] != 0 || math.Signbit(float64(f[n-1])) {
			t.Fatalf("%s: -0*-0 = %v, want +0", v.Name(), f[n-1])
		}
		MulF32(f, fill(n, inf), fill[float32](n, 0))
		if f[n-1] == f[n-1] {
			t.Fatalf("%s: inf*0 = %v, want NaN", v.Name(), f[n-1])
		}
		// A bfloat16 NaN with every payload bit set must not round into
		// Inf or flip sign; a float16 overflow must become Inf.
		h := make([]uint16, n)
		MulBF16(h, fill[uint16](n, 0x7fff), fill[uint16](n, 0x3f80))
		if h[n-1]&0x7f80 != 0x7f80 || h[n-1]&0x7f == 0 {
			t.Fatalf("%s: bfloat16 NaN*1 = %#04x, want NaN", v.Name(), h[n-1])
		}
		MulF16(h, fill[uint16](n, 0x7bff), fill[uint16](n, 0x4000)) // 65504*2
		if h[n-1] != 0x7c00 {
			t.Fatalf("%s: float16 65504*2 = %#04x, want +Inf", v.Name(), h[n-1])
		}
	}
}

func fill[T any](n int, v T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = v
	}
	return s
}

func TestF32ToBF16(t *testing.T) {
	for _, u := range []uint32{0x7fffffff, 0xffffffff, 0x7f800001, 0x7fc00000} {
		if h := f32ToBF16(math.Float32frombits(u)); h&0x7f80 != 0x7f80 || h&0x7f == 0 {
			t.Errorf("f32ToBF16(%#08x) = %#04x, want NaN", u, h)
		}
	}
	for _, u := range []uint32{0x7f7fffff, 0x3f808000, 0x3f818000, 0x00000001, 0x80000000} {
		f := math.Float32frombits(u)
		want := roundRef(float64(f), 7, -133, 128)
		if got := float64(bf16ToF32(f32ToBF16(f))); !sameValue(got, want) {
			t.Errorf("f32ToBF16(%#08x) = %v, want %v", u, got, want)
		}
	}
}

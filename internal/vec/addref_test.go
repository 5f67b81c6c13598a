package vec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAddNaive compares every exported add, under every implementation,
// with the sum computed another way: integers in wider arithmetic, floats
// as exact float64 sums rounded once.
func TestAddNaive(t *testing.T) {
	defer func(saved binaryKernels) { addImpl = saved }(addImpl)
	r := rand.New(rand.NewPCG(15, 16))
	const n = 1037
	a, b := make([]float32, n), make([]float32, n)
	bi := make([]int32, n)
	i8a, i8b, i8d := make([]int8, n), make([]int8, n), make([]int8, n)
	i16a, i16b, i16d := make([]int16, n), make([]int16, n), make([]int16, n)
	i32a, i32b, i32d := make([]int32, n), make([]int32, n), make([]int32, n)
	i64a, i64b, i64d := make([]int64, n), make([]int64, n), make([]int64, n)
	for i := range n {
		a[i], b[i], bi[i] = randF32(r), randF32(r), randSmallI32(r)
		i8a[i], i8b[i] = randI8(r), randI8(r)
		i16a[i], i16b[i] = randI16(r), randI16(r)
		i32a[i], i32b[i] = randI32(r), randI32(r)
		i64a[i], i64b[i] = randI64(r), randI64(r)
	}
	dst := make([]float32, n)
	for _, v := range addTable.Variants() {
		addImpl = v.K
		AddF32(dst, a, b)
		for i := range dst {
			if want := float32(float64(a[i]) + float64(b[i])); !sameF32(dst[i], want) {
				t.Fatalf("%s: AddF32 %v+%v = %v, want %v", v.Name(), a[i], b[i], dst[i], want)
			}
		}
		AddScalarF32(dst, a, b[0])
		for i := range dst {
			if want := float32(float64(a[i]) + float64(b[0])); !sameF32(dst[i], want) {
				t.Fatalf("%s: AddScalarF32 %v+%v = %v, want %v", v.Name(), a[i], b[0], dst[i], want)
			}
		}
		AddF32I32(dst, a, bi)
		for i := range dst {
			if want := float32(float64(a[i]) + float64(float32(bi[i]))); !sameF32(dst[i], want) {
				t.Fatalf("%s: AddF32I32 %v+%v = %v, want %v", v.Name(), a[i], bi[i], dst[i], want)
			}
		}
		AddI8(i8d, i8a, i8b)
		AddI16(i16d, i16a, i16b)
		AddI32(i32d, i32a, i32b)
		AddI64(i64d, i64a, i64b)
		for i := range n {
			if want := int8((int64(i8a[i]) + int64(i8b[i])) & 0xff); i8d[i] != want {
				t.Fatalf("%s: AddI8 %d+%d = %d, want %d", v.Name(), i8a[i], i8b[i], i8d[i], want)
			}
			if want := int16((int64(i16a[i]) + int64(i16b[i])) & 0xffff); i16d[i] != want {
				t.Fatalf("%s: AddI16 %d+%d = %d, want %d", v.Name(), i16a[i], i16b[i], i16d[i], want)
			}
			if want := int32(int64(i32a[i]) + int64(i32b[i])); i32d[i] != want {
				t.Fatalf("%s: AddI32 %d+%d = %d, want %d", v.Name(), i32a[i], i32b[i], i32d[i], want)
			}
			if want := int64(uint64(i64a[i]) + uint64(i64b[i])); i64d[i] != want {
				t.Fatalf("%s: AddI64 %d+%d = %d, want %d", v.Name(), i64a[i], i64b[i], i64d[i], want)
			}
		}
		AddScalarI8(i8d, i8a, i8b[0])
		AddScalarI16(i16d, i16a, i16b[0])
		AddScalarI32(i32d, i32a, i32b[0])
		AddScalarI64(i64d, i64a, i64b[0])
		for i := range n {
			if want := int8((int64(i8a[i]) + int64(i8b[0])) & 0xff); i8d[i] != want {
				t.Fatalf("%s: AddScalarI8 %d+%d = %d, want %d", v.Name(), i8a[i], i8b[0], i8d[i], want)
			}
			if want := int16((int64(i16a[i]) + int64(i16b[0])) & 0xffff); i16d[i] != want {
				t.Fatalf("%s: AddScalarI16 %d+%d = %d, want %d", v.Name(), i16a[i], i16b[0], i16d[i], want)
			}
			if want := int32(int64(i32a[i]) + int64(i32b[0])); i32d[i] != want {
				t.Fatalf("%s: AddScalarI32 %d+%d = %d, want %d", v.Name(), i32a[i], i32b[0], i32d[i], want)
			}
			if want := int64(uint64(i64a[i]) + uint64(i64b[0])); i64d[i] != want {
				t.Fatalf("%s: AddScalarI64 %d+%d = %d, want %d", v.Name(), i64a[i], i64b[0], i64d[i], want)
			}
		}
	}
}

// TestAddHalvesRounding checks float16 and bfloat16 sums, under every
// implementation, against roundRef of the exact float64 sum: computing in
// float32 and rounding once must give the correctly rounded half sum.
// float16 inputs are random bits (every class); bfloat16 inputs keep
// exponents within 60 of each other, where the float64 sum is exact.
func TestAddHalvesRounding(t *testing.T) {
	defer func(saved binaryKernels) { addImpl = saved }(addImpl)
	r := rand.New(rand.NewPCG(17, 18))
	const n = 20000
	ha, hb, hd := make([]uint16, n), make([]uint16, n), make([]uint16, n)
	ba, bb, bd := make([]uint16, n), make([]uint16, n), make([]uint16, n)
	randBF := func() uint16 {
		return uint16(r.IntN(2))<<15 | uint16(97+r.IntN(61))<<7 | uint16(r.IntN(128))
	}
	for i := range n {
		ha[i], hb[i] = randBits(r), randBits(r)
		ba[i], bb[i] = randBF(), randBF()
	}
	// A tie: 1 + 2^-11 in float16, 1 + 2^-8 in bfloat16 (both halfway).
	ha[0], hb[0] = 0x3c00, 0x1000
	ba[0], bb[0] = 0x3f80, 0x3b80
	for _, v := range addTable.Variants() {
		addImpl = v.K
		AddF16(hd, ha, hb)
		AddBF16(bd, ba, bb)
		for i := range n {
			want := roundRef(float64(f16ToF32(ha[i]))+float64(f16ToF32(hb[i])), 10, -24, 16)
			if got := float64(f16ToF32(hd[i])); !sameValue(got, want) {
				t.Fatalf("%s: AddF16 %#04x+%#04x = %v (%#04x), want %v", v.Name(), ha[i], hb[i], got, hd[i], want)
			}
			want = roundRef(float64(bf16ToF32(ba[i]))+float64(bf16ToF32(bb[i])), 7, -133, 128)
			if got := float64(bf16ToF32(bd[i])); !sameValue(got, want) {
				t.Fatalf("%s: AddBF16 %#04x+%#04x = %v (%#04x), want %v", v.Name(), ba[i], bb[i], got, bd[i], want)
			}
		}
		s := f16ToF32(hb[1])
		AddScalarF16(hd, ha, s)
		sb := bf16ToF32(bb[1])
		AddScalarBF16(bd, ba, sb)
		for i := range n {
			want := roundRef(float64(f16ToF32(ha[i]))+float64(s), 10, -24, 16)
			if got := float64(f16ToF32(hd[i])); !sameValue(got, want) {
				t.Fatalf("%s: AddScalarF16 %#04x+%v = %v, want %v", v.Name(), ha[i], s, got, want)
			}
			want = roundRef(float64(bf16ToF32(ba[i]))+float64(sb), 7, -133, 128)
			if got := float64(bf16ToF32(bd[i])); !sameValue(got, want) {
				t.Fatalf("%s: AddScalarBF16 %#04x+%v = %v, want %v", v.Name(), ba[i], sb, got, want)
			}
		}
	}
}

// TestAddSpecials checks the contract's examples under every
// implementation, at a length that reaches the vector body and the tail.
func TestAddSpecials(t *testing.T) {
	defer func(saved binaryKernels) { addImpl = saved }(addImpl)
	negZero := float32(math.Copysign(0, -1))
	inf := float32(math.Inf(1))
	const n = 37
	for _, v := range addTable.Variants() {
		addImpl = v.K
		i8 := make([]int8, n)
		AddI8(i8, fill[int8](n, 100), fill[int8](n, 100))
		i64 := make([]int64, n)
		AddI64(i64, fill[int64](n, math.MaxInt64), fill[int64](n, 1))
		f := make([]float32, n)
		for i := range n {
			if i8[i] != -56 || i64[i] != math.MinInt64 {
				t.Fatalf("%s: int8 100+100 = %d (want -56), int64 max+1 = %d (want min)", v.Name(), i8[i], i64[i])
			}
		}
		AddF32(f, fill(n, negZero), fill(n, negZero))
		if f[n-1] != 0 || !math.Signbit(float64(f[n-1])) {
			t.Fatalf("%s: -0 + -0 = %v, want -0", v.Name(), f[n-1])
		}
		AddF32(f, fill(n, negZero), fill[float32](n, 0))
		if f[n-1] != 0 || math.Signbit(float64(f[n-1])) {
			t.Fatalf("%s: -0 + +0 = %v, want +0", v.Name(), f[n-1])
		}
		AddF32(f, fill(n, inf), fill(n, -inf))
		if f[n-1] == f[n-1] {
			t.Fatalf("%s: inf + -inf = %v, want NaN", v.Name(), f[n-1])
		}
		h := make([]uint16, n)
		AddF16(h, fill[uint16](n, 0x7bff), fill[uint16](n, 0x7bff)) // 65504+65504
		if h[n-1] != 0x7c00 {
			t.Fatalf("%s: float16 65504+65504 = %#04x, want +Inf", v.Name(), h[n-1])
		}
		AddBF16(h, fill[uint16](n, 0x7fff), fill[uint16](n, 0x3f80))
		if h[n-1]&0x7f80 != 0x7f80 || h[n-1]&0x7f == 0 {
			t.Fatalf("%s: bfloat16 NaN+1 = %#04x, want NaN", v.Name(), h[n-1])
		}
	}
}

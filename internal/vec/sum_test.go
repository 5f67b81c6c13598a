package vec

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// checkSum runs the exported sum under every accelerated set and under the
// Go twin, at every edge length and alignment, and demands the same bits.
func checkSum[E, R any](t *testing.T, c prodCase[E, R]) {
	t.Helper()
	if len(accelerated(sumTable)) == 0 {
		t.Skip("no accelerated kernels on this machine or build")
	}
	defer func(saved sumKernels) { sumImpl = saved }(sumImpl)
	r := rand.New(rand.NewPCG(25, uint64(len(c.name))))
	size := int(unsafe.Sizeof(*new(E)))
	for _, v := range accelerated(sumTable) {
		for _, n := range testLengths(r, size) {
			for _, off := range testOffsets(n) {
				a, _ := sliceAt(n, off, func() E { return c.gen(r) })
				sumImpl = sumGo
				want := c.run(a)
				sumImpl = v.K
				if got := c.run(a); !c.same(got, want) {
					t.Fatalf("%s/%s n=%d off=%d: got %v, twin %v", v.Name(), c.name, n, off, got, want)
				}
			}
		}
	}
}

func TestSumMatchesTwin(t *testing.T) {
	checkSum(t, prodCase[float32, float64]{"f32", SumF32, nearOneF32, sameF64})
	checkSum(t, prodCase[float64, float64]{"f64", SumF64, nearOneF64, sameF64})
	checkSum(t, prodCase[uint16, float64]{"f16", SumF16, nearOneF16, sameF64})
	checkSum(t, prodCase[uint16, float64]{"bf16", SumBF16, nearOneBF16, sameF64})
	checkSum(t, prodCase[int32, int32]{"i32", SumI32, randI32, same[int32]})
	checkSum(t, prodCase[int64, int64]{"i64", SumI64, randI64, same[int64]})
	checkSum(t, prodCase[int8, int32]{"i8", SumI8, randI8, same[int32]})
	checkSum(t, prodCase[uint8, uint32]{"u8", SumU8, randU8, same[uint32]})
	checkSum(t, prodCase[int16, int32]{"i16", SumI16, randI16, same[int32]})
	checkSum(t, prodCase[uint16, uint32]{"u16", SumU16, randU16, same[uint32]})
}

// TestSumOrder checks SumF32 and SumF64, under every set, against the
// canonical order written out independently: lane i%32 from -0, then the
// pairwise fold.
func TestSumOrder(t *testing.T) {
	defer func(saved sumKernels) { sumImpl = saved }(sumImpl)
	r := rand.New(rand.NewPCG(27, 28))
	for _, v := range sumTable.Variants() {
		sumImpl = v.K
		for _, n := range []int{0, 1, 31, 32, 33, 63, 64, 65, 256, 1000} {
			a := make([]float32, n)
			for i := range a {
				a[i] = float32(r.NormFloat64() * 1e3)
			}
			var lane [32]float64
			for j := range lane {
				lane[j] = math.Copysign(0, -1)
			}
			for i, x := range a {
				lane[i%32] += float64(x)
			}
			for width := 32; width > 1; width /= 2 {
				for j := 0; j < width/2; j++ {
					lane[j] += lane[j+width/2]
				}
			}
			if got := SumF32(a); !sameF64(got, lane[0]) {
				t.Errorf("%s n=%d: SumF32 = %v, canonical order gives %v", v.Name(), n, got, lane[0])
			}
		}
	}
}

// TestSumNaive compares the integer sums with a plain loop, under every
// set, and the specials of the contract: a sum of -0 is -0, +0 with -0 is
// +0, NaN and inf + -inf are NaN, and an empty sum is -0 (the caller turns
// an empty reduction's into +0).
func TestSumNaive(t *testing.T) {
	defer func(saved sumKernels) { sumImpl = saved }(sumImpl)
	r := rand.New(rand.NewPCG(29, 30))
	negZero32 := float32(math.Copysign(0, -1))
	for _, v := range sumTable.Variants() {
		sumImpl = v.K
		for _, n := range []int{0, 1, 5, 64, 100, 1000, 4099} {
			i8, u8, i16, u16 := make([]int8, n), make([]uint8, n), make([]int16, n), make([]uint16, n)
			i32, i64 := make([]int32, n), make([]int64, n)
			var si8, si16, si32 int32
			var su8, su16 uint32
			var si64 int64
			for i := range n {
				i8[i], u8[i], i16[i], u16[i] = randI8(r), randU8(r), randI16(r), randU16(r)
				i32[i], i64[i] = randI32(r), randI64(r)
				si8 += int32(i8[i])
				su8 += uint32(u8[i])
				si16 += int32(i16[i])
				su16 += uint32(u16[i])
				si32 += i32[i]
				si64 += i64[i]
			}
			if SumI8(i8) != si8 || SumU8(u8) != su8 || SumI16(i16) != si16 || SumU16(u16) != su16 ||
				SumI32(i32) != si32 || SumI64(i64) != si64 {
				t.Fatalf("%s n=%d: an integer sum differs from the plain loop", v.Name(), n)
			}
			if n == 0 {
				continue
			}
			z := make([]float32, n)
			for i := range z {
				z[i] = negZero32
			}
			if got := SumF32(z); got != 0 || !math.Signbit(got) {
				t.Errorf("%s n=%d: sum of -0 = %v, want -0", v.Name(), n, got)
			}
			z[n/2] = 0
			if got := SumF32(z); got != 0 || math.Signbit(got) {
				t.Errorf("%s n=%d: sum of -0 and +0 = %v, want +0", v.Name(), n, got)
			}
			z[n-1] = float32(math.NaN())
			if got := SumF32(z); got == got {
				t.Errorf("%s n=%d: sum with NaN = %v", v.Name(), n, got)
			}
			if n > 1 {
				z[n-1], z[0] = float32(math.Inf(1)), float32(math.Inf(-1))
				if got := SumF32(z); got == got {
					t.Errorf("%s n=%d: inf + -inf = %v, want NaN", v.Name(), n, got)
				}
			}
		}
	}
}

// TestSumFold checks the accelerated float64 sum fold against its twin.
func TestSumFold(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	nan64 := func() float64 { return math.Float64frombits(0x7ff0000000000001 | r.Uint64()&0x800fffffffffffff) }
	for _, v := range accelerated(sumTable) {
		for range 2000 {
			var l [lanes8]float64
			for j := range l {
				l[j] = foldLane(r, nan64, specialsF64) * math.Exp2(float64(r.IntN(120)-60))
			}
			if got, want := v.K.foldF64(l), sumFoldGoF64(l); !sameF64(got, want) {
				t.Fatalf("%s sum foldF64(%v) = %v, twin %v", v.Name(), l, got, want)
			}
		}
	}
}

// TestSumComplex: SumC64 and SumC128 are the sums of the parts in the
// lane order their doc states, checked against that loop written plainly,
// at every length to three blocks, under every set.
func TestSumComplex(t *testing.T) {
	rng := rand.New(rand.NewPCG(64, 128))
	defer func(saved sumKernels) { sumImpl = saved }(sumImpl)
	for _, v := range sumTable.Variants() {
		sumImpl = v.K
		for n := 0; n <= 3*lanes8/2+1; n++ {
			c64, c128 := make([]complex64, n), make([]complex128, n)
			for i := range n {
				c128[i] = complex(rng.NormFloat64()*math.Ldexp(1, rng.IntN(40)-20), rng.NormFloat64())
				c64[i] = complex64(c128[i])
			}
			want := func(parts []float64) complex128 {
				var l [lanes8]float64
				for j := range l {
					l[j] = math.Copysign(0, -1)
				}
				for i, v := range parts {
					l[i%lanes8] += v
				}
				return complexFold(&l)
			}
			p64, p128 := make([]float64, 2*n), make([]float64, 2*n)
			for i := range n {
				p64[2*i], p64[2*i+1] = float64(real(c64[i])), float64(imag(c64[i]))
				p128[2*i], p128[2*i+1] = real(c128[i]), imag(c128[i])
			}
			if got, w := SumC64(c64), want(p64); got != w {
				t.Errorf("%s: SumC64 n=%d = %v, want %v", v.Name(), n, got, w)
			}
			if got, w := SumC128(c128), want(p128); got != w {
				t.Errorf("%s: SumC128 n=%d = %v, want %v", v.Name(), n, got, w)
			}
		}
	}
}

// BenchmarkSumComplex64 times SumC64 on 64K elements (a reduction chunk)
// beside the one-chain loop it replaced (10× on Sapphire Rapids).
func BenchmarkSumComplex64(b *testing.B) {
	a := make([]complex64, 1<<16)
	b.Run("parts", func(b *testing.B) {
		b.SetBytes(int64(8 * len(a)))
		for range b.N {
			SumC64(a)
		}
	})
	b.Run("one-chain", func(b *testing.B) {
		b.SetBytes(int64(8 * len(a)))
		for range b.N {
			s := complex128(0)
			for _, v := range a {
				s += complex128(v)
			}
			sinkC128 = s
		}
	})
}

var sinkC128 complex128

// TestSumC64Pair checks SumC64Pair under every kernel set against SumC64 of
// each run under the Go twin, bit for bit (any NaN for any NaN): at every
// edge length and alignment, runs of unequal length, specials among the
// parts, and random guard elements around each run that must not be read.
func TestSumC64Pair(t *testing.T) {
	defer func(saved sumKernels) { sumImpl = saved }(sumImpl)
	r := rand.New(rand.NewPCG(29, 30))
	same := func(x, y complex128) bool { return sameF64(real(x), real(y)) && sameF64(imag(x), imag(y)) }
	gen := func() complex64 {
		if r.IntN(300) == 0 {
			return complex(specialsF32[r.IntN(len(specialsF32))], float32(r.NormFloat64()))
		}
		return complex(float32(r.NormFloat64()*1e3), float32(r.NormFloat64()))
	}
	for _, v := range sumTable.Variants() {
		for k, n := range testLengths(r, 8) {
			for _, off := range testOffsets(n) {
				m := n
				if k%7 == 3 {
					m = max(0, n-1-r.IntN(20))
				}
				a, _ := sliceAt(n, off, gen)
				b, _ := sliceAt(m, (off*5+3)%16, gen)
				sumImpl = sumGo
				wa, wb := SumC64(a), SumC64(b)
				sumImpl = v.K
				if ga, gb := SumC64Pair(a, b); !same(ga, wa) || !same(gb, wb) {
					t.Fatalf("%s n=%d m=%d off=%d: got %v, %v; SumC64 twin %v, %v", v.Name(), n, m, off, ga, gb, wa, wb)
				}
			}
		}
	}
}

package vec

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/internal/kernels"
)

// prodCase describes one exported reduction for the generic checks.
type prodCase[E, R any] struct {
	name string
	run  func(a []E) R
	gen  func(*rand.Rand) E
	same func(x, y R) bool
}

// checkProd runs the exported reduction under every accelerated set and
// under the Go twin, at every edge length and alignment, and demands the
// same bits: the order of float products is part of the contract.
func checkProd[E, R any](t *testing.T, c prodCase[E, R]) {
	t.Helper()
	if len(accelerated(prodTable)) == 0 {
		t.Skip("no accelerated kernels on this machine or build")
	}
	defer func(saved prodKernels) { prodImpl = saved }(prodImpl)
	r := rand.New(rand.NewPCG(5, uint64(len(c.name))))
	size := int(unsafe.Sizeof(*new(E)))
	for _, v := range accelerated(prodTable) {
		for _, n := range testLengths(r, size) {
			for _, off := range testOffsets(n) {
				a, _ := sliceAt(n, off, func() E { return c.gen(r) })
				prodImpl = prodGo
				want := c.run(a)
				prodImpl = v.K
				if got := c.run(a); !c.same(got, want) {
					t.Fatalf("%s/%s n=%d off=%d: got %v, twin %v", v.Name(), c.name, n, off, got, want)
				}
			}
		}
	}
}

// logNear1 returns ±2^u for u uniform in (-1/8, 1/8): long products of
// such factors stay finite, so a change of order shows up in the low bits.
func logNear1(r *rand.Rand) float64 {
	v := math.Exp2((r.Float64() - 0.5) / 4)
	if r.IntN(2) == 0 {
		v = -v
	}
	return v
}

// The nearOne generators mix in a rare special (NaN, ±Inf, ±0, denormal) to
// check that it propagates through any lane.
func nearOneF32(r *rand.Rand) float32 {
	if r.IntN(500) == 0 {
		return specialsF32[r.IntN(len(specialsF32))]
	}
	return float32(logNear1(r))
}

func nearOneF64(r *rand.Rand) float64 {
	if r.IntN(500) == 0 {
		return specialsF64[r.IntN(len(specialsF64))]
	}
	return logNear1(r)
}

func nearOneF16(r *rand.Rand) uint16 {
	if r.IntN(500) == 0 {
		return randBits(r)
	}
	return f32ToF16(float32(logNear1(r)))
}

func nearOneBF16(r *rand.Rand) uint16 {
	if r.IntN(500) == 0 {
		return randBits(r)
	}
	return f32ToBF16(float32(logNear1(r)))
}

// Odd integers keep products from collapsing to zero after a few dozen
// even factors.
func oddI8(r *rand.Rand) int8    { return randI8(r) | 1 }
func oddU8(r *rand.Rand) uint8   { return randU8(r) | 1 }
func oddI16(r *rand.Rand) int16  { return randI16(r) | 1 }
func oddU16(r *rand.Rand) uint16 { return randU16(r) | 1 }
func oddI32(r *rand.Rand) int32  { return randI32(r) | 1 }
func oddI64(r *rand.Rand) int64  { return randI64(r) | 1 }

func TestProdMatchesTwin(t *testing.T) {
	t.Run("f32", func(t *testing.T) {
		checkProd(t, prodCase[float32, float64]{"f32", ProdF32, nearOneF32, sameF64})
	})
	t.Run("f64", func(t *testing.T) {
		checkProd(t, prodCase[float64, float64]{"f64", ProdF64, nearOneF64, sameF64})
	})
	t.Run("i32", func(t *testing.T) {
		checkProd(t, prodCase[int32, int32]{"i32", ProdI32, oddI32, same[int32]})
	})
	t.Run("i64", func(t *testing.T) {
		checkProd(t, prodCase[int64, int64]{"i64", ProdI64, oddI64, same[int64]})
	})
	t.Run("i8", func(t *testing.T) {
		checkProd(t, prodCase[int8, int32]{"i8", ProdI8, oddI8, same[int32]})
	})
	t.Run("u8", func(t *testing.T) {
		checkProd(t, prodCase[uint8, uint32]{"u8", ProdU8, oddU8, same[uint32]})
	})
	t.Run("i16", func(t *testing.T) {
		checkProd(t, prodCase[int16, int32]{"i16", ProdI16, oddI16, same[int32]})
	})
	t.Run("u16", func(t *testing.T) {
		checkProd(t, prodCase[uint16, uint32]{"u16", ProdU16, oddU16, same[uint32]})
	})
	t.Run("f16", func(t *testing.T) {
		checkProd(t, prodCase[uint16, float64]{"f16", ProdF16, nearOneF16, sameF64})
	})
	t.Run("bf16", func(t *testing.T) {
		checkProd(t, prodCase[uint16, float64]{"bf16", ProdBF16, nearOneBF16, sameF64})
	})
}

// TestProdF32Pair checks ProdF32Pair under every kernel set, the Go twin
// included, against ProdF32 of each run under the twin, bit for bit (see
// checkPairRuns).
func TestProdF32Pair(t *testing.T) {
	defer func(saved prodKernels) { prodImpl = saved }(prodImpl)
	checkPairRuns(t, rand.New(rand.NewPCG(13, 14)), &prodImpl, prodGo, prodTable.Variants(), "ProdF32", ProdF32, ProdF32Pair)
}

// TestSumF32Pair is TestProdF32Pair for SumF32Pair against SumF32.
func TestSumF32Pair(t *testing.T) {
	defer func(saved sumKernels) { sumImpl = saved }(sumImpl)
	checkPairRuns(t, rand.New(rand.NewPCG(15, 16)), &sumImpl, sumGo, sumTable.Variants(), "SumF32", SumF32, SumF32Pair)
}

// TestProdF64Pair is TestProdF32Pair for ProdF64Pair against ProdF64:
// the AVX-512 kernel, and the one-after-the-other fallback of the others.
func TestProdF64Pair(t *testing.T) {
	defer func(saved prodKernels) { prodImpl = saved }(prodImpl)
	checkPairRunsOf(t, rand.New(rand.NewPCG(17, 18)), &prodImpl, prodGo, prodTable.Variants(), "ProdF64",
		nearOneF64, specialsF64, ProdF64, ProdF64Pair)
}

// TestSumF64Pair is TestProdF64Pair for SumF64Pair against SumF64.
func TestSumF64Pair(t *testing.T) {
	defer func(saved sumKernels) { sumImpl = saved }(sumImpl)
	checkPairRunsOf(t, rand.New(rand.NewPCG(19, 20)), &sumImpl, sumGo, sumTable.Variants(), "SumF64",
		nearOneF64, specialsF64, SumF64, SumF64Pair)
}

// checkPairRuns checks a kernel of two runs side by side (pair) against
// the kernel of one run (single) under the Go twin, for every variant of
// the table impl points into, bit for bit: at every length up to three
// unrolled iterations and beyond, every alignment of each run, runs of
// unequal length, a special (NaN, ±Inf, ±0, a denormal) at a random place
// in some of them, and guard elements around each run that must not be
// read.
func checkPairRuns[K any](t *testing.T, r *rand.Rand, impl *K, twin K, variants []kernels.Variant[K], name string,
	single func([]float32) float64, pair func(a, b []float32) (float64, float64)) {
	t.Helper()
	checkPairRunsOf(t, r, impl, twin, variants, name, nearOneF32, specialsF32, single, pair)
}

// checkPairRunsOf is checkPairRuns for runs of E drawn from near, with
// specials among them.
func checkPairRunsOf[K any, E float32 | float64](t *testing.T, r *rand.Rand, impl *K, twin K, variants []kernels.Variant[K], name string,
	near func(*rand.Rand) E, specials []E, single func([]E) float64, pair func(a, b []E) (float64, float64)) {
	t.Helper()
	gen := func() E { return near(r) }
	for _, v := range variants {
		for k, n := range testLengths(r, 4) {
			for _, off := range testOffsets(n) {
				m := n
				if k%7 == 3 {
					m = max(0, n-1-r.IntN(40)) // unequal lengths
				}
				a, _ := sliceAt(n, off, gen)
				b, _ := sliceAt(m, (off*5+3)%16, gen)
				if k%3 == 0 && n > 0 {
					a[r.IntN(n)] = specials[r.IntN(len(specials))]
				}
				if k%3 == 1 && m > 0 {
					b[r.IntN(m)] = specials[r.IntN(len(specials))]
				}
				*impl = twin
				wa, wb := single(a), single(b)
				*impl = v.K
				ga, gb := pair(a, b)
				if !sameF64(ga, wa) || !sameF64(gb, wb) {
					t.Fatalf("%s n=%d m=%d off=%d: got %v, %v; %s twin %v, %v", v.Name(), n, m, off, ga, gb, name, wa, wb)
				}
			}
		}
	}
}

// TestProdTwinOrder checks the Go twin against the order the package
// comment defines, written out independently: lane i%L, then the pairwise
// fold.
func TestProdTwinOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, 31, 32, 33, 63, 64, 65, 200, 1000} {
		a := make([]float32, n)
		for i := range a {
			a[i] = nearOneF32(r)
		}
		var lane [32]float64
		for j := range lane {
			lane[j] = 1
		}
		for i, v := range a {
			lane[i%32] *= float64(v)
		}
		for width := 32; width > 1; width /= 2 {
			for j := 0; j < width/2; j++ {
				lane[j] *= lane[j+width/2]
			}
		}
		if got := ProdF32(a); !sameF64(got, lane[0]) {
			t.Errorf("n=%d: ProdF32 = %v, canonical order gives %v", n, got, lane[0])
		}
	}
}

// TestProdF64Order checks ProdF64 against its canonical order, written out
// independently: lane i%32, then the pairwise fold.
func TestProdF64Order(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for _, n := range []int{0, 1, 31, 32, 33, 63, 64, 65, 256, 1000} {
		a := make([]float64, n)
		for i := range a {
			a[i] = 0.5 + r.Float64()
		}
		var lane [32]float64
		for j := range lane {
			lane[j] = 1
		}
		for i, v := range a {
			lane[i%32] *= v
		}
		for width := 32; width > 1; width /= 2 {
			for j := 0; j < width/2; j++ {
				lane[j] *= lane[j+width/2]
			}
		}
		if got := ProdF64(a); got != lane[0] {
			t.Errorf("n=%d: ProdF64 = %v, canonical order gives %v", n, got, lane[0])
		}
	}
}

// TestProdNaive compares every reduction with a plain loop: integers
// exactly, floats within the rounding error of n products of a float64
// reference.
func TestProdNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{0, 1, 5, 64, 100, 1000, 4099} {
		i8 := make([]int8, n)
		u8 := make([]uint8, n)
		i16 := make([]int16, n)
		u16 := make([]uint16, n)
		i32 := make([]int32, n)
		i64 := make([]int64, n)
		pi8, pu8, pi16, pu16 := int32(1), uint32(1), int32(1), uint32(1)
		pi32, pi64 := int32(1), int64(1)
		for i := range n {
			i8[i], u8[i], i16[i], u16[i] = oddI8(r), oddU8(r), oddI16(r), oddU16(r)
			i32[i], i64[i] = oddI32(r), oddI64(r)
			pi8 *= int32(i8[i])
			pu8 *= uint32(u8[i])
			pi16 *= int32(i16[i])
			pu16 *= uint32(u16[i])
			pi32 *= i32[i]
			pi64 *= i64[i]
		}
		if got := ProdI8(i8); got != pi8 {
			t.Errorf("ProdI8 n=%d = %d, want %d", n, got, pi8)
		}
		if got := ProdU8(u8); got != pu8 {
			t.Errorf("ProdU8 n=%d = %d, want %d", n, got, pu8)
		}
		if got := ProdI16(i16); got != pi16 {
			t.Errorf("ProdI16 n=%d = %d, want %d", n, got, pi16)
		}
		if got := ProdU16(u16); got != pu16 {
			t.Errorf("ProdU16 n=%d = %d, want %d", n, got, pu16)
		}
		if got := ProdI32(i32); got != pi32 {
			t.Errorf("ProdI32 n=%d = %d, want %d", n, got, pi32)
		}
		if got := ProdI64(i64); got != pi64 {
			t.Errorf("ProdI64 n=%d = %d, want %d", n, got, pi64)
		}

		f32 := make([]float32, n)
		f64 := make([]float64, n)
		h16 := make([]uint16, n)
		b16 := make([]uint16, n)
		ref32, ref64, refH, refB := 1.0, 1.0, 1.0, 1.0
		for i := range n {
			f32[i] = float32(logNear1(r))
			f64[i] = logNear1(r)
			h16[i] = f32ToF16(float32(logNear1(r)))
			b16[i] = f32ToBF16(float32(logNear1(r)))
			ref32 *= float64(f32[i])
			ref64 *= f64[i] // its own rounding error is far below the tolerance
			refH *= float64(f16ToF32(h16[i]))
			refB *= float64(bf16ToF32(b16[i]))
		}
		tol32 := float64(n+1) * 0x1p-23
		near := func(name string, got, want, tol float64) {
			if math.Abs(got-want) > tol*math.Abs(want) {
				t.Errorf("%s n=%d = %v, float64 reference %v", name, n, got, want)
			}
		}
		near("ProdF32", float64(ProdF32(f32)), ref32, tol32)
		near("ProdF64", ProdF64(f64), ref64, float64(n+1)*0x1p-51)
		near("ProdF16", float64(ProdF16(h16)), refH, tol32)
		near("ProdBF16", float64(ProdBF16(b16)), refB, tol32)
	}
}

func TestProdSpecials(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	ones := func(n int) []float32 {
		a := make([]float32, n)
		for i := range a {
			a[i] = 1
		}
		return a
	}
	for _, n := range []int{1, 2, 63, 64, 65, 300} {
		for _, at := range []int{0, n / 2, n - 1} {
			a := ones(n)
			a[at] = nan
			if got := ProdF32(a); got == got {
				t.Errorf("n=%d NaN at %d: got %v, want NaN", n, at, got)
			}
			a[at] = inf
			if got := ProdF32(a); !math.IsInf(float64(got), 1) {
				t.Errorf("n=%d Inf at %d: got %v, want +Inf", n, at, got)
			}
			a[(at+1)%n] = 0
			if got := ProdF32(a); n > 1 && got == got {
				t.Errorf("n=%d Inf and 0: got %v, want NaN", n, got)
			}
		}
		neg := ones(n)
		neg[n-1] = float32(math.Copysign(0, -1))
		if got := ProdF32(neg); got != 0 || !math.Signbit(float64(got)) {
			t.Errorf("n=%d with -0: got %v, want -0", n, got)
		}
	}
	if got := ProdF32(nil); got != 1 {
		t.Errorf("empty ProdF32 = %v, want 1", got)
	}
	if got := ProdI8(nil); got != 1 {
		t.Errorf("empty ProdI8 = %v, want 1", got)
	}
	// The wrap example of the spec.
	if got := ProdI32([]int32{536870910, 536870910, 536870910, 536870910}); got != 16 {
		t.Errorf("ProdI32 of 536870910 four times = %d, want 16", got)
	}
}

// TestNoAllocs guards the engine's inner loop: a kernel call must not
// allocate (the lanes travel by value, the scalars as arguments).
func TestNoAllocs(t *testing.T) {
	a := make([]float32, 1000)
	h := make([]uint16, 1000)
	allocs := testing.AllocsPerRun(10, func() {
		MulF32(a, a, a)
		MulScalarF32(a, a, 2)
		MulScalarBF16(h, h, 2)
		ProdF32(a)
		ProdF32Pair(a, a)
		ProdBF16(h)
	})
	if allocs != 0 {
		t.Errorf("kernel calls allocate %v times", allocs)
	}
}

// TestFolds checks each accelerated float fold against its Go twin on
// random lanes with NaNs of random payloads and other specials mixed in,
// bit for bit (any NaN equal to any NaN, as everywhere in this package).
func TestFolds(t *testing.T) {
	if len(accelerated(prodTable)) == 0 {
		t.Skip("no accelerated kernels on this machine or build")
	}
	r := rand.New(rand.NewPCG(11, 12))
	nan64 := func() float64 { return math.Float64frombits(0x7ff0000000000001 | r.Uint64()&0x800fffffffffffff) }
	for _, v := range accelerated(prodTable) {
		for range 2000 {
			var l64 [lanes8]float64
			for j := range l64 {
				l64[j] = foldLane(r, nan64, specialsF64)
			}
			if got, want := v.K.foldF64(l64), foldGoF64(l64); !sameF64(got, want) {
				t.Fatalf("%s foldF64(%v) = %#x, twin %#x", v.Name(), l64, math.Float64bits(got), math.Float64bits(want))
			}
		}
	}
}

// foldLane draws one lane for TestFolds: a NaN of random payload or another
// special now and then, else a factor near ±1.
func foldLane[T float32 | float64](r *rand.Rand, nan func() T, specials []T) T {
	special := func() bool { return r.IntN(8) == 0 }
	switch {
	case special() && r.IntN(2) == 0:
		return nan()
	case special():
		return specials[r.IntN(len(specials))]
	}
	return T(logNear1(r))
}

package gemm

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// fma32 is x·y + z rounded once to float32, as a float32 FMA instruction
// computes it. float32(math.FMA(x, y, z)) would round twice (to float64,
// then to float32) and can land on the wrong side of a float32 tie.
// Instead the product is exact in float64 (24 + 24 bits), the sum is
// rounded to odd there (round to nearest, then moved one ulp toward the
// exact value when inexact and even), and a float64 rounded to odd
// rounds to float32 as the exact value would (53 ≥ 24 + 2 bits).
func fma32(x, y, z float32) float32 {
	p := float64(float64(x) * float64(y)) // exact, so fusing the sum below changes nothing
	s := p + float64(z)
	if s == 0 || math.IsInf(s, 0) || math.IsNaN(s) {
		return float32(s) // exact (or not a number), signs as IEEE's
	}
	t := s - p // two-sum: e is exactly (p + z) - s
	e := (p - (s - t)) + (float64(z) - t)
	if bits := math.Float64bits(s); e != 0 && bits&1 == 0 {
		if (e > 0) == (s > 0) {
			bits++ // away from zero
		} else {
			bits--
		}
		s = math.Float64frombits(bits)
	}
	return float32(s)
}

// fusedMulAdd is x·y + z rounded once, for float32 and float64.
func fusedMulAdd[T float32 | float64](x, y, z T) T {
	switch v := any(x).(type) {
	case float32:
		return T(fma32(v, float32(y), float32(z)))
	}
	return T(math.FMA(float64(x), float64(y), float64(z)))
}

// smallFused is the small kernels' contract with the multiply-adds fused,
// as the assembly computes them: every element summed from +0 over p in
// order, one rounding per step. Every assembly small kernel (AVX-512,
// AVX2, NEON) must give its bits exactly, so they all give the same bits.
func smallFused[T float32 | float64](m, n, k int, a, b, c Matrix[T], aOffs, bOffs, cOffs []int) {
	for i := range aOffs {
		ai, bi, ci := a.withOff(a.Off+aOffs[i]), b.withOff(b.Off+bOffs[i]), c.withOff(c.Off+cOffs[i])
		for r := range m {
			for j := range n {
				var s T
				for p := range k {
					s = fusedMulAdd(ai.at(r, p), bi.at(p, j), s)
				}
				ci.Data[ci.Off+r*ci.RS+j*ci.CS] = s
			}
		}
	}
}

// TestFMA32 checks fma32 against exact arithmetic (math/big) on products
// and addends chosen to cancel, to fall near ties and to reach subnormals
// and overflow.
func TestFMA32(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	exact := func(x, y, z float32) float32 {
		var p, s big.Float
		p.SetPrec(200).Mul(big.NewFloat(float64(x)), big.NewFloat(float64(y)))
		s.SetPrec(600).Add(&p, big.NewFloat(float64(z)))
		f, _ := s.Float32()
		if f == 0 && s.Sign() == 0 {
			return float32(float64(x)*float64(y) + float64(z)) // the sign of an exact zero
		}
		return f
	}
	rand32 := func() float32 {
		switch rng.IntN(4) {
		case 0: // few significant bits: products land on ties
			return float32(rng.IntN(1<<12)-1<<11) * float32(math.Ldexp(1, rng.IntN(40)-20))
		case 1: // any exponent: products from subnormal to overflow
			return math.Float32frombits(rng.Uint32()&^(0xff<<23) | uint32(rng.IntN(254)+1)<<23)
		}
		return float32(rng.NormFloat64())
	}
	for i := range 200000 {
		x, y := rand32(), rand32()
		z := rand32()
		if i%3 == 0 { // cancel the product's leading bits
			z = -float32(float64(x) * float64(y))
			z = math.Nextafter32(z, float32(rng.NormFloat64()))
		}
		got, want := fma32(x, y, z), exact(x, y, z)
		if math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("fma32(%g, %g, %g) = %g (%#x), exact %g (%#x)", x, y, z, got, math.Float32bits(got), want, math.Float32bits(want))
		}
	}
}

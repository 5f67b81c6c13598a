package vec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Every set's float differences give the Go twin's bits (NaN payloads
// apart) at every length through three vectors of the widest set and
// past, write nothing beyond dst, and may run in place on either operand.
func TestSubMatchesTwin(t *testing.T) {
	const guard = 17
	rng := rand.New(rand.NewPCG(13, 14))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1e-310, 3}
	draw := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			if rng.IntN(4) == 0 {
				v[i] = special[rng.IntN(len(special))]
			} else {
				v[i] = rng.NormFloat64() * 1e3
			}
		}
		return v
	}
	for _, v := range subTable.Variants() {
		for n := 0; n <= 3*16+guard; n++ {
			a, b, d := draw(n), draw(n), draw(n+guard)
			got, want := append([]float64{}, d...), append([]float64{}, d...)
			v.K.f64(got[:n], a, b)
			subNumbers(want[:n], a, b)
			a32, b32 := make([]float32, n), make([]float32, n)
			for i := range a {
				a32[i], b32[i] = float32(a[i]), float32(b[i])
			}
			d32 := make([]float32, n+guard)
			for i := range d32 {
				d32[i] = float32(d[i])
			}
			got32, want32 := append([]float32{}, d32...), append([]float32{}, d32...)
			v.K.f32(got32[:n], a32, b32)
			subNumbers(want32[:n], a32, b32)
			for i := range got {
				if !sameF64(got[i], want[i]) || !sameF32(got32[i], want32[i]) {
					t.Fatalf("%s n=%d element %d: f64 %v want %v, f32 %v want %v (guard from %d)", v.Name(), n, i, got[i], want[i], got32[i], want32[i], n)
				}
			}
			inA, inB := append([]float64{}, a...), append([]float64{}, b...)
			v.K.f64(inA, inA, b)
			v.K.f64(inB, a, inB)
			for i := range inA {
				if !sameF64(inA[i], want[i]) || !sameF64(inB[i], want[i]) {
					t.Fatalf("%s n=%d in place, element %d: %v %v, want %v", v.Name(), n, i, inA[i], inB[i], want[i])
				}
			}
		}
	}
}

package vec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// exclusiveInputs draws n float32 values with zeros of both signs,
// infinities, NaN, subnormals and values whose float64 products round.
func exclusiveInputs(rng *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		switch rng.IntN(12) {
		case 0:
			v[i] = 0
		case 1:
			v[i] = float32(math.Copysign(0, -1))
		case 2:
			v[i] = float32(math.Inf(1 - 2*rng.IntN(2)))
		case 3:
			v[i] = float32(math.NaN())
		case 4:
			v[i] = math.Float32frombits(rng.Uint32() & 0x807fffff) // subnormal
		default:
			v[i] = float32((rng.Float64()*2 - 1) * math.Pow(2, float64(rng.IntN(60)-30)))
		}
	}
	return v
}

// Every set's row passes give the Go twins' bits at every length through
// three vectors of the widest set and past, and write nothing beyond the
// row (guard elements after o and run keep their values).
func TestExclusiveKernelsMatchTwins(t *testing.T) {
	const guard = 9
	rng := rand.New(rand.NewPCG(11, 12))
	for _, v := range exclusiveTable.Variants() {
		for n := 0; n <= 3*8+guard; n++ {
			for pass := range 3 {
				x, s, o0 := exclusiveInputs(rng, n), exclusiveInputs(rng, n), exclusiveInputs(rng, n+guard)
				run0 := make([]float64, n+guard)
				for j := range run0 {
					run0[j] = float64(exclusiveInputs(rng, 1)[0]) * float64(exclusiveInputs(rng, 1)[0])
				}
				o, run := append([]float32{}, o0...), append([]float64{}, run0...)
				wo, wrun := append([]float32{}, o0...), append([]float64{}, run0...)
				switch pass {
				case 0:
					v.K.prefix(o[:n], run[:n], x)
					prefixGo(wo[:n], wrun[:n], x)
				case 1:
					v.K.suffix(o[:n], run[:n], x)
					suffixGo(wo[:n], wrun[:n], x)
				case 2:
					v.K.suffixScaled(o[:n], run[:n], x, s)
					suffixScaledGo(wo[:n], wrun[:n], x, s)
				}
				for j := range o {
					if !sameF32(o[j], wo[j]) || !sameF64(run[j], wrun[j]) {
						t.Fatalf("%s pass %d n=%d: element %d: o %v run %v, twin o %v run %v (guard from %d)",
							v.Name(), pass, n, j, o[j], run[j], wo[j], wrun[j], n)
					}
				}
			}
		}
	}
}

package sparse

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestKernelsMatchTwins runs the float32/float64 row kernels of every
// kernel set this machine runs against the Go twins at every length around
// the vector edges, every element offset within a cache line, special
// values, and guard elements around y.
func TestKernelsMatchTwins(t *testing.T) {
	for _, v := range kernelSets.Variants() {
		t.Run(v.Name(), func(t *testing.T) {
			checkKernels(t, v.K.f32, 16, func(r *rand.Rand) float32 { return float32(special(r)) })
			checkKernels(t, v.K.f64, 8, special)
		})
	}
}

// special returns a random float64 that is sometimes NaN, ±Inf, ±0, tiny
// or huge (so that products overflow or underflow).
func special(r *rand.Rand) float64 {
	switch r.IntN(12) {
	case 0:
		return math.NaN()
	case 1:
		return math.Inf(1)
	case 2:
		return math.Inf(-1)
	case 3:
		return math.Copysign(0, -1)
	case 4:
		return 0
	case 5:
		return 1e-300 * (r.Float64() - 0.5)
	case 6:
		return 1e300 * (r.Float64() - 0.5)
	}
	return r.NormFloat64()
}

func checkKernels[T float32 | float64](t *testing.T, got rowKernels[T], lanes int, gen func(*rand.Rand) T) {
	twin := goKernels[T]()
	rng := rand.New(rand.NewPCG(7, 8))
	const guard = 16
	sentinel := T(-12345.5)
	var lengths []int
	for n := 0; n <= 3*lanes+1; n++ {
		lengths = append(lengths, n)
	}
	for range 20 {
		lengths = append(lengths, rng.IntN(300))
	}
	lineElems := lanes // one vector is one 64-byte cache line
	for _, n := range lengths {
		for off := 0; off < lineElems; off++ {
			// x rows sit at their own offsets, different from y's.
			xs := make([][]T, 4)
			for r := range xs {
				buf := make([]T, n+lineElems)
				xo := (off + 3*r) % lineElems
				for k := range buf {
					buf[k] = gen(rng)
				}
				xs[r] = buf[xo : xo+n]
			}
			as := [4]T{gen(rng), gen(rng), gen(rng), gen(rng)}
			y0 := make([]T, n)
			for k := range y0 {
				y0[k] = gen(rng)
			}
			run := func(k rowKernels[T], four bool) []T {
				buf := make([]T, guard+off+n+guard)
				for k := range buf {
					buf[k] = sentinel
				}
				y := buf[guard+off : guard+off+n]
				copy(y, y0)
				if four {
					k.axpy4(y, as[0], as[1], as[2], as[3], xs[0], xs[1], xs[2], xs[3])
				} else {
					k.axpy(y, as[0], xs[0])
				}
				for k, v := range buf {
					if (k < guard+off || k >= guard+off+n) && v != sentinel {
						t.Fatalf("n=%d off=%d four=%v: wrote outside y at %d", n, off, four, k-guard-off)
					}
				}
				return y
			}
			for _, four := range []bool{false, true} {
				want, have := run(twin, four), run(got, four)
				for j := range want {
					if !sameFloat(have[j], want[j]) {
						t.Fatalf("n=%d off=%d four=%v: y[%d] = %v, twin %v", n, off, four, j, have[j], want[j])
					}
				}
			}
		}
	}
}

// sameFloat reports equal bits, or both NaN (payloads may differ with
// operand order).
func sameFloat[T float32 | float64](x, y T) bool {
	if x != x || y != y {
		return x != x && y != y
	}
	return sameBits([]T{x}, []T{y})
}

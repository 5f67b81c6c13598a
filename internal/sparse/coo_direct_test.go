package sparse

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestSpMMCOODirectBits checks that SpMMCOO's entry-by-entry path for
// narrow b gives the bits of the row-grouped SpMM: entries in random
// order with repeated positions, special values, b's rows at strides of
// both signs, c in every layout, widths up to past cooDirectMax.
func TestSpMMCOODirectBits(t *testing.T) {
	checkCOODirect(t, func(r *rand.Rand) float32 { return float32(special(r)) })
	checkCOODirect(t, special)
	checkCOODirect(t, func(r *rand.Rand) float64 { return r.Float64()*2 - 1 }) // rounding shows the order
	checkCOODirect(t, func(r *rand.Rand) int32 { return int32(r.Uint32()) })
}

func checkCOODirect[T Number](t *testing.T, gen func(*rand.Rand) T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for n := 1; n <= cooDirectMax+1; n++ {
		for _, sh := range [][2]int{{1, 1}, {7, 5}, {40, 23}, {3, 100}} {
			m, k := sh[0], sh[1]
			a := randomCOO(rng, m, k, 1+rng.IntN(3*m*k/2+1), gen)
			for vi, b := range denseViews[T](k, n) {
				fillRandom(rng, b, gen)
				cs := denseViews[T](m, n)
				want, got := cs[vi], cs[(vi+1)%len(cs)]
				SpMM(a.GroupRows(), b, want, 1)
				fillRandom(rng, got, gen) // stale contents must not leak
				SpMMCOO(a, b, got, 2)
				for i := range m {
					for j := range n {
						if w, g := want.At(i, j), got.At(i, j); !sameNumber(g, w) {
							t.Fatalf("%s: c[%d,%d] = %v, grouped %v", fmt.Sprintf("%dx%d@%d b%d", m, k, n, vi), i, j, g, w)
						}
					}
				}
			}
		}
	}
}

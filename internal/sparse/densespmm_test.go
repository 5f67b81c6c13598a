package sparse

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestDenseSpMMTransposedBits checks that DenseSpMM's transposed path
// (cᵀ = bᵀ·aᵀ through SpMM) gives the bits of the direct scatter, on every
// kernel set: b with repeated positions and unsorted rows, empty rows and
// columns, special values, a and c in every layout, several threads.
func TestDenseSpMMTransposedBits(t *testing.T) {
	defer func(old int64, rows int) { minWorkPerThread, transposedMinRows = old, rows }(minWorkPerThread, transposedMinRows)
	minWorkPerThread, transposedMinRows = 1, 1
	for _, v := range kernelSets.Variants() {
		t.Run(v.Name(), func(t *testing.T) {
			restore := kernelSets.Use(v.Set)
			defer restore()
			checkDenseSpMMPaths(t, func(r *rand.Rand) float32 { return float32(special(r)) })
			checkDenseSpMMPaths(t, special)
			checkDenseSpMMPaths(t, func(r *rand.Rand) complex128 { return complex(special(r), special(r)) })
			checkDenseSpMMPaths(t, func(r *rand.Rand) int32 { return int32(r.Uint32()) })
		})
	}
}

func checkDenseSpMMPaths[T Number](t *testing.T, gen func(*rand.Rand) T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, sh := range [][3]int{{1, 1, 1}, {2, 5, 3}, {7, 3, 1}, {16, 9, 33}, {20, 40, 17}, {33, 64, 70}, {5, 200, 9}} {
		m, k, n := sh[0], sh[1], sh[2]
		for _, density := range []float64{0.05, 0.3, 1.5} {
			b := randomCOO(rng, k, n, int(density*float64(k*n))+1, gen).GroupRows()
			for vi, a := range denseViews[T](m, k) {
				fillRandom(rng, a, gen)
				cs := denseViews[T](m, n)
				want, got := cs[vi], cs[(vi+1)%len(cs)]
				denseSpmmDirect(a, b, want, 1)
				for _, threads := range []int{1, 3} {
					DenseSpMM(a, b, got, threads)
					for i := range m {
						for j := range n {
							if w, g := want.At(i, j), got.At(i, j); !sameNumber(g, w) {
								t.Fatalf("%s: c[%d,%d] = %v, direct %v", fmt.Sprintf("%dx%dx%d density %v a%d threads %d", m, k, n, density, vi, threads), i, j, g, w)
							}
						}
					}
				}
			}
		}
	}
}

// sameNumber reports whether x and y have the same bits, any NaN matching
// any NaN.
func sameNumber[T Number](x, y T) bool {
	switch v := any(x).(type) {
	case float32:
		return sameFloat(v, any(y).(float32))
	case float64:
		return sameFloat(v, any(y).(float64))
	case complex128:
		w := any(y).(complex128)
		return sameFloat(real(v), real(w)) && sameFloat(imag(v), imag(w))
	}
	return x == y
}

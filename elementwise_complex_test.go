package tensor

import (
	"math/rand/v2"
	"testing"
)

// TestComplexRunsAgainstReference checks complex products and sums on
// runs long enough for the vector kernels (odd lengths, so each ends in a
// partial vector): contiguous operands, a scalar on either side, and a
// row broadcast, against the element-by-element reference.
func TestComplexRunsAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, dt := range []DType{Complex64, Complex128} {
		for _, n := range []int{1, 7, 9, 31, 1001} {
			for _, shapes := range [][2][]int{{{n}, {n}}, {{n}, {1}}, {{1}, {n}}, {{3, n}, {n}}} {
				a, b := mpRandom(rng, dt, shapes[0]...), mpRandom(rng, dt, shapes[1]...)
				prod, err := Mul(a, b)
				if err != nil {
					t.Fatal(err)
				}
				mpCheckMul(t, prod, a, b, dt)
				sum, err := Add(a, b)
				if err != nil {
					t.Fatal(err)
				}
				mpCheckAdd(t, sum, a, b, dt)
			}
		}
	}
}

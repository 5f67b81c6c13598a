package tensor

import (
	"math/rand/v2"
	"testing"

	"github.com/tensor-go/tensor/dtype"
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

// TestShortRunsAgainstReference checks broadcasts whose runs are short
// enough for the engine to walk them in blocks (iter's blocking): a
// repeated row, a spread column, a transposed input, and rows of a row
// broadcast up to half a block, for same and mixed dtypes, into new
// tensors, against the element-by-element reference.
func TestShortRunsAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	for _, dts := range [][2]DType{{Float32, Float32}, {Float64, Int32}, {BFloat16, Float32}, {Int8, Int8}, {Complex64, Float32}} {
		for _, shapes := range [][2][]int{
			{{1001, 3}, {3}}, {{3}, {1001, 3}}, {{300, 20}, {300, 1}}, {{2, 50, 7}, {2, 1, 7}}, {{40, 100}, {100}}, {{9, 64}, {9, 1}},
		} {
			a, b := mpRandom(rng, dts[0], shapes[0]...), mpRandom(rng, dts[1], shapes[1]...)
			c, err := dtype.Promote(dts[0], dts[1])
			if err != nil {
				t.Fatal(err)
			}
			prod, err := Mul(a, b)
			if err != nil {
				t.Fatal(err)
			}
			mpCheckMul(t, prod, a, b, c)
			sum, err := Add(a, b)
			if err != nil {
				t.Fatal(err)
			}
			mpCheckAdd(t, sum, a, b, c)
		}
		// A transposed input of short rows: [1000, 3] read down its columns.
		a := mpRandom(rng, dts[0], 3, 1000).Transpose()
		b := mpRandom(rng, dts[1], 1000, 3)
		c, _ := dtype.Promote(dts[0], dts[1])
		prod, err := Mul(a, b)
		if err != nil {
			t.Fatal(err)
		}
		mpCheckMul(t, prod, a, b, c)
	}
}

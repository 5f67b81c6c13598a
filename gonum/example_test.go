package gonum_test

import (
	"fmt"

	"github.com/tensor-go/tensor"
	tg "github.com/tensor-go/tensor/gonum"
	"gonum.org/v1/gonum/mat"
)

func Example() {
	a := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	x, _ := tg.FromDense(a) // shares a's memory
	y, _ := tg.FromMatrix(a.T())
	p, _ := tensor.Matmul(x, y) // a·aᵀ
	m, _ := tg.ViewDense(p)     // shares p's memory
	fmt.Println(mat.Formatted(m))

	// A sub-matrix keeps gonum's row stride: no copy either way.
	sub, _ := tg.FromDense(a.Slice(0, 2, 1, 3).(*mat.Dense))
	fmt.Println(sub.Strides(), sub)
	// Output:
	// ⎡14  32⎤
	// ⎣32  77⎦
	// [3 1] Tensor([[2. 3.]
	//  [5. 6.]], dtype=float64, device=xpux:0)
}

func ExampleToDense() {
	x := tensor.Must(tensor.FromNested([][]float32{{1, 2}, {3, 4}}))
	_, err := tg.ViewDense(x.Transpose()) // float32: gonum holds float64
	fmt.Println(err)
	m, _ := tg.ToDense(x.Transpose()) // converts and copies
	fmt.Println(mat.Formatted(m))
	// Output:
	// tensor: view_dense: gonum holds float64, not float32 (convert with AsType(Float64)): dtype error
	// ⎡1  3⎤
	// ⎣2  4⎦
}

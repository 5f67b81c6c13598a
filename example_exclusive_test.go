package tensor_test

import (
	"fmt"

	"github.com/tensor-go/tensor"
)

// The gradient of a product without division: exact with zeros and
// infinities, where dividing Prod's result by each element is not.
func ExampleExclusiveProd() {
	for _, v := range [][]float32{{2, 0, 4}, {0, 3, 0}} {
		x := tensor.Must(tensor.FromSlice(v))
		fmt.Println(tensor.Must(tensor.ExclusiveProd(x)))
	}
	// Output:
	// Tensor([0. 8. 0.], device=xpux:0)
	// Tensor([0. 0. 0.], device=xpux:0)
}

// ExclusiveProdMul is Prod's backward for a cotangent g: here the gradient
// of the row products of x for g = [1, 10].
func ExampleExclusiveProdMul() {
	x := tensor.Must(tensor.FromNested([][]float64{{2, 3}, {4, 0}}))
	g := tensor.Must(tensor.FromSlice([]float64{1, 10}))
	fmt.Println(tensor.Must(tensor.ExclusiveProdMul(x, g, tensor.Axis(1))))
	// Output:
	// Tensor([[ 3.  2.]
	//  [ 0. 40.]], dtype=float64, device=xpux:0)
}

package tensor_test

import (
	"fmt"

	"github.com/tensor-go/tensor"
)

// MulSum is Sum(Mul(x, y)) without the product: the gradient of a bias,
// g·x summed over the rows, and of a column, summed over the columns.
func ExampleMulSum() {
	g := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3))
	x := tensor.Must(tensor.FromSlice([]float32{1, 1, 1, 2, 2, 2}, 2, 3))
	fmt.Println(tensor.Must(tensor.MulSum(g, x, tensor.Axis(0))))
	fmt.Println(tensor.Must(tensor.MulSum(g, x, tensor.Axis(1), tensor.KeepDims(true))))
	fmt.Println(tensor.Must(tensor.MulSum(g, 0.5)))
	// Output:
	// Tensor([ 9. 12. 15.], device=xpux:0)
	// Tensor([[ 6.]
	//  [30.]], device=xpux:0)
	// Tensor(10.5, device=xpux:0)
}

// MulWithSum gives both gradients of x·b, b a bias broadcast over x's rows,
// from one pass over the cotangent g: g·b, and g·x summed over the rows.
func ExampleMulWithSum() {
	g := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3))
	x := tensor.Must(tensor.FromSlice([]float32{1, 1, 1, 2, 2, 2}, 2, 3))
	b := tensor.Must(tensor.FromSlice([]float32{10, 20, 30}))
	gx, gb, err := tensor.MulWithSum(g, b, x, tensor.Axis(0))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(gx)
	fmt.Println(gb)
	// Output:
	// Tensor([[ 10.  40.  90.]
	//  [ 40. 100. 180.]], device=xpux:0)
	// Tensor([ 9. 12. 15.], device=xpux:0)
}

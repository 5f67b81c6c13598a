package tensor_test

import (
	"fmt"

	"github.com/tensor-go/tensor"
)

// Two Go numbers multiply as a 0-d tensor of the default float dtype.
func ExampleMul() {
	fmt.Println(tensor.Must(tensor.Mul(1.0, 4.0)))
	// Output:
	// Tensor(4.0, device=xpux:0)
}

// Element-wise multiplication of two int32 tensors.
func ExampleMul_elementWise() {
	x := tensor.Must(tensor.FromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3))
	y := tensor.Must(tensor.FromSlice([]int32{1, 1, 1, 2, 2, 2}, 2, 3))
	fmt.Println(tensor.Must(tensor.Mul(x, y)))
	// Output:
	// Tensor([[ 1  2  3]
	//  [ 8 10 12]], dtype=int32, device=xpux:0)
}

// A Go number broadcasts against the tensor and takes its dtype.
func ExampleMul_broadcasting() {
	x := tensor.Must(tensor.FromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3))
	fmt.Println(tensor.Must(tensor.Mul(x, 2)))
	// Output:
	// Tensor([[ 2  4  6]
	//  [ 8 10 12]], dtype=int32, device=xpux:0)
}

// MulInto multiplies in place: x *= y, with y broadcast along the rows.
func ExampleMulInto() {
	x := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3))
	y := tensor.Must(tensor.FromSlice([]float32{0.5, -1, 2}))
	if err := tensor.MulInto(x, x, y); err != nil {
		fmt.Println(err)
	}
	fmt.Println(x)
	_, err := tensor.Mul(x, tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4})))
	fmt.Println(err)
	// Output:
	// Tensor([[ 0.5 -2.   6. ]
	//  [ 2.  -5.  12. ]], device=xpux:0)
	// tensor: mul: shapes (2, 3) and (4,) do not broadcast (dimension 1: 3 vs 4)
}

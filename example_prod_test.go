package tensor_test

import (
	"fmt"

	"github.com/tensor-go/tensor"
)

// The product of an empty tensor is the neutral element 1.
func ExampleProd() {
	empty := tensor.Must(tensor.FromSlice([]float32{}))
	fmt.Println(tensor.Must(tensor.Prod(empty)))
	fmt.Println(tensor.Must(tensor.Prod(tensor.Must(tensor.FromSlice([]int32{1, 2, 3})))))
	fmt.Println(tensor.Must(tensor.Prod(tensor.Must(tensor.FromSlice([]float32{0.5, 1.5})))))
	// Output:
	// Tensor(1.0, device=xpux:0)
	// Tensor(6, dtype=int32, device=xpux:0)
	// Tensor(0.75, device=xpux:0)
}

// Integer products wrap around without an error.
func ExampleProd_modular() {
	x := tensor.Must(tensor.FromSlice([]int32{536870910, 536870910, 536870910, 536870910}))
	fmt.Println(tensor.Must(tensor.Prod(x)))
	// Output:
	// Tensor(16, dtype=int32, device=xpux:0)
}

// Along one axis, or keeping the reduced axis as size 1.
func ExampleAxis() {
	x := tensor.Must(tensor.FromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3))
	fmt.Println(tensor.Must(tensor.Prod(x, tensor.Axis(0))))
	fmt.Println(tensor.Must(tensor.Prod(x, tensor.Axis(1))))
	fmt.Println(tensor.Must(tensor.Prod(x, tensor.Axis(-1), tensor.KeepDims(true))))
	// Output:
	// Tensor([ 4 10 18], dtype=int32, device=xpux:0)
	// Tensor([  6 120], dtype=int32, device=xpux:0)
	// Tensor([[  6]
	//  [120]], dtype=int32, device=xpux:0)
}

// WithDType accumulates and returns in a wider dtype: exact factorials in
// int64, where the int32 product wraps.
func ExampleWithDType() {
	x := tensor.Must(tensor.ArangeRange(1, 21, 1, tensor.Int32))
	fmt.Println(tensor.Must(tensor.Prod(x)))
	fmt.Println(tensor.Must(tensor.Prod(x, tensor.WithDType(tensor.Int64))))
	f := tensor.Must(tensor.FromSlice([]float32{1, 0x1p-30}))
	fmt.Println(tensor.Must(tensor.Sum(f, tensor.WithDType(tensor.Float64))).DType())
	// Output:
	// Tensor(-2102132736, dtype=int32, device=xpux:0)
	// Tensor(2432902008176640000, dtype=int64, device=xpux:0)
	// float64
}

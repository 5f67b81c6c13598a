package tensor_test

import (
	"fmt"

	"github.com/tensor-go/tensor"
)

// Sum takes Prod's options and result dtypes; the empty sum is 0.
func ExampleSum() {
	x := tensor.Must(tensor.FromSlice([]int8{1, 2, 3, 4, 5, 6}, 2, 3))
	fmt.Println(tensor.Must(tensor.Sum(x)))
	fmt.Println(tensor.Must(tensor.Sum(x, tensor.Axis(0))))
	fmt.Println(tensor.Must(tensor.Sum(x, tensor.Axis(-1), tensor.KeepDims(true))))
	fmt.Println(tensor.Must(tensor.Sum(tensor.Must(tensor.FromSlice([]float32{})))))
	// Output:
	// Tensor(21, dtype=int32, device=xpux:0)
	// Tensor([5 7 9], dtype=int32, device=xpux:0)
	// Tensor([[ 6]
	//  [15]], dtype=int32, device=xpux:0)
	// Tensor(0.0, device=xpux:0)
}

// float32 sums are carried in float64 and rounded once: adding 1 to 2^24
// twice is not lost, as it is in a float32 running sum.
func ExampleSum_accuracy() {
	x := tensor.Must(tensor.FromSlice([]float32{1 << 24, 1, 1}))
	fmt.Println(tensor.Must(tensor.Sum(x)))
	// Output:
	// Tensor(16777218.0, device=xpux:0)
}

// A bool sum counts the true elements.
func ExampleSum_count() {
	x := tensor.Must(tensor.FromSlice([]bool{true, false, true, true}, 2, 2))
	fmt.Println(tensor.Must(tensor.Sum(x, tensor.Axis(1))))
	// Output:
	// Tensor([1 2], dtype=int32, device=xpux:0)
}

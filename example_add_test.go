package tensor_test

import (
	"fmt"

	"github.com/tensor-go/tensor"
)

// Add broadcasts and promotes exactly as Mul does; Go numbers are weak
// scalars.
func ExampleAdd() {
	x := tensor.Must(tensor.FromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3))
	row := tensor.Must(tensor.FromSlice([]int32{10, 20, 30}))
	fmt.Println(tensor.Must(tensor.Add(x, row)))
	fmt.Println(tensor.Must(tensor.Add(x, 0.5)))
	// Output:
	// Tensor([[11 22 33]
	//  [14 25 36]], dtype=int32, device=xpux:0)
	// Tensor([[1.5 2.5 3.5]
	//  [4.5 5.5 6.5]], device=xpux:0)
}

// Integers wrap; bool + bool is logical or.
func ExampleAdd_wrap() {
	x := tensor.Must(tensor.FromSlice([]int8{100, -128}))
	fmt.Println(tensor.Must(tensor.Add(x, x)))
	b := tensor.Must(tensor.FromSlice([]bool{true, false}))
	fmt.Println(tensor.Must(tensor.Add(b, b)))
	// Output:
	// Tensor([-56   0], dtype=int8, device=xpux:0)
	// Tensor([ True False], dtype=bool, device=xpux:0)
}

// AddInto accumulates in place, allocating nothing.
func ExampleAddInto() {
	acc := tensor.Must(tensor.Zeros(tensor.Float32, 3))
	for _, v := range [][]float32{{1, 2, 3}, {10, 20, 30}} {
		if err := tensor.AddInto(acc, acc, tensor.Must(tensor.FromSlice(v))); err != nil {
			panic(err)
		}
	}
	fmt.Println(acc)
	// Output:
	// Tensor([11. 22. 33.], device=xpux:0)
}

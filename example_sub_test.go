package tensor_test

import (
	"fmt"

	"github.com/tensor-go/tensor"
)

// Sub has Add's rules (a Go number on either side is a weak scalar);
// Neg keeps the dtype, and integers wrap.
func ExampleSub() {
	x := tensor.Must(tensor.FromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3))
	row := tensor.Must(tensor.FromSlice([]int32{10, 20, 30}))
	fmt.Println(tensor.Must(tensor.Sub(x, row)))
	fmt.Println(tensor.Must(tensor.Sub(1, tensor.Must(tensor.FromSlice([]uint8{0, 2})))))
	fmt.Println(tensor.Must(tensor.Neg(tensor.Must(tensor.FromSlice([]float32{0, -1.5})))))
	_, err := tensor.Sub(tensor.Must(tensor.FromSlice([]bool{true})), true)
	fmt.Println(err)
	// Output:
	// Tensor([[ -9 -18 -27]
	//  [ -6 -15 -24]], dtype=int32, device=xpux:0)
	// Tensor([  1 255], dtype=uint8, device=xpux:0)
	// Tensor([-0.   1.5], device=xpux:0)
	// tensor: sub: subtraction with a bool operand is not supported (use logical not to invert a mask)
}

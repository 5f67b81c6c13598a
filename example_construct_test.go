package tensor_test

import (
	"fmt"

	"github.com/tensor-go/tensor"
)

func ExampleFromNested() {
	x, err := tensor.FromNested([][]int32{{1, 2, 3}, {4, 5, 6}})
	if err != nil {
		panic(err)
	}
	fmt.Println(x.Shape(), x.DType())
	fmt.Println(x)
	// Output:
	// [2 3] int32
	// Tensor([[1 2 3]
	//  [4 5 6]], dtype=int32, device=xpux:0)
}

func ExampleFull() {
	fmt.Println(tensor.Must(tensor.Full(0.75, tensor.Float32)))
	fmt.Println(tensor.Must(tensor.Full(7, tensor.Uint8, 3)))
	_, err := tensor.Full(300, tensor.Int8, 3)
	fmt.Println(err)
	// Output:
	// Tensor(0.75, device=xpux:0)
	// Tensor([7 7 7], dtype=uint8, device=xpux:0)
	// tensor: full: value 300 is outside the range of int8
}

func ExampleArange() {
	fmt.Println(tensor.Must(tensor.Arange(4)))
	fmt.Println(tensor.Must(tensor.ArangeRange(0, 1, 0.25, tensor.Float32)))
	fmt.Println(tensor.Must(tensor.ArangeRange(10, 0, -3, tensor.Int64)))
	// Output:
	// Tensor([0 1 2 3], dtype=int32, device=xpux:0)
	// Tensor([0.   0.25 0.5  0.75], device=xpux:0)
	// Tensor([10  7  4  1], dtype=int64, device=xpux:0)
}

func ExampleRand() {
	// The same seed always gives the same tensor.
	a := tensor.Must(tensor.Rand(42, tensor.Int32, 0, 10, 8))
	b := tensor.Must(tensor.Rand(42, tensor.Int32, 0, 10, 8))
	fmt.Println(a.String() == b.String())
	// Output:
	// true
}

func ExampleTensor_String() {
	x := tensor.Must(tensor.FromNested([][]float64{{1, 2.5}, {-0.125, 1e-5}}))
	fmt.Println(x)
	y := tensor.Must(tensor.FromNested([]complex64{1 + 2i, -1i}))
	fmt.Println(y)
	z := tensor.Must(tensor.FromNested([]bool{true, false}))
	fmt.Println(z)
	// More than 1000 elements are summarised.
	fmt.Println(tensor.Must(tensor.Arange(2000)))
	// Output:
	// Tensor([[ 1.     2.5  ]
	//  [-0.125  0.   ]], dtype=float64, device=xpux:0)
	// Tensor([1.+2.j 0.-1.j], dtype=complex64, device=xpux:0)
	// Tensor([ True False], dtype=bool, device=xpux:0)
	// Tensor([   0    1    2 ... 1997 1998 1999], dtype=int32, device=xpux:0)
}

func ExampleTensor_Slice() {
	x := tensor.Must(tensor.Must(tensor.Arange(12)).Reshape(3, 4))
	// Python: x[1:, ::-2]
	fmt.Println(tensor.Must(x.Slice(tensor.From(1), tensor.All().By(-2))))
	// Python: x[-1]
	fmt.Println(tensor.Must(x.Slice(tensor.Index(-1))))
	// Output:
	// Tensor([[ 7  5]
	//  [11  9]], dtype=int32, device=xpux:0)
	// Tensor([ 8  9 10 11], dtype=int32, device=xpux:0)
}

func ExampleTensor_Reshape() {
	x := tensor.Must(tensor.Arange(6))
	m := tensor.Must(x.Reshape(2, -1))
	fmt.Println(m)
	fmt.Println(m.Transpose())
	// Output:
	// Tensor([[0 1 2]
	//  [3 4 5]], dtype=int32, device=xpux:0)
	// Tensor([[0 3]
	//  [1 4]
	//  [2 5]], dtype=int32, device=xpux:0)
}

func ExampleTensor_At() {
	x := tensor.Must(tensor.FromNested([][]float32{{1, 2}, {3, 4}}))
	v, _ := x.At(1, -1)
	fmt.Printf("%v %T\n", v, v)
	s, _ := tensor.ToSlice[float32](x.Transpose())
	fmt.Println(s)
	// Output:
	// 4 float32
	// [1 3 2 4]
}

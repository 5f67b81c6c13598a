package tensor_test

import (
	"fmt"

	"github.com/tensor-go/tensor"
)

func ExampleWrap() {
	weights := []float32{1, 2, 3, 4, 5, 6}
	w := tensor.Must(tensor.Wrap(weights, 2, 3)) // no copy: w is weights
	weights[0] = 10                              // seen by w
	if err := tensor.MulInto(w, w, 2); err != nil {
		panic(err)
	}
	fmt.Println(weights) // and w's writes are seen by the slice
	// Output:
	// [20 4 6 8 10 12]
}

func ExampleElements() {
	y := tensor.Must(tensor.Matmul(
		tensor.Must(tensor.FromNested([][]float64{{1, 2}, {3, 4}})),
		tensor.Must(tensor.FromNested([][]float64{{1, 0}, {0, 1}}))))
	e, err := tensor.Elements[float64](y) // y's own storage, row-major
	if err != nil {
		panic(err)
	}
	fmt.Println(e)
	_, err = tensor.Elements[float64](y.Transpose())
	fmt.Println(err)
	// Output:
	// [1 2 3 4]
	// tensor: elements: the tensor of shape (2, 2) has strides (1, 2), not a contiguous layout; copy it with Contiguous() or read it with ToSlice
}

func ExampleGet() {
	x := tensor.Must(tensor.FromNested([][]int32{{1, 2, 3}, {4, 5, 6}}))
	v, _ := tensor.Get[int32](x, 1, -1)
	_ = tensor.Set(x, int32(60), 1, 2)
	w, _ := tensor.Get[int32](x, 1, 2)
	fmt.Println(v, w)
	// Output:
	// 6 60
}

func ExampleEach() {
	x := tensor.Must(tensor.FromNested([][]float32{{1, 2}, {3, 4}}))
	seq, err := tensor.Each[float32](x.Transpose())
	if err != nil {
		panic(err)
	}
	for i, v := range seq {
		fmt.Print(i, ":", v, " ")
	}
	fmt.Println()
	// Output:
	// 0:1 1:3 2:2 3:4
}

func ExampleCopy() {
	x := tensor.Must(tensor.Zeros(tensor.Int32, 3, 3))
	// x[1:, ::2] = [7, 8]: the row broadcasts over the two rows of the view.
	view := tensor.Must(x.Slice(tensor.From(1), tensor.All().By(2)))
	if err := tensor.Copy(view, []int32{7, 8}); err != nil {
		panic(err)
	}
	fmt.Println(x)
	fmt.Println(tensor.Copy(x, 0.5))
	// Output:
	// Tensor([[0 0 0]
	//  [7 0 8]
	//  [7 0 8]], dtype=int32, device=xpux:0)
	// tensor: copy: cannot write Go float64 0.5 into a tensor of dtype int32
}

package tensor_test

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/tensor-go/tensor"
)

func ExampleTensor_Format() {
	x := tensor.Must(tensor.FromNested([][]float64{{1.0 / 3, 2e-7}, {-1, 12345.678}}))
	fmt.Printf("%.3g\n", x)
	fmt.Printf("%.2e\n", x)
	fmt.Printf("%+v\n", tensor.Must(tensor.Arange(3)))
	// Output:
	// Tensor([[   0.333    2e-07]
	//  [      -1 1.23e+04]], dtype=float64, device=xpux:0)
	// Tensor([[ 3.33e-01  2.00e-07]
	//  [-1.00e+00  1.23e+04]], dtype=float64, device=xpux:0)
	// Tensor([0 1 2], shape=(3,), strides=(1,), offset=0, dtype=int32, layout=strided, device=xpux:0)
}

func ExampleAllClose() {
	got := tensor.Must(tensor.FromSlice([]float32{1.0000001, 2, float32(math.NaN())}))
	want := tensor.Must(tensor.FromSlice([]float64{1, 2, math.NaN()}))
	ok, err := tensor.AllClose(got, want)
	fmt.Println(ok, err)
	ok, err = tensor.AllClose(got, want, tensor.EqualNaN())
	fmt.Println(ok, err)
	ok, _ = tensor.AllClose(tensor.Must(tensor.FromSlice([]float64{1.01})), tensor.ScalarOf(1.0), tensor.RTol(0.02))
	fmt.Println(ok)
	// Output:
	// false <nil>
	// true <nil>
	// true
}

func ExampleEqual() {
	x := tensor.Must(tensor.FromNested([][]int32{{1, 2}, {3, 4}}))
	y := tensor.Must(x.Transpose().Contiguous()).Transpose() // other strides
	fmt.Println(tensor.Equal(x, y), tensor.Equal(x, tensor.Must(x.AsType(tensor.Int64))))
	// Output:
	// true false
}

func ExampleTensor_MarshalJSON() {
	x := tensor.Must(tensor.FromNested([][]float32{{0.1, 2}, {3, 4}}))
	b, err := json.Marshal(map[string]*tensor.Tensor{"w": x})
	fmt.Println(string(b), err)
	// Output:
	// {"w":[[0.1,2],[3,4]]} <nil>
}

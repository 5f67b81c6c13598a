package autograd_test

import (
	"fmt"

	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/autograd"
)

func ExampleTape_VJP() {
	x := tensor.Must(tensor.FromSlice([]float64{1, 2, 3}))
	w := tensor.Must(tensor.FromSlice([]float64{4, 5, 6}))
	tp := autograd.New()
	y, _ := tp.Mul(x, w)
	seed := tensor.Must(tensor.FromSlice([]float64{1, 0, 2}))
	g, err := tp.VJP([]*tensor.Tensor{y}, []*tensor.Tensor{seed}, []*tensor.Tensor{x, w})
	if err != nil {
		panic(err)
	}
	fmt.Println(g[0])
	fmt.Println(g[1])
	// Output:
	// Tensor([ 4.  0. 12.], dtype=float64, device=xpux:0)
	// Tensor([1. 0. 6.], dtype=float64, device=xpux:0)
}

// Prod's gradient is the product of the other elements, exact with zeros
// and infinities.
func ExampleTape_Grad() {
	for _, v := range [][]float32{{2, 0, 4}, {0, 3, 0}} {
		x := tensor.Must(tensor.FromSlice(v))
		tp := autograd.New()
		y, _ := tp.Prod(x)
		g, _ := tp.Grad(y, []*tensor.Tensor{x})
		fmt.Println(g[0])
	}
	// Output:
	// Tensor([0. 8. 0.], device=xpux:0)
	// Tensor([0. 0. 0.], device=xpux:0)
}

// The Hessian of prod at [0, 3, 0], one row per VJP of the gradient.
func ExampleCreateGraph() {
	x := tensor.Must(tensor.FromSlice([]float64{0, 3, 0}))
	tp := autograd.New()
	y, _ := tp.Prod(x)
	g, _ := tp.Grad(y, []*tensor.Tensor{x}, autograd.CreateGraph())
	for i := range 3 {
		e := make([]float64, 3)
		e[i] = 1
		row, _ := tp.VJP(g, []*tensor.Tensor{tensor.Must(tensor.FromSlice(e))}, []*tensor.Tensor{x})
		fmt.Println(row[0])
	}
	// Output:
	// Tensor([0. 0. 3.], dtype=float64, device=xpux:0)
	// Tensor([0. 0. 0.], dtype=float64, device=xpux:0)
	// Tensor([3. 0. 0.], dtype=float64, device=xpux:0)
}

// Matmul with a 1-D operand: the dropped dimension comes back in the
// gradient, and the batch dimension is summed for the shared matrix.
func ExampleTape_Matmul() {
	a := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 1, 3)) // a batch of two 1×3
	b := tensor.Must(tensor.FromSlice([]float32{1, 1, 1}))                   // (3,)
	tp := autograd.New()
	y, _ := tp.Matmul(a, b) // (2, 1)
	g, _ := tp.VJP([]*tensor.Tensor{y}, []*tensor.Tensor{tensor.Must(tensor.Ones(tensor.Float32, 2, 1))}, []*tensor.Tensor{a, b})
	fmt.Println(g[0].Shape(), g[1])
	// Output:
	// [2 1 3] Tensor([5. 7. 9.], device=xpux:0)
}

func ExampleAllowUnused() {
	x := tensor.Must(tensor.FromSlice([]float64{1, 2}))
	unused := tensor.Must(tensor.FromSlice([]float64{3}))
	tp := autograd.New()
	y, _ := tp.Mul(x, 2.0)
	seed := tensor.Must(tensor.FromSlice([]float64{1, 1}))
	_, err := tp.VJP([]*tensor.Tensor{y}, []*tensor.Tensor{seed}, []*tensor.Tensor{unused})
	fmt.Println(err)
	g, _ := tp.VJP([]*tensor.Tensor{y}, []*tensor.Tensor{seed}, []*tensor.Tensor{unused}, autograd.AllowUnused())
	fmt.Println(g[0])
	// Output:
	// tensor: vjp: tensor 0 (shape [1]) to differentiate with respect to is not on the tape
	// Tensor([0.], dtype=float64, device=xpux:0)
}

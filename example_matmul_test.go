package tensor_test

import (
	"fmt"

	"github.com/tensor-go/tensor"
)

// matmulRandn returns a float32 tensor of the given shape with random values, as
// torch.matmulRandn does in PyTorch's examples; only the shapes matter below.
func matmulRandn(shape ...int) *tensor.Tensor {
	return tensor.Must(tensor.Rand(1, tensor.Float32, -1, 1, shape...))
}

// The examples of PyTorch's torch.matmul documentation; Shape prints what
// torch.Size does.
func ExampleMatmul() {
	// vector x vector
	tensor1, tensor2 := matmulRandn(3), matmulRandn(3)
	fmt.Println(tensor.Must(tensor.Matmul(tensor1, tensor2)).Shape())
	// matrix x vector
	tensor1, tensor2 = matmulRandn(3, 4), matmulRandn(4)
	fmt.Println(tensor.Must(tensor.Matmul(tensor1, tensor2)).Shape())
	// batched matrix x broadcasted vector
	tensor1, tensor2 = matmulRandn(10, 3, 4), matmulRandn(4)
	fmt.Println(tensor.Must(tensor.Matmul(tensor1, tensor2)).Shape())
	// batched matrix x batched matrix
	tensor1, tensor2 = matmulRandn(10, 3, 4), matmulRandn(10, 4, 5)
	fmt.Println(tensor.Must(tensor.Matmul(tensor1, tensor2)).Shape())
	// batched matrix x broadcasted matrix
	tensor1, tensor2 = matmulRandn(10, 3, 4), matmulRandn(4, 5)
	fmt.Println(tensor.Must(tensor.Matmul(tensor1, tensor2)).Shape())
	// Output:
	// []
	// [3]
	// [10 3]
	// [10 3 5]
	// [10 3 5]
}

// Batch dimensions broadcast, matrix dimensions do not: (j, 1, n, m) @
// (k, m, p) is (j, k, n, p), as in the documentation's note.
func ExampleMatmul_broadcastBatches() {
	j, k, n, m, p := 2, 3, 4, 5, 6
	c := tensor.Must(tensor.Matmul(matmulRandn(j, 1, n, m), matmulRandn(k, m, p)))
	fmt.Println(c.Shape())
	_, err := tensor.Matmul(matmulRandn(2, 3), matmulRandn(4, 5))
	fmt.Println(err)
	// Output:
	// [2 3 4 6]
	// tensor: matmul: shapes (2, 3) and (4, 5): inner sizes 3 and 4 differ
}

// A small product with its values: integers stay int32, and mixing int32
// with float32 promotes to float32.
func ExampleMatmul_values() {
	a := tensor.Must(tensor.FromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3))
	b := tensor.Must(tensor.FromSlice([]int32{1, 0, 0, 1, 1, 1}, 3, 2))
	fmt.Println(tensor.Must(tensor.Matmul(a, b)))
	v := tensor.Must(tensor.FromSlice([]float32{0.5, 0.25, 2}))
	fmt.Println(tensor.Must(tensor.Matmul(a, v)))
	// Output:
	// Tensor([[ 4  5]
	//  [10 11]], dtype=int32, device=xpux:0)
	// Tensor([ 7.   15.25], device=xpux:0)
}

// MatmulInto writes into an existing tensor, here one of the operands.
func ExampleMatmulInto() {
	a := tensor.Must(tensor.FromSlice([]float64{1, 2, 3, 4}, 2, 2))
	id := tensor.Must(tensor.FromSlice([]float64{0, 1, 1, 0}, 2, 2))
	if err := tensor.MatmulInto(a, a, id); err != nil { // swap the columns in place
		fmt.Println(err)
	}
	fmt.Println(a)
	// Output:
	// Tensor([[2. 1.]
	//  [4. 3.]], dtype=float64, device=xpux:0)
}

// TF32 rounds float32 operands to 10 mantissa bits before multiplying:
// 1 + 2^-12 becomes 1.
func ExampleWithPrecision() {
	x := tensor.Must(tensor.FromSlice([]float32{1 + 1.0/4096}))
	one := tensor.Must(tensor.FromSlice([]float32{1}))
	exact := tensor.Must(tensor.Matmul(x, one))
	tf32 := tensor.Must(tensor.Matmul(x, one, tensor.WithPrecision(tensor.TF32)))
	e, _ := exact.Item()
	t, _ := tf32.Item()
	fmt.Println(e, t)
	// Output:
	// 1.0002441 1
}

// A loop that drops a result per call releases it, so that the next call
// writes into the same memory, as NumPy's would.
func ExampleTensor_Release() {
	a := tensor.Must(tensor.Ones(tensor.Float32, 2, 2))
	var total float64
	for range 3 {
		y := tensor.Must(tensor.Matmul(a, a))
		v, _ := y.At(0, 0)
		total += float64(v.(float32))
		y.Release()
	}
	fmt.Println(total)
	y := tensor.Must(tensor.Matmul(a, a))
	y.Release()
	_, err := tensor.Matmul(y, a)
	fmt.Println(err)
	// Output:
	// 6
	// tensor: matmul: the float32 tensor of shape (2, 2) was released
}

func ExampleMatmulConfig() {
	// A config is a value: code that holds one multiplies at its precision
	// whatever tensor.SetMatmulPrecision set for the rest of the program.
	gpuLike := tensor.MatmulConfig{Precision: tensor.TF32}
	a := tensor.Must(tensor.FromNested([][]float32{{1.0001}}))
	b := tensor.Must(tensor.FromNested([][]float32{{1}}))
	fmt.Printf("%.5f\n", tensor.Must(gpuLike.Matmul(a, b)))
	fmt.Printf("%.5f\n", tensor.Must(tensor.MatmulConfig{}.Matmul(a, b)))
	// Output:
	// Tensor([[1.00000]], device=xpux:0)
	// Tensor([[1.00010]], device=xpux:0)
}

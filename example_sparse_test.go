package tensor_test

import (
	"bytes"
	"fmt"
	"math"

	"github.com/tensor-go/tensor"
)

// A COO tensor from coordinates, as torch.sparse_coo_tensor builds one.
func ExampleNewSparseCOO() {
	values := tensor.Must(tensor.FromSlice([]float32{3, 4, 5}))
	s := tensor.Must(tensor.NewSparseCOO([]int64{0, 1, 1}, []int64{2, 0, 2}, values, 2, 3))
	fmt.Println(s)
	fmt.Println(s.Layout(), s.Nnz(), s.Shape())
	fmt.Println(tensor.Must(s.ToDense()))
	// Output:
	// Tensor(indices=[[0 1 1]
	//  [2 0 2]], values=[3. 4. 5.], size=(2, 3), nnz=3, layout=sparse_coo, device=xpux:0)
	// sparse_coo 3 [2 3]
	// Tensor([[0. 0. 3.]
	//  [4. 0. 5.]], device=xpux:0)
}

// A CSR tensor from row pointers; bad index data is an error naming the layout.
func ExampleNewSparseCSR() {
	values := tensor.Must(tensor.FromSlice([]int64{1, 2, 3}))
	s, err := tensor.NewSparseCSR([]int64{0, 2, 3}, []int64{0, 2, 1}, values, 2, 3)
	fmt.Println(s, err)
	_, err = tensor.NewSparseCSR([]int64{0, 3, 2}, []int64{0, 2, 1}, values, 2, 3)
	fmt.Println(err)
	// Output:
	// Tensor(crow_indices=[0 2 3], col_indices=[0 2 1], values=[1 2 3], size=(2, 3), nnz=3, dtype=int64, layout=sparse_csr, device=xpux:0) <nil>
	// tensor: sparse_csr_tensor: row pointers decrease at row 1 (3 then 2)
}

// Repeated positions sum when coalesced.
func ExampleTensor_Coalesce() {
	values := tensor.Must(tensor.FromSlice([]int32{1, 2, 10}))
	s := tensor.Must(tensor.NewSparseCOO([]int64{1, 0, 1}, []int64{1, 0, 1}, values, 2, 2))
	c := tensor.Must(s.Coalesce())
	rows, cols, v, _ := c.SparseParts()
	fmt.Println(rows, cols, v, c.IsCoalesced())
	// Output:
	// [0 1] [0 1] Tensor([ 2 11], dtype=int32, device=xpux:0) true
}

// Sparse operands in Matmul: sparse@dense is dense, sparse@sparse sparse,
// and an implicit zero never meets the dense operand's NaN.
func ExampleMatmul_sparse() {
	a := tensor.Must(tensor.Must(tensor.FromSlice([]float64{1, 0, 0, 2}, 2, 2)).ToSparseCSR())
	b := tensor.Must(tensor.FromSlice([]float64{10, 20, 30, math.NaN()}, 2, 2))
	fmt.Println(tensor.Must(tensor.Matmul(a, b)))
	fmt.Println(tensor.Must(tensor.Matmul(a, a)))
	// Output:
	// Tensor([[10. 20.]
	//  [60. nan]], dtype=float64, device=xpux:0)
	// Tensor(crow_indices=[0 1 2], col_indices=[0 1], values=[1. 4.], size=(2, 2), nnz=2, dtype=float64, layout=sparse_csr, device=xpux:0)
}

// Sparse times dense keeps the sparse pattern: the Inf at an implicit zero
// does not turn into NaN.
func ExampleMul_sparse() {
	s := tensor.Must(tensor.Must(tensor.FromSlice([]float32{0, 2, 3, 0}, 2, 2)).ToSparseCOO())
	d := tensor.Must(tensor.FromSlice([]float32{float32(math.Inf(1)), 5, 7, 1}, 2, 2))
	p := tensor.Must(tensor.Mul(s, d))
	fmt.Println(p)
	fmt.Println(tensor.Must(p.ToDense()))
	// Output:
	// Tensor(indices=[[0 1]
	//  [1 0]], values=[10. 21.], size=(2, 2), nnz=2, layout=sparse_coo, device=xpux:0)
	// Tensor([[ 0. 10.]
	//  [21.  0.]], device=xpux:0)
}

// SciPy's sparse .npz format: what scipy.sparse.save_npz writes and
// load_npz reads.
func ExampleWriteSparseNPZ() {
	s := tensor.Must(tensor.Must(tensor.FromSlice([]float64{0, 1.5, 2, 0}, 2, 2)).ToSparseCSR())
	var buf bytes.Buffer
	if err := tensor.WriteSparseNPZ(&buf, s, true); err != nil {
		fmt.Println(err)
	}
	back, err := tensor.ReadSparseNPZ(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	fmt.Println(back, err)
	// Output:
	// Tensor(crow_indices=[0 1 2], col_indices=[1 0], values=[1.5 2. ], size=(2, 2), nnz=2, dtype=float64, layout=sparse_csr, device=xpux:0) <nil>
}

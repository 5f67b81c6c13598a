package vec

import "github.com/tensor-go/tensor/internal/kernels"

// rowGo is the Go twin of the four-row kernels.
var rowGo = rowKernels{f32: rows4[float32], f64: rows4[float64]}

// rowImpl is the active kernel set's entry, which the exported functions
// use; architecture files add their entries to rowTable in init.
var (
	rowImpl  rowKernels
	rowTable = kernels.NewTable(&rowImpl, rowGo)
)

// rows4 multiplies the four rows of x, stride elements apart, into acc:
//
//	for i := range acc { acc[i] = acc[i] * x[i] * x[stride+i] * x[2*stride+i] * x[3*stride+i] }
func rows4[T number](acc, x []T, stride int) {
	x0 := x[:len(acc)]
	x1 := x[stride : stride+len(acc)]
	x2 := x[2*stride : 2*stride+len(acc)]
	x3 := x[3*stride : 3*stride+len(acc)]
	for i := range acc {
		acc[i] = acc[i] * x0[i] * x1[i] * x2[i] * x3[i]
	}
}

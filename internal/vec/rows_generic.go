package vec

import "github.com/tensor-go/tensor/internal/kernels"

// The Go twins of the four-row kernels.
var (
	mulRowGo = rowKernels{f32: mulRows4[float32, float32], f64: mulRows4[float64, float64], f32f64: mulRows4[float64, float32], f32f64Up: mulRows4Up}
	addRowGo = rowKernels{f32: addRows4[float32, float32], f64: addRows4[float64, float64], f32f64: addRows4[float64, float32]}
)

// mulRowImpl and addRowImpl are the active kernel set's entries, which the
// exported functions use; architecture files add their entries to the
// tables in init.
var (
	mulRowImpl, addRowImpl rowKernels
	mulRowTable            = kernels.NewTable(&mulRowImpl, mulRowGo)
	addRowTable            = kernels.NewTable(&addRowImpl, addRowGo)
)

// mulRows4 multiplies the four rows of x, stride elements apart, into acc:
//
//	for i := range acc { acc[i] = acc[i] * x[i] * x[stride+i] * x[2*stride+i] * x[3*stride+i] }
func mulRows4[A float32 | float64, X float32 | float64](acc []A, x []X, stride int) {
	x0 := x[:len(acc)]
	x1 := x[stride : stride+len(acc)]
	x2 := x[2*stride : 2*stride+len(acc)]
	x3 := x[3*stride : 3*stride+len(acc)]
	for i := range acc {
		acc[i] = acc[i] * A(x0[i]) * A(x1[i]) * A(x2[i]) * A(x3[i])
	}
}

// mulRows4Up multiplies the four float32 rows of x, stride elements apart,
// into acc from the last up:
//
//	for i := range acc { acc[i] = acc[i] * x[3*stride+i] * x[2*stride+i] * x[stride+i] * x[i] }
func mulRows4Up(acc []float64, x []float32, stride int) {
	x0 := x[:len(acc)]
	x1 := x[stride : stride+len(acc)]
	x2 := x[2*stride : 2*stride+len(acc)]
	x3 := x[3*stride : 3*stride+len(acc)]
	for i := range acc {
		acc[i] = acc[i] * float64(x3[i]) * float64(x2[i]) * float64(x1[i]) * float64(x0[i])
	}
}

// addRows4 adds the four rows of x, stride elements apart, into acc:
//
//	for i := range acc { acc[i] = acc[i] + x[i] + x[stride+i] + x[2*stride+i] + x[3*stride+i] }
func addRows4[A float32 | float64, X float32 | float64](acc []A, x []X, stride int) {
	x0 := x[:len(acc)]
	x1 := x[stride : stride+len(acc)]
	x2 := x[2*stride : 2*stride+len(acc)]
	x3 := x[3*stride : 3*stride+len(acc)]
	for i := range acc {
		acc[i] = acc[i] + A(x0[i]) + A(x1[i]) + A(x2[i]) + A(x3[i])
	}
}

//go:build !purego

package vec

import "github.com/tensor-go/tensor/internal/kernels"

// The stride of these kernels is in elements, as in the Go twins.

//go:noescape
func mulRows4F32AVX512(acc, x []float32, stride int)

//go:noescape
func mulRows4F64AVX512(acc, x []float64, stride int)

//go:noescape
func mulRows4F32F64AVX512(acc []float64, x []float32, stride int)

//go:noescape
func addRows4F64AVX512(acc, x []float64, stride int)

//go:noescape
func addRows4F32F64AVX512(acc []float64, x []float32, stride int)

// The AVX2 kernels stop at the last full vector; rowsTailed finishes in Go.
//
//go:noescape
func mulRows4F32AVX2(acc, x []float32, stride int)

//go:noescape
func mulRows4F64AVX2(acc, x []float64, stride int)

//go:noescape
func addRows4F64AVX2(acc, x []float64, stride int)

//go:noescape
func mulRows4F32F64AVX2(acc []float64, x []float32, stride int)

//go:noescape
func addRows4F32F64AVX2(acc []float64, x []float32, stride int)

// rowsUp runs a four-row kernel from the last of x's four rows up: the
// kernels take the rows at x, x+stride, x+2·stride and x+3·stride in that
// order with a signed stride, so starting at the last row with the stride
// negated gives the rows in reverse, all four within x.
func rowsUp(four func(acc []float64, x []float32, stride int)) func(acc []float64, x []float32, stride int) {
	return func(acc []float64, x []float32, stride int) {
		four(acc, x[3*stride:], -stride)
	}
}

// The AVX-512 kernels' masked last vector handles every length. Sums of
// float32 are carried in float64, so there is no float32 add-rows kernel.
func init() {
	mulRowTable.Add(kernels.AVX512, rowKernels{f32: mulRows4F32AVX512, f64: mulRows4F64AVX512, f32f64: mulRows4F32F64AVX512,
		f32f64Up: rowsUp(mulRows4F32F64AVX512)})
	mulRowTable.Add(kernels.AVX2, rowKernels{
		f32:      rowsTailed(8, mulRows4F32AVX2, mulRows4[float32, float32]),
		f64:      rowsTailed(4, mulRows4F64AVX2, mulRows4[float64, float64]),
		f32f64:   rowsTailed(4, mulRows4F32F64AVX2, mulRows4[float64, float32]),
		f32f64Up: rowsTailed(4, rowsUp(mulRows4F32F64AVX2), mulRows4Up),
	})
	addRowTable.Add(kernels.AVX512, rowKernels{f32: addRows4[float32, float32], f64: addRows4F64AVX512, f32f64: addRows4F32F64AVX512})
	addRowTable.Add(kernels.AVX2, rowKernels{
		f32:    addRows4[float32, float32],
		f64:    rowsTailed(4, addRows4F64AVX2, addRows4[float64, float64]),
		f32f64: rowsTailed(4, addRows4F32F64AVX2, addRows4[float64, float32]),
	})
}

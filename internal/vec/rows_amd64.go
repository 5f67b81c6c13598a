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

// The AVX-512 kernels' masked last vector handles every length. Sums of
// float32 are carried in float64, so there is no float32 add-rows kernel.
func init() {
	mulRowTable.Add(kernels.AVX512, rowKernels{f32: mulRows4F32AVX512, f64: mulRows4F64AVX512, f32f64: mulRows4F32F64AVX512})
	mulRowTable.Add(kernels.AVX2, rowKernels{
		f32:    rowsTailed(8, mulRows4F32AVX2, mulRows4[float32, float32]),
		f64:    rowsTailed(4, mulRows4F64AVX2, mulRows4[float64, float64]),
		f32f64: rowsTailed(4, mulRows4F32F64AVX2, mulRows4[float64, float32]),
	})
	addRowTable.Add(kernels.AVX512, rowKernels{f32: addRows4[float32, float32], f64: addRows4F64AVX512, f32f64: addRows4F32F64AVX512})
	addRowTable.Add(kernels.AVX2, rowKernels{
		f32:    addRows4[float32, float32],
		f64:    rowsTailed(4, addRows4F64AVX2, addRows4[float64, float64]),
		f32f64: rowsTailed(4, addRows4F32F64AVX2, addRows4[float64, float32]),
	})
}

//go:build !purego

package vec

import "github.com/tensor-go/tensor/internal/kernels"

//go:noescape
func subF32AVX512(dst, a, b []float32)

//go:noescape
func subF64AVX512(dst, a, b []float64)

//go:noescape
func subF32AVX2(dst, a, b []float32)

//go:noescape
func subF64AVX2(dst, a, b []float64)

func init() {
	subTable.Add(kernels.AVX512, subKernels{f32: subF32AVX512, f64: subF64AVX512})
	subTable.Add(kernels.AVX2, subKernels{
		f32: tailed(8, subF32AVX2, subNumbers[float32]),
		f64: tailed(4, subF64AVX2, subNumbers[float64]),
	})
}

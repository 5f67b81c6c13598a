//go:build !purego

package vec

import "github.com/tensor-go/tensor/internal/cpufeat"

// The stride of these kernels is in elements, as in the Go twins.

//go:noescape
func rows4F32AVX512(acc, x []float32, stride int)

//go:noescape
func rows4F64AVX512(acc, x []float64, stride int)

// Only AVX-512 has a four-row kernel: its masked last vector handles every
// length. Elsewhere MulRowsF32 and MulRowsF64 fall back to row by row with
// the accelerated MulF32 and MulF64, faster than the scalar twin.
func init() {
	if cpufeat.AVX512 {
		avx512 := rowKernels{f32: rows4F32AVX512, f64: rows4F64AVX512}
		rowAccelerated = append(rowAccelerated, rowVariant{"avx512", avx512})
		rowImpl = avx512
	}
}

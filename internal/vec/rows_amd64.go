//go:build !purego

package vec

import "github.com/tensor-go/tensor/internal/kernels"

// The stride of these kernels is in elements, as in the Go twins.

//go:noescape
func rows4F32AVX512(acc, x []float32, stride int)

//go:noescape
func rows4F64AVX512(acc, x []float64, stride int)

// The AVX2 kernels stop at the last full vector; rowsTailed finishes in Go.
//
//go:noescape
func rows4F32AVX2(acc, x []float32, stride int)

//go:noescape
func rows4F64AVX2(acc, x []float64, stride int)

// rowsTailed runs body on the longest prefix of acc that is a multiple of
// w elements and the Go twin on the rest (the same products per element).
func rowsTailed[T number](w int, body func(acc, x []T, stride int)) func(acc, x []T, stride int) {
	return func(acc, x []T, stride int) {
		n := len(acc) &^ (w - 1)
		body(acc[:n], x, stride)
		if n < len(acc) {
			rows4(acc[n:], x[n:], stride)
		}
	}
}

// The AVX-512 kernels' masked last vector handles every length.
func init() {
	rowTable.Add(kernels.AVX512, rowKernels{f32: rows4F32AVX512, f64: rows4F64AVX512})
	rowTable.Add(kernels.AVX2, rowKernels{f32: rowsTailed(8, rows4F32AVX2), f64: rowsTailed(4, rows4F64AVX2)})
}

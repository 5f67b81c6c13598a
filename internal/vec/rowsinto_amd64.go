//go:build !purego

package vec

import "github.com/tensor-go/tensor/internal/kernels"

// The rows-into kernels take the stride in elements, as the Go twins do.

//go:noescape
func sumRowsIntoF32AVX512(out, x []float32, rows, stride int)

//go:noescape
func prodRowsIntoF32AVX512(out, x []float32, rows, stride int)

//go:noescape
func sumRowsIntoF64AVX512(out, x []float64, rows, stride int)

//go:noescape
func prodRowsIntoF64AVX512(out, x []float64, rows, stride int)

// The AVX2 kernels stop at the last four; rowsIntoTailed finishes in Go.
//
//go:noescape
func sumRowsIntoF32AVX2(out, x []float32, rows, stride int)

//go:noescape
func prodRowsIntoF32AVX2(out, x []float32, rows, stride int)

//go:noescape
func sumRowsIntoF64AVX2(out, x []float64, rows, stride int)

//go:noescape
func prodRowsIntoF64AVX2(out, x []float64, rows, stride int)

// rowsIntoTailed gives kernel the whole vectors of four and twin the rest.
func rowsIntoTailed[T float32 | float64](kernel, twin func(out, x []T, rows, stride int)) func(out, x []T, rows, stride int) {
	return func(out, x []T, rows, stride int) {
		done := len(out) &^ 3
		if done > 0 {
			kernel(out[:done], x, rows, stride)
		}
		if done < len(out) {
			twin(out[done:], x[done:], rows, stride)
		}
	}
}

// The AVX-512 kernels' masked last vector handles every length.
func init() {
	rowsIntoTable.Add(kernels.AVX512, rowsIntoKernels{
		sumF32: sumRowsIntoF32AVX512, prodF32: prodRowsIntoF32AVX512,
		sumF64: sumRowsIntoF64AVX512, prodF64: prodRowsIntoF64AVX512,
	})
	rowsIntoTable.Add(kernels.AVX2, rowsIntoKernels{
		sumF32:  rowsIntoTailed(sumRowsIntoF32AVX2, sumRowsInto[float32]),
		prodF32: rowsIntoTailed(prodRowsIntoF32AVX2, prodRowsInto[float32]),
		sumF64:  rowsIntoTailed(sumRowsIntoF64AVX2, sumRowsInto[float64]),
		prodF64: rowsIntoTailed(prodRowsIntoF64AVX2, prodRowsInto[float64]),
	})
}

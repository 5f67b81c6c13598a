//go:build !purego

package vec

import "github.com/tensor-go/tensor/internal/kernels"

// The AVX-512 segments-of-three kernels: acc and x hold whole blocks (16
// rows for float32, 8 for float64).
//
//go:noescape
func prodSeg3F32AVX512(acc []float64, x []float32)

//go:noescape
func sumSeg3F32AVX512(acc []float64, x []float32)

//go:noescape
func prodSeg3F64AVX512(acc, x []float64)

//go:noescape
func sumSeg3F64AVX512(acc, x []float64)

// The AVX2 kernels: whole blocks of four rows.
//
//go:noescape
func prodSeg3F32AVX2(acc []float64, x []float32)

//go:noescape
func sumSeg3F32AVX2(acc []float64, x []float32)

//go:noescape
func prodSeg3F64AVX2(acc, x []float64)

//go:noescape
func sumSeg3F64AVX2(acc, x []float64)

func init() {
	// One block size for both widths: 16 rows is whole blocks of either.
	seg3Table.Add(kernels.AVX512, seg3Kernels{
		prodF32: prodSeg3F32AVX512, sumF32: sumSeg3F32AVX512,
		prodF64: prodSeg3F64AVX512, sumF64: sumSeg3F64AVX512,
		block: 16,
	})
	seg3Table.Add(kernels.AVX2, seg3Kernels{
		prodF32: prodSeg3F32AVX2, sumF32: sumSeg3F32AVX2,
		prodF64: prodSeg3F64AVX2, sumF64: sumSeg3F64AVX2,
		block: 4,
	})
}

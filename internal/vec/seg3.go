package vec

import "github.com/tensor-go/tensor/internal/kernels"

// seg3Kernels folds rows of three (a reduction over a last axis of length
// 3) into float64 accumulators, one accumulator per row, in vec's order
// for a run of three followed by the accumulator's step (see ProdSeg3F64).
// The wrappers pass a kernel whole blocks of rows (block rows each) and
// give the rest to the Go twin, which is the whole generic entry.
type seg3Kernels struct {
	prodF32 func(acc []float64, x []float32)
	sumF32  func(acc []float64, x []float32)
	prodF64 func(acc, x []float64)
	sumF64  func(acc, x []float64)
	block   int // rows a kernel takes at a time; the wrappers pass whole blocks
}

var (
	seg3Impl  seg3Kernels
	seg3Table = kernels.NewTable(&seg3Impl, seg3Kernels{})
)

// ProdSeg3F32 multiplies rows of three float32 into float64 accumulators:
//
//	for i := range acc { acc[i] *= float64(x[3i]) * float64(x[3i+2]) * float64(x[3i+1]) }
//
// the product of a run of three in ProdF32's order, ((x0·x2)·x1), then
// the accumulator's step. Going through ProdF32 row by row took 28 ns a
// row; the Go loop 1.1 (Xeon Sapphire Rapids, in L1); the AVX-512
// kernel takes 16 rows a step.
func ProdSeg3F32(acc []float64, x []float32) {
	seg3(acc, x, seg3Impl.prodF32, prodSeg3Go[float32])
}

// SumSeg3F32 is ProdSeg3F32 for the sum:
//
//	for i := range acc { acc[i] += float64(x[3i]) + float64(x[3i+2]) + float64(x[3i+1]) }
func SumSeg3F32(acc []float64, x []float32) {
	seg3(acc, x, seg3Impl.sumF32, sumSeg3Go[float32])
}

// ProdSeg3F64 multiplies rows of three float64 into accumulators:
//
//	for i := range acc { acc[i] *= x[3i] * x[3i+2] * x[3i+1] }
func ProdSeg3F64(acc, x []float64) {
	seg3(acc, x, seg3Impl.prodF64, prodSeg3Go[float64])
}

// SumSeg3F64 is ProdSeg3F64 for the sum:
//
//	for i := range acc { acc[i] += x[3i] + x[3i+2] + x[3i+1] }
func SumSeg3F64(acc, x []float64) {
	seg3(acc, x, seg3Impl.sumF64, sumSeg3Go[float64])
}

// seg3 gives kernel (when the set has one) the whole blocks of rows and
// twin the rest.
func seg3[T float32 | float64](acc []float64, x []T, kernel, twin func(acc []float64, x []T)) {
	x = x[:3*len(acc)]
	done := 0
	if kernel != nil {
		done = len(acc) / seg3Impl.block * seg3Impl.block
		kernel(acc[:done], x[:3*done])
	}
	twin(acc[done:], x[3*done:])
}

// prodSeg3Go is the Go twin of the product kernels.
func prodSeg3Go[T float32 | float64](acc []float64, x []T) {
	x = x[:3*len(acc)]
	for i := range acc {
		s := (*[3]T)(x[3*i:])
		acc[i] *= float64(s[0]) * float64(s[2]) * float64(s[1])
	}
}

// sumSeg3Go is the Go twin of the sum kernels.
func sumSeg3Go[T float32 | float64](acc []float64, x []T) {
	x = x[:3*len(acc)]
	for i := range acc {
		s := (*[3]T)(x[3*i:])
		acc[i] += float64(s[0]) + float64(s[2]) + float64(s[1])
	}
}

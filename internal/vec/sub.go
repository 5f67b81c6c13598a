package vec

import "github.com/tensor-go/tensor/internal/kernels"

// subKernels are the differences of contiguous float runs, dst = a − b.
// The other cases of a difference (integers, scalars, half floats) are
// built from the add and multiply kernels in package ewise; these two
// carry the common case in one pass.
type subKernels struct {
	f32 binary[float32]
	f64 binary[float64]
}

var subGo = subKernels{f32: subNumbers[float32], f64: subNumbers[float64]}

var (
	subImpl  subKernels
	subTable = kernels.NewTable(&subImpl, subGo)
)

// SubF32 computes
//
//	for i := range dst { dst[i] = a[i] - b[i] }
func SubF32(dst, a, b []float32) { subImpl.f32(dst, a[:len(dst)], b[:len(dst)]) }

// SubF64 is SubF32 for float64.
func SubF64(dst, a, b []float64) { subImpl.f64(dst, a[:len(dst)], b[:len(dst)]) }

func subNumbers[T ~float32 | ~float64](dst, a, b []T) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] - b[i]
	}
}

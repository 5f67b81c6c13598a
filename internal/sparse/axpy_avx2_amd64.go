//go:build !purego

package sparse

import "github.com/tensor-go/tensor/internal/kernels"

// AVX2 row kernels, in axpy_avx2_amd64.s: the AVX-512 kernels' loops on
// ymm registers over the full vectors of y (they ignore the last len(y)
// mod lanes elements); tailedKernels finishes with the Go twins. The same
// separate multiplies and adds in the same order, so the same bits.

//go:noescape
func axpyF32AVX2(y []float32, a float32, x *float32)

//go:noescape
func axpy4F32AVX2(y []float32, a0, a1, a2, a3 float32, x0, x1, x2, x3 *float32)

//go:noescape
func axpyF64AVX2(y []float64, a float64, x *float64)

//go:noescape
func axpy4F64AVX2(y []float64, a0, a1, a2, a3 float64, x0, x1, x2, x3 *float64)

func init() {
	kernelSets.Add(kernels.AVX2, kernelSet{
		f32: withGather(tailedKernels(8, axpyF32AVX2, axpy4F32AVX2),
			tailedGather(8, 4, [4]fullGatherBlock[float32]{gather8F32AVX2, gather4F32AVX2, gather2F32AVX2, gather1F32AVX2}, goKernels[float32]().gather)),
		f64: withGather(tailedKernels(4, axpyF64AVX2, axpy4F64AVX2),
			tailedGather(4, 8, [4]fullGatherBlock[float64]{gather8F64AVX2, gather4F64AVX2, gather2F64AVX2, gather1F64AVX2}, goKernels[float64]().gather)),
	})
}

// tailedKernels wraps full-vector assembly kernels (lanes elements a
// vector) in the slice signatures of the Go twins: the assembly takes the
// longest prefix of y that is a multiple of lanes, the Go twin the rest.
func tailedKernels[T float32 | float64](lanes int, one func([]T, T, *T), four func([]T, T, T, T, T, *T, *T, *T, *T)) rowKernels[T] {
	asm := asmKernels(one, four)
	return rowKernels[T]{
		axpy: func(y []T, a T, x []T) {
			n := len(y) &^ (lanes - 1)
			x = x[:len(y)]
			asm.axpy(y[:n], a, x)
			axpy(y[n:], a, x[n:])
		},
		axpy4: func(y []T, a0, a1, a2, a3 T, x0, x1, x2, x3 []T) {
			n := len(y) &^ (lanes - 1)
			x0, x1, x2, x3 = x0[:len(y)], x1[:len(y)], x2[:len(y)], x3[:len(y)]
			asm.axpy4(y[:n], a0, a1, a2, a3, x0, x1, x2, x3)
			axpy4(y[n:], a0, a1, a2, a3, x0[n:], x1[n:], x2[n:], x3[n:])
		},
	}
}

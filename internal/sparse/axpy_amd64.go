//go:build !purego

package sparse

import "github.com/tensor-go/tensor/internal/kernels"

// AVX-512 row kernels, in axpy_amd64.s. Each handles any length n ≥ 1,
// finishing with one masked vector, and computes exactly what its Go twin
// in axpy_generic.go does: separate multiplies and adds (no FMA), in the
// same order, so the rounding is the same. They read n elements from every
// x pointer.

// axpyF32AVX512 computes, for j in [0, len(y)):
//
//	y[j] += a * x[j]
//
//go:noescape
func axpyF32AVX512(y []float32, a float32, x *float32)

// axpy4F32AVX512 computes, for j in [0, len(y)):
//
//	t := y[j]
//	t += a0 * x0[j]
//	t += a1 * x1[j]
//	t += a2 * x2[j]
//	t += a3 * x3[j]
//	y[j] = t
//
//go:noescape
func axpy4F32AVX512(y []float32, a0, a1, a2, a3 float32, x0, x1, x2, x3 *float32)

// axpyF64AVX512 is axpyF32AVX512 for float64.
//
//go:noescape
func axpyF64AVX512(y []float64, a float64, x *float64)

// axpy4F64AVX512 is axpy4F32AVX512 for float64.
//
//go:noescape
func axpy4F64AVX512(y []float64, a0, a1, a2, a3 float64, x0, x1, x2, x3 *float64)

func init() {
	kernelSets.Add(kernels.AVX512, kernelSet{
		f32: withRows(withGather(asmKernels(axpyF32AVX512, axpy4F32AVX512),
			asmGather(16, 4, [4][2]gatherBlock[float32]{
				{gather8F32AVX512, gather8mF32AVX512}, {gather4F32AVX512, gather4mF32AVX512},
				{gather2F32AVX512, gather2mF32AVX512}, {gather1F32AVX512, gather1mF32AVX512}})),
			asmGatherRows(16, 4, gatherRows1mF32AVX512, gatherRows2mF32AVX512)),
		f64: withRows(withGather(asmKernels(axpyF64AVX512, axpy4F64AVX512),
			asmGather(8, 8, [4][2]gatherBlock[float64]{
				{gather8F64AVX512, gather8mF64AVX512}, {gather4F64AVX512, gather4mF64AVX512},
				{gather2F64AVX512, gather2mF64AVX512}, {gather1F64AVX512, gather1mF64AVX512}})),
			asmGatherRows(8, 8, gatherRows1mF64AVX512, gatherRows2mF64AVX512)),
	})
}

// asmKernels wraps assembly kernels in the slice signatures of the Go
// twins, checking that every x is long enough before the assembly reads it.
func asmKernels[T float32 | float64](one func([]T, T, *T), four func([]T, T, T, T, T, *T, *T, *T, *T)) rowKernels[T] {
	return rowKernels[T]{
		axpy: func(y []T, a T, x []T) {
			if len(y) == 0 {
				return
			}
			x = x[:len(y)]
			one(y, a, &x[0])
		},
		axpy4: func(y []T, a0, a1, a2, a3 T, x0, x1, x2, x3 []T) {
			if len(y) == 0 {
				return
			}
			x0, x1, x2, x3 = x0[:len(y)], x1[:len(y)], x2[:len(y)], x3[:len(y)]
			four(y, a0, a1, a2, a3, &x0[0], &x1[0], &x2[0], &x3[0])
		},
	}
}

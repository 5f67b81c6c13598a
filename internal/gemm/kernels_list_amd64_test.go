//go:build !purego

package gemm

import "github.com/tensor-go/tensor/internal/cpufeat"

// The kernel lists hold every kernel this CPU can run.

func allKernelsF32() []*kernel[float32] {
	return pick(goKernelF32, avx512KernelF32, avx2KernelF32)
}

func allKernelsF64() []*kernel[float64] {
	return pick(goKernelF64, avx512KernelF64, avx2KernelF64)
}

func allKernelsI32() []*kernel[int32] {
	return pick(goKernelI32, avx512KernelI32, avx2KernelI32)
}

func pick[T Elem](goKernel, avx512, avx2 *kernel[T]) []*kernel[T] {
	ks := []*kernel[T]{goKernel}
	if cpufeat.AVX512 {
		ks = append(ks, avx512)
	}
	if cpufeat.AVX2FMA {
		ks = append(ks, avx2)
	}
	return ks
}

func allKernelsI64() []*kernel[int64] {
	if cpufeat.AVX512 {
		return []*kernel[int64]{goKernelI64, avx512KernelI64}
	}
	return []*kernel[int64]{goKernelI64}
}

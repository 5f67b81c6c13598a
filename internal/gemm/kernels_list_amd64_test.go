//go:build !purego

package gemm

func allKernelsF32() []*kernel[float32] {
	return []*kernel[float32]{goKernelF32, avx512KernelF32}
}
func allKernelsF64() []*kernel[float64] {
	return []*kernel[float64]{goKernelF64, avx512KernelF64}
}
func allKernelsI32() []*kernel[int32] {
	return []*kernel[int32]{goKernelI32, avx512KernelI32}
}

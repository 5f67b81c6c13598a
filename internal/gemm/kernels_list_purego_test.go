//go:build purego || !amd64

package gemm

func allKernelsF32() []*kernel[float32] { return []*kernel[float32]{goKernelF32} }
func allKernelsF64() []*kernel[float64] { return []*kernel[float64]{goKernelF64} }
func allKernelsI32() []*kernel[int32]   { return []*kernel[int32]{goKernelI32} }
func allKernelsI64() []*kernel[int64]   { return []*kernel[int64]{goKernelI64} }

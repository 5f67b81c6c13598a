//go:build !purego

package gemm

import (
	"golang.org/x/sys/cpu"

	"github.com/tensor-go/tensor/internal/kernels"
)

// The x86 entries, each the one below it with the kernels it has replaced.
func init() {
	avx2 := goSet
	avx2.f32, avx2.f64, avx2.i32 = avx2KernelF32, avx2KernelF64, avx2KernelI32
	avx2.smallF32, avx2.smallWidthF32 = smallF32AVX2, smallWidthF32AVX2
	avx2.smallF64, avx2.smallWidthF64 = smallF64AVX2, smallWidthF64AVX2
	avx2.smallStreamF32, avx2.smallStreamF64 = smallStreamF32AVX2, smallStreamF64AVX2
	avx2.gemvF32, avx2.gemvF64 = gemvAVX2F32, gemvAVX2F64
	avx2.copyRows64 = copyRows64AVX2
	avx2.copyPanel64 = copyPanel64AVX2
	avx2.wideRows64F32, avx2.wideRows64F64 = wideRows64F32AVX2, wideRows64F64AVX2
	avx2.minFlopsPerThread = avx512MinFlopsPerThread / 2 // half as wide vectors
	kernelSets.Add(kernels.AVX2, avx2)

	avx512 := avx2
	avx512.minFlopsPerThread = avx512MinFlopsPerThread
	avx512.f32, avx512.f64, avx512.i32, avx512.i64 = avx512KernelF32, avx512KernelF64, avx512KernelI32, avx512KernelI64
	if kernels.ForProcessor(kernels.ProcessorID(), avx2GEMMOn, false) {
		avx512.f32, avx512.f64 = avx2.f32, avx2.f64
		// The same kernels do as much work a microsecond.
		avx512.minFlopsPerThread = avx2.minFlopsPerThread
		if cpu.X86.HasAVX512F {
			passedOverF32, passedOverF64 = append(passedOverF32, avx512KernelF32), append(passedOverF64, avx512KernelF64)
		}
	}
	avx512.smallF32, avx512.smallWidthF32 = smallF32AVX512K, 16
	avx512.smallF64, avx512.smallWidthF64 = smallF64AVX512K, 8
	avx512.smallStreamF32, avx512.smallStreamF64 = smallStreamF32AVX512, smallStreamF64AVX512
	avx512.gemvF32, avx512.gemvF64 = gemvAVX512F32, gemvAVX512F64
	avx512.copyRows128 = copyRows128AVX512
	avx512.copyPanel128 = copyPanel128AVX512
	avx512.wideRows128F32, avx512.wideRows128F64 = wideRows128F32AVX512, wideRows128F64AVX512
	avx512.pairBytes, avx512.interleaveBytes = pairBytesAVX512, interleaveBytesAVX512
	avx512.dot4BF16 = dot4BF16AVX512
	if cpu.X86.HasAVX512VNNI {
		avx512.pairs16 = avx512KernelPairs
	}
	if cpu.X86.HasAVX512BF16 {
		// VDPBF16PS with the float32 kernel's bits (dpbf16.go), so it
		// needs no set of its own; the tests run it wherever the
		// processor has it, the products only where it was measured
		// faster (dpFasterOn).
		dpAsmKernel = newDPKernelAVX512(avx512.f32.kc)
		if dpBF16Here() {
			avx512.bf16 = dpAsmKernel
		}
	}
	kernelSets.Add(kernels.AVX512, avx512)

	amx := avx512
	amx.bf16 = amxTilesBF16
	amxTilesBF16.permitted = kernels.AMX.Permitted
	kernelSets.Add(kernels.AMX, amx)
}

//go:build !purego

package gemm

import "github.com/tensor-go/tensor/internal/kernels"

// The arm64 entry: the Go twins with the NEON kernels in place of those it
// has.
func init() {
	neon := goSet
	neon.f32, neon.f64 = neonKernelF32, neonKernelF64
	neon.smallF32, neon.smallWidthF32 = smallF32NEON, smallWidthF32NEON
	neon.smallF64, neon.smallWidthF64 = smallF64NEON, smallWidthF64NEON
	neon.gemvF32, neon.gemvF64 = gemvNEONF32, gemvNEONF64
	// Four-lane vectors: a quarter of the AVX-512 kernels' work per
	// instruction (not measured: no arm64 machine here).
	neon.minFlopsPerThread = avx512MinFlopsPerThread / 4
	kernelSets.Add(kernels.NEON, neon)
}

//go:build !purego

package gemm

// dpStripBF16 is the AVX512_BF16 strip kernel (dpbf16_amd64.s, written by
// dpbf16_gen.py): a dpStripFunc whose Go twin is dpStripGo.
//
//go:noescape
func dpStripBF16(a, b *uint16, c *float32, ldc int, out *uint16, ldo int, steps int, accumulate bool)

// dpPrepareBF16 is dpPrepareGo for n elements at p (n a multiple of 32).
//
//go:noescape
func dpPrepareBF16(p *uint16, n int) bool

// dpPrepareAVX512 is the AVX-512 prepare kernel.
func dpPrepareAVX512(p []uint16) bool {
	if len(p) == 0 {
		return false
	}
	return dpPrepareBF16(&p[0], len(p))
}

// newDPKernelAVX512 is the AVX512_BF16 dot-product kernel for the float32
// kernel with K block kc. A strip does 8·32 multiply-adds a VDPBF16PS
// pair against 8·16 a float32 FMA pair: twice the float32 kernel's rate,
// hence twice its threshold for another goroutine.
func newDPKernelAVX512(kc int) *tileKernel {
	return newDPKernel("avx512bf16-8x32", kc, dpStripBF16, dpPrepareAVX512, tilePackersAVX512, 2*avx512MinFlopsPerThread)
}

//go:build !purego

package gemm

// tilesBF16AMX is the AMX tile kernel (tiles_amd64.s): a tileKernelFunc,
// whose Go twin is tilesBF16Go.
//
//go:noescape
func tilesBF16AMX(a, b *uint16, c *float32, ldc int, out *uint16, ldo int, scratch *float32, steps, blocks, slivers int, accumulate bool)

// Blocking of the AMX kernel (L1d 48 KiB, L2 2 MiB per core): kc 256 (8
// steps) keeps the 32×256×2 = 16 KiB A sliver in L1 while the B panels
// stream from L2; nc 1024 makes the 256×1024×2 = 512 KiB B block a quarter
// of L2; mc 256 a 128 KiB A block beside it. A step's four tile loads (4
// KiB) feed four TDPBF16PS of 16 cycles each, so B must come from L2 at
// about 32 bytes a cycle. The tiles do about 16 times the multiply-adds of
// the AVX-512 float32 kernel per cycle (1024 against 64); eight times its
// 8 µs threshold is a conservative start.
var amxTilesBF16 = newTileKernel("amx-bf16-32x32", 256, 256, 1024, tilesBF16AMX, tilePackersAVX512, 8*avx512MinFlopsPerThread)

// The AVX-512BW packing kernels (tilepack_amd64.s), whose Go twins are
// tileCopyGo and tilePairsGo: a zmm per 64-byte row (VPERMT2W pairs two B
// rows), against 0.3 ns an element in Go.
var tilePackersAVX512 = tilePackers{copyRows: tileCopyAVX512, pairs: tilePairsAVX512, pairsT: tilePairsTAVX512, copyT: tileCopyTAVX512}

//go:noescape
func tileCopyAVX512(dst, src *uint16, chunks int) bool

//go:noescape
func tilePairsAVX512(dst, src *uint16, rs, pairs int) bool

//go:noescape
func tilePairsTAVX512(dst, src *uint16, cs int) bool

//go:noescape
func tileCopyTAVX512(dst, src *uint16, cs int) bool

//go:build !purego

package gemm

// tilesBF16AMX is the AMX tile kernel (tiles_amd64.s): a tileKernelFunc,
// whose Go twin is tilesBF16Go.
//
//go:noescape
func tilesBF16AMX(a, b *uint16, c *float32, ldc int, out *uint16, ldo int, scratch *float32, steps, blocks, slivers int, accumulate bool)

// Blocking of the AMX kernel (L1d 48 KiB, L2 2 MiB per core): kc 1024 (32
// steps) puts K up to 1024 in one block, so that most products keep no
// float32 sums between K blocks (rounded products have none then) and the
// deeper ones pass over them a quarter as often as with kc 256, which kept
// the 16 KiB A sliver in L1 but lost more to those passes; the 64 KiB A
// sliver now comes from L2 like the B panel. nc 512 makes the 1 MiB B
// block half of L2 and mc 64 a 128 KiB A block beside it. Retimed through
// MulBF16Tiles on one goroutine (GFLOP per CPU-second, kc/mc/nc 256/256/1024
// against 1024/64/512, Sapphire Rapids under KVM, load 10): 512³ 650-760
// against 890-930, 1024³ 520-870 against 790-810, 2048³ 450-500 against
// 500-520, 256³ the same. The tiles do about 16 times the multiply-adds of
// the AVX-512 float32 kernel per cycle (1024 against 64); eight times its 8
// µs threshold is a conservative start.
var amxTilesBF16 = newTileKernel("amx-bf16-32x32", 1024, 64, 512, tilesBF16AMX, tilePackersAVX512, 8*avx512MinFlopsPerThread)

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

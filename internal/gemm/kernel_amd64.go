//go:build !purego

package gemm

import "github.com/tensor-go/tensor/internal/kernels"

// The AVX-512 micro-kernels (kernel_amd64.s). Each computes a full 12-row
// tile as described by microKernel; its Go twin is microGo with the same
// shape.

//go:noescape
func sgemm12x32AVX512(k int, a, b, c *float32, ldc int, accumulate bool)

//go:noescape
func dgemm12x16AVX512(k int, a, b, c *float64, ldc int, accumulate bool)

//go:noescape
func igemm12x32AVX512(k int, a, b, c *int32, ldc int, accumulate bool)

// lgemm12x16AVX512 multiplies int64 with VPMULLQ (AVX-512DQ), the low 64
// bits of each product, which is Go's wrapped product.
//
//go:noescape
func lgemm12x16AVX512(k int, a, b, c *int64, ldc int, accumulate bool)

// Blocking of the AVX-512 kernels (L1d 48 KiB, L2 2 MiB per core):
//
//	float32/int32 12×32: kc 384 keeps the 12×384×4 = 18 KiB A sliver in L1
//	  with room for the B rows streaming through; nc 640 makes the
//	  384×640×4 = 960 KiB B panel about half of L2; mc 144 adds a
//	  144×384×4 = 216 KiB A block that also stays in L2.
//	float64/int64 12×16: kc 256 gives a 12×256×8 = 24 KiB A sliver; nc 480
//	  a 256×480×8 = 960 KiB B panel; mc 96 a 192 KiB A block.
var (
	avx512KernelF32 = newKernel("avx512-f32-12x32", 12, 32, 384, 144, 640, sgemm12x32AVX512).
			withRowA(sgemm12x32AVX512RowA, sgemm4x32AVX512RowA)
	avx512KernelF64 = newKernel("avx512-f64-12x16", 12, 16, 256, 96, 480, dgemm12x16AVX512).
			withRowA(dgemm12x16AVX512RowA, dgemm4x16AVX512RowA)
	avx512KernelI32 = newKernel("avx512-i32-12x32", 12, 32, 384, 144, 640, igemm12x32AVX512).
			withRowA(igemm12x32AVX512RowA, igemm4x32AVX512RowA)
	avx512KernelI64 = newKernel("avx512-i64-12x16", 12, 16, 256, 96, 480, lgemm12x16AVX512).
			withRowA(lgemm12x16AVX512RowA, lgemm4x16AVX512RowA)
)

// avx2GEMMOn lists the processors whose avx512 set multiplies float32 and
// float64 on the AVX2 micro-kernels (6×16 and 6×8, with their blocks)
// instead of the 12-row AVX-512 ones, with the measurement. Zen 4 (EPYC
// Genoa, family 25 model 17, 32 KiB 8-way L1D, 1 MiB L2; session 19):
// one goroutine, float32, GFLOP per CPU-second, two alternating rounds,
// AVX-512 against AVX2: 1000³ 99–102 against 101–102, 1024³ 85–93 against
// 97–101, 1040³ 98–102 against 101–105, 2048³ 81–94 against 101–104; two
// goroutines, wall GFLOP/s, three rounds: float32 1024³ 155–172 against
// 171–195, 2048³ 151–175 against 175–198, float64 1024³ 71–94 against
// 82–83, 2048³ 75–79 against 85–93. The 12 rows of a tile of C whose rows
// are a multiple of 4 KiB apart fall into one set of that L1, beyond its
// eight ways; the six of the AVX2 tile fit (docs/kernels.md, Zen 4). The
// 512-bit instructions themselves gain nothing there: Zen 4 executes them
// as two 256-bit halves. Zen 3 has no AVX-512, so the entry only applies
// to Zen 4. The integer kernels stay on AVX-512 (int32 256³ at 5.3x
// PyTorch against 3.7x with the AVX2 set).
var avx2GEMMOn = []kernels.Measured[bool]{
	{Vendor: "AuthenticAMD", Family: 25, Value: true},
}

// Four-row in-place-A kernels for the rows left below the last full tile
// (mr = 4 in the microKernel contract).

//go:noescape
func sgemm4x32AVX512RowA(k int, a, b, c *float32, ldc, lda int, accumulate bool)

//go:noescape
func dgemm4x16AVX512RowA(k int, a, b, c *float64, ldc, lda int, accumulate bool)

//go:noescape
func igemm4x32AVX512RowA(k int, a, b, c *int32, ldc, lda int, accumulate bool)

//go:noescape
func lgemm4x16AVX512RowA(k int, a, b, c *int64, ldc, lda int, accumulate bool)

// The AVX2+FMA micro-kernels (kernel_avx2_amd64.s), 6 rows by two ymm.

//go:noescape
func sgemm6x16AVX2(k int, a, b, c *float32, ldc int, accumulate bool)

//go:noescape
func dgemm6x8AVX2(k int, a, b, c *float64, ldc int, accumulate bool)

//go:noescape
func igemm6x16AVX2(k int, a, b, c *int32, ldc int, accumulate bool)

// Blocking of the AVX2 kernels:
//
//	float32/int32 6×16: kc 512 gives a 6×512×4 = 12 KiB A sliver in L1;
//	  nc 512 a 512×512×4 = 1 MiB B panel, half of L2; mc 120 a 240 KiB
//	  A block beside it.
//	float64 6×8: kc 256 gives a 12 KiB A sliver; nc 512 a 1 MiB B panel;
//	  mc 120 a 240 KiB A block.
//
// On Zen 3 (avx2Blocks32, avx2Blocks64) a B panel in the shared L3 is
// faster than the scaled one in the 512 KiB L2.
var (
	avx2KernelF32 = newKernel("avx2-f32-6x16", 6, 16, 512, 120, 512, sgemm6x16AVX2).
			withRowA(sgemm6x16AVX2RowA, sgemm4x16AVX2RowA).measuredOn(avx2Blocks32)
	avx2KernelF64 = newKernel("avx2-f64-6x8", 6, 8, 256, 120, 512, dgemm6x8AVX2).
			withRowA(dgemm6x8AVX2RowA, dgemm4x8AVX2RowA).measuredOn(avx2Blocks64)
	avx2KernelI32 = newKernel("avx2-i32-6x16", 6, 16, 512, 120, 512, igemm6x16AVX2).
			withRowA(igemm6x16AVX2RowA, igemm4x16AVX2RowA).measuredOn(avx2Blocks32)
)

// avx2Blocks32 and avx2Blocks64 are the AVX2 kernels' blocks where the
// scaled ones were measured to lose. Zen 3 (EPYC Milan, family 25 model 1,
// 32 KiB L1D, 512 KiB L2, 32 MiB L3, under Firecracker; session 14),
// float32 1024³ and 2048³ on one goroutine, GFLOP per CPU-second
// (BenchmarkTuneAVX2Unscaled, two rounds): scaled 336/42/192 51–53,
// tuned 512/120/512 62–68, 256/72/2048 64–74; float64 scaled 168/42/192
// 23–26, tuned 256/120/512 24–33, 256/72/1024 30–34. The L3 feeds one
// 6×16 tile's 16 KiB B sliver per 1536 cycles of FMAs with room to spare,
// and the taller B panel halves how often C and the A block are reread.
// Zen 4 and 5 run the avx512 set; the entry applies to them only with the
// AVX2 set forced.
var (
	avx2Blocks32 = []kernels.Measured[blocks]{
		{Vendor: "AuthenticAMD", Family: 25, Value: blocks{kc: 256, mc: 72, nc: 2048}},
	}
	avx2Blocks64 = []kernels.Measured[blocks]{
		{Vendor: "AuthenticAMD", Family: 25, Value: blocks{kc: 256, mc: 72, nc: 1024}},
	}
)

// The AVX2 kernels reading A in place (kernel_avx2_amd64.s), six rows and
// four (mr = 4, for the rows below the last full tile).

//go:noescape
func sgemm6x16AVX2RowA(k int, a, b, c *float32, ldc, lda int, accumulate bool)

//go:noescape
func dgemm6x8AVX2RowA(k int, a, b, c *float64, ldc, lda int, accumulate bool)

//go:noescape
func igemm6x16AVX2RowA(k int, a, b, c *int32, ldc, lda int, accumulate bool)

//go:noescape
func sgemm4x16AVX2RowA(k int, a, b, c *float32, ldc, lda int, accumulate bool)

//go:noescape
func dgemm4x8AVX2RowA(k int, a, b, c *float64, ldc, lda int, accumulate bool)

//go:noescape
func igemm4x16AVX2RowA(k int, a, b, c *int32, ldc, lda int, accumulate bool)

// The same kernels reading A in place (row-major A, see microKernelRowA).

//go:noescape
func sgemm12x32AVX512RowA(k int, a, b, c *float32, ldc, lda int, accumulate bool)

//go:noescape
func dgemm12x16AVX512RowA(k int, a, b, c *float64, ldc, lda int, accumulate bool)

//go:noescape
func igemm12x32AVX512RowA(k int, a, b, c *int32, ldc, lda int, accumulate bool)

//go:noescape
func lgemm12x16AVX512RowA(k int, a, b, c *int64, ldc, lda int, accumulate bool)

// The AVX512_VNNI kernels of int16 pairs (pairs.go): the int32 kernels'
// tiles, loops and blocking, with VPDPWSSD adding each lane's two products
// (the contract of microPairsGo). The pairs halve K, so a kc of 384 pairs
// is the int32 kernel's 384 lanes, the same bytes in L1 and L2.

//go:noescape
func wgemm12x32AVX512(k int, a, b, c *int32, ldc int, accumulate bool)

//go:noescape
func wgemm12x32AVX512RowA(k int, a, b, c *int32, ldc, lda int, accumulate bool)

//go:noescape
func wgemm4x32AVX512RowA(k int, a, b, c *int32, ldc, lda int, accumulate bool)

var avx512KernelPairs = newKernel("avx512vnni-i16x2-12x32", 12, 32, 384, 144, 640, wgemm12x32AVX512).
	withRowA(wgemm12x32AVX512RowA, wgemm4x32AVX512RowA)

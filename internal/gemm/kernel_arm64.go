//go:build !purego

package gemm

// The NEON micro-kernels (kernel_arm64.s). Each computes a full tile as
// described by microKernel, with a fused multiply-add (FMLA by element)
// per product, like the x86 kernels; its Go twin is microGo with the same
// shape, which rounds each product instead.

// sgemm8x12NEON keeps the 8×12 float32 tile in 24 vector registers
// (V0–V23, row i in V3i–V3i+2), the A column in V24–V25 and the B row in
// V26–V28: 29 of the 32 registers, no spill. Per k: 24 FMLA (192 FLOP) and
// two loads (LD1 of 2 and of 3 q-registers, 80 bytes). On a core with four
// 128-bit FMA pipes (Apple M1–M4, Neoverse V1/V2: 32 float32 FLOP/cycle)
// the FMLAs take 6 cycles per k, the five q-register loads fit in the
// load ports' 6 cycles with room to spare, and 24 independent accumulators
// cover the 4 pipes × 4-cycle FMA latency: 24 of every 24 FMA-pipe slots
// do useful work, 100% of peak by count (the loop counter and branch, once
// per four k, issue on the integer ports), so ≥ 95% once the C update of
// each 256-deep K block is counted.
//
//go:noescape
func sgemm8x12NEON(k int, a, b, c *float32, ldc int, accumulate bool)

// dgemm6x8NEON is the float64 kernel, 6×8 (BLIS's arm64 shape): the tile
// in V0–V23 (row i in V4i–V4i+3, two columns each), the A column in
// V24–V26, the B row in V27–V30; 31 registers, no spill. Per k: 24 FMLA
// (96 FLOP) and two loads (3 and 4 q-registers, 112 bytes). With four 128-bit FMA pipes (16
// float64 FLOP/cycle) that is 6 cycles of FMLA against 7 q-register loads,
// within three load ports' 6 cycles: 100% of peak by count, as for
// sgemm8x12NEON.
//
//go:noescape
func dgemm6x8NEON(k int, a, b, c *float64, ldc int, accumulate bool)

// Blocking of the NEON kernels, stated like every kernel's for the
// reference caches (48 KiB L1d, 2 MiB L2; see blocks.go, which scales them
// to the detected caches) so that on the smallest current arm64 cores
// (Neoverse N1/V1: 64 KiB L1d, 1 MiB L2) they become:
//
//	float32 8×12: kc 192 → 256 keeps the 8×256×4 = 8 KiB A sliver and a
//	  12 KiB B sliver in L1; nc 1272 → 468 makes the 256×468×4 = 468 KiB
//	  B panel about half of L2; mc 320 → 120 adds a 120 KiB A block.
//	float64 6×8: kc 192 → 256 gives a 12 KiB A sliver and a 16 KiB B
//	  sliver; nc 640 → 240 a 256×240×8 = 480 KiB B panel; mc 258 → 96 a
//	  192 KiB A block.
//
// On Apple cores (128 KiB L1d, 12 MiB or more of L2) kc doubles to 384,
// the most blocks.go allows, and mc, nc stay as stated (a 1.9 MiB float32
// B panel).
var (
	neonKernelF32 = newKernel("neon-f32-8x12", 8, 12, 192, 320, 1272, sgemm8x12NEON)
	neonKernelF64 = newKernel("neon-f64-6x8", 6, 8, 192, 258, 640, dgemm6x8NEON)
)

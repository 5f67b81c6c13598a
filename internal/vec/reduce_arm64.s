//go:build !purego

#include "textflag.h"
#include "neon_arm64.h"

// Reduction block kernels (product and sum) for NEON: func(a []E) [256
// bytes of lanes]. len(a) is a multiple of the block length (64 or 32
// elements). The lanes live in V0-V15, lane j of the canonical order in
// lane j%W of register j/W (W lanes per register), so that combining
// element i of a block into register i/W with OP is the canonical order;
// each block is loaded into V16-V31 (or widened there) first. No product
// is ever added to anything: nothing can fuse.
//
// Per block of 256 bytes of lanes: sixteen OPs, one per accumulator,
// after four 64-byte loads of a same-width block, two of a block widened
// twofold or one of a block widened fourfold, with one or two widening
// instructions per accumulator. Sixteen independent accumulators cover
// the latency of FMUL (three or four cycles) on up to four pipes. The
// loop is bound by load bandwidth in cache (two or three 16-byte loads a
// cycle on Apple M1-M4 and Neoverse V1/V2: five to eight cycles per
// same-width block, whose sixteen OPs need four on four pipes) and by
// memory bandwidth beyond it.

// REDUCE runs BLOCK(OP) once per block; INIT puts the starting value in
// every lane of V0; SHIFT is log2 of the block length.
#define REDUCE(INIT, BLOCK, OP, LO, HI, SHIFT) \
	MOVD a_base+0(FP), R1; \
	MOVD a_len+8(FP), R3; \
	INIT; \
	VMOV V0.B16, V1.B16; \
	VMOV V0.B16, V2.B16; \
	VMOV V0.B16, V3.B16; \
	VMOV V0.B16, V4.B16; \
	VMOV V0.B16, V5.B16; \
	VMOV V0.B16, V6.B16; \
	VMOV V0.B16, V7.B16; \
	VMOV V0.B16, V8.B16; \
	VMOV V0.B16, V9.B16; \
	VMOV V0.B16, V10.B16; \
	VMOV V0.B16, V11.B16; \
	VMOV V0.B16, V12.B16; \
	VMOV V0.B16, V13.B16; \
	VMOV V0.B16, V14.B16; \
	VMOV V0.B16, V15.B16; \
	LSR  $SHIFT, R3; \
	CBZ  R3, done; \
loop: \
	BLOCK(OP, LO, HI); \
	SUB  $1, R3; \
	CBNZ R3, loop; \
done: \
	MOVD $ret+24(FP), R0; \
	VST1.P [V0.B16, V1.B16, V2.B16, V3.B16], 64(R0); \
	VST1.P [V4.B16, V5.B16, V6.B16, V7.B16], 64(R0); \
	VST1.P [V8.B16, V9.B16, V10.B16, V11.B16], 64(R0); \
	VST1.P [V12.B16, V13.B16, V14.B16, V15.B16], 64(R0); \
	RET

// OP4(OP, d, s) combines V(s..s+3) into V(d..d+3).
#define OP4(OP, d, s) \
	VOP3(OP, d, d, s); \
	VOP3(OP, d+1, d+1, s+1); \
	VOP3(OP, d+2, d+2, s+2); \
	VOP3(OP, d+3, d+3, s+3)

// SAME: a block of sixteen vectors, as loaded (LO and HI unused).
#define SAME(OP, LO, HI) \
	VLD1.P 64(R1), [V16.B16, V17.B16, V18.B16, V19.B16]; \
	VLD1.P 64(R1), [V20.B16, V21.B16, V22.B16, V23.B16]; \
	OP4(OP, 0, 16); \
	VLD1.P 64(R1), [V24.B16, V25.B16, V26.B16, V27.B16]; \
	OP4(OP, 4, 20); \
	VLD1.P 64(R1), [V28.B16, V29.B16, V30.B16, V31.B16]; \
	OP4(OP, 8, 24); \
	OP4(OP, 12, 28)

// W2(LO, HI, d, s) widens vector s into d (its low half, by LO) and d+1
// (its high half, by HI).
#define W2(LO, HI, d, s) VOP2(LO, d, s); VOP2(HI, d+1, s)

// TWICE: a block of eight vectors, each widened into two.
#define TWICE(OP, LO, HI) \
	VLD1.P 64(R1), [V16.B16, V17.B16, V18.B16, V19.B16]; \
	W2(LO, HI, 20, 16); \
	W2(LO, HI, 22, 17); \
	W2(LO, HI, 24, 18); \
	W2(LO, HI, 26, 19); \
	OP4(OP, 0, 20); \
	OP4(OP, 4, 24); \
	VLD1.P 64(R1), [V16.B16, V17.B16, V18.B16, V19.B16]; \
	W2(LO, HI, 20, 16); \
	W2(LO, HI, 22, 17); \
	W2(LO, HI, 24, 18); \
	W2(LO, HI, 26, 19); \
	OP4(OP, 8, 20); \
	OP4(OP, 12, 24)

// W4 widens vector s fourfold into d..d+3, by LO1 and HI1 into d+4 and
// d+5 first, then by LO and HI from those.
#define W4(LO1, HI1, LO, HI, d, s) \
	W2(LO1, HI1, d+4, s); \
	W2(LO, HI, d, d+4); \
	W2(LO, HI, d+2, d+5)

// FOURFOLD: a block of four vectors, each widened into four by WIDEN(d, s)
// (the third argument is unused).
#define FOURFOLD(OP, WIDEN, UNUSED) \
	VLD1.P 64(R1), [V16.B16, V17.B16, V18.B16, V19.B16]; \
	WIDEN(20, 16); \
	OP4(OP, 0, 20); \
	WIDEN(20, 17); \
	OP4(OP, 4, 20); \
	WIDEN(20, 18); \
	OP4(OP, 8, 20); \
	WIDEN(20, 19); \
	OP4(OP, 12, 20)

// The fourfold widenings: int8 and uint8 to int32, binary16 and bfloat16
// to float64 (through float32, exactly).
#define SX8(d, s) W4(SXTL_8H, SXTL2_8H, SXTL_4S, SXTL2_4S, d, s)
#define UX8(d, s) W4(UXTL_8H, UXTL2_8H, UXTL_4S, UXTL2_4S, d, s)
#define H2D(d, s) W4(FCVTL_4S, FCVTL2_4S, FCVTL_2D, FCVTL2_2D, d, s)
#define BF2D(d, s) W4(SHLL_4S, SHLL2_4S, FCVTL_2D, FCVTL2_2D, d, s)

#define ONEF64 MOVD $0x3ff0000000000000, R4; VDUP R4, V0.D2
#define ONEI32 MOVW $1, R4; VDUP R4, V0.S4
#define ZERO VEOR V0.B16, V0.B16, V0.B16
#define NEGZERO64 MOVD $0x8000000000000000, R4; VDUP R4, V0.D2

// ---- Folds ----

// The folds combine the same pairs in the same rounds as the Go folds:
// l[j] with l[j+half], half = 16, 8, 4, 2, 1, so they
// give the same bits (NaN payloads aside, as everywhere in the package).
// The lanes arrive in V0-V15, lane j in register j/W; the last two rounds
// bring the upper lanes down with DUP and finish on scalars.

#define LOADLANES \
	MOVD   $l+0(FP), R0; \
	VLD1.P 64(R0), [V0.B16, V1.B16, V2.B16, V3.B16]; \
	VLD1.P 64(R0), [V4.B16, V5.B16, V6.B16, V7.B16]; \
	VLD1.P 64(R0), [V8.B16, V9.B16, V10.B16, V11.B16]; \
	VLD1.P 64(R0), [V12.B16, V13.B16, V14.B16, V15.B16]

// HALVES combines V(0..7) with V(8..15), V(0..3) with V(4..7), then V0,
// V1 with V2, V3, and V0 with V1: lanes 8W, 4W, 2W and W apart.
#define HALVES(OP) \
	OP4(OP, 0, 8); \
	OP4(OP, 4, 12); \
	OP4(OP, 0, 4); \
	VOP3(OP, 0, 0, 2); \
	VOP3(OP, 1, 1, 3); \
	VOP3(OP, 0, 0, 1)

// ---- Products ----

// func prodF32NEON(a []float32) [32]float64
TEXT ·prodF32NEON(SB), NOSPLIT, $0-280
	REDUCE(ONEF64, TWICE, FMUL_2D, FCVTL_2D, FCVTL2_2D, 5)

// func prodF64NEON(a []float64) [32]float64
TEXT ·prodF64NEON(SB), NOSPLIT, $0-280
	REDUCE(ONEF64, SAME, FMUL_2D, 0, 0, 5)

// func prodI32NEON(a []int32) [64]int32
TEXT ·prodI32NEON(SB), NOSPLIT, $0-280
	REDUCE(ONEI32, SAME, MUL_4S, 0, 0, 6)

// func prodI16NEON(a []int16) [64]int32
TEXT ·prodI16NEON(SB), NOSPLIT, $0-280
	REDUCE(ONEI32, TWICE, MUL_4S, SXTL_4S, SXTL2_4S, 6)

// func prodU16NEON(a []uint16) [64]int32
TEXT ·prodU16NEON(SB), NOSPLIT, $0-280
	REDUCE(ONEI32, TWICE, MUL_4S, UXTL_4S, UXTL2_4S, 6)

// func prodI8NEON(a []int8) [64]int32
TEXT ·prodI8NEON(SB), NOSPLIT, $0-280
	REDUCE(ONEI32, FOURFOLD, MUL_4S, SX8, 0, 6)

// func prodU8NEON(a []uint8) [64]int32
TEXT ·prodU8NEON(SB), NOSPLIT, $0-280
	REDUCE(ONEI32, FOURFOLD, MUL_4S, UX8, 0, 6)

// func prodF16NEON(a []uint16) [32]float64
TEXT ·prodF16NEON(SB), NOSPLIT, $0-280
	REDUCE(ONEF64, FOURFOLD, FMUL_2D, H2D, 0, 5)

// func prodBF16NEON(a []uint16) [32]float64
TEXT ·prodBF16NEON(SB), NOSPLIT, $0-280
	REDUCE(ONEF64, FOURFOLD, FMUL_2D, BF2D, 0, 5)

// ---- Sums ----

// func sumF32NEON(a []float32) [32]float64
TEXT ·sumF32NEON(SB), NOSPLIT, $0-280
	REDUCE(NEGZERO64, TWICE, FADD_2D, FCVTL_2D, FCVTL2_2D, 5)

// func sumF64NEON(a []float64) [32]float64
TEXT ·sumF64NEON(SB), NOSPLIT, $0-280
	REDUCE(NEGZERO64, SAME, FADD_2D, 0, 0, 5)

// func sumF16NEON(a []uint16) [32]float64
TEXT ·sumF16NEON(SB), NOSPLIT, $0-280
	REDUCE(NEGZERO64, FOURFOLD, FADD_2D, H2D, 0, 5)

// func sumBF16NEON(a []uint16) [32]float64
TEXT ·sumBF16NEON(SB), NOSPLIT, $0-280
	REDUCE(NEGZERO64, FOURFOLD, FADD_2D, BF2D, 0, 5)

// func sumI32NEON(a []int32) [64]int32
TEXT ·sumI32NEON(SB), NOSPLIT, $0-280
	REDUCE(ZERO, SAME, ADD_4S, 0, 0, 6)

// func sumI64NEON(a []int64) [32]int64
TEXT ·sumI64NEON(SB), NOSPLIT, $0-280
	REDUCE(ZERO, SAME, ADD_2D, 0, 0, 5)

// func sumI16NEON(a []int16) [64]int32
TEXT ·sumI16NEON(SB), NOSPLIT, $0-280
	REDUCE(ZERO, TWICE, ADD_4S, SXTL_4S, SXTL2_4S, 6)

// func sumU16NEON(a []uint16) [64]int32
TEXT ·sumU16NEON(SB), NOSPLIT, $0-280
	REDUCE(ZERO, TWICE, ADD_4S, UXTL_4S, UXTL2_4S, 6)

// func sumI8NEON(a []int8) [64]int32
TEXT ·sumI8NEON(SB), NOSPLIT, $0-280
	REDUCE(ZERO, FOURFOLD, ADD_4S, SX8, 0, 6)

// func sumU8NEON(a []uint8) [64]int32
TEXT ·sumU8NEON(SB), NOSPLIT, $0-280
	REDUCE(ZERO, FOURFOLD, ADD_4S, UX8, 0, 6)

// ---- Folds ----

// func foldF64NEON(l [32]float64) float64
TEXT ·foldF64NEON(SB), NOSPLIT, $0-264
	LOADLANES
	HALVES(FMUL_2D)
	VDUP   V0.D[1], V1.D2
	FMULD  F1, F0, F0
	FMOVD  F0, ret+256(FP)
	RET

// func sumFoldF64NEON(l [32]float64) float64
TEXT ·sumFoldF64NEON(SB), NOSPLIT, $0-264
	LOADLANES
	HALVES(FADD_2D)
	VDUP   V0.D[1], V1.D2
	FADDD  F1, F0, F0
	FMOVD  F0, ret+256(FP)
	RET

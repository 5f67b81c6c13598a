//go:build !purego

#include "textflag.h"

// AVX2+FMA streaming helpers for matrix-vector products, the ymm versions
// of gemv_amd64.s. Each is bound by reading the matrix (or x and y) once
// from memory, so each keeps eight vectors of loads in flight.
//
// They give the same bits as the AVX-512 helpers: they take the same
// prefix of n (the wrappers cut it at the same multiples), fuse the same
// multiply-adds, and their accumulators are the AVX-512 ones cut in
// halves (ymm 2j and 2j+1 are the lower and upper halves of zmm j), added
// in the order the AVX-512 reductions add them.

// One step of the dot loops: eight vectors of x at SI times y at DI into
// Y0..Y7.
#define DOT8(MOVU, FMA) \
	MOVU (SI), Y8; \
	MOVU 32(SI), Y9; \
	MOVU 64(SI), Y10; \
	MOVU 96(SI), Y11; \
	MOVU 128(SI), Y12; \
	MOVU 160(SI), Y13; \
	MOVU 192(SI), Y14; \
	MOVU 224(SI), Y15; \
	FMA  (DI), Y8, Y0; \
	FMA  32(DI), Y9, Y1; \
	FMA  64(DI), Y10, Y2; \
	FMA  96(DI), Y11, Y3; \
	FMA  128(DI), Y12, Y4; \
	FMA  160(DI), Y13, Y5; \
	FMA  192(DI), Y14, Y6; \
	FMA  224(DI), Y15, Y7

// Y0 = ((Y0+Y2) + (Y4+Y6)) + ((Y1+Y3) + (Y5+Y7)): the AVX-512 dot's sum of
// its four zmm accumulators and of the two halves of the result.
#define FOLD8(ADD) \
	ADD Y2, Y0, Y0; \
	ADD Y3, Y1, Y1; \
	ADD Y6, Y4, Y4; \
	ADD Y7, Y5, Y5; \
	ADD Y4, Y0, Y0; \
	ADD Y5, Y1, Y1; \
	ADD Y1, Y0, Y0

// AXPY8 is the body of saxpyAVX2 and daxpyAVX2: eight vectors of y a step
// (256 bytes), each y[i] += alpha·x[i] fused; Y15 holds alpha, CX counts
// steps.
#define AXPY8(MOVU, FMA) \
	MOVQ x+16(FP), SI; \
	MOVQ y+24(FP), DI; \
	JZ   done; \
loop: \
	MOVU (DI), Y0; \
	MOVU 32(DI), Y1; \
	MOVU 64(DI), Y2; \
	MOVU 96(DI), Y3; \
	MOVU 128(DI), Y4; \
	MOVU 160(DI), Y5; \
	MOVU 192(DI), Y6; \
	MOVU 224(DI), Y7; \
	FMA  (SI), Y15, Y0; \
	FMA  32(SI), Y15, Y1; \
	FMA  64(SI), Y15, Y2; \
	FMA  96(SI), Y15, Y3; \
	FMA  128(SI), Y15, Y4; \
	FMA  160(SI), Y15, Y5; \
	FMA  192(SI), Y15, Y6; \
	FMA  224(SI), Y15, Y7; \
	MOVU Y0, (DI); \
	MOVU Y1, 32(DI); \
	MOVU Y2, 64(DI); \
	MOVU Y3, 96(DI); \
	MOVU Y4, 128(DI); \
	MOVU Y5, 160(DI); \
	MOVU Y6, 192(DI); \
	MOVU Y7, 224(DI); \
	ADDQ $256, SI; \
	ADDQ $256, DI; \
	DECQ CX; \
	JNZ  loop; \
done: \
	VZEROUPPER; \
	RET

#include "axpy4_amd64.h"

// The registers AXPY4 uses: ymm, so 128-byte steps; n is a multiple of the
// AVX-512 helpers' 256-byte step, so they never leave a tail.
#define V0 Y0
#define V1 Y1
#define V2 Y2
#define V3 Y3
#define V4 Y4
#define V5 Y5
#define V6 Y6
#define V7 Y7

// DOT4 is the body of the four-row dot helpers (shift = log2 of the
// element size): rows a, a+lda, a+2·lda, a+3·lda times x, 128 bytes (four
// ymm) of each row a step. The AVX-512 helper keeps four rows in flight
// with two zmm accumulators each; sixteen ymm cannot hold four
// accumulators for each of four rows, so the rows go in two passes of two
// rows (x, a few KiB, stays in L1 for the second), each row with the
// AVX-512 helper's lanes: Y0..Y3 for the pass's first row, Y4..Y7 for the
// second, each vector of x at DI loaded once for both. After a pass the
// rows' sums are folded as the AVX-512 helper folds them and shifted into
// Y12..Y15, which hold rows 0..3 after both passes. R9 is the pass's first
// row, BX counts passes. Each pass also prefetches (into L2) the two rows
// after its own (rows 2 and 3, then the next call's 4 and 5), so that four
// rows stream from memory as in the AVX-512 helper, not two: gemv 4096²
// float32 on two goroutines 13.4 -> 14.2 GFLOP/s (Sapphire Rapids).
// R10 is 3·lda.
#define DOT4(MOVU, FMA, XOR, ADD, shift) \
	MOVQ  a+8(FP), R9; \
	MOVQ  lda+16(FP), R8; \
	SHLQ  $shift, R8; \
	LEAQ  (R8)(R8*2), R10; \
	MOVQ  $2, BX; \
pass: \
	XOR   Y0, Y0, Y0; \
	XOR   Y1, Y1, Y1; \
	XOR   Y2, Y2, Y2; \
	XOR   Y3, Y3, Y3; \
	XOR   Y4, Y4, Y4; \
	XOR   Y5, Y5, Y5; \
	XOR   Y6, Y6, Y6; \
	XOR   Y7, Y7, Y7; \
	MOVQ  R9, SI; \
	MOVQ  x+24(FP), DI; \
	MOVQ  n+0(FP), CX; \
	SHRQ  $(7-shift), CX; \
	JZ    fold; \
loop: \
	MOVU  (DI), Y8; \
	MOVU  32(DI), Y9; \
	MOVU  64(DI), Y10; \
	MOVU  96(DI), Y11; \
	FMA   (SI), Y8, Y0; \
	FMA   (SI)(R8*1), Y8, Y4; \
	FMA   32(SI), Y9, Y1; \
	FMA   32(SI)(R8*1), Y9, Y5; \
	FMA   64(SI), Y10, Y2; \
	FMA   64(SI)(R8*1), Y10, Y6; \
	FMA   96(SI), Y11, Y3; \
	FMA   96(SI)(R8*1), Y11, Y7; \
	PREFETCHT1 (SI)(R8*2); \
	PREFETCHT1 64(SI)(R8*2); \
	PREFETCHT1 (SI)(R10*1); \
	PREFETCHT1 64(SI)(R10*1); \
	ADDQ  $128, SI; \
	ADDQ  $128, DI; \
	DECQ  CX; \
	JNZ   loop; \
fold: \
	ADD   Y2, Y0, Y0; \
	ADD   Y3, Y1, Y1; \
	ADD   Y1, Y0, Y0; \
	ADD   Y6, Y4, Y4; \
	ADD   Y7, Y5, Y5; \
	ADD   Y5, Y4, Y4; \
	VMOVUPS Y14, Y12; \
	VMOVUPS Y15, Y13; \
	VMOVUPS Y0, Y14; \
	VMOVUPS Y4, Y15; \
	LEAQ  (R9)(R8*2), R9; \
	DECQ  BX; \
	JNZ   pass

// func sdotAVX2(n int, x, y *float32) float32
//
// Loop: 64 elements (eight ymm) a step, one accumulator each, so that eight
// FMA chains cover the FMA latency. n is a multiple of 64.
TEXT ·sdotAVX2(SB), NOSPLIT, $0-28
	MOVQ n+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DI
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	SHRQ $6, CX
	JZ   reduce
loop:
	DOT8(VMOVUPS, VFMADD231PS)
	ADDQ $256, SI
	ADDQ $256, DI
	DECQ CX
	JNZ  loop
reduce:
	// The AVX-512 reduction: zmm (Y0,Y1) + (Y2,Y3), (Y4,Y5) + (Y6,Y7),
	// their sum, then its upper half onto its lower.
	FOLD8(VADDPS)
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VMOVSS X0, ret+24(FP)
	VZEROUPPER
	RET

// func ddotAVX2(n int, x, y *float64) float64
// As sdotAVX2, 32 elements a step; n is a multiple of 32.
TEXT ·ddotAVX2(SB), NOSPLIT, $0-32
	MOVQ n+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DI
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	SHRQ $5, CX
	JZ   reduce
loop:
	DOT8(VMOVUPD, VFMADD231PD)
	ADDQ $256, SI
	ADDQ $256, DI
	DECQ CX
	JNZ  loop
reduce:
	FOLD8(VADDPD)
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	VMOVSD X0, ret+24(FP)
	VZEROUPPER
	RET

// func saxpyAVX2(n int, alpha float32, x, y *float32)
// y[i] += alpha*x[i] (fused); n is a multiple of 64.
TEXT ·saxpyAVX2(SB), NOSPLIT, $0-32
	VBROADCASTSS alpha+8(FP), Y15
	MOVQ n+0(FP), CX
	SHRQ $6, CX
	AXPY8(VMOVUPS, VFMADD231PS)

// func daxpyAVX2(n int, alpha float64, x, y *float64)
// y[i] += alpha*x[i] (fused); n is a multiple of 32.
TEXT ·daxpyAVX2(SB), NOSPLIT, $0-32
	VBROADCASTSD alpha+8(FP), Y15
	MOVQ n+0(FP), CX
	SHRQ $5, CX
	AXPY8(VMOVUPD, VFMADD231PD)

// func saxpy4AVX2(n int, alpha *[4]float32, x *float32, ldx int, y *float32)
// y[i] += alpha[0]*x[i], then alpha[1]*x[ldx+i], alpha[2]*x[2ldx+i] and
// alpha[3]*x[3ldx+i] (fused, in that order); n is a multiple of 64.
TEXT ·saxpy4AVX2(SB), NOSPLIT, $0-40
	AXPY4(VBROADCASTSS, VMOVUPS, VFMADD231PS, 4, 2, 32, 7)

// func daxpy4AVX2(n int, alpha *[4]float64, x *float64, ldx int, y *float64)
// As saxpy4AVX2 for float64; n is a multiple of 32.
TEXT ·daxpy4AVX2(SB), NOSPLIT, $0-40
	AXPY4(VBROADCASTSD, VMOVUPD, VFMADD231PD, 8, 3, 32, 7)

// func sdot4AVX2(n int, a *float32, lda int, x *float32, out *[4]float32)
// n is a multiple of 32.
TEXT ·sdot4AVX2(SB), NOSPLIT, $0-40
	DOT4(VMOVUPS, VFMADD231PS, VXORPS, VADDPS, 2)
	// The AVX-512 helper's gathering of rows 0..3 into X0.
	VHADDPS Y13, Y12, Y0
	VHADDPS Y15, Y14, Y2
	VHADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	MOVQ out+32(FP), AX
	VMOVUPS X0, (AX)
	VZEROUPPER
	RET

// func ddot4AVX2(n int, a *float64, lda int, x *float64, out *[4]float64)
// n is a multiple of 16.
TEXT ·ddot4AVX2(SB), NOSPLIT, $0-40
	DOT4(VMOVUPD, VFMADD231PD, VXORPD, VADDPD, 3)
	VHADDPD Y13, Y12, Y0
	VHADDPD Y15, Y14, Y2
	VPERM2F128 $0x20, Y2, Y0, Y4
	VPERM2F128 $0x31, Y2, Y0, Y5
	VADDPD Y5, Y4, Y0
	MOVQ out+32(FP), AX
	VMOVUPD Y0, (AX)
	VZEROUPPER
	RET

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

// DOT4STEP is one step of DOT4's loops: 64 bytes of each of the four rows
// at SI (R8 = lda, R10 = 3·lda in bytes) times x at DI.
#define DOT4STEP(MOVU, FMA) \
	MOVU  (DI), Y8; \
	MOVU  32(DI), Y9; \
	FMA   (SI), Y8, Y0; \
	FMA   32(SI), Y9, Y1; \
	FMA   (SI)(R8*1), Y8, Y2; \
	FMA   32(SI)(R8*1), Y9, Y3; \
	FMA   (SI)(R8*2), Y8, Y4; \
	FMA   32(SI)(R8*2), Y9, Y5; \
	FMA   (SI)(R10*1), Y8, Y6; \
	FMA   32(SI)(R10*1), Y9, Y7

// DOT4 is the body of the four-row dot helpers (shift = log2 of the
// element size): rows a, a+lda, a+2·lda, a+3·lda times x in one pass, 64
// bytes of each row a step, each row with the AVX-512 helper's lanes (one
// zmm, here two ymm: Y2r for bytes 0-31 of a step, Y2r+1 for 32-63). x is
// loaded once for the four rows, and four rows stream from memory
// together; eight FMA chains of one multiply-add a step cover the FMA
// latency. The two-row passes this replaced, which prefetched the other
// two rows into L2, read a matrix from L3 at about two thirds of this
// loop's rate (BenchmarkDot4, Zen 3). Rows shorter than 4 KiB end before
// the hardware prefetchers have found them, so there each step also
// prefetches (into L2) the line of the next four rows, the next call's;
// for longer rows that prefetch only slowed the loop. The 4 KiB (a page,
// where the prefetchers stop) was measured on Zen 3 alone, between rows of
// 2 KiB (the prefetch 1.2-1.7x faster) and 4 KiB (level). n is a
// multiple of 64 bytes' elements.
#define DOT4(MOVU, FMA, XOR, shift) \
	MOVQ  a+8(FP), SI; \
	MOVQ  lda+16(FP), R8; \
	SHLQ  $shift, R8; \
	LEAQ  (R8)(R8*2), R10; \
	MOVQ  x+24(FP), DI; \
	MOVQ  n+0(FP), CX; \
	XOR   Y0, Y0, Y0; \
	XOR   Y1, Y1, Y1; \
	XOR   Y2, Y2, Y2; \
	XOR   Y3, Y3, Y3; \
	XOR   Y4, Y4, Y4; \
	XOR   Y5, Y5, Y5; \
	XOR   Y6, Y6, Y6; \
	XOR   Y7, Y7, Y7; \
	SHRQ  $(6-shift), CX; \
	JZ    fold; \
	CMPQ  CX, $64; \
	JLT   short; \
loop: \
	DOT4STEP(MOVU, FMA); \
	ADDQ  $64, SI; \
	ADDQ  $64, DI; \
	DECQ  CX; \
	JNZ   loop; \
	JMP   fold; \
short: \
	LEAQ  (SI)(R8*4), R11; \
	LEAQ  (R11)(R8*2), R12; \
short1: \
	DOT4STEP(MOVU, FMA); \
	PREFETCHT1 (R11); \
	PREFETCHT1 (R11)(R8*1); \
	PREFETCHT1 (R12); \
	PREFETCHT1 (R12)(R8*1); \
	ADDQ  $64, SI; \
	ADDQ  $64, DI; \
	ADDQ  $64, R11; \
	ADDQ  $64, R12; \
	DECQ  CX; \
	JNZ   short1; \
fold:

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
	DOT4(VMOVUPS, VFMADD231PS, VXORPS, 2)
	// The AVX-512 helper's folds: each row's zmm halves added, then rows
	// 0..3 gathered into X0.
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y5, Y4, Y4
	VADDPS Y7, Y6, Y6
	VHADDPS Y2, Y0, Y0
	VHADDPS Y6, Y4, Y2
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
	DOT4(VMOVUPD, VFMADD231PD, VXORPD, 3)
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y5, Y4, Y4
	VADDPD Y7, Y6, Y6
	VHADDPD Y2, Y0, Y0
	VHADDPD Y6, Y4, Y2
	VPERM2F128 $0x20, Y2, Y0, Y4
	VPERM2F128 $0x31, Y2, Y0, Y5
	VADDPD Y5, Y4, Y0
	MOVQ out+32(FP), AX
	VMOVUPD Y0, (AX)
	VZEROUPPER
	RET

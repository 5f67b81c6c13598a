//go:build !purego

#include "textflag.h"

// AVX2+FMA micro-kernels for CPUs without AVX-512: 6 rows of C by two ymm
// vectors of columns. Y0..Y11 hold the 6×2 accumulators (row i in Y(2i),
// Y(2i+1)), Y12/Y13 the current row of the B sliver, Y14 the broadcast A
// element, Y15 an integer product. Same arguments and contract as the
// AVX-512 kernels (see microKernel).

#define ZERO12 \
	VPXOR Y0, Y0, Y0; VPXOR Y1, Y1, Y1; VPXOR Y2, Y2, Y2; VPXOR Y3, Y3, Y3; \
	VPXOR Y4, Y4, Y4; VPXOR Y5, Y5, Y5; VPXOR Y6, Y6, Y6; VPXOR Y7, Y7, Y7; \
	VPXOR Y8, Y8, Y8; VPXOR Y9, Y9, Y9; VPXOR Y10, Y10, Y10; VPXOR Y11, Y11, Y11

#define ROW2PS(addr, r0, r1) \
	VBROADCASTSS addr, Y14; \
	VFMADD231PS Y12, Y14, r0; \
	VFMADD231PS Y13, Y14, r1

#define ROW2PD(addr, r0, r1) \
	VBROADCASTSD addr, Y14; \
	VFMADD231PD Y12, Y14, r0; \
	VFMADD231PD Y13, Y14, r1

#define ROW2D(addr, r0, r1) \
	VPBROADCASTD addr, Y14; \
	VPMULLD Y12, Y14, Y15; \
	VPADDD Y15, r0, r0; \
	VPMULLD Y13, Y14, Y15; \
	VPADDD Y15, r1, r1

#define STEP6(ROW, MOVB, es, aoff, boff) \
	MOVB boff(DI), Y12; \
	MOVB (boff+32)(DI), Y13; \
	ROW((aoff+0*es)(SI), Y0, Y1); \
	ROW((aoff+1*es)(SI), Y2, Y3); \
	ROW((aoff+2*es)(SI), Y4, Y5); \
	ROW((aoff+3*es)(SI), Y6, Y7); \
	ROW((aoff+4*es)(SI), Y8, Y9); \
	ROW((aoff+5*es)(SI), Y10, Y11)

#define KLOOP6(ROW, MOVB, es) \
	MOVQ CX, BX; \
	SHRQ $2, BX; \
	JZ   tail; \
loop4: \
	STEP6(ROW, MOVB, es, 0, 0); \
	STEP6(ROW, MOVB, es, 6*es, 64); \
	STEP6(ROW, MOVB, es, 12*es, 128); \
	STEP6(ROW, MOVB, es, 18*es, 192); \
	ADDQ $(24*es), SI; \
	ADDQ $256, DI; \
	DECQ BX; \
	JNZ  loop4; \
tail: \
	ANDQ $3, CX; \
	JZ   done; \
loop1: \
	STEP6(ROW, MOVB, es, 0, 0); \
	ADDQ $(6*es), SI; \
	ADDQ $64, DI; \
	DECQ CX; \
	JNZ  loop1; \
done:

#define STOREROW2(MOVC, r0, r1) \
	MOVC r0, (DX); \
	MOVC r1, 32(DX); \
	ADDQ R8, DX

#define ADDROW2(ADD, MOVC, r0, r1) \
	ADD (DX), r0, r0; \
	ADD 32(DX), r1, r1; \
	STOREROW2(MOVC, r0, r1)

#define STORE6(MOVC) \
	STOREROW2(MOVC, Y0, Y1); STOREROW2(MOVC, Y2, Y3); STOREROW2(MOVC, Y4, Y5); \
	STOREROW2(MOVC, Y6, Y7); STOREROW2(MOVC, Y8, Y9); STOREROW2(MOVC, Y10, Y11)

#define ADD6(ADD, MOVC) \
	ADDROW2(ADD, MOVC, Y0, Y1); ADDROW2(ADD, MOVC, Y2, Y3); ADDROW2(ADD, MOVC, Y4, Y5); \
	ADDROW2(ADD, MOVC, Y6, Y7); ADDROW2(ADD, MOVC, Y8, Y9); ADDROW2(ADD, MOVC, Y10, Y11)

#define ARGS6(shift) \
	MOVQ k+0(FP), CX; \
	MOVQ a+8(FP), SI; \
	MOVQ b+16(FP), DI; \
	MOVQ c+24(FP), DX; \
	MOVQ ldc+32(FP), R8; \
	SHLQ $shift, R8

// In-place-A variants (microKernelRowA): the six rows of A are read where
// they are, lda bytes apart (R9 = lda, R10 = 3·lda, R11 = 5·lda), one
// element of each a k step, instead of from a packed sliver; B and C as
// above. Same loop as KLOOP6 (k four steps at a time, then one), the same
// fused multiply-adds in the same order, so the same bits as packing A.
// The tile is the packed kernel's: 6×2 ymm accumulators and the B row
// fill 14 of the 16 registers.
#define STEP6S(ROW, MOVB, aoff, boff) \
	MOVB boff(DI), Y12; \
	MOVB (boff+32)(DI), Y13; \
	ROW(aoff(SI), Y0, Y1); \
	ROW(aoff(SI)(R9*1), Y2, Y3); \
	ROW(aoff(SI)(R9*2), Y4, Y5); \
	ROW(aoff(SI)(R10*1), Y6, Y7); \
	ROW(aoff(SI)(R9*4), Y8, Y9); \
	ROW(aoff(SI)(R11*1), Y10, Y11)

// Four-row in-place variant, for the rows below the last full six (m = 64,
// 256 and 1024 leave 4): a 4×2 ymm tile in Y0..Y7 instead of packing the
// rows into a padded six-row sliver.
#define STEP4S(ROW, MOVB, aoff, boff) \
	MOVB boff(DI), Y12; \
	MOVB (boff+32)(DI), Y13; \
	ROW(aoff(SI), Y0, Y1); \
	ROW(aoff(SI)(R9*1), Y2, Y3); \
	ROW(aoff(SI)(R9*2), Y4, Y5); \
	ROW(aoff(SI)(R10*1), Y6, Y7)

#define KLOOPS(STEP, ROW, MOVB, es) \
	MOVQ CX, BX; \
	SHRQ $2, BX; \
	JZ   tail; \
loop4: \
	STEP(ROW, MOVB, 0, 0); \
	STEP(ROW, MOVB, (1*es), 64); \
	STEP(ROW, MOVB, (2*es), 128); \
	STEP(ROW, MOVB, (3*es), 192); \
	ADDQ $(4*es), SI; \
	ADDQ $256, DI; \
	DECQ BX; \
	JNZ  loop4; \
tail: \
	ANDQ $3, CX; \
	JZ   done; \
loop1: \
	STEP(ROW, MOVB, 0, 0); \
	ADDQ $es, SI; \
	ADDQ $64, DI; \
	DECQ CX; \
	JNZ  loop1; \
done:

#define ARGSS(shift) \
	ARGS6(shift); \
	MOVQ lda+40(FP), R9; \
	SHLQ $shift, R9; \
	LEAQ (R9)(R9*2), R10; \
	LEAQ (R9)(R9*4), R11

#define STORE4(MOVC) \
	STOREROW2(MOVC, Y0, Y1); STOREROW2(MOVC, Y2, Y3); \
	STOREROW2(MOVC, Y4, Y5); STOREROW2(MOVC, Y6, Y7)

#define ADD4(ADD, MOVC) \
	ADDROW2(ADD, MOVC, Y0, Y1); ADDROW2(ADD, MOVC, Y2, Y3); \
	ADDROW2(ADD, MOVC, Y4, Y5); ADDROW2(ADD, MOVC, Y6, Y7)

// ROWA is the body of an in-place kernel: STEP is STEP6S or STEP4S, STORE
// and ADDC store or add the tile's rows (STORE6 and ADD6, or STORE4 and
// ADD4).
#define ROWA(STEP, STORE, ADDC, ROW, MOVB, ADD, es, shift) \
	ARGSS(shift); \
	ZERO12; \
	KLOOPS(STEP, ROW, MOVB, es); \
	MOVBLZX accumulate+48(FP), AX; \
	TESTL AX, AX; \
	JNZ   add; \
	STORE(MOVB); \
	VZEROUPPER; \
	RET; \
add: \
	ADDC(ADD, MOVB); \
	VZEROUPPER; \
	RET

// func sgemm6x16AVX2(k int, a, b, c *float32, ldc int, accumulate bool)
TEXT ·sgemm6x16AVX2(SB), NOSPLIT, $0-41
	ARGS6(2)
	ZERO12
	KLOOP6(ROW2PS, VMOVUPS, 4)
	MOVBLZX accumulate+40(FP), AX
	TESTL AX, AX
	JNZ   add
	STORE6(VMOVUPS)
	VZEROUPPER
	RET
add:
	ADD6(VADDPS, VMOVUPS)
	VZEROUPPER
	RET

// func dgemm6x8AVX2(k int, a, b, c *float64, ldc int, accumulate bool)
TEXT ·dgemm6x8AVX2(SB), NOSPLIT, $0-41
	ARGS6(3)
	ZERO12
	KLOOP6(ROW2PD, VMOVUPD, 8)
	MOVBLZX accumulate+40(FP), AX
	TESTL AX, AX
	JNZ   add
	STORE6(VMOVUPD)
	VZEROUPPER
	RET
add:
	ADD6(VADDPD, VMOVUPD)
	VZEROUPPER
	RET

// func igemm6x16AVX2(k int, a, b, c *int32, ldc int, accumulate bool)
TEXT ·igemm6x16AVX2(SB), NOSPLIT, $0-41
	ARGS6(2)
	ZERO12
	KLOOP6(ROW2D, VMOVDQU, 4)
	MOVBLZX accumulate+40(FP), AX
	TESTL AX, AX
	JNZ   add
	STORE6(VMOVDQU)
	VZEROUPPER
	RET
add:
	ADD6(VPADDD, VMOVDQU)
	VZEROUPPER
	RET

// func sgemm6x16AVX2RowA(k int, a, b, c *float32, ldc, lda int, accumulate bool)
TEXT ·sgemm6x16AVX2RowA(SB), NOSPLIT, $0-49
	ROWA(STEP6S, STORE6, ADD6, ROW2PS, VMOVUPS, VADDPS, 4, 2)

// func dgemm6x8AVX2RowA(k int, a, b, c *float64, ldc, lda int, accumulate bool)
TEXT ·dgemm6x8AVX2RowA(SB), NOSPLIT, $0-49
	ROWA(STEP6S, STORE6, ADD6, ROW2PD, VMOVUPD, VADDPD, 8, 3)

// func igemm6x16AVX2RowA(k int, a, b, c *int32, ldc, lda int, accumulate bool)
TEXT ·igemm6x16AVX2RowA(SB), NOSPLIT, $0-49
	ROWA(STEP6S, STORE6, ADD6, ROW2D, VMOVDQU, VPADDD, 4, 2)

// func sgemm4x16AVX2RowA(k int, a, b, c *float32, ldc, lda int, accumulate bool)
TEXT ·sgemm4x16AVX2RowA(SB), NOSPLIT, $0-49
	ROWA(STEP4S, STORE4, ADD4, ROW2PS, VMOVUPS, VADDPS, 4, 2)

// func dgemm4x8AVX2RowA(k int, a, b, c *float64, ldc, lda int, accumulate bool)
TEXT ·dgemm4x8AVX2RowA(SB), NOSPLIT, $0-49
	ROWA(STEP4S, STORE4, ADD4, ROW2PD, VMOVUPD, VADDPD, 8, 3)

// func igemm4x16AVX2RowA(k int, a, b, c *int32, ldc, lda int, accumulate bool)
TEXT ·igemm4x16AVX2RowA(SB), NOSPLIT, $0-49
	ROWA(STEP4S, STORE4, ADD4, ROW2D, VMOVDQU, VPADDD, 4, 2)

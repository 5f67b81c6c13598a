//go:build !purego

#include "textflag.h"

// AVX-512 micro-kernels, 12 rows of C by two zmm vectors of columns.
// Z0..Z23 hold the 12×2 accumulator vectors (row i in Z(2i), Z(2i+1)),
// Z24/Z25 the current row of the B sliver, Z26 the broadcast A element,
// Z28..Z31 integer products. SI walks the A sliver, DI the B sliver, CX
// counts K, DX/R8 address C. See microKernel for the computed loop.

#define ZERO24 \
	VPXORD Z0, Z0, Z0; VPXORD Z1, Z1, Z1; VPXORD Z2, Z2, Z2; VPXORD Z3, Z3, Z3; \
	VPXORD Z4, Z4, Z4; VPXORD Z5, Z5, Z5; VPXORD Z6, Z6, Z6; VPXORD Z7, Z7, Z7; \
	VPXORD Z8, Z8, Z8; VPXORD Z9, Z9, Z9; VPXORD Z10, Z10, Z10; VPXORD Z11, Z11, Z11; \
	VPXORD Z12, Z12, Z12; VPXORD Z13, Z13, Z13; VPXORD Z14, Z14, Z14; VPXORD Z15, Z15, Z15; \
	VPXORD Z16, Z16, Z16; VPXORD Z17, Z17, Z17; VPXORD Z18, Z18, Z18; VPXORD Z19, Z19, Z19; \
	VPXORD Z20, Z20, Z20; VPXORD Z21, Z21, Z21; VPXORD Z22, Z22, Z22; VPXORD Z23, Z23, Z23

// One row of C for one k: broadcast A[k][row] and fused-multiply-add it
// with the two B vectors.
#define ROWPS(addr, r0, r1) \
	VBROADCASTSS addr, Z26; \
	VFMADD231PS Z24, Z26, r0; \
	VFMADD231PS Z25, Z26, r1

#define ROWPD(addr, r0, r1) \
	VBROADCASTSD addr, Z26; \
	VFMADD231PD Z24, Z26, r0; \
	VFMADD231PD Z25, Z26, r1

// Integers have no fused multiply-add: multiply (low 32 bits, which is the
// wrapped product) and add.
#define ROWD(addr, r0, r1) \
	VPBROADCASTD addr, Z26; \
	VPMULLD Z24, Z26, Z28; \
	VPMULLD Z25, Z26, Z29; \
	VPADDD Z28, r0, r0; \
	VPADDD Z29, r1, r1

#define ROWQ(addr, r0, r1) \
	VPBROADCASTQ addr, Z26; \
	VPMULLQ Z24, Z26, Z28; \
	VPMULLQ Z25, Z26, Z29; \
	VPADDQ Z28, r0, r0; \
	VPADDQ Z29, r1, r1

// Pairs of int16 in each int32 lane (pairs.go): VPDPWSSD adds the two
// products of a lane's halves to the accumulator, each exact in int32 and
// the sum wrapping, in one instruction where ROWD takes three.
#define ROWW(addr, r0, r1) \
	VPBROADCASTD addr, Z26; \
	VPDPWSSD Z24, Z26, r0; \
	VPDPWSSD Z25, Z26, r1

// One k step of the whole tile: a row of B (two vectors) times a column of
// A (12 elements of size es) at byte offsets aoff and boff.
#define STEP(ROW, MOVB, es, aoff, boff) \
	MOVB boff(DI), Z24; \
	MOVB (boff+64)(DI), Z25; \
	ROW((aoff+0*es)(SI), Z0, Z1); \
	ROW((aoff+1*es)(SI), Z2, Z3); \
	ROW((aoff+2*es)(SI), Z4, Z5); \
	ROW((aoff+3*es)(SI), Z6, Z7); \
	ROW((aoff+4*es)(SI), Z8, Z9); \
	ROW((aoff+5*es)(SI), Z10, Z11); \
	ROW((aoff+6*es)(SI), Z12, Z13); \
	ROW((aoff+7*es)(SI), Z14, Z15); \
	ROW((aoff+8*es)(SI), Z16, Z17); \
	ROW((aoff+9*es)(SI), Z18, Z19); \
	ROW((aoff+10*es)(SI), Z20, Z21); \
	ROW((aoff+11*es)(SI), Z22, Z23)

// The K loop: four steps at a time, then one at a time.
#define KLOOP(ROW, MOVB, es) \
	MOVQ CX, BX; \
	SHRQ $2, BX; \
	JZ   tail; \
loop4: \
	STEP(ROW, MOVB, es, 0, 0); \
	STEP(ROW, MOVB, es, 12*es, 128); \
	STEP(ROW, MOVB, es, 24*es, 256); \
	STEP(ROW, MOVB, es, 36*es, 384); \
	ADDQ $(48*es), SI; \
	ADDQ $512, DI; \
	DECQ BX; \
	JNZ  loop4; \
tail: \
	ANDQ $3, CX; \
	JZ   done; \
loop1: \
	STEP(ROW, MOVB, es, 0, 0); \
	ADDQ $(12*es), SI; \
	ADDQ $128, DI; \
	DECQ CX; \
	JNZ  loop1; \
done:

// Store one row of C (two vectors at DX) and step DX to the next row.
#define STOREROW(MOVC, r0, r1) \
	MOVC r0, (DX); \
	MOVC r1, 64(DX); \
	ADDQ R8, DX

// Add the old row of C first (accumulate), then store.
#define ADDROW(ADD, MOVC, r0, r1) \
	ADD (DX), r0, r0; \
	ADD 64(DX), r1, r1; \
	STOREROW(MOVC, r0, r1)

#define STORE12(MOVC) \
	STOREROW(MOVC, Z0, Z1); STOREROW(MOVC, Z2, Z3); STOREROW(MOVC, Z4, Z5); \
	STOREROW(MOVC, Z6, Z7); STOREROW(MOVC, Z8, Z9); STOREROW(MOVC, Z10, Z11); \
	STOREROW(MOVC, Z12, Z13); STOREROW(MOVC, Z14, Z15); STOREROW(MOVC, Z16, Z17); \
	STOREROW(MOVC, Z18, Z19); STOREROW(MOVC, Z20, Z21); STOREROW(MOVC, Z22, Z23)

#define ADD12(ADD, MOVC) \
	ADDROW(ADD, MOVC, Z0, Z1); ADDROW(ADD, MOVC, Z2, Z3); ADDROW(ADD, MOVC, Z4, Z5); \
	ADDROW(ADD, MOVC, Z6, Z7); ADDROW(ADD, MOVC, Z8, Z9); ADDROW(ADD, MOVC, Z10, Z11); \
	ADDROW(ADD, MOVC, Z12, Z13); ADDROW(ADD, MOVC, Z14, Z15); ADDROW(ADD, MOVC, Z16, Z17); \
	ADDROW(ADD, MOVC, Z18, Z19); ADDROW(ADD, MOVC, Z20, Z21); ADDROW(ADD, MOVC, Z22, Z23)

// Start fetching one row of C (two cache lines at AX) into L1 so the final
// stores, or loads when accumulating, do not wait on memory.
#define PREFROW \
	PREFETCHT0 (AX); \
	PREFETCHT0 64(AX); \
	ADDQ R8, AX

// Load the arguments, shared by all kernels (shift is log2 of the element
// size), and prefetch the 12 rows of C.
#define ARGS(shift) \
	MOVQ k+0(FP), CX; \
	MOVQ a+8(FP), SI; \
	MOVQ b+16(FP), DI; \
	MOVQ c+24(FP), DX; \
	MOVQ ldc+32(FP), R8; \
	SHLQ $shift, R8; \
	MOVQ DX, AX; \
	PREFROW; PREFROW; PREFROW; PREFROW; PREFROW; PREFROW; \
	PREFROW; PREFROW; PREFROW; PREFROW; PREFROW; PREFROW

// Variants that read A in place instead of from a packed sliver: element
// (i, p) of the tile's A rows is at a + i*lda + p (elements), so a
// row-major A needs no packing. Rows 0..5 are addressed from SI and rows
// 6..11 from R12 = SI + 6*lda, with R9 = lda, R10 = 3*lda, R11 = 5*lda bytes
// so that every row is one base+index*scale operand.
#define STEPS(ROW, MOVB, aoff, boff) \
	MOVB boff(DI), Z24; \
	MOVB (boff+64)(DI), Z25; \
	ROW(aoff(SI), Z0, Z1); \
	ROW(aoff(SI)(R9*1), Z2, Z3); \
	ROW(aoff(SI)(R9*2), Z4, Z5); \
	ROW(aoff(SI)(R10*1), Z6, Z7); \
	ROW(aoff(SI)(R9*4), Z8, Z9); \
	ROW(aoff(SI)(R11*1), Z10, Z11); \
	ROW(aoff(R12), Z12, Z13); \
	ROW(aoff(R12)(R9*1), Z14, Z15); \
	ROW(aoff(R12)(R9*2), Z16, Z17); \
	ROW(aoff(R12)(R10*1), Z18, Z19); \
	ROW(aoff(R12)(R9*4), Z20, Z21); \
	ROW(aoff(R12)(R11*1), Z22, Z23)

#define KLOOPS(ROW, MOVB, es) \
	MOVQ CX, BX; \
	SHRQ $2, BX; \
	JZ   tail; \
loop4: \
	STEPS(ROW, MOVB, 0, 0); \
	STEPS(ROW, MOVB, (1*es), 128); \
	STEPS(ROW, MOVB, (2*es), 256); \
	STEPS(ROW, MOVB, (3*es), 384); \
	ADDQ $(4*es), SI; \
	ADDQ $(4*es), R12; \
	ADDQ $512, DI; \
	DECQ BX; \
	JNZ  loop4; \
tail: \
	ANDQ $3, CX; \
	JZ   done; \
loop1: \
	STEPS(ROW, MOVB, 0, 0); \
	ADDQ $es, SI; \
	ADDQ $es, R12; \
	ADDQ $128, DI; \
	DECQ CX; \
	JNZ  loop1; \
done:

#define ARGSS(shift) \
	ARGS(shift); \
	MOVQ lda+40(FP), R9; \
	SHLQ $shift, R9; \
	LEAQ (R9)(R9*2), R10; \
	LEAQ (R9)(R9*4), R11; \
	LEAQ (SI)(R10*2), R12

// Four-row variants of the in-place-A kernels, for the last rows of C when
// m is not a multiple of 12 (64, 256 and 1024 leave 4; 2048 leaves 8): a
// 4×(two vector) tile in Z0..Z7 instead of packing those rows and computing
// a padded 12-row tile. Same arguments and contract, with mr = 4.
#define STEPS4(ROW, MOVB, aoff, boff) \
	MOVB boff(DI), Z24; \
	MOVB (boff+64)(DI), Z25; \
	ROW(aoff(SI), Z0, Z1); \
	ROW(aoff(SI)(R9*1), Z2, Z3); \
	ROW(aoff(SI)(R9*2), Z4, Z5); \
	ROW(aoff(SI)(R10*1), Z6, Z7)

#define KLOOPS4(ROW, MOVB, es) \
	MOVQ CX, BX; \
	SHRQ $2, BX; \
	JZ   tail; \
loop4: \
	STEPS4(ROW, MOVB, 0, 0); \
	STEPS4(ROW, MOVB, (1*es), 128); \
	STEPS4(ROW, MOVB, (2*es), 256); \
	STEPS4(ROW, MOVB, (3*es), 384); \
	ADDQ $(4*es), SI; \
	ADDQ $512, DI; \
	DECQ BX; \
	JNZ  loop4; \
tail: \
	ANDQ $3, CX; \
	JZ   done; \
loop1: \
	STEPS4(ROW, MOVB, 0, 0); \
	ADDQ $es, SI; \
	ADDQ $128, DI; \
	DECQ CX; \
	JNZ  loop1; \
done:

#define ARGS4(shift) \
	MOVQ k+0(FP), CX; \
	MOVQ a+8(FP), SI; \
	MOVQ b+16(FP), DI; \
	MOVQ c+24(FP), DX; \
	MOVQ ldc+32(FP), R8; \
	SHLQ $shift, R8; \
	MOVQ lda+40(FP), R9; \
	SHLQ $shift, R9; \
	LEAQ (R9)(R9*2), R10; \
	VPXORD Z0, Z0, Z0; VPXORD Z1, Z1, Z1; VPXORD Z2, Z2, Z2; VPXORD Z3, Z3, Z3; \
	VPXORD Z4, Z4, Z4; VPXORD Z5, Z5, Z5; VPXORD Z6, Z6, Z6; VPXORD Z7, Z7, Z7

#define FINISH4(ADD, MOVC) \
	MOVBLZX accumulate+48(FP), AX; \
	TESTL AX, AX; \
	JNZ   add; \
	STOREROW(MOVC, Z0, Z1); STOREROW(MOVC, Z2, Z3); \
	STOREROW(MOVC, Z4, Z5); STOREROW(MOVC, Z6, Z7); \
	VZEROUPPER; \
	RET; \
add: \
	ADDROW(ADD, MOVC, Z0, Z1); ADDROW(ADD, MOVC, Z2, Z3); \
	ADDROW(ADD, MOVC, Z4, Z5); ADDROW(ADD, MOVC, Z6, Z7); \
	VZEROUPPER; \
	RET

// func sgemm12x32AVX512(k int, a, b, c *float32, ldc int, accumulate bool)
TEXT ·sgemm12x32AVX512(SB), NOSPLIT, $0-41
	ARGS(2)
	ZERO24
	KLOOP(ROWPS, VMOVUPS, 4)
	MOVBLZX accumulate+40(FP), AX
	TESTL AX, AX
	JNZ   add
	STORE12(VMOVUPS)
	VZEROUPPER
	RET
add:
	ADD12(VADDPS, VMOVUPS)
	VZEROUPPER
	RET

// func dgemm12x16AVX512(k int, a, b, c *float64, ldc int, accumulate bool)
TEXT ·dgemm12x16AVX512(SB), NOSPLIT, $0-41
	ARGS(3)
	ZERO24
	KLOOP(ROWPD, VMOVUPD, 8)
	MOVBLZX accumulate+40(FP), AX
	TESTL AX, AX
	JNZ   add
	STORE12(VMOVUPD)
	VZEROUPPER
	RET
add:
	ADD12(VADDPD, VMOVUPD)
	VZEROUPPER
	RET

// func igemm12x32AVX512(k int, a, b, c *int32, ldc int, accumulate bool)
TEXT ·igemm12x32AVX512(SB), NOSPLIT, $0-41
	ARGS(2)
	ZERO24
	KLOOP(ROWD, VMOVDQU32, 4)
	MOVBLZX accumulate+40(FP), AX
	TESTL AX, AX
	JNZ   add
	STORE12(VMOVDQU32)
	VZEROUPPER
	RET
add:
	ADD12(VPADDD, VMOVDQU32)
	VZEROUPPER
	RET

// func lgemm12x16AVX512(k int, a, b, c *int64, ldc int, accumulate bool)
TEXT ·lgemm12x16AVX512(SB), NOSPLIT, $0-41
	ARGS(3)
	ZERO24
	KLOOP(ROWQ, VMOVDQU64, 8)
	MOVBLZX accumulate+40(FP), AX
	TESTL AX, AX
	JNZ   add
	STORE12(VMOVDQU64)
	VZEROUPPER
	RET
add:
	ADD12(VPADDQ, VMOVDQU64)
	VZEROUPPER
	RET

// func sgemm12x32AVX512RowA(k int, a, b, c *float32, ldc, lda int, accumulate bool)
TEXT ·sgemm12x32AVX512RowA(SB), NOSPLIT, $0-49
	ARGSS(2)
	ZERO24
	KLOOPS(ROWPS, VMOVUPS, 4)
	MOVBLZX accumulate+48(FP), AX
	TESTL AX, AX
	JNZ   add
	STORE12(VMOVUPS)
	VZEROUPPER
	RET
add:
	ADD12(VADDPS, VMOVUPS)
	VZEROUPPER
	RET

// func dgemm12x16AVX512RowA(k int, a, b, c *float64, ldc, lda int, accumulate bool)
TEXT ·dgemm12x16AVX512RowA(SB), NOSPLIT, $0-49
	ARGSS(3)
	ZERO24
	KLOOPS(ROWPD, VMOVUPD, 8)
	MOVBLZX accumulate+48(FP), AX
	TESTL AX, AX
	JNZ   add
	STORE12(VMOVUPD)
	VZEROUPPER
	RET
add:
	ADD12(VADDPD, VMOVUPD)
	VZEROUPPER
	RET

// func igemm12x32AVX512RowA(k int, a, b, c *int32, ldc, lda int, accumulate bool)
TEXT ·igemm12x32AVX512RowA(SB), NOSPLIT, $0-49
	ARGSS(2)
	ZERO24
	KLOOPS(ROWD, VMOVDQU32, 4)
	MOVBLZX accumulate+48(FP), AX
	TESTL AX, AX
	JNZ   add
	STORE12(VMOVDQU32)
	VZEROUPPER
	RET
add:
	ADD12(VPADDD, VMOVDQU32)
	VZEROUPPER
	RET

// func lgemm12x16AVX512RowA(k int, a, b, c *int64, ldc, lda int, accumulate bool)
TEXT ·lgemm12x16AVX512RowA(SB), NOSPLIT, $0-49
	ARGSS(3)
	ZERO24
	KLOOPS(ROWQ, VMOVDQU64, 8)
	MOVBLZX accumulate+48(FP), AX
	TESTL AX, AX
	JNZ   add
	STORE12(VMOVDQU64)
	VZEROUPPER
	RET
add:
	ADD12(VPADDQ, VMOVDQU64)
	VZEROUPPER
	RET

// func sgemm4x32AVX512RowA(k int, a, b, c *float32, ldc, lda int, accumulate bool)
TEXT ·sgemm4x32AVX512RowA(SB), NOSPLIT, $0-49
	ARGS4(2)
	KLOOPS4(ROWPS, VMOVUPS, 4)
	FINISH4(VADDPS, VMOVUPS)

// func dgemm4x16AVX512RowA(k int, a, b, c *float64, ldc, lda int, accumulate bool)
TEXT ·dgemm4x16AVX512RowA(SB), NOSPLIT, $0-49
	ARGS4(3)
	KLOOPS4(ROWPD, VMOVUPD, 8)
	FINISH4(VADDPD, VMOVUPD)

// func igemm4x32AVX512RowA(k int, a, b, c *int32, ldc, lda int, accumulate bool)
TEXT ·igemm4x32AVX512RowA(SB), NOSPLIT, $0-49
	ARGS4(2)
	KLOOPS4(ROWD, VMOVDQU32, 4)
	FINISH4(VPADDD, VMOVDQU32)

// func lgemm4x16AVX512RowA(k int, a, b, c *int64, ldc, lda int, accumulate bool)
TEXT ·lgemm4x16AVX512RowA(SB), NOSPLIT, $0-49
	ARGS4(3)
	KLOOPS4(ROWQ, VMOVDQU64, 8)
	FINISH4(VPADDQ, VMOVDQU64)

// func wgemm12x32AVX512(k int, a, b, c *int32, ldc int, accumulate bool)
TEXT ·wgemm12x32AVX512(SB), NOSPLIT, $0-41
	ARGS(2)
	ZERO24
	KLOOP(ROWW, VMOVDQU32, 4)
	MOVBLZX accumulate+40(FP), AX
	TESTL AX, AX
	JNZ   add
	STORE12(VMOVDQU32)
	VZEROUPPER
	RET
add:
	ADD12(VPADDD, VMOVDQU32)
	VZEROUPPER
	RET

// func wgemm12x32AVX512RowA(k int, a, b, c *int32, ldc, lda int, accumulate bool)
TEXT ·wgemm12x32AVX512RowA(SB), NOSPLIT, $0-49
	ARGSS(2)
	ZERO24
	KLOOPS(ROWW, VMOVDQU32, 4)
	MOVBLZX accumulate+48(FP), AX
	TESTL AX, AX
	JNZ   add
	STORE12(VMOVDQU32)
	VZEROUPPER
	RET
add:
	ADD12(VPADDD, VMOVDQU32)
	VZEROUPPER
	RET

// func wgemm4x32AVX512RowA(k int, a, b, c *int32, ldc, lda int, accumulate bool)
TEXT ·wgemm4x32AVX512RowA(SB), NOSPLIT, $0-49
	ARGS4(2)
	KLOOPS4(ROWW, VMOVDQU32, 4)
	FINISH4(VPADDD, VMOVDQU32)

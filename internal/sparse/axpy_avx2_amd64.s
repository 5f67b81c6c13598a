//go:build !purego

#include "textflag.h"

// AVX2 row kernels for SpMM: the AVX-512 ones (axpy_amd64.s) in ymm
// registers, full vectors only; the Go wrapper finishes the last partial
// vector with the Go twin. One vector of y a step: each step's four
// products are a chain of dependent adds, and consecutive steps are
// independent, so the out-of-order core overlaps them. Multiplies and
// adds stay separate instructions, as in the Go twins, so the rounding is
// identical. DI walks y; R8..R11 walk the x rows; CX counts the elements
// left (a multiple of the vector's lanes).

// AXPY256 is the body of the one-row kernels: y += a·x a vector at a time;
// alpha is the argument a, shift log2 of the lanes in a vector.
#define AXPY256(BCAST, MOVU, MUL, ADD, alpha, xarg, shift) \
	MOVQ  y_base+0(FP), DI; \
	MOVQ  y_len+8(FP), CX; \
	BCAST alpha, Y4; \
	MOVQ  xarg, R8; \
	SHRQ  $shift, CX; \
	JZ    done; \
loop: \
	MUL   (R8), Y4, Y1; \
	ADD   (DI), Y1, Y0; \
	MOVU  Y0, (DI); \
	ADDQ  $32, DI; \
	ADDQ  $32, R8; \
	DECQ  CX; \
	JNZ   loop; \
done: \
	VZEROUPPER; \
	RET

// AXPY4_256 is the body of the four-row kernels: each vector of y takes
// its four products one at a time, in row order.
#define AXPY4_256(BCAST, MOVU, MUL, ADD, a0, a1, a2, a3, x0, x1, x2, x3, shift) \
	MOVQ  y_base+0(FP), DI; \
	MOVQ  y_len+8(FP), CX; \
	BCAST a0, Y4; \
	BCAST a1, Y5; \
	BCAST a2, Y6; \
	BCAST a3, Y7; \
	MOVQ  x0, R8; \
	MOVQ  x1, R9; \
	MOVQ  x2, R10; \
	MOVQ  x3, R11; \
	SHRQ  $shift, CX; \
	JZ    done; \
loop: \
	MOVU  (DI), Y0; \
	MUL   (R8), Y4, Y1; \
	ADD   Y1, Y0, Y0; \
	MUL   (R9), Y5, Y1; \
	ADD   Y1, Y0, Y0; \
	MUL   (R10), Y6, Y1; \
	ADD   Y1, Y0, Y0; \
	MUL   (R11), Y7, Y1; \
	ADD   Y1, Y0, Y0; \
	MOVU  Y0, (DI); \
	ADDQ  $32, DI; \
	ADDQ  $32, R8; \
	ADDQ  $32, R9; \
	ADDQ  $32, R10; \
	ADDQ  $32, R11; \
	DECQ  CX; \
	JNZ   loop; \
done: \
	VZEROUPPER; \
	RET

// func axpyF32AVX2(y []float32, a float32, x *float32)
TEXT ·axpyF32AVX2(SB), NOSPLIT, $0-40
	AXPY256(VBROADCASTSS, VMOVUPS, VMULPS, VADDPS, a+24(FP), x+32(FP), 3)

// func axpy4F32AVX2(y []float32, a0, a1, a2, a3 float32, x0, x1, x2, x3 *float32)
TEXT ·axpy4F32AVX2(SB), NOSPLIT, $0-72
	AXPY4_256(VBROADCASTSS, VMOVUPS, VMULPS, VADDPS, a0+24(FP), a1+28(FP), a2+32(FP), a3+36(FP), x0+40(FP), x1+48(FP), x2+56(FP), x3+64(FP), 3)

// func axpyF64AVX2(y []float64, a float64, x *float64)
TEXT ·axpyF64AVX2(SB), NOSPLIT, $0-40
	AXPY256(VBROADCASTSD, VMOVUPD, VMULPD, VADDPD, a+24(FP), x+32(FP), 2)

// func axpy4F64AVX2(y []float64, a0, a1, a2, a3 float64, x0, x1, x2, x3 *float64)
TEXT ·axpy4F64AVX2(SB), NOSPLIT, $0-88
	AXPY4_256(VBROADCASTSD, VMOVUPD, VMULPD, VADDPD, a0+24(FP), a1+32(FP), a2+40(FP), a3+48(FP), x0+56(FP), x1+64(FP), x2+72(FP), x3+80(FP), 2)

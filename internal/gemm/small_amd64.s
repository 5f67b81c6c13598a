//go:build !purego

#include "textflag.h"

// Direct kernels for batches of tiny products whose C rows fit one zmm
// vector (n ≤ 16 float32s or 8 float64s). Nothing is packed: each row of B
// is one masked load (lanes past n read as 0 and never fault), A elements
// are broadcast straight from their strided places, and rows of C are
// stored through the same mask. Four rows of C are computed together so four
// independent FMA chains are in flight.
//
// Registers: R13 batch index; SI, DI, DX the current A row, B, C row; BX
// rows left; CX the K counter (then C's row stride); R8 A's row stride,
// R12 three of them, R9 A's column stride, AX B's row stride (bytes); R10,
// R11 walk A and B along K; K1 the column mask.

#define SMALL(BCAST, MOVV, FMA, shift) \
	MOVQ   mask+24(FP), AX; \
	KMOVW  AX, K1; \
	MOVQ   ars+40(FP), R8; \
	SHLQ   $shift, R8; \
	LEAQ   (R8)(R8*2), R12; \
	MOVQ   acs+48(FP), R9; \
	SHLQ   $shift, R9; \
	XORQ   R13, R13; \
matrix: \
	CMPQ   R13, batch+0(FP); \
	JGE    end; \
	MOVQ   aoffs+56(FP), SI; \
	MOVQ   (SI)(R13*8), SI; \
	SHLQ   $shift, SI; \
	ADDQ   a+32(FP), SI; \
	MOVQ   boffs+80(FP), DI; \
	MOVQ   (DI)(R13*8), DI; \
	SHLQ   $shift, DI; \
	ADDQ   b+64(FP), DI; \
	MOVQ   coffs+104(FP), DX; \
	MOVQ   (DX)(R13*8), DX; \
	SHLQ   $shift, DX; \
	ADDQ   c+88(FP), DX; \
	MOVQ   brs+72(FP), AX; \
	SHLQ   $shift, AX; \
	MOVQ   m+8(FP), BX; \
rows4: \
	CMPQ   BX, $4; \
	JLT    rows1; \
	VPXORD Z0, Z0, Z0; \
	VPXORD Z1, Z1, Z1; \
	VPXORD Z2, Z2, Z2; \
	VPXORD Z3, Z3, Z3; \
	MOVQ   SI, R10; \
	MOVQ   DI, R11; \
	MOVQ   k+16(FP), CX; \
	TESTQ  CX, CX; \
	JZ     store4; \
k4: \
	MOVV.Z (R11), K1, Z8; \
	BCAST  (R10), Z4; \
	BCAST  (R10)(R8*1), Z5; \
	BCAST  (R10)(R8*2), Z6; \
	BCAST  (R10)(R12*1), Z7; \
	FMA    Z8, Z4, Z0; \
	FMA    Z8, Z5, Z1; \
	FMA    Z8, Z6, Z2; \
	FMA    Z8, Z7, Z3; \
	ADDQ   R9, R10; \
	ADDQ   AX, R11; \
	DECQ   CX; \
	JNZ    k4; \
store4: \
	MOVQ   crs+96(FP), CX; \
	SHLQ   $shift, CX; \
	MOVV   Z0, K1, (DX); \
	ADDQ   CX, DX; \
	MOVV   Z1, K1, (DX); \
	ADDQ   CX, DX; \
	MOVV   Z2, K1, (DX); \
	ADDQ   CX, DX; \
	MOVV   Z3, K1, (DX); \
	ADDQ   CX, DX; \
	LEAQ   (SI)(R8*4), SI; \
	SUBQ   $4, BX; \
	JMP    rows4; \
rows1: \
	TESTQ  BX, BX; \
	JZ     next; \
	VPXORD Z0, Z0, Z0; \
	MOVQ   SI, R10; \
	MOVQ   DI, R11; \
	MOVQ   k+16(FP), CX; \
	TESTQ  CX, CX; \
	JZ     store1; \
k1: \
	MOVV.Z (R11), K1, Z8; \
	BCAST  (R10), Z4; \
	FMA    Z8, Z4, Z0; \
	ADDQ   R9, R10; \
	ADDQ   AX, R11; \
	DECQ   CX; \
	JNZ    k1; \
store1: \
	MOVV   Z0, K1, (DX); \
	MOVQ   crs+96(FP), CX; \
	SHLQ   $shift, CX; \
	ADDQ   CX, DX; \
	ADDQ   R8, SI; \
	DECQ   BX; \
	JMP    rows1; \
next: \
	INCQ   R13; \
	JMP    matrix; \
end: \
	VZEROUPPER; \
	RET

// func smallF32AVX512(batch, m, k, mask int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)
TEXT ·smallF32AVX512(SB), NOSPLIT, $0-112
	SMALL(VBROADCASTSS, VMOVUPS, VFMADD231PS, 2)

// func smallF64AVX512(batch, m, k, mask int, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)
TEXT ·smallF64AVX512(SB), NOSPLIT, $0-112
	SMALL(VBROADCASTSD, VMOVUPD, VFMADD231PD, 3)

//go:build !purego

#include "textflag.h"

// REDUCE folds the 32 lanes of a row (z0 lanes 0-15, z1 lanes 16-31) to
// one float32 at dst: l + l+16, then l + l+8, l + l+4, l + l+2, l + l+1.
#define REDUCE(z0, z1, y0, y1, x0, x1, dst) \
	VADDPS        z1, z0, z0; \
	VEXTRACTF64X4 $1, z0, y1; \
	VADDPS        y1, y0, y0; \
	VEXTRACTF128  $1, y0, x1; \
	VADDPS        x1, x0, x0; \
	VMOVHLPS      x0, x0, x1; \
	VADDPS        x1, x0, x0; \
	VMOVSHDUP     x0, x1; \
	VADDSS        x1, x0, x0; \
	VMOVSS        x0, dst

// STEP splits the four rows' steps in Z8, Z10, Z12, Z14 into even (Z9...)
// and odd (Z8...) float32 and adds their products with x's step.
#define STEP \
	VMOVUPS     (DI), Z16; \
	VMOVUPS     64(DI), Z17; \
	VPSLLD      $16, Z8, Z9; \
	VPSLLD      $16, Z10, Z11; \
	VPSLLD      $16, Z12, Z13; \
	VPSLLD      $16, Z14, Z15; \
	VPANDD      Z31, Z8, Z8; \
	VPANDD      Z31, Z10, Z10; \
	VPANDD      Z31, Z12, Z12; \
	VPANDD      Z31, Z14, Z14; \
	VFMADD231PS Z16, Z9, Z0; \
	VFMADD231PS Z17, Z8, Z1; \
	VFMADD231PS Z16, Z11, Z2; \
	VFMADD231PS Z17, Z10, Z3; \
	VFMADD231PS Z16, Z13, Z4; \
	VFMADD231PS Z17, Z12, Z5; \
	VFMADD231PS Z16, Z15, Z6; \
	VFMADD231PS Z17, Z14, Z7

// func dot4BF16AVX512(a *uint16, lda int, x *float32, k int, out *[4]float32)
//
// Four rows of bfloat16 A dotted with a float32 x laid out in steps of 32
// (deinterleaveX: the 16 even elements of a step, then the 16 odd ones,
// zeros past k). A 64-byte load of a row holds a step; shifted left by 16
// bits its dwords are the even elements as float32, masked with
// 0xffff0000 the odd ones, so no shuffle is needed. The product of two
// half-precision values is exact in float32, so fusing changes nothing and
// dotBF16Go gives the same bits. Row r sums in 32 lanes, Z(2r) for the
// even elements 32q+2l, Z(2r+1) for the odd 32q+2l+1; the last k mod 32
// elements come through a masked load that reads nothing past them. The
// lanes then fold as dotBF16Go does: 32 -> 16 (l + l+16), 8, 4, 2, 1.
TEXT ·dot4BF16AVX512(SB), NOSPLIT, $0-40
	MOVQ a+0(FP), SI
	MOVQ lda+8(FP), BX
	SHLQ $1, BX
	MOVQ x+16(FP), DI
	MOVQ k+24(FP), CX
	MOVQ out+32(FP), DX
	LEAQ (SI)(BX*2), R8
	MOVL $0xffff0000, AX
	VPBROADCASTD AX, Z31
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	MOVQ CX, AX
	SHRQ $5, AX
	JZ   tail

loop:
	VMOVDQU16 (SI), Z8
	VMOVDQU16 (SI)(BX*1), Z10
	VMOVDQU16 (R8), Z12
	VMOVDQU16 (R8)(BX*1), Z14
	STEP
	ADDQ $64, SI
	ADDQ $64, R8
	ADDQ $128, DI
	DECQ AX
	JNZ  loop

tail:
	ANDQ $31, CX
	JZ   reduce
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVD AX, K1
	VMOVDQU16.Z (SI), K1, Z8
	VMOVDQU16.Z (SI)(BX*1), K1, Z10
	VMOVDQU16.Z (R8), K1, Z12
	VMOVDQU16.Z (R8)(BX*1), K1, Z14
	STEP

reduce:
	REDUCE(Z0, Z1, Y0, Y1, X0, X1, 0(DX))
	REDUCE(Z2, Z3, Y2, Y3, X2, X3, 4(DX))
	REDUCE(Z4, Z5, Y4, Y5, X4, X5, 8(DX))
	REDUCE(Z6, Z7, Y6, Y7, X6, X7, 12(DX))
	VZEROUPPER
	RET

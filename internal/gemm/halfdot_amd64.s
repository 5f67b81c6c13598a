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

// func dot4BF16AVX512(a *uint16, lda int, x *float32, k int, out *[4]float32)
//
// Four rows of bfloat16 A dotted with a float32 x, each bfloat16 widened in
// its register (VPMOVZXWD, then a shift into the upper half) before the
// fused multiply-add: the product of two half-precision values is exact in
// float32, so fusing changes nothing and dotBF16Go gives the same bits.
// Row r sums in 32 lanes, Z(2r) for elements 32q+l (l < 16) and Z(2r+1)
// for 32q+16+l; the last k mod 32 elements go through masked loads that
// read nothing past them and add +0 to the other lanes. The lanes then
// fold as dotBF16Go does: 32 -> 16 (l + l+16), 8, 4, 2, 1.
TEXT ·dot4BF16AVX512(SB), NOSPLIT, $0-40
	MOVQ a+0(FP), SI
	MOVQ lda+8(FP), BX
	SHLQ $1, BX
	MOVQ x+16(FP), DI
	MOVQ k+24(FP), CX
	MOVQ out+32(FP), DX
	LEAQ (SI)(BX*2), R8
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
	VMOVUPS     (DI), Z16
	VMOVUPS     64(DI), Z17
	VPMOVZXWD   (SI), Z8
	VPMOVZXWD   32(SI), Z9
	VPMOVZXWD   (SI)(BX*1), Z10
	VPMOVZXWD   32(SI)(BX*1), Z11
	VPMOVZXWD   (R8), Z12
	VPMOVZXWD   32(R8), Z13
	VPMOVZXWD   (R8)(BX*1), Z14
	VPMOVZXWD   32(R8)(BX*1), Z15
	VPSLLD      $16, Z8, Z8
	VPSLLD      $16, Z9, Z9
	VPSLLD      $16, Z10, Z10
	VPSLLD      $16, Z11, Z11
	VPSLLD      $16, Z12, Z12
	VPSLLD      $16, Z13, Z13
	VPSLLD      $16, Z14, Z14
	VPSLLD      $16, Z15, Z15
	VFMADD231PS Z16, Z8, Z0
	VFMADD231PS Z17, Z9, Z1
	VFMADD231PS Z16, Z10, Z2
	VFMADD231PS Z17, Z11, Z3
	VFMADD231PS Z16, Z12, Z4
	VFMADD231PS Z17, Z13, Z5
	VFMADD231PS Z16, Z14, Z6
	VFMADD231PS Z17, Z15, Z7
	ADDQ        $64, SI
	ADDQ        $64, R8
	ADDQ        $128, DI
	DECQ        AX
	JNZ         loop

tail:
	ANDQ $31, CX
	JZ   reduce
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K1
	SHRQ $16, AX
	KMOVW AX, K2
	VMOVUPS.Z   (DI), K1, Z16
	VMOVUPS.Z   64(DI), K2, Z17
	VPMOVZXWD.Z (SI), K1, Z8
	VPMOVZXWD.Z 32(SI), K2, Z9
	VPMOVZXWD.Z (SI)(BX*1), K1, Z10
	VPMOVZXWD.Z 32(SI)(BX*1), K2, Z11
	VPMOVZXWD.Z (R8), K1, Z12
	VPMOVZXWD.Z 32(R8), K2, Z13
	VPMOVZXWD.Z (R8)(BX*1), K1, Z14
	VPMOVZXWD.Z 32(R8)(BX*1), K2, Z15
	VPSLLD      $16, Z8, Z8
	VPSLLD      $16, Z9, Z9
	VPSLLD      $16, Z10, Z10
	VPSLLD      $16, Z11, Z11
	VPSLLD      $16, Z12, Z12
	VPSLLD      $16, Z13, Z13
	VPSLLD      $16, Z14, Z14
	VPSLLD      $16, Z15, Z15
	VFMADD231PS Z16, Z8, Z0
	VFMADD231PS Z17, Z9, Z1
	VFMADD231PS Z16, Z10, Z2
	VFMADD231PS Z17, Z11, Z3
	VFMADD231PS Z16, Z12, Z4
	VFMADD231PS Z17, Z13, Z5
	VFMADD231PS Z16, Z14, Z6
	VFMADD231PS Z17, Z15, Z7

reduce:
	REDUCE(Z0, Z1, Y0, Y1, X0, X1, 0(DX))
	REDUCE(Z2, Z3, Y2, Y3, X2, X3, 4(DX))
	REDUCE(Z4, Z5, Y4, Y5, X4, X5, 8(DX))
	REDUCE(Z6, Z7, Y6, Y7, X6, X7, 12(DX))
	VZEROUPPER
	RET

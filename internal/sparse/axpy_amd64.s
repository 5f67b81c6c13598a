//go:build !purego

#include "textflag.h"

// Row kernels for SpMM: y += a·x, and y += a0·x0 + a1·x1 + a2·x2 + a3·x3
// added one product at a time. DI walks y; R8..R11 walk the x rows; CX
// counts the elements left. Full vectors go first, then one vector masked
// by K1 to the CX remaining lanes (masked-off lanes are neither read nor
// written, so nothing past the rows is touched). Multiplies and adds stay
// separate instructions, as in the Go twins, so the rounding is identical.

// MASK sets K1 to the low CX bits (CX < 64).
#define MASK \
	MOVQ  $1, DX; \
	SHLQ  CX, DX; \
	DECQ  DX; \
	KMOVQ DX, K1

// func axpyF32AVX512(y []float32, a float32, x *float32)
TEXT ·axpyF32AVX512(SB), NOSPLIT, $0-40
	MOVQ         y_base+0(FP), DI
	MOVQ         y_len+8(FP), CX
	VBROADCASTSS a+24(FP), Z4
	MOVQ         x+32(FP), R8

loop:
	CMPQ    CX, $16
	JB      tail
	VMULPS  (R8), Z4, Z1
	VADDPS  (DI), Z1, Z0
	VMOVUPS Z0, (DI)
	ADDQ    $64, DI
	ADDQ    $64, R8
	SUBQ    $16, CX
	JMP     loop

tail:
	TESTQ    CX, CX
	JZ       done
	MASK
	VMULPS.Z (R8), Z4, K1, Z1
	VADDPS.Z (DI), Z1, K1, Z0
	VMOVUPS  Z0, K1, (DI)

done:
	VZEROUPPER
	RET

// func axpy4F32AVX512(y []float32, a0, a1, a2, a3 float32, x0, x1, x2, x3 *float32)
TEXT ·axpy4F32AVX512(SB), NOSPLIT, $0-72
	MOVQ         y_base+0(FP), DI
	MOVQ         y_len+8(FP), CX
	VBROADCASTSS a0+24(FP), Z4
	VBROADCASTSS a1+28(FP), Z5
	VBROADCASTSS a2+32(FP), Z6
	VBROADCASTSS a3+36(FP), Z7
	MOVQ         x0+40(FP), R8
	MOVQ         x1+48(FP), R9
	MOVQ         x2+56(FP), R10
	MOVQ         x3+64(FP), R11

loop:
	CMPQ    CX, $16
	JB      tail
	VMOVUPS (DI), Z0
	VMULPS  (R8), Z4, Z1
	VADDPS  Z1, Z0, Z0
	VMULPS  (R9), Z5, Z1
	VADDPS  Z1, Z0, Z0
	VMULPS  (R10), Z6, Z1
	VADDPS  Z1, Z0, Z0
	VMULPS  (R11), Z7, Z1
	VADDPS  Z1, Z0, Z0
	VMOVUPS Z0, (DI)
	ADDQ    $64, DI
	ADDQ    $64, R8
	ADDQ    $64, R9
	ADDQ    $64, R10
	ADDQ    $64, R11
	SUBQ    $16, CX
	JMP     loop

tail:
	TESTQ     CX, CX
	JZ        done
	MASK
	VMOVUPS.Z (DI), K1, Z0
	VMULPS.Z  (R8), Z4, K1, Z1
	VADDPS    Z1, Z0, Z0
	VMULPS.Z  (R9), Z5, K1, Z1
	VADDPS    Z1, Z0, Z0
	VMULPS.Z  (R10), Z6, K1, Z1
	VADDPS    Z1, Z0, Z0
	VMULPS.Z  (R11), Z7, K1, Z1
	VADDPS    Z1, Z0, Z0
	VMOVUPS   Z0, K1, (DI)

done:
	VZEROUPPER
	RET

// func axpyF64AVX512(y []float64, a float64, x *float64)
TEXT ·axpyF64AVX512(SB), NOSPLIT, $0-40
	MOVQ         y_base+0(FP), DI
	MOVQ         y_len+8(FP), CX
	VBROADCASTSD a+24(FP), Z4
	MOVQ         x+32(FP), R8

loop:
	CMPQ    CX, $8
	JB      tail
	VMULPD  (R8), Z4, Z1
	VADDPD  (DI), Z1, Z0
	VMOVUPD Z0, (DI)
	ADDQ    $64, DI
	ADDQ    $64, R8
	SUBQ    $8, CX
	JMP     loop

tail:
	TESTQ    CX, CX
	JZ       done
	MASK
	VMULPD.Z (R8), Z4, K1, Z1
	VADDPD.Z (DI), Z1, K1, Z0
	VMOVUPD  Z0, K1, (DI)

done:
	VZEROUPPER
	RET

// func axpy4F64AVX512(y []float64, a0, a1, a2, a3 float64, x0, x1, x2, x3 *float64)
TEXT ·axpy4F64AVX512(SB), NOSPLIT, $0-88
	MOVQ         y_base+0(FP), DI
	MOVQ         y_len+8(FP), CX
	VBROADCASTSD a0+24(FP), Z4
	VBROADCASTSD a1+32(FP), Z5
	VBROADCASTSD a2+40(FP), Z6
	VBROADCASTSD a3+48(FP), Z7
	MOVQ         x0+56(FP), R8
	MOVQ         x1+64(FP), R9
	MOVQ         x2+72(FP), R10
	MOVQ         x3+80(FP), R11

loop:
	CMPQ    CX, $8
	JB      tail
	VMOVUPD (DI), Z0
	VMULPD  (R8), Z4, Z1
	VADDPD  Z1, Z0, Z0
	VMULPD  (R9), Z5, Z1
	VADDPD  Z1, Z0, Z0
	VMULPD  (R10), Z6, Z1
	VADDPD  Z1, Z0, Z0
	VMULPD  (R11), Z7, Z1
	VADDPD  Z1, Z0, Z0
	VMOVUPD Z0, (DI)
	ADDQ    $64, DI
	ADDQ    $64, R8
	ADDQ    $64, R9
	ADDQ    $64, R10
	ADDQ    $64, R11
	SUBQ    $8, CX
	JMP     loop

tail:
	TESTQ     CX, CX
	JZ        done
	MASK
	VMOVUPD.Z (DI), K1, Z0
	VMULPD.Z  (R8), Z4, K1, Z1
	VADDPD    Z1, Z0, Z0
	VMULPD.Z  (R9), Z5, K1, Z1
	VADDPD    Z1, Z0, Z0
	VMULPD.Z  (R10), Z6, K1, Z1
	VADDPD    Z1, Z0, Z0
	VMULPD.Z  (R11), Z7, K1, Z1
	VADDPD    Z1, Z0, Z0
	VMOVUPD   Z0, K1, (DI)

done:
	VZEROUPPER
	RET

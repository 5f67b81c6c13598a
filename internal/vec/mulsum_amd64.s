//go:build !purego

#include "textflag.h"

// The kernels of MulWithSumF32 and MulWithSumF64: per element
// out = g·u and acc += g·v, g loaded once for both. Registers: DI out,
// SI g, DX u, R8 v, R9 acc, CX the steps left. Operand order follows
// mulF32AVX512 (g first) and addF64F32AVX512 / addF64AVX512, so that a NaN
// takes the same payload as through the separate kernels.

#define ARGS(SHIFT) \
	MOVQ out_base+0(FP), DI; \
	MOVQ out_len+8(FP), CX; \
	MOVQ g_base+24(FP), SI; \
	MOVQ u_base+48(FP), DX; \
	MOVQ v_base+72(FP), R8; \
	MOVQ acc_base+96(FP), R9; \
	SHRQ $SHIFT, CX

// The pair kernels: out = g·s and buf = g·v, g loaded once. Registers: DI
// out, R9 buf, SI g, R8 v, s broadcast in Z7 / Y7, CX the steps left.
// s is the first source of its product, as in mulScalarF32AVX512.
#define PAIRARGS(SHIFT) \
	MOVQ out_base+0(FP), DI; \
	MOVQ out_len+8(FP), CX; \
	MOVQ buf_base+24(FP), R9; \
	MOVQ g_base+48(FP), SI; \
	MOVQ v_base+72(FP), R8; \
	SHRQ $SHIFT, CX

#define PAIRF32512(STORE) \
	VMOVUPS (SI), Z0; \
	VMULPS  Z0, Z7, Z1; \
	STORE   Z1, (DI); \
	VMULPS  (R8), Z0, Z2; \
	VMOVUPS Z2, (R9)

#define PAIRF64512(STORE) \
	VMOVUPD (SI), Z0; \
	VMULPD  Z0, Z7, Z1; \
	STORE   Z1, (DI); \
	VMULPD  (R8), Z0, Z2; \
	VMOVUPD Z2, (R9)

#define PAIRF32256(STORE) \
	VMOVUPS (SI), Y0; \
	VMULPS  Y0, Y7, Y1; \
	STORE   Y1, (DI); \
	VMULPS  (R8), Y0, Y2; \
	VMOVUPS Y2, (R9)

#define PAIRF64256(STORE) \
	VMOVUPD (SI), Y0; \
	VMULPD  Y0, Y7, Y1; \
	STORE   Y1, (DI); \
	VMULPD  (R8), Y0, Y2; \
	VMOVUPD Y2, (R9)

// F32STEP512 takes 16 float32: the product g·v widens in two halves of
// eight into the float64 accumulators.
#define F32STEP512(STORE) \
	VMOVUPS       (SI), Z0; \
	VMULPS        (DX), Z0, Z1; \
	STORE         Z1, (DI); \
	VMULPS        (R8), Z0, Z2; \
	VCVTPS2PD     Y2, Z3; \
	VEXTRACTF32X8 $1, Z2, Y4; \
	VCVTPS2PD     Y4, Z4; \
	VADDPD        (R9), Z3, Z3; \
	VADDPD        64(R9), Z4, Z4; \
	VMOVUPD       Z3, (R9); \
	VMOVUPD       Z4, 64(R9)

// F64STEP512 takes 8 float64; the product rounds before the sum.
#define F64STEP512(STORE) \
	VMOVUPD (SI), Z0; \
	VMULPD  (DX), Z0, Z1; \
	STORE   Z1, (DI); \
	VMULPD  (R8), Z0, Z2; \
	VMOVUPD (R9), Z3; \
	VADDPD  Z2, Z3, Z3; \
	VMOVUPD Z3, (R9)

#define F32STEP256(STORE) \
	VMOVUPS      (SI), Y0; \
	VMULPS       (DX), Y0, Y1; \
	STORE        Y1, (DI); \
	VMULPS       (R8), Y0, Y2; \
	VCVTPS2PD    X2, Y3; \
	VEXTRACTF128 $1, Y2, X4; \
	VCVTPS2PD    X4, Y4; \
	VADDPD       (R9), Y3, Y3; \
	VADDPD       32(R9), Y4, Y4; \
	VMOVUPD      Y3, (R9); \
	VMOVUPD      Y4, 32(R9)

#define F64STEP256(STORE) \
	VMOVUPD (SI), Y0; \
	VMULPD  (DX), Y0, Y1; \
	STORE   Y1, (DI); \
	VMULPD  (R8), Y0, Y2; \
	VMOVUPD (R9), Y3; \
	VADDPD  Y2, Y3, Y3; \
	VMOVUPD Y3, (R9)

// LOOP runs STEP over CX steps, advancing g, u, v and out by B bytes and
// acc by AB.
#define LOOP(STEP, STORE, B, AB) \
	TESTQ CX, CX; \
	JZ    done; \
loop: \
	STEP(STORE); \
	ADDQ  $B, DI; \
	ADDQ  $B, SI; \
	ADDQ  $B, DX; \
	ADDQ  $B, R8; \
	ADDQ  $AB, R9; \
	DECQ  CX; \
	JNZ   loop; \
done: \
	VZEROUPPER; \
	RET

// func mulWithSumF32AVX512(out, g, u, v []float32, acc []float64)
TEXT ·mulWithSumF32AVX512(SB), NOSPLIT, $0-120
	ARGS(4)
	LOOP(F32STEP512, VMOVUPS, 64, 128)

// func mulWithSumF32StreamAVX512(out, g, u, v []float32, acc []float64)
TEXT ·mulWithSumF32StreamAVX512(SB), NOSPLIT, $0-120
	ARGS(4)
	LOOP(F32STEP512, VMOVNTPS, 64, 128)

// func mulWithSumF64AVX512(out, g, u, v, acc []float64)
TEXT ·mulWithSumF64AVX512(SB), NOSPLIT, $0-120
	ARGS(3)
	LOOP(F64STEP512, VMOVUPD, 64, 64)

// func mulWithSumF64StreamAVX512(out, g, u, v, acc []float64)
TEXT ·mulWithSumF64StreamAVX512(SB), NOSPLIT, $0-120
	ARGS(3)
	LOOP(F64STEP512, VMOVNTPD, 64, 64)

// func mulWithSumF32AVX2(out, g, u, v []float32, acc []float64)
TEXT ·mulWithSumF32AVX2(SB), NOSPLIT, $0-120
	ARGS(3)
	LOOP(F32STEP256, VMOVUPS, 32, 64)

// func mulWithSumF32StreamAVX2(out, g, u, v []float32, acc []float64)
TEXT ·mulWithSumF32StreamAVX2(SB), NOSPLIT, $0-120
	ARGS(3)
	LOOP(F32STEP256, VMOVNTPS, 32, 64)

// func mulWithSumF64AVX2(out, g, u, v, acc []float64)
TEXT ·mulWithSumF64AVX2(SB), NOSPLIT, $0-120
	ARGS(2)
	LOOP(F64STEP256, VMOVUPD, 32, 32)

// func mulWithSumF64StreamAVX2(out, g, u, v, acc []float64)
TEXT ·mulWithSumF64StreamAVX2(SB), NOSPLIT, $0-120
	ARGS(2)
	LOOP(F64STEP256, VMOVNTPD, 32, 32)

// LOOP advances DX too, which the pair kernels do not use, and buf (R9) by
// as much as the others.

// func mulScalarPairF32AVX512(out, buf, g, v []float32, s float32)
TEXT ·mulScalarPairF32AVX512(SB), NOSPLIT, $0-100
	PAIRARGS(4)
	VBROADCASTSS s+96(FP), Z7
	LOOP(PAIRF32512, VMOVUPS, 64, 64)

// func mulScalarPairF32StreamAVX512(out, buf, g, v []float32, s float32)
TEXT ·mulScalarPairF32StreamAVX512(SB), NOSPLIT, $0-100
	PAIRARGS(4)
	VBROADCASTSS s+96(FP), Z7
	LOOP(PAIRF32512, VMOVNTPS, 64, 64)

// func mulScalarPairF64AVX512(out, buf, g, v []float64, s float64)
TEXT ·mulScalarPairF64AVX512(SB), NOSPLIT, $0-104
	PAIRARGS(3)
	VBROADCASTSD s+96(FP), Z7
	LOOP(PAIRF64512, VMOVUPD, 64, 64)

// func mulScalarPairF64StreamAVX512(out, buf, g, v []float64, s float64)
TEXT ·mulScalarPairF64StreamAVX512(SB), NOSPLIT, $0-104
	PAIRARGS(3)
	VBROADCASTSD s+96(FP), Z7
	LOOP(PAIRF64512, VMOVNTPD, 64, 64)

// func mulScalarPairF32AVX2(out, buf, g, v []float32, s float32)
TEXT ·mulScalarPairF32AVX2(SB), NOSPLIT, $0-100
	PAIRARGS(3)
	VBROADCASTSS s+96(FP), Y7
	LOOP(PAIRF32256, VMOVUPS, 32, 32)

// func mulScalarPairF32StreamAVX2(out, buf, g, v []float32, s float32)
TEXT ·mulScalarPairF32StreamAVX2(SB), NOSPLIT, $0-100
	PAIRARGS(3)
	VBROADCASTSS s+96(FP), Y7
	LOOP(PAIRF32256, VMOVNTPS, 32, 32)

// func mulScalarPairF64AVX2(out, buf, g, v []float64, s float64)
TEXT ·mulScalarPairF64AVX2(SB), NOSPLIT, $0-104
	PAIRARGS(2)
	VBROADCASTSD s+96(FP), Y7
	LOOP(PAIRF64256, VMOVUPD, 32, 32)

// func mulScalarPairF64StreamAVX2(out, buf, g, v []float64, s float64)
TEXT ·mulScalarPairF64StreamAVX2(SB), NOSPLIT, $0-104
	PAIRARGS(2)
	VBROADCASTSD s+96(FP), Y7
	LOOP(PAIRF64256, VMOVNTPD, 32, 32)

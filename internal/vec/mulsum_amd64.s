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

//go:build !purego

#include "textflag.h"

// Element-wise binary kernels (multiply and add) for NEON. Every kernel
// loads dst, a and b into R0, R1 and R2 and its number of vectors into R3
// (the Go side passes a whole number of 16-byte vectors and finishes the
// rest with the Go twin), then expands LOOP around a step macro that takes
// the operation's opcode OP, so one skeleton and one step per layout serve
// every operation, as on amd64.
//
// The vector instructions are WORDs from neon_arm64.h.

#include "neon_arm64.h"

// LOOP runs STEP4 (four vectors of dst) while four remain, then STEP1 one
// vector at a time.
#define LOOP(STEP4, STEP1, OP) \
	CMP  $4, R3; \
	BLT  one; \
four: \
	STEP4(OP); \
	SUB  $4, R3; \
	CMP  $4, R3; \
	BGE  four; \
one: \
	CBZ  R3, done; \
	STEP1(OP); \
	SUB  $1, R3; \
	B    one; \
done: \
	RET

// BINARY and SCALAR load the arguments of func(dst, a, b []T) and
// func(dst, a []T, s S); SHIFT is log2 of the elements per vector. The
// scalar kernels broadcast s into V31 themselves.
#define BINARY(SHIFT) \
	MOVD dst_base+0(FP), R0; \
	MOVD dst_len+8(FP), R3; \
	MOVD a_base+24(FP), R1; \
	MOVD b_base+48(FP), R2; \
	LSR  $SHIFT, R3

#define SCALAR(SHIFT) \
	MOVD dst_base+0(FP), R0; \
	MOVD dst_len+8(FP), R3; \
	MOVD a_base+24(FP), R1; \
	LSR  $SHIFT, R3

// ---- same-type operations: one instruction per vector ----

// SAME4: 2 loads of 64 bytes, 4 OPs, 1 store of 64 bytes.
#define SAME4(OP) \
	VLD1.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]; \
	VLD1.P 64(R2), [V4.B16, V5.B16, V6.B16, V7.B16]; \
	VOP3(OP, 0, 0, 4); \
	VOP3(OP, 1, 1, 5); \
	VOP3(OP, 2, 2, 6); \
	VOP3(OP, 3, 3, 7); \
	VST1.P [V0.B16, V1.B16, V2.B16, V3.B16], 64(R0)

#define SAME1(OP) \
	VLD1.P 16(R1), [V0.B16]; \
	VLD1.P 16(R2), [V4.B16]; \
	VOP3(OP, 0, 0, 4); \
	VST1.P [V0.B16], 16(R0)

// SCAL4 and SCAL1 compute OP(a, s) with s broadcast in V31.
#define SCAL4(OP) \
	VLD1.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]; \
	VOP3(OP, 0, 0, 31); \
	VOP3(OP, 1, 1, 31); \
	VOP3(OP, 2, 2, 31); \
	VOP3(OP, 3, 3, 31); \
	VST1.P [V0.B16, V1.B16, V2.B16, V3.B16], 64(R0)

#define SCAL1(OP) \
	VLD1.P 16(R1), [V0.B16]; \
	VOP3(OP, 0, 0, 31); \
	VST1.P [V0.B16], 16(R0)

// ---- float32 by int32 converted on the fly ----

#define F32I32_4(OP) \
	VLD1.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]; \
	VLD1.P 64(R2), [V4.B16, V5.B16, V6.B16, V7.B16]; \
	VOP2(SCVTF_4S, 4, 4); \
	VOP2(SCVTF_4S, 5, 5); \
	VOP2(SCVTF_4S, 6, 6); \
	VOP2(SCVTF_4S, 7, 7); \
	VOP3(OP, 0, 0, 4); \
	VOP3(OP, 1, 1, 5); \
	VOP3(OP, 2, 2, 6); \
	VOP3(OP, 3, 3, 7); \
	VST1.P [V0.B16, V1.B16, V2.B16, V3.B16], 64(R0)

#define F32I32_1(OP) \
	VLD1.P 16(R1), [V0.B16]; \
	VLD1.P 16(R2), [V4.B16]; \
	VOP2(SCVTF_4S, 4, 4); \
	VOP3(OP, 0, 0, 4); \
	VST1.P [V0.B16], 16(R0)

// ---- float64 by float32 widened: 32 bytes of b per 64 of a and dst ----

#define F64F32_4(OP) \
	VLD1.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]; \
	VLD1.P 32(R2), [V16.B16, V17.B16]; \
	VOP2(FCVTL_2D, 4, 16); \
	VOP2(FCVTL2_2D, 5, 16); \
	VOP2(FCVTL_2D, 6, 17); \
	VOP2(FCVTL2_2D, 7, 17); \
	VOP3(OP, 0, 0, 4); \
	VOP3(OP, 1, 1, 5); \
	VOP3(OP, 2, 2, 6); \
	VOP3(OP, 3, 3, 7); \
	VST1.P [V0.B16, V1.B16, V2.B16, V3.B16], 64(R0)

#define F64F32_1(OP) \
	VLD1.P 16(R1), [V0.B16]; \
	FMOVD.P 8(R2), F16; \
	VOP2(FCVTL_2D, 4, 16); \
	VOP3(OP, 0, 0, 4); \
	VST1.P [V0.B16], 16(R0)

// ---- binary16: each half of a vector widened to float32, OP, rounded
// back once ----

// HALF(OP, v, w, x, y) computes vector v of dst from v (a) and w (b),
// with x and y (x+1, y+1) as float32 temporaries.
#define HALF(OP, v, w, x, y) \
	VOP2(FCVTL_4S, x, v); \
	VOP2(FCVTL2_4S, x+1, v); \
	VOP2(FCVTL_4S, y, w); \
	VOP2(FCVTL2_4S, y+1, w); \
	VOP3(OP, x, x, y); \
	VOP3(OP, x+1, x+1, y+1); \
	VOP2(FCVTN_4H, v, x); \
	VOP2(FCVTN2_8H, v, x+1)

#define F16_4(OP) \
	VLD1.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]; \
	VLD1.P 64(R2), [V4.B16, V5.B16, V6.B16, V7.B16]; \
	HALF(OP, 0, 4, 16, 18); \
	HALF(OP, 1, 5, 20, 22); \
	HALF(OP, 2, 6, 24, 26); \
	HALF(OP, 3, 7, 28, 16); \
	VST1.P [V0.B16, V1.B16, V2.B16, V3.B16], 64(R0)

#define F16_1(OP) \
	VLD1.P 16(R1), [V0.B16]; \
	VLD1.P 16(R2), [V4.B16]; \
	HALF(OP, 0, 4, 16, 18); \
	VST1.P [V0.B16], 16(R0)

// HALFS is HALF against the float32 scalar in V31.
#define HALFS(OP, v, x) \
	VOP2(FCVTL_4S, x, v); \
	VOP2(FCVTL2_4S, x+1, v); \
	VOP3(OP, x, x, 31); \
	VOP3(OP, x+1, x+1, 31); \
	VOP2(FCVTN_4H, v, x); \
	VOP2(FCVTN2_8H, v, x+1)

#define F16S_4(OP) \
	VLD1.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]; \
	HALFS(OP, 0, 16); \
	HALFS(OP, 1, 18); \
	HALFS(OP, 2, 20); \
	HALFS(OP, 3, 22); \
	VST1.P [V0.B16, V1.B16, V2.B16, V3.B16], 64(R0)

#define F16S_1(OP) \
	VLD1.P 16(R1), [V0.B16]; \
	HALFS(OP, 0, 16); \
	VST1.P [V0.B16], 16(R0)

// ---- bfloat16: widened by SHLL, OP on float32, rounded back once by
// BF16ROUND, the two halves' upper halfwords joined by UZP2 ----

#define BRAIN(OP, v, w) \
	VOP2(SHLL_4S, 16, v); \
	VOP2(SHLL2_4S, 17, v); \
	VOP2(SHLL_4S, 18, w); \
	VOP2(SHLL2_4S, 19, w); \
	VOP3(OP, 16, 16, 18); \
	VOP3(OP, 17, 17, 19); \
	BF16ROUND(16, 20, 22); \
	BF16ROUND(17, 21, 23); \
	VOP3(UZP2_8H, v, 22, 23)

#define BF16_4(OP) \
	VLD1.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]; \
	VLD1.P 64(R2), [V4.B16, V5.B16, V6.B16, V7.B16]; \
	BRAIN(OP, 0, 4); \
	BRAIN(OP, 1, 5); \
	BRAIN(OP, 2, 6); \
	BRAIN(OP, 3, 7); \
	VST1.P [V0.B16, V1.B16, V2.B16, V3.B16], 64(R0)

#define BF16_1(OP) \
	VLD1.P 16(R1), [V0.B16]; \
	VLD1.P 16(R2), [V4.B16]; \
	BRAIN(OP, 0, 4); \
	VST1.P [V0.B16], 16(R0)

// BRAINS is BRAIN against the float32 scalar in V31.
#define BRAINS(OP, v) \
	VOP2(SHLL_4S, 16, v); \
	VOP2(SHLL2_4S, 17, v); \
	VOP3(OP, 16, 16, 31); \
	VOP3(OP, 17, 17, 31); \
	BF16ROUND(16, 20, 22); \
	BF16ROUND(17, 21, 23); \
	VOP3(UZP2_8H, v, 22, 23)

#define BF16S_4(OP) \
	VLD1.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]; \
	BRAINS(OP, 0); \
	BRAINS(OP, 1); \
	BRAINS(OP, 2); \
	BRAINS(OP, 3); \
	VST1.P [V0.B16, V1.B16, V2.B16, V3.B16], 64(R0)

#define BF16S_1(OP) \
	VLD1.P 16(R1), [V0.B16]; \
	BRAINS(OP, 0); \
	VST1.P [V0.B16], 16(R0)

// ---- Multiply ----

// func mulF32NEON(dst, a, b []float32)
TEXT ·mulF32NEON(SB), NOSPLIT, $0-72
	BINARY(2)
	LOOP(SAME4, SAME1, FMUL_4S)

// func mulScalarF32NEON(dst, a []float32, s float32)
TEXT ·mulScalarF32NEON(SB), NOSPLIT, $0-52
	SCALAR(2)
	MOVWU s+48(FP), R4
	VDUP  R4, V31.S4
	LOOP(SCAL4, SCAL1, FMUL_4S)

// func mulF64NEON(dst, a, b []float64)
TEXT ·mulF64NEON(SB), NOSPLIT, $0-72
	BINARY(1)
	LOOP(SAME4, SAME1, FMUL_2D)

// func mulScalarF64NEON(dst, a []float64, s float64)
TEXT ·mulScalarF64NEON(SB), NOSPLIT, $0-56
	SCALAR(1)
	MOVD s+48(FP), R4
	VDUP R4, V31.D2
	LOOP(SCAL4, SCAL1, FMUL_2D)

// func mulI8NEON(dst, a, b []int8)
TEXT ·mulI8NEON(SB), NOSPLIT, $0-72
	BINARY(4)
	LOOP(SAME4, SAME1, MUL_16B)

// func mulScalarI8NEON(dst, a []int8, s int8)
TEXT ·mulScalarI8NEON(SB), NOSPLIT, $0-49
	SCALAR(4)
	MOVBU s+48(FP), R4
	VDUP  R4, V31.B16
	LOOP(SCAL4, SCAL1, MUL_16B)

// func mulI16NEON(dst, a, b []int16)
TEXT ·mulI16NEON(SB), NOSPLIT, $0-72
	BINARY(3)
	LOOP(SAME4, SAME1, MUL_8H)

// func mulScalarI16NEON(dst, a []int16, s int16)
TEXT ·mulScalarI16NEON(SB), NOSPLIT, $0-50
	SCALAR(3)
	MOVHU s+48(FP), R4
	VDUP  R4, V31.H8
	LOOP(SCAL4, SCAL1, MUL_8H)

// func mulI32NEON(dst, a, b []int32)
TEXT ·mulI32NEON(SB), NOSPLIT, $0-72
	BINARY(2)
	LOOP(SAME4, SAME1, MUL_4S)

// func mulScalarI32NEON(dst, a []int32, s int32)
TEXT ·mulScalarI32NEON(SB), NOSPLIT, $0-52
	SCALAR(2)
	MOVWU s+48(FP), R4
	VDUP  R4, V31.S4
	LOOP(SCAL4, SCAL1, MUL_4S)

// func mulF32I32NEON(dst, a []float32, b []int32)
TEXT ·mulF32I32NEON(SB), NOSPLIT, $0-72
	BINARY(2)
	LOOP(F32I32_4, F32I32_1, FMUL_4S)

// func mulF64F32NEON(dst, a []float64, b []float32)
TEXT ·mulF64F32NEON(SB), NOSPLIT, $0-72
	BINARY(1)
	LOOP(F64F32_4, F64F32_1, FMUL_2D)

// func mulF16NEON(dst, a, b []uint16)
TEXT ·mulF16NEON(SB), NOSPLIT, $0-72
	BINARY(3)
	LOOP(F16_4, F16_1, FMUL_4S)

// func mulScalarF16NEON(dst, a []uint16, s float32)
TEXT ·mulScalarF16NEON(SB), NOSPLIT, $0-52
	SCALAR(3)
	MOVWU s+48(FP), R4
	VDUP  R4, V31.S4
	LOOP(F16S_4, F16S_1, FMUL_4S)

// func mulBF16NEON(dst, a, b []uint16)
TEXT ·mulBF16NEON(SB), NOSPLIT, $0-72
	BINARY(3)
	BF16CONST
	LOOP(BF16_4, BF16_1, FMUL_4S)

// func mulScalarBF16NEON(dst, a []uint16, s float32)
TEXT ·mulScalarBF16NEON(SB), NOSPLIT, $0-52
	SCALAR(3)
	BF16CONST
	MOVWU s+48(FP), R4
	VDUP  R4, V31.S4
	LOOP(BF16S_4, BF16S_1, FMUL_4S)

// ---- Add ----

// func addF32NEON(dst, a, b []float32)
TEXT ·addF32NEON(SB), NOSPLIT, $0-72
	BINARY(2)
	LOOP(SAME4, SAME1, FADD_4S)

// func addScalarF32NEON(dst, a []float32, s float32)
TEXT ·addScalarF32NEON(SB), NOSPLIT, $0-52
	SCALAR(2)
	MOVWU s+48(FP), R4
	VDUP  R4, V31.S4
	LOOP(SCAL4, SCAL1, FADD_4S)

// func addF64NEON(dst, a, b []float64)
TEXT ·addF64NEON(SB), NOSPLIT, $0-72
	BINARY(1)
	LOOP(SAME4, SAME1, FADD_2D)

// func addScalarF64NEON(dst, a []float64, s float64)
TEXT ·addScalarF64NEON(SB), NOSPLIT, $0-56
	SCALAR(1)
	MOVD s+48(FP), R4
	VDUP R4, V31.D2
	LOOP(SCAL4, SCAL1, FADD_2D)

// func addI8NEON(dst, a, b []int8)
TEXT ·addI8NEON(SB), NOSPLIT, $0-72
	BINARY(4)
	LOOP(SAME4, SAME1, ADD_16B)

// func addScalarI8NEON(dst, a []int8, s int8)
TEXT ·addScalarI8NEON(SB), NOSPLIT, $0-49
	SCALAR(4)
	MOVBU s+48(FP), R4
	VDUP  R4, V31.B16
	LOOP(SCAL4, SCAL1, ADD_16B)

// func addI16NEON(dst, a, b []int16)
TEXT ·addI16NEON(SB), NOSPLIT, $0-72
	BINARY(3)
	LOOP(SAME4, SAME1, ADD_8H)

// func addScalarI16NEON(dst, a []int16, s int16)
TEXT ·addScalarI16NEON(SB), NOSPLIT, $0-50
	SCALAR(3)
	MOVHU s+48(FP), R4
	VDUP  R4, V31.H8
	LOOP(SCAL4, SCAL1, ADD_8H)

// func addI32NEON(dst, a, b []int32)
TEXT ·addI32NEON(SB), NOSPLIT, $0-72
	BINARY(2)
	LOOP(SAME4, SAME1, ADD_4S)

// func addScalarI32NEON(dst, a []int32, s int32)
TEXT ·addScalarI32NEON(SB), NOSPLIT, $0-52
	SCALAR(2)
	MOVWU s+48(FP), R4
	VDUP  R4, V31.S4
	LOOP(SCAL4, SCAL1, ADD_4S)

// func addI64NEON(dst, a, b []int64)
TEXT ·addI64NEON(SB), NOSPLIT, $0-72
	BINARY(1)
	LOOP(SAME4, SAME1, ADD_2D)

// func addScalarI64NEON(dst, a []int64, s int64)
TEXT ·addScalarI64NEON(SB), NOSPLIT, $0-56
	SCALAR(1)
	MOVD s+48(FP), R4
	VDUP R4, V31.D2
	LOOP(SCAL4, SCAL1, ADD_2D)

// func addF32I32NEON(dst, a []float32, b []int32)
TEXT ·addF32I32NEON(SB), NOSPLIT, $0-72
	BINARY(2)
	LOOP(F32I32_4, F32I32_1, FADD_4S)

// func addF64F32NEON(dst, a []float64, b []float32)
TEXT ·addF64F32NEON(SB), NOSPLIT, $0-72
	BINARY(1)
	LOOP(F64F32_4, F64F32_1, FADD_2D)

// func addF16NEON(dst, a, b []uint16)
TEXT ·addF16NEON(SB), NOSPLIT, $0-72
	BINARY(3)
	LOOP(F16_4, F16_1, FADD_4S)

// func addScalarF16NEON(dst, a []uint16, s float32)
TEXT ·addScalarF16NEON(SB), NOSPLIT, $0-52
	SCALAR(3)
	MOVWU s+48(FP), R4
	VDUP  R4, V31.S4
	LOOP(F16S_4, F16S_1, FADD_4S)

// func addBF16NEON(dst, a, b []uint16)
TEXT ·addBF16NEON(SB), NOSPLIT, $0-72
	BINARY(3)
	BF16CONST
	LOOP(BF16_4, BF16_1, FADD_4S)

// func addScalarBF16NEON(dst, a []uint16, s float32)
TEXT ·addScalarBF16NEON(SB), NOSPLIT, $0-52
	SCALAR(3)
	BF16CONST
	MOVWU s+48(FP), R4
	VDUP  R4, V31.S4
	LOOP(BF16S_4, BF16S_1, FADD_4S)

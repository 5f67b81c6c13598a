//go:build !purego

#include "textflag.h"

// Conversion kernels: eight elements per 256-bit vector, four vectors per
// iteration while they last, then one. Each kernel loads dst into DI, src
// into SI and the number of whole vectors (len(dst)/8) into CX, and
// expands CONVERT around its STEP(k), which converts vector k past the
// current pointers. DB and SB are the bytes of one vector of dst and src.
#define CONVERT(STEP, DB, SB) \
	MOVQ dst_base+0(FP), DI; \
	MOVQ dst_len+8(FP), CX; \
	MOVQ src_base+24(FP), SI; \
	SHRQ $3, CX; \
	JZ   done; \
	CMPQ CX, $4; \
	JB   one; \
four: \
	STEP(0); \
	STEP(1); \
	STEP(2); \
	STEP(3); \
	ADDQ $(4*DB), DI; \
	ADDQ $(4*SB), SI; \
	SUBQ $4, CX; \
	CMPQ CX, $4; \
	JAE  four; \
	TESTQ CX, CX; \
	JZ   done; \
one: \
	STEP(0); \
	ADDQ $DB, DI; \
	ADDQ $SB, SI; \
	DECQ CX; \
	JNZ  one; \
done: \
	VZEROUPPER; \
	RET

// for i := range dst { dst[i] = float32(src[i]) } (int32 src)
#define I32F32(k) \
	VCVTDQ2PS (k*32)(SI), Y0; \
	VMOVUPS   Y0, (k*32)(DI)

// func int32ToFloat32AVX(dst []float32, src []int32)
TEXT ·int32ToFloat32AVX(SB), NOSPLIT, $0-48
	CONVERT(I32F32, 32, 32)

// for i := range dst { dst[i] = float64(src[i]) } (float32 src)
#define F32F64(k) \
	VCVTPS2PD (k*32)(SI), Y0; \
	VCVTPS2PD (k*32+16)(SI), Y1; \
	VMOVUPD   Y0, (k*64)(DI); \
	VMOVUPD   Y1, (k*64+32)(DI)

// func float32ToFloat64AVX(dst []float64, src []float32)
TEXT ·float32ToFloat64AVX(SB), NOSPLIT, $0-48
	CONVERT(F32F64, 64, 32)

// for i := range dst { dst[i] = float32(src[i]) } (float64 src)
#define F64F32(k) \
	VCVTPD2PSY (k*64)(SI), X0; \
	VCVTPD2PSY (k*64+32)(SI), X1; \
	VMOVUPS    X0, (k*32)(DI); \
	VMOVUPS    X1, (k*32+16)(DI)

// func float64ToFloat32AVX(dst []float32, src []float64)
TEXT ·float64ToFloat32AVX(SB), NOSPLIT, $0-48
	CONVERT(F64F32, 32, 64)

// for i := range dst { dst[i] = float16.Frombits(src[i]).Float32() }
#define F16F32(k) \
	VCVTPH2PS (k*16)(SI), Y0; \
	VMOVUPS   Y0, (k*32)(DI)

// func halfToFloat32F16C(dst []float32, src []uint16)
TEXT ·halfToFloat32F16C(SB), NOSPLIT, $0-48
	CONVERT(F16F32, 32, 16)

// for i := range dst { dst[i] = float16.Fromfloat32(src[i]).Bits() }
// Immediate 0: round to nearest even, whatever MXCSR says.
#define F32F16(k) \
	VMOVUPS   (k*32)(SI), Y0; \
	VCVTPS2PH $0, Y0, (k*16)(DI)

// func float32ToHalfF16C(dst []uint16, src []float32)
TEXT ·float32ToHalfF16C(SB), NOSPLIT, $0-48
	CONVERT(F32F16, 16, 32)

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

// for i := range dst { dst[i] = bfloat16.BFloat16(src[i]).Float32() }:
// zero-extend to 32 bits and shift into the upper half.
#define BF16F32(k) \
	VPMOVZXWD (k*16)(SI), Y0; \
	VPSLLD    $16, Y0, Y0; \
	VMOVDQU   Y0, (k*32)(DI)

// func brainToFloat32AVX2(dst []float32, src []uint16)
TEXT ·brainToFloat32AVX2(SB), NOSPLIT, $0-48
	CONVERT(BF16F32, 32, 16)

// for i := range dst { dst[i] = bfloat16.FromFloat32(src[i]).Bits() }:
// r = (b + 0x7fff + (b>>16)&1) >> 16 rounds to nearest even; where
// |b| > 0x7f800000 (a NaN) r = b>>16 | 0x40 instead. Needs Y8 = 1, Y9 =
// 0x7fff, Y10 = 0x7fffffff, Y11 = 0x7f800000, Y12 = 0x40 in every lane.
#define F32BF16(k) \
	VMOVDQU     (k*32)(SI), Y0; \
	VPSRLD      $16, Y0, Y1; \
	VPAND       Y8, Y1, Y2; \
	VPADDD      Y9, Y0, Y3; \
	VPADDD      Y2, Y3, Y3; \
	VPSRLD      $16, Y3, Y3; \
	VPAND       Y10, Y0, Y4; \
	VPCMPGTD    Y11, Y4, Y4; \
	VPOR        Y12, Y1, Y5; \
	VPBLENDVB   Y4, Y5, Y3, Y3; \
	VEXTRACTI128 $1, Y3, X4; \
	VPACKUSDW   X4, X3, X3; \
	VMOVDQU     X3, (k*16)(DI)

#define SPLAT(c, Y) \
	MOVL         $c, AX; \
	VMOVD        AX, X15; \
	VPBROADCASTD X15, Y

// func float32ToBrainAVX2(dst []uint16, src []float32)
TEXT ·float32ToBrainAVX2(SB), NOSPLIT, $0-48
	SPLAT(1, Y8)
	SPLAT(0x7fff, Y9)
	SPLAT(0x7fffffff, Y10)
	SPLAT(0x7f800000, Y11)
	SPLAT(0x40, Y12)
	CONVERT(F32BF16, 16, 32)

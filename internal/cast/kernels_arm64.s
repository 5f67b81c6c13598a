//go:build !purego

#include "textflag.h"
#include "neon_arm64.h"

// Conversion kernels for NEON: groups of eight elements, four groups per
// iteration while they last, then one. Each kernel loads dst into R0, src
// into R1 and the number of groups (len(dst)/8) into R3, and expands
// CONVERT around its steps: STEP32 converts 32 elements, STEP8 eight,
// both advancing the pointers (post-indexed loads and stores).
#define CONVERT(STEP32, STEP8) \
	MOVD dst_base+0(FP), R0; \
	MOVD dst_len+8(FP), R3; \
	MOVD src_base+24(FP), R1; \
	LSR  $3, R3; \
	CMP  $4, R3; \
	BLT  one; \
four: \
	STEP32; \
	SUB  $4, R3; \
	CMP  $4, R3; \
	BGE  four; \
one: \
	CBZ  R3, done; \
	STEP8; \
	SUB  $1, R3; \
	B    one; \
done: \
	RET

// W2(LO, HI, d, s) widens vector s into d (its low half) and d+1 (high).
#define W2(LO, HI, d, s) VOP2(LO, d, s); VOP2(HI, d+1, s)

// N2(LO, HI, d, s) narrows vectors s and s+1 into d.
#define N2(LO, HI, d, s) VOP2(LO, d, s); VOP2(HI, d, s+1)

// WIDEN32 and WIDEN8: 16-bit (or 32-bit) source elements to twice their
// width; one 64-byte load, eight widenings, two 64-byte stores per 32.
#define WIDEN32(LO, HI) \
	VLD1.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]; \
	W2(LO, HI, 4, 0); \
	W2(LO, HI, 6, 1); \
	W2(LO, HI, 8, 2); \
	W2(LO, HI, 10, 3); \
	VST1.P [V4.B16, V5.B16, V6.B16, V7.B16], 64(R0); \
	VST1.P [V8.B16, V9.B16, V10.B16, V11.B16], 64(R0)

#define WIDEN8(LO, HI) \
	VLD1.P 16(R1), [V0.B16]; \
	W2(LO, HI, 4, 0); \
	VST1.P [V4.B16, V5.B16], 32(R0)

// NARROW32 and NARROW8: to half the width; two 64-byte loads, eight
// narrowings, one 64-byte store per 32.
#define NARROW32(LO, HI) \
	VLD1.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]; \
	VLD1.P 64(R1), [V4.B16, V5.B16, V6.B16, V7.B16]; \
	N2(LO, HI, 16, 0); \
	N2(LO, HI, 17, 2); \
	N2(LO, HI, 18, 4); \
	N2(LO, HI, 19, 6); \
	VST1.P [V16.B16, V17.B16, V18.B16, V19.B16], 64(R0)

#define NARROW8(LO, HI) \
	VLD1.P 32(R1), [V0.B16, V1.B16]; \
	N2(LO, HI, 16, 0); \
	VST1.P [V16.B16], 16(R0)

// TOBRAIN32 and TOBRAIN8 round float32 to bfloat16 (BF16ROUND, then UZP2
// joins the upper halfwords of two vectors): per 32 elements two loads,
// eight roundings of seven instructions, four UZP2 and one store.
#define BRAIN2(d, s) \
	BF16ROUND(s, 20, 22); \
	BF16ROUND(s+1, 21, 23); \
	VOP3(UZP2_8H, d, 22, 23)

#define TOBRAIN32 \
	VLD1.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]; \
	VLD1.P 64(R1), [V4.B16, V5.B16, V6.B16, V7.B16]; \
	BRAIN2(16, 0); \
	BRAIN2(17, 2); \
	BRAIN2(18, 4); \
	BRAIN2(19, 6); \
	VST1.P [V16.B16, V17.B16, V18.B16, V19.B16], 64(R0)

#define TOBRAIN8 \
	VLD1.P 32(R1), [V0.B16, V1.B16]; \
	BRAIN2(16, 0); \
	VST1.P [V16.B16], 16(R0)

#define HALF32 WIDEN32(FCVTL_4S, FCVTL2_4S)
#define HALF8 WIDEN8(FCVTL_4S, FCVTL2_4S)
#define BRAIN32 WIDEN32(SHLL_4S, SHLL2_4S)
#define BRAIN8 WIDEN8(SHLL_4S, SHLL2_4S)
#define TOHALF32 NARROW32(FCVTN_4H, FCVTN2_8H)
#define TOHALF8 NARROW8(FCVTN_4H, FCVTN2_8H)

// float32 to float64 moves 128 bytes in and 256 out per 32 elements:
// two loads, sixteen FCVTL/FCVTL2, four stores.
#define F32F64_32 \
	VLD1.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]; \
	VLD1.P 64(R1), [V4.B16, V5.B16, V6.B16, V7.B16]; \
	W2(FCVTL_2D, FCVTL2_2D, 16, 0); \
	W2(FCVTL_2D, FCVTL2_2D, 18, 1); \
	W2(FCVTL_2D, FCVTL2_2D, 20, 2); \
	W2(FCVTL_2D, FCVTL2_2D, 22, 3); \
	W2(FCVTL_2D, FCVTL2_2D, 24, 4); \
	W2(FCVTL_2D, FCVTL2_2D, 26, 5); \
	W2(FCVTL_2D, FCVTL2_2D, 28, 6); \
	W2(FCVTL_2D, FCVTL2_2D, 30, 7); \
	VST1.P [V16.B16, V17.B16, V18.B16, V19.B16], 64(R0); \
	VST1.P [V20.B16, V21.B16, V22.B16, V23.B16], 64(R0); \
	VST1.P [V24.B16, V25.B16, V26.B16, V27.B16], 64(R0); \
	VST1.P [V28.B16, V29.B16, V30.B16, V31.B16], 64(R0)

#define F32F64_8 \
	VLD1.P 32(R1), [V0.B16, V1.B16]; \
	W2(FCVTL_2D, FCVTL2_2D, 16, 0); \
	W2(FCVTL_2D, FCVTL2_2D, 18, 1); \
	VST1.P [V16.B16, V17.B16, V18.B16, V19.B16], 64(R0)

// float64 to float32: four loads, sixteen FCVTN/FCVTN2, two stores.
#define F64F32_32 \
	VLD1.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]; \
	VLD1.P 64(R1), [V4.B16, V5.B16, V6.B16, V7.B16]; \
	VLD1.P 64(R1), [V8.B16, V9.B16, V10.B16, V11.B16]; \
	VLD1.P 64(R1), [V12.B16, V13.B16, V14.B16, V15.B16]; \
	N2(FCVTN_2S, FCVTN2_4S, 16, 0); \
	N2(FCVTN_2S, FCVTN2_4S, 17, 2); \
	N2(FCVTN_2S, FCVTN2_4S, 18, 4); \
	N2(FCVTN_2S, FCVTN2_4S, 19, 6); \
	N2(FCVTN_2S, FCVTN2_4S, 20, 8); \
	N2(FCVTN_2S, FCVTN2_4S, 21, 10); \
	N2(FCVTN_2S, FCVTN2_4S, 22, 12); \
	N2(FCVTN_2S, FCVTN2_4S, 23, 14); \
	VST1.P [V16.B16, V17.B16, V18.B16, V19.B16], 64(R0); \
	VST1.P [V20.B16, V21.B16, V22.B16, V23.B16], 64(R0)

#define F64F32_8 \
	VLD1.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]; \
	N2(FCVTN_2S, FCVTN2_4S, 16, 0); \
	N2(FCVTN_2S, FCVTN2_4S, 17, 2); \
	VST1.P [V16.B16, V17.B16], 32(R0)

// int32 to float32 in place in the registers: two loads, eight SCVTF, two
// stores per 32.
#define I32F32_32 \
	VLD1.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]; \
	VLD1.P 64(R1), [V4.B16, V5.B16, V6.B16, V7.B16]; \
	VOP2(SCVTF_4S, 0, 0); \
	VOP2(SCVTF_4S, 1, 1); \
	VOP2(SCVTF_4S, 2, 2); \
	VOP2(SCVTF_4S, 3, 3); \
	VOP2(SCVTF_4S, 4, 4); \
	VOP2(SCVTF_4S, 5, 5); \
	VOP2(SCVTF_4S, 6, 6); \
	VOP2(SCVTF_4S, 7, 7); \
	VST1.P [V0.B16, V1.B16, V2.B16, V3.B16], 64(R0); \
	VST1.P [V4.B16, V5.B16, V6.B16, V7.B16], 64(R0)

#define I32F32_8 \
	VLD1.P 32(R1), [V0.B16, V1.B16]; \
	VOP2(SCVTF_4S, 0, 0); \
	VOP2(SCVTF_4S, 1, 1); \
	VST1.P [V0.B16, V1.B16], 32(R0)

// func halfToFloat32NEON(dst []float32, src []uint16)
TEXT ·halfToFloat32NEON(SB), NOSPLIT, $0-48
	CONVERT(HALF32, HALF8)

// func float32ToHalfNEON(dst []uint16, src []float32)
TEXT ·float32ToHalfNEON(SB), NOSPLIT, $0-48
	CONVERT(TOHALF32, TOHALF8)

// func brainToFloat32NEON(dst []float32, src []uint16)
TEXT ·brainToFloat32NEON(SB), NOSPLIT, $0-48
	CONVERT(BRAIN32, BRAIN8)

// func float32ToBrainNEON(dst []uint16, src []float32)
TEXT ·float32ToBrainNEON(SB), NOSPLIT, $0-48
	BF16CONST
	CONVERT(TOBRAIN32, TOBRAIN8)

// func float32ToFloat64NEON(dst []float64, src []float32)
TEXT ·float32ToFloat64NEON(SB), NOSPLIT, $0-48
	CONVERT(F32F64_32, F32F64_8)

// func float64ToFloat32NEON(dst []float32, src []float64)
TEXT ·float64ToFloat32NEON(SB), NOSPLIT, $0-48
	CONVERT(F64F32_32, F64F32_8)

// func int32ToFloat32NEON(dst []float32, src []int32)
TEXT ·int32ToFloat32NEON(SB), NOSPLIT, $0-48
	CONVERT(I32F32_32, I32F32_8)

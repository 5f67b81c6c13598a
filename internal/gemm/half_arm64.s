//go:build !purego

#include "textflag.h"
#include "neon_arm64.h"

// 16 float16 from R2 widened to float32 at R1.
#define CVT16 \
	VLD1.P 32(R2), [V0.H8, V1.H8]; \
	FCVTL(2, 0); FCVTL2(3, 0); FCVTL(4, 1); FCVTL2(5, 1); \
	VST1.P [V2.S4, V3.S4, V4.S4, V5.S4], 64(R1)

// func f16ToF32NEON(n int, dst *float32, src *uint16)
// n is a multiple of 32.
TEXT ·f16ToF32NEON(SB), NOSPLIT, $0-24
	MOVD n+0(FP), R0
	MOVD dst+8(FP), R1
	MOVD src+16(FP), R2
	LSR $5, R0, R0
	CBZ R0, done
loop:
	CVT16
	CVT16
	SUBS $1, R0, R0
	BNE loop
done:
	RET

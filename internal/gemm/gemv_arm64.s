//go:build !purego

#include "textflag.h"
#include "neon_arm64.h"

// NEON streaming helpers for gemv. They compute exactly what the AVX-512
// ones (gemv_amd64.s) compute, bit for bit: the same 256-byte steps, the
// same fused multiply-adds into the same partial sums, added in the same
// tree. Where AVX-512 keeps four 16-lane (float32) or 8-lane (float64)
// accumulators Z0..Z3, NEON keeps sixteen q-registers V0..V15, Zr being
// V(4r)..V(4r+3); the reduction mirrors Z0+Z1, Z2+Z3, their sum, then the
// halves (256 and 128 bits) and the horizontal adds.

#define ZERO16 \
	VEOR V0.B16, V0.B16, V0.B16; VEOR V1.B16, V1.B16, V1.B16; VEOR V2.B16, V2.B16, V2.B16; \
	VEOR V3.B16, V3.B16, V3.B16; VEOR V4.B16, V4.B16, V4.B16; VEOR V5.B16, V5.B16, V5.B16; \
	VEOR V6.B16, V6.B16, V6.B16; VEOR V7.B16, V7.B16, V7.B16; VEOR V8.B16, V8.B16, V8.B16; \
	VEOR V9.B16, V9.B16, V9.B16; VEOR V10.B16, V10.B16, V10.B16; VEOR V11.B16, V11.B16, V11.B16; \
	VEOR V12.B16, V12.B16, V12.B16; VEOR V13.B16, V13.B16, V13.B16; VEOR V14.B16, V14.B16, V14.B16; \
	VEOR V15.B16, V15.B16, V15.B16

// 64 bytes of x and y into four accumulators a0..a3 (arrangement T).
#define DOT64(T, a0, a1, a2, a3) \
	VLD1.P 64(R1), [V16.T, V17.T, V18.T, V19.T]; \
	VLD1.P 64(R2), [V20.T, V21.T, V22.T, V23.T]; \
	VFMLA V16.T, V20.T, a0.T; \
	VFMLA V17.T, V21.T, a1.T; \
	VFMLA V18.T, V22.T, a2.T; \
	VFMLA V19.T, V23.T, a3.T

// Z0 += Z1; Z2 += Z3; Z0 += Z2; the upper 256 bits onto the lower, the
// upper 128 onto the lower (FADD is F, S or D).
#define REDUCE(F) \
	F(0, 0, 4); F(1, 1, 5); F(2, 2, 6); F(3, 3, 7); \
	F(8, 8, 12); F(9, 9, 13); F(10, 10, 14); F(11, 11, 15); \
	F(0, 0, 8); F(1, 1, 9); F(2, 2, 10); F(3, 3, 11); \
	F(0, 0, 2); F(1, 1, 3); \
	F(0, 0, 1)

#define DOTARGS(shift) \
	MOVD n+0(FP), R0; \
	MOVD x+8(FP), R1; \
	MOVD y+16(FP), R2; \
	ZERO16; \
	LSR $shift, R0, R0

// 64 bytes of y += alpha·x (alpha in V1), fused.
#define AXPY64(T) \
	VLD1.P 64(R1), [V16.T, V17.T, V18.T, V19.T]; \
	VLD1 (R2), [V4.T, V5.T, V6.T, V7.T]; \
	VFMLA V16.T, V1.T, V4.T; \
	VFMLA V17.T, V1.T, V5.T; \
	VFMLA V18.T, V1.T, V6.T; \
	VFMLA V19.T, V1.T, V7.T; \
	VST1.P [V4.T, V5.T, V6.T, V7.T], 64(R2)

// The axpy loop: alpha (FMOV loads it) broadcast to V1, 256 bytes a pass.
#define AXPY(FMOV, T, lane, shift, loop, done) \
	MOVD n+0(FP), R0; \
	FMOV alpha+8(FP), F0; \
	MOVD x+16(FP), R1; \
	MOVD y+24(FP), R2; \
	VDUP V0.lane, V1.T; \
	LSR $shift, R0, R0; \
	CBZ R0, done; \
loop: \
	AXPY64(T); AXPY64(T); AXPY64(T); AXPY64(T); \
	SUBS $1, R0, R0; \
	BNE loop; \
done: \
	RET

// func sdotNEON(n int, x, y *float32) float32
// n is a multiple of 64. Per 64 elements: 16 FMLA, 8 loads of 64 bytes;
// load-bound (two operands per FMA), as every dot product.
TEXT ·sdotNEON(SB), NOSPLIT, $0-28
	DOTARGS(6)
	CBZ R0, sreduce
sloop:
	DOT64(S4, V0, V1, V2, V3)
	DOT64(S4, V4, V5, V6, V7)
	DOT64(S4, V8, V9, V10, V11)
	DOT64(S4, V12, V13, V14, V15)
	SUBS $1, R0, R0
	BNE sloop
sreduce:
	REDUCE(FADDS)
	FADDPS(0, 0, 0)  // two HADDPS: (x0+x1)+(x2+x3)
	FADDPS2(0, 0)
	FMOVS F0, ret+24(FP)
	RET

// func ddotNEON(n int, x, y *float64) float64
// n is a multiple of 32.
TEXT ·ddotNEON(SB), NOSPLIT, $0-32
	DOTARGS(5)
	CBZ R0, dreduce
dloop:
	DOT64(D2, V0, V1, V2, V3)
	DOT64(D2, V4, V5, V6, V7)
	DOT64(D2, V8, V9, V10, V11)
	DOT64(D2, V12, V13, V14, V15)
	SUBS $1, R0, R0
	BNE dloop
dreduce:
	REDUCE(FADDD)
	FADDPD2(0, 0)  // HADDPD: x0+x1
	FMOVD F0, ret+24(FP)
	RET

// func saxpyNEON(n int, alpha float32, x, y *float32)
// n is a multiple of 64.
TEXT ·saxpyNEON(SB), NOSPLIT, $0-32
	AXPY(FMOVS, S4, S[0], 6, saloop, sdone)

// func daxpyNEON(n int, alpha float64, x, y *float64)
// n is a multiple of 32.
TEXT ·daxpyNEON(SB), NOSPLIT, $0-32
	AXPY(FMOVD, D2, D[0], 5, daloop, ddone)

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

// The four-row helpers, the same bits as the AVX-512 and AVX2 ones.
//
// dot4: rows a, a+lda, a+2·lda, a+3·lda times x in one pass, 128 bytes of
// each a step. Each row has the AVX-512 helper's lanes, one zmm, here four
// q-registers (row r in V(4r)..V(4r+3)), taking the step's first 64 bytes,
// then its second; x in V16–V23, a row's data in V24–V31. Per step 32
// FMLA and 40 q-register loads: load-bound, as every matrix-vector product
// (each element of A is used once).

// One row's step: its 128 bytes at R into the accumulators a0..a3.
#define DOT4ROW(T, R, a0, a1, a2, a3) \
	VLD1.P 64(R), [V24.T, V25.T, V26.T, V27.T]; \
	VLD1.P 64(R), [V28.T, V29.T, V30.T, V31.T]; \
	VFMLA V16.T, V24.T, a0.T; VFMLA V17.T, V25.T, a1.T; VFMLA V18.T, V26.T, a2.T; VFMLA V19.T, V27.T, a3.T; \
	VFMLA V20.T, V28.T, a0.T; VFMLA V21.T, V29.T, a1.T; VFMLA V22.T, V30.T, a2.T; VFMLA V23.T, V31.T, a3.T

// The K loop (elements of 1<<shift bytes): R1, R2, R3 and R6 walk rows 0
// to 3 (R5 is lda in bytes), R4 walks x.
#define DOT4LOOP(T, shift, loop, done) \
	MOVD a+8(FP), R1; \
	MOVD lda+16(FP), R5; \
	LSL  $shift, R5, R5; \
	ADD  R5, R1, R2; \
	ADD  R5, R2, R3; \
	ADD  R5, R3, R6; \
	ZERO16; \
	MOVD x+24(FP), R4; \
	MOVD n+0(FP), R0; \
	LSR  $(7-shift), R0, R0; \
	CBZ  R0, done; \
loop: \
	VLD1.P 64(R4), [V16.T, V17.T, V18.T, V19.T]; \
	VLD1.P 64(R4), [V20.T, V21.T, V22.T, V23.T]; \
	DOT4ROW(T, R1, V0, V1, V2, V3); \
	DOT4ROW(T, R2, V4, V5, V6, V7); \
	DOT4ROW(T, R3, V8, V9, V10, V11); \
	DOT4ROW(T, R6, V12, V13, V14, V15); \
	SUBS $1, R0, R0; \
	BNE  loop; \
done:

// The rows folded as the AVX-512 helper folds a zmm: its 256-bit halves
// added (q0 += q2, q1 += q3), leaving row r's lanes in V(4r) and V(4r+1).
#define FOLDROWS(F) \
	F(0, 0, 2); F(1, 1, 3); F(4, 4, 6); F(5, 5, 7); \
	F(8, 8, 10); F(9, 9, 11); F(12, 12, 14); F(13, 13, 15)

// axpy4: y[i] += alpha[0]·x[i], then alpha[1]·x[ldx+i], alpha[2]·x[2ldx+i]
// and alpha[3]·x[3ldx+i], fused, in that order, as the AVX-512 helper
// does, 64 bytes of y a step: per step 16 FMLA by element (alpha in V4,
// float64 in V4–V5), 20 q-register loads and 4 stores; load-bound.

// One row's products into y's four vectors V0–V3: the row at R, its
// alpha lane (a, lane), FMLA by element (F is FMLAS or FMLAD).
#define AXPY4ROW(T, F, R, a, lane) \
	VLD1.P 64(R), [V16.T, V17.T, V18.T, V19.T]; \
	F(0, 16, (a), (lane)); F(1, 17, (a), (lane)); F(2, 18, (a), (lane)); F(3, 19, (a), (lane))

#define AXPY4ARGS(shift) \
	MOVD n+0(FP), R0; \
	MOVD alpha+8(FP), R1; \
	MOVD x+16(FP), R2; \
	MOVD ldx+24(FP), R6; \
	LSL  $shift, R6, R6; \
	ADD  R6, R2, R3; \
	ADD  R6, R3, R4; \
	ADD  R6, R4, R5; \
	MOVD y+32(FP), R7

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

// func sdot4NEON(n int, a *float32, lda int, x *float32, out *[4]float32)
// n is a multiple of 32. The AVX-512 helper's reduction of a row's eight
// lanes y0..y7 (after the folds) is ((y0+y1)+(y2+y3)) + ((y4+y5)+(y6+y7)):
// FADDP of the row's two vectors gives the four pair sums, FADDP of two
// rows' results their halves' sums, FADDP of those the four rows.
TEXT ·sdot4NEON(SB), NOSPLIT, $0-40
	DOT4LOOP(S4, 2, s4loop, s4done)
	FOLDROWS(FADDS)
	FADDPS(0, 0, 1); FADDPS(4, 4, 5); FADDPS(8, 8, 9); FADDPS(12, 12, 13)
	FADDPS(0, 0, 4)   // rows 0 and 1: [lo0, hi0, lo1, hi1]
	FADDPS(8, 8, 12)  // rows 2 and 3
	FADDPS(0, 0, 8)   // [row 0, row 1, row 2, row 3]
	MOVD out+32(FP), R6
	VST1 [V0.S4], (R6)
	RET

// func ddot4NEON(n int, a *float64, lda int, x *float64, out *[4]float64)
// n is a multiple of 16. A row's four lanes y0..y3 (after the folds) sum
// as (y0+y1) + (y2+y3), the AVX-512 helper's VHADDPD and VPERM2F128.
TEXT ·ddot4NEON(SB), NOSPLIT, $0-40
	DOT4LOOP(D2, 3, d4loop, d4done)
	FOLDROWS(FADDD)
	FADDPD(0, 0, 1); FADDPD(4, 4, 5); FADDPD(8, 8, 9); FADDPD(12, 12, 13)
	FADDPD(0, 0, 4)   // [row 0, row 1]
	FADDPD(8, 8, 12)  // [row 2, row 3]
	MOVD out+32(FP), R6
	VST1.P [V0.D2], 16(R6)
	VST1 [V8.D2], (R6)
	RET

// func saxpy4NEON(n int, alpha *[4]float32, x *float32, ldx int, y *float32)
// n is a multiple of 64.
TEXT ·saxpy4NEON(SB), NOSPLIT, $0-40
	AXPY4ARGS(2)
	VLD1 (R1), [V4.S4]
	LSR  $4, R0, R0
	CBZ  R0, sa4done
sa4loop:
	VLD1 (R7), [V0.S4, V1.S4, V2.S4, V3.S4]
	AXPY4ROW(S4, FMLAS, R2, 4, 0)
	AXPY4ROW(S4, FMLAS, R3, 4, 1)
	AXPY4ROW(S4, FMLAS, R4, 4, 2)
	AXPY4ROW(S4, FMLAS, R5, 4, 3)
	VST1.P [V0.S4, V1.S4, V2.S4, V3.S4], 64(R7)
	SUBS $1, R0, R0
	BNE  sa4loop
sa4done:
	RET

// func daxpy4NEON(n int, alpha *[4]float64, x *float64, ldx int, y *float64)
// n is a multiple of 32.
TEXT ·daxpy4NEON(SB), NOSPLIT, $0-40
	AXPY4ARGS(3)
	VLD1 (R1), [V4.D2, V5.D2]
	LSR  $3, R0, R0
	CBZ  R0, da4done
da4loop:
	VLD1 (R7), [V0.D2, V1.D2, V2.D2, V3.D2]
	AXPY4ROW(D2, FMLAD, R2, 4, 0)
	AXPY4ROW(D2, FMLAD, R3, 4, 1)
	AXPY4ROW(D2, FMLAD, R4, 5, 0)
	AXPY4ROW(D2, FMLAD, R5, 5, 1)
	VST1.P [V0.D2, V1.D2, V2.D2, V3.D2], 64(R7)
	SUBS $1, R0, R0
	BNE  da4loop
da4done:
	RET

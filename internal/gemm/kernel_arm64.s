//go:build !purego

#include "textflag.h"

// NEON micro-kernels: 8 rows of C by three q-register vectors of columns
// (12 float32), and 6 rows by four (8 float64). V0..V23 hold the 24
// accumulator vectors (float32 row i in V(3i)..V(3i+2), float64 row i in
// V(4i)..V(4i+3)); then come the current A column and B row. R1 walks
// the A sliver, R2 the B sliver, R6/R7 count K, R3 walks C's rows, R4 is
// ldc in bytes. See microKernel for the computed loop.
//
// Go's arm64 assembler has no FMLA by element and no vector FADD; they are
// encoded with WORD. The encodings were checked by disassembling the Go
// object with LLVM (go tool objdump's words through llvm-mc -disassemble
// -triple=aarch64: every FMLA and FADD reads back as written here), and
// the twin tests would catch a wrong register or lane.

#include "neon_arm64.h"

#define ZERO24 \
	VEOR V0.B16, V0.B16, V0.B16; VEOR V1.B16, V1.B16, V1.B16; VEOR V2.B16, V2.B16, V2.B16; \
	VEOR V3.B16, V3.B16, V3.B16; VEOR V4.B16, V4.B16, V4.B16; VEOR V5.B16, V5.B16, V5.B16; \
	VEOR V6.B16, V6.B16, V6.B16; VEOR V7.B16, V7.B16, V7.B16; VEOR V8.B16, V8.B16, V8.B16; \
	VEOR V9.B16, V9.B16, V9.B16; VEOR V10.B16, V10.B16, V10.B16; VEOR V11.B16, V11.B16, V11.B16; \
	VEOR V12.B16, V12.B16, V12.B16; VEOR V13.B16, V13.B16, V13.B16; VEOR V14.B16, V14.B16, V14.B16; \
	VEOR V15.B16, V15.B16, V15.B16; VEOR V16.B16, V16.B16, V16.B16; VEOR V17.B16, V17.B16, V17.B16; \
	VEOR V18.B16, V18.B16, V18.B16; VEOR V19.B16, V19.B16, V19.B16; VEOR V20.B16, V20.B16, V20.B16; \
	VEOR V21.B16, V21.B16, V21.B16; VEOR V22.B16, V22.B16, V22.B16; VEOR V23.B16, V23.B16, V23.B16

// One row of C for one k: the A element of the row (register a, lane)
// times the three B vectors, added to accumulators c, c+1, c+2.
#define ROWS(c, a, lane) \
	FMLAS((c), 26, (a), (lane)); FMLAS((c)+1, 27, (a), (lane)); FMLAS((c)+2, 28, (a), (lane))

#define ROWD(c, a, lane) \
	FMLAD((c), 27, (a), (lane)); FMLAD((c)+1, 28, (a), (lane)); \
	FMLAD((c)+2, 29, (a), (lane)); FMLAD((c)+3, 30, (a), (lane))

// One k step of the float32 tile: A column (8) into V24–V25, B row (12)
// into V26–V28, 24 FMLA.
#define STEPS \
	VLD1.P 32(R1), [V24.S4, V25.S4]; \
	VLD1.P 48(R2), [V26.S4, V27.S4, V28.S4]; \
	ROWS(0, 24, 0); ROWS(3, 24, 1); ROWS(6, 24, 2); ROWS(9, 24, 3); \
	ROWS(12, 25, 0); ROWS(15, 25, 1); ROWS(18, 25, 2); ROWS(21, 25, 3)

// One k step of the float64 tile: A column (6) into V24–V26, B row (8)
// into V27–V30, 24 FMLA.
#define STEPD \
	VLD1.P 48(R1), [V24.D2, V25.D2, V26.D2]; \
	VLD1.P 64(R2), [V27.D2, V28.D2, V29.D2, V30.D2]; \
	ROWD(0, 24, 0); ROWD(4, 24, 1); ROWD(8, 25, 0); \
	ROWD(12, 25, 1); ROWD(16, 26, 0); ROWD(20, 26, 1)

// The K loop: four steps per pass, then one at a time.
#define KLOOP(STEP, unrolled, single, done) \
	LSR $2, R0, R6; \
	AND $3, R0, R7; \
	CBZ R6, single; \
unrolled: \
	STEP; STEP; STEP; STEP; \
	SUBS $1, R6, R6; \
	BNE unrolled; \
single: \
	CBZ R7, done; \
	STEP; \
	SUBS $1, R7, R7; \
	BNE single; \
done:

#define ARGS(shift) \
	MOVD k+0(FP), R0; \
	MOVD a+8(FP), R1; \
	MOVD b+16(FP), R2; \
	MOVD c+24(FP), R3; \
	MOVD ldc+32(FP), R4; \
	MOVBU accumulate+40(FP), R5; \
	LSL $shift, R4, R4

// Row r of C (accumulators c0..c2, arrangement T): stored, or added to
// C's row first (FADD) when accumulating; R3 then moves to the next row.
#define STORE(T, c0, c1, c2) \
	VST1.P [c0.T, c1.T, c2.T], (R3)(R4)

#define ADDSTORE(T, FADD, n0, c0, c1, c2) \
	VLD1 (R3), [V24.T, V25.T, V26.T]; \
	FADD(n0, n0, 24); FADD((n0)+1, (n0)+1, 25); FADD((n0)+2, (n0)+2, 26); \
	VST1.P [c0.T, c1.T, c2.T], (R3)(R4)

// The float64 rows, four vectors each.
#define STORED(c0, c1, c2, c3) \
	VST1.P [c0.D2, c1.D2, c2.D2, c3.D2], (R3)(R4)

#define ADDSTORED(n0, c0, c1, c2, c3) \
	VLD1 (R3), [V24.D2, V25.D2, V26.D2, V27.D2]; \
	FADDD(n0, n0, 24); FADDD((n0)+1, (n0)+1, 25); FADDD((n0)+2, (n0)+2, 26); FADDD((n0)+3, (n0)+3, 27); \
	VST1.P [c0.D2, c1.D2, c2.D2, c3.D2], (R3)(R4)

#define STORE8(T) \
	STORE(T, V0, V1, V2); STORE(T, V3, V4, V5); STORE(T, V6, V7, V8); STORE(T, V9, V10, V11); \
	STORE(T, V12, V13, V14); STORE(T, V15, V16, V17); STORE(T, V18, V19, V20); STORE(T, V21, V22, V23)

#define ADDSTORE8(T, FADD) \
	ADDSTORE(T, FADD, 0, V0, V1, V2); ADDSTORE(T, FADD, 3, V3, V4, V5); \
	ADDSTORE(T, FADD, 6, V6, V7, V8); ADDSTORE(T, FADD, 9, V9, V10, V11); \
	ADDSTORE(T, FADD, 12, V12, V13, V14); ADDSTORE(T, FADD, 15, V15, V16, V17); \
	ADDSTORE(T, FADD, 18, V18, V19, V20); ADDSTORE(T, FADD, 21, V21, V22, V23)

// func sgemm8x12NEON(k int, a, b, c *float32, ldc int, accumulate bool)
TEXT ·sgemm8x12NEON(SB), NOSPLIT, $0-41
	ARGS(2)
	ZERO24
	KLOOP(STEPS, s_unrolled, s_single, s_done)
	CBNZ R5, s_accumulate
	STORE8(S4)
	RET
s_accumulate:
	ADDSTORE8(S4, FADDS)
	RET

// func dgemm6x8NEON(k int, a, b, c *float64, ldc int, accumulate bool)
TEXT ·dgemm6x8NEON(SB), NOSPLIT, $0-41
	ARGS(3)
	ZERO24
	KLOOP(STEPD, d_unrolled, d_single, d_done)
	CBNZ R5, d_accumulate
	STORED(V0, V1, V2, V3); STORED(V4, V5, V6, V7); STORED(V8, V9, V10, V11)
	STORED(V12, V13, V14, V15); STORED(V16, V17, V18, V19); STORED(V20, V21, V22, V23)
	RET
d_accumulate:
	ADDSTORED(0, V0, V1, V2, V3); ADDSTORED(4, V4, V5, V6, V7); ADDSTORED(8, V8, V9, V10, V11)
	ADDSTORED(12, V12, V13, V14, V15); ADDSTORED(16, V16, V17, V18, V19); ADDSTORED(20, V20, V21, V22, V23)
	RET

//go:build !purego

#include "textflag.h"
#include "neon_arm64.h"

// Four-row kernels for NEON: acc = acc OP x0 OP x1 OP x2 OP x3, each
// accumulator meeting the rows in order, as the Go twins do. R0 walks acc,
// R1, R6, R7 and R8 the four rows (stride bytes apart) and R3 counts the
// iterations (len(acc) is a whole number of them; tailed finishes in Go).
#define ROWS_ARGS(SHIFT) \
	MOVD acc_base+0(FP), R0; \
	MOVD acc_len+8(FP), R3; \
	MOVD x_base+24(FP), R1; \
	MOVD stride+48(FP), R5; \
	LSL  $SHIFT, R5; \
	ADD  R5, R1, R6; \
	ADD  R5, R6, R7; \
	ADD  R5, R7, R8

// ROWS: one vector of acc per iteration (four float32 or two float64):
// five 16-byte loads, four OPs in a chain, one store. Five streams at
// memory speed; the chain's latency overlaps across iterations.
#define ROWS(OP, LSHIFT) \
	LSR  $LSHIFT, R3; \
	CBZ  R3, done; \
loop: \
	VLD1   (R0), [V0.B16]; \
	VLD1.P 16(R1), [V1.B16]; \
	VLD1.P 16(R6), [V2.B16]; \
	VLD1.P 16(R7), [V3.B16]; \
	VLD1.P 16(R8), [V4.B16]; \
	VOP3(OP, 0, 0, 1); \
	VOP3(OP, 0, 0, 2); \
	VOP3(OP, 0, 0, 3); \
	VOP3(OP, 0, 0, 4); \
	VST1.P [V0.B16], 16(R0); \
	SUB  $1, R3; \
	CBNZ R3, loop; \
done: \
	RET

// W(OP, s) widens the four float32 of row vector s and combines them into
// V0, V1 (four float64).
#define W(OP, s) \
	VOP2(FCVTL_2D, 16, s); \
	VOP2(FCVTL2_2D, 17, s); \
	VOP3(OP, 0, 0, 16); \
	VOP3(OP, 1, 1, 17)

// ROWSWIDE: four float64 accumulators per iteration from float32 rows: a
// 32-byte load and store of acc, four 16-byte row loads, eight FCVTL and
// eight OPs.
#define ROWSWIDE(OP) \
	LSR  $2, R3; \
	CBZ  R3, done; \
loop: \
	VLD1   (R0), [V0.B16, V1.B16]; \
	VLD1.P 16(R1), [V2.B16]; \
	VLD1.P 16(R6), [V3.B16]; \
	VLD1.P 16(R7), [V4.B16]; \
	VLD1.P 16(R8), [V5.B16]; \
	W(OP, 2); \
	W(OP, 3); \
	W(OP, 4); \
	W(OP, 5); \
	VST1.P [V0.B16, V1.B16], 32(R0); \
	SUB  $1, R3; \
	CBNZ R3, loop; \
done: \
	RET

// func mulRows4F32NEON(acc, x []float32, stride int)
TEXT ·mulRows4F32NEON(SB), NOSPLIT, $0-56
	ROWS_ARGS(2)
	ROWS(FMUL_4S, 2)

// func mulRows4F64NEON(acc, x []float64, stride int)
TEXT ·mulRows4F64NEON(SB), NOSPLIT, $0-56
	ROWS_ARGS(3)
	ROWS(FMUL_2D, 1)

// func addRows4F64NEON(acc, x []float64, stride int)
TEXT ·addRows4F64NEON(SB), NOSPLIT, $0-56
	ROWS_ARGS(3)
	ROWS(FADD_2D, 1)

// func mulRows4F32F64NEON(acc []float64, x []float32, stride int)
TEXT ·mulRows4F32F64NEON(SB), NOSPLIT, $0-56
	ROWS_ARGS(2)
	ROWSWIDE(FMUL_2D)

// func addRows4F32F64NEON(acc []float64, x []float32, stride int)
TEXT ·addRows4F32F64NEON(SB), NOSPLIT, $0-56
	ROWS_ARGS(2)
	ROWSWIDE(FADD_2D)

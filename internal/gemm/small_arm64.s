//go:build !purego

#include "textflag.h"
#include "neon_arm64.h"

// NEON kernels for batches of tiny products whose C rows are at most four
// q-registers wide (n ≤ 16 float32s or 8 float64s); see small_arm64.go for
// the variants and their counts. Nothing is packed. A row of B (or C) is
// nv segments of one q-register each: the first nv-1 at columns 0, L, …,
// (nv-2)·L (L lanes per register) and the last at column n-L, so that the
// last segment ends at the row's end and overlaps the one before it when L
// does not divide n. The overlapping columns are computed twice, by the
// same fused multiply-adds in the same order, and stored twice with the
// same bits; no lane is read or written outside the rows. Rows narrower
// than one register (float32 n ≤ 3, float64 n = 1) load and store a
// 32- or 64-bit part (and one lane) instead.
//
// Each A element is loaded on its own (any strides) and multiplies a whole
// B row by element (FMLA Vd, Vb, Va.S[0]): every element of C is summed
// from +0 over p in order, one rounding per multiply-add, as the AVX-512
// and AVX2 small kernels do, so all three give the same bits.
//
// Strides are in bytes, offsets in elements. Registers: R0 the batch
// index; R5 rows left; R7 A's row stride, R19 and R20 two and three of
// them, R24 four; R8 A's column stride; R9 B's row stride; R10 C's row
// stride; R11 the byte offset of a row's last segment; R12, R13, R14 the
// matrix's A row block, B and C row; R15 the K counter; R16, R17 walk A's
// rows 0-3 and 4-7 along K; R21, R22 walk B's first and last segments
// along K, then R21, R23 C's rows. V0–V23 accumulate (row i, segment s in
// V(i·nv+s)), V24–V27 hold the B row, V28–V31 A elements.

// MATRIX starts each matrix of the batch: R12, R13, R14 at its A, B and C,
// R5 = m; jumps to end when the batch is done. shift is log2 of the
// element size.
#define MATRIX(shift) \
	MOVD batch+0(FP), R1; \
	CMP  R1, R0; \
	BGE  end; \
	MOVD aoffs+56(FP), R2; \
	MOVD (R2)(R0<<3), R2; \
	MOVD a+32(FP), R3; \
	ADD  R2<<shift, R3, R12; \
	MOVD boffs+80(FP), R2; \
	MOVD (R2)(R0<<3), R2; \
	MOVD b+64(FP), R3; \
	ADD  R2<<shift, R3, R13; \
	MOVD coffs+104(FP), R2; \
	MOVD (R2)(R0<<3), R2; \
	MOVD c+88(FP), R3; \
	ADD  R2<<shift, R3, R14; \
	MOVD m+8(FP), R5

// The A elements of four rows (from R16, or R17 for rows 4-7) into
// V28–V31, each then multiplying the B row into its row's accumulators
// (ROW(i, a) does that for row i and A register a).
#define ROWS4(FMOV, AR, ROW, i0) \
	FMOV (AR), F28; \
	FMOV (AR)(R7), F29; \
	FMOV (AR)(R19), F30; \
	FMOV (AR)(R20), F31; \
	ROW(i0, 28); ROW((i0)+1, 29); ROW((i0)+2, 30); ROW((i0)+3, 31)

#define KSTEP8(FMOV, ROW) \
	ROWS4(FMOV, R16, ROW, 0); \
	ROWS4(FMOV, R17, ROW, 4); \
	ADD R8, R16; \
	ADD R8, R17

#define KSTEP4(FMOV, ROW) \
	ROWS4(FMOV, R16, ROW, 0); \
	ADD R8, R16

#define KSTEP1(FMOV, ROW) \
	FMOV (R16), F28; \
	ROW(0, 28); \
	ADD R8, R16

// One block of rows: zero its accumulators (ZERO), run K (LDB loads a B
// row, KSTEP the A elements and FMLAs), store its rows (STORE, one SROW per
// row), move R12 past them (NEXTA: R12 += rows·ars) and R14 past them.
#define BLOCK(FMOV, LDB, ROW, KSTEP, ZERO, STORE, SROW, NEXTA, loop, store) \
	ZERO; \
	MOVD R12, R16; \
	ADD  R24, R12, R17; \
	MOVD R13, R21; \
	ADD  R11, R13, R22; \
	MOVD k+16(FP), R15; \
	CBZ  R15, store; \
loop: \
	LDB; \
	KSTEP(FMOV, ROW); \
	SUBS $1, R15, R15; \
	BNE  loop; \
store: \
	MOVD R14, R21; \
	ADD  R11, R14, R23; \
	STORE(SROW); \
	SUB  R11, R23, R14; \
	NEXTA

// R12 past a block of eight, four or one rows.
#define NEXT8 ADD R24<<1, R12
#define NEXT4 ADD R24, R12
#define NEXT1 ADD R7, R12

// SMALL is a whole kernel: for each matrix, blocks of BIG rows (8, or 4
// for rows of four registers), then four rows, then one at a time.
#define SMALL(shift, FMOV, LDB, ROW, BIG, KBIG, ZBIG, SBIG, NEXTBIG, ZF, SF, ZO, SO, SROW) \
	MOVD ars+40(FP), R7; \
	MOVD acs+48(FP), R8; \
	MOVD brs+72(FP), R9; \
	MOVD crs+96(FP), R10; \
	MOVD tail+24(FP), R11; \
	LSL  $1, R7, R19; \
	ADD  R7<<1, R7, R20; \
	LSL  $2, R7, R24; \
	MOVD $0, R0; \
matrix: \
	MATRIX(shift); \
big: \
	CMP  $BIG, R5; \
	BLT  rows4; \
	BLOCK(FMOV, LDB, ROW, KBIG, ZBIG, SBIG, SROW, NEXTBIG, kbig, sbig); \
	SUB  $BIG, R5, R5; \
	B    big; \
rows4: \
	CMP  $4, R5; \
	BLT  rows1; \
	BLOCK(FMOV, LDB, ROW, KSTEP4, ZF, SF, SROW, NEXT4, k4, s4); \
	SUB  $4, R5, R5; \
rows1: \
	CBZ  R5, next; \
	BLOCK(FMOV, LDB, ROW, KSTEP1, ZO, SO, SROW, NEXT1, k1, s1); \
	SUB  $1, R5, R5; \
	B    rows1; \
next: \
	ADD  $1, R0, R0; \
	B    matrix; \
end: \
	RET

// Zeroing the first 1, 2, 3, 4, 8, 12, 16 or 24 accumulators.
#define Z1 VEOR V0.B16, V0.B16, V0.B16
#define Z2 Z1; VEOR V1.B16, V1.B16, V1.B16
#define Z3 Z2; VEOR V2.B16, V2.B16, V2.B16
#define Z4 Z3; VEOR V3.B16, V3.B16, V3.B16
#define Z8 Z4; VEOR V4.B16, V4.B16, V4.B16; VEOR V5.B16, V5.B16, V5.B16; VEOR V6.B16, V6.B16, V6.B16; VEOR V7.B16, V7.B16, V7.B16
#define Z12 Z8; VEOR V8.B16, V8.B16, V8.B16; VEOR V9.B16, V9.B16, V9.B16; VEOR V10.B16, V10.B16, V10.B16; VEOR V11.B16, V11.B16, V11.B16
#define Z16 Z12; VEOR V12.B16, V12.B16, V12.B16; VEOR V13.B16, V13.B16, V13.B16; VEOR V14.B16, V14.B16, V14.B16; VEOR V15.B16, V15.B16, V15.B16
#define Z24 Z16; VEOR V16.B16, V16.B16, V16.B16; VEOR V17.B16, V17.B16, V17.B16; VEOR V18.B16, V18.B16, V18.B16; VEOR V19.B16, V19.B16, V19.B16; \
	VEOR V20.B16, V20.B16, V20.B16; VEOR V21.B16, V21.B16, V21.B16; VEOR V22.B16, V22.B16, V22.B16; VEOR V23.B16, V23.B16, V23.B16

// The FMLAs of row i (A element in register a, lane 0) for rows of nv
// segments, float32 (S) and float64 (D).
#define ROWS_1(i, a) FMLAS((i), 24, (a), 0)
#define ROWS_2(i, a) FMLAS(2*(i), 24, (a), 0); FMLAS(2*(i)+1, 25, (a), 0)
#define ROWS_3(i, a) FMLAS(3*(i), 24, (a), 0); FMLAS(3*(i)+1, 25, (a), 0); FMLAS(3*(i)+2, 26, (a), 0)
#define ROWS_4(i, a) FMLAS(4*(i), 24, (a), 0); FMLAS(4*(i)+1, 25, (a), 0); FMLAS(4*(i)+2, 26, (a), 0); FMLAS(4*(i)+3, 27, (a), 0)
#define ROWD_1(i, a) FMLAD((i), 24, (a), 0)
#define ROWD_2(i, a) FMLAD(2*(i), 24, (a), 0); FMLAD(2*(i)+1, 25, (a), 0)
#define ROWD_3(i, a) FMLAD(3*(i), 24, (a), 0); FMLAD(3*(i)+1, 25, (a), 0); FMLAD(3*(i)+2, 26, (a), 0)
#define ROWD_4(i, a) FMLAD(4*(i), 24, (a), 0); FMLAD(4*(i)+1, 25, (a), 0); FMLAD(4*(i)+2, 26, (a), 0); FMLAD(4*(i)+3, 27, (a), 0)

// One B row into V24.. (arrangement T), R21 and R22 stepping by brs: the
// first nv-1 segments from R21, the last from R22.
#define LDB_1(T) VLD1.P (R22)(R9), [V24.T]
#define LDB_2(T) VLD1.P (R21)(R9), [V24.T]; VLD1.P (R22)(R9), [V25.T]
#define LDB_3(T) VLD1.P (R21)(R9), [V24.T, V25.T]; VLD1.P (R22)(R9), [V26.T]
#define LDB_4(T) VLD1.P (R21)(R9), [V24.T, V25.T, V26.T]; VLD1.P (R22)(R9), [V27.T]
#define LDB_1S LDB_1(S4)
#define LDB_2S LDB_2(S4)
#define LDB_3S LDB_3(S4)
#define LDB_4S LDB_4(S4)
#define LDB_1D LDB_1(D2)
#define LDB_2D LDB_2(D2)
#define LDB_3D LDB_3(D2)
#define LDB_4D LDB_4(D2)

// Rows narrower than a register: one float32 (lane 0), two (the low 64
// bits), three (the low 64 bits from R21, then lane 2 from R22 = R21 + 8:
// the 64-bit load clears the lanes above it first); one float64 (lane 0).
#define LDB_N1S VLD1.P (R22)(R9), V24.S[0]
#define LDB_N2S VLD1.P (R22)(R9), [V24.S2]
#define LDB_N3S VLD1.P (R21)(R9), [V24.S2]; VLD1.P (R22)(R9), V24.S[2]
#define LDB_N1D VLD1.P (R22)(R9), V24.D[0]

// One row of C stored, R21 and R23 stepping by crs (as LDB).
#define SROW_1(a, b, c, d) VST1.P [a.B16], (R23)(R10)
#define SROW_2(a, b, c, d) VST1.P [a.B16], (R21)(R10); VST1.P [b.B16], (R23)(R10)
#define SROW_3(a, b, c, d) VST1.P [a.B16, b.B16], (R21)(R10); VST1.P [c.B16], (R23)(R10)
#define SROW_4(a, b, c, d) VST1.P [a.B16, b.B16, c.B16], (R21)(R10); VST1.P [d.B16], (R23)(R10)
#define SROW_N1S(a, b, c, d) VST1.P a.S[0], (R23)(R10)
#define SROW_N2S(a, b, c, d) VST1.P [a.S2], (R23)(R10)
#define SROW_N3S(a, b, c, d) VST1.P [a.S2], (R21)(R10); VST1.P a.S[2], (R23)(R10)
#define SROW_N1D(a, b, c, d) VST1.P a.D[0], (R23)(R10)

// The rows of a block for rows of 1, 2, 3 and 4 segments: rows 0-7, 0-3
// and 0, with their accumulators.
#define S8_1(SROW) SROW(V0, _, _, _); SROW(V1, _, _, _); SROW(V2, _, _, _); SROW(V3, _, _, _); \
	SROW(V4, _, _, _); SROW(V5, _, _, _); SROW(V6, _, _, _); SROW(V7, _, _, _)
#define S4_1(SROW) SROW(V0, _, _, _); SROW(V1, _, _, _); SROW(V2, _, _, _); SROW(V3, _, _, _)
#define S1_1(SROW) SROW(V0, _, _, _)
#define S8_2(SROW) SROW(V0, V1, _, _); SROW(V2, V3, _, _); SROW(V4, V5, _, _); SROW(V6, V7, _, _); \
	SROW(V8, V9, _, _); SROW(V10, V11, _, _); SROW(V12, V13, _, _); SROW(V14, V15, _, _)
#define S4_2(SROW) SROW(V0, V1, _, _); SROW(V2, V3, _, _); SROW(V4, V5, _, _); SROW(V6, V7, _, _)
#define S1_2(SROW) SROW(V0, V1, _, _)
#define S8_3(SROW) SROW(V0, V1, V2, _); SROW(V3, V4, V5, _); SROW(V6, V7, V8, _); SROW(V9, V10, V11, _); \
	SROW(V12, V13, V14, _); SROW(V15, V16, V17, _); SROW(V18, V19, V20, _); SROW(V21, V22, V23, _)
#define S4_3(SROW) SROW(V0, V1, V2, _); SROW(V3, V4, V5, _); SROW(V6, V7, V8, _); SROW(V9, V10, V11, _)
#define S1_3(SROW) SROW(V0, V1, V2, _)
#define S4_4(SROW) SROW(V0, V1, V2, V3); SROW(V4, V5, V6, V7); SROW(V8, V9, V10, V11); SROW(V12, V13, V14, V15)
#define S1_4(SROW) SROW(V0, V1, V2, V3)

// Kernels of rows of one to three segments: blocks of eight rows.
#define SMALL8(shift, FMOV, LDB, ROW, ZE, ZF, ZO, SE, SF, SO, SROW) \
	SMALL(shift, FMOV, LDB, ROW, 8, KSTEP8, ZE, SE, NEXT8, ZF, SF, ZO, SO, SROW)

// func smallF32NEONN1(batch, m, k, tail int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)
TEXT ·smallF32NEONN1(SB), NOSPLIT, $0-112
	SMALL8(2, FMOVS, LDB_N1S, ROWS_1, Z8, Z4, Z1, S8_1, S4_1, S1_1, SROW_N1S)

// func smallF32NEONN2(batch, m, k, tail int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)
TEXT ·smallF32NEONN2(SB), NOSPLIT, $0-112
	SMALL8(2, FMOVS, LDB_N2S, ROWS_1, Z8, Z4, Z1, S8_1, S4_1, S1_1, SROW_N2S)

// func smallF32NEONN3(batch, m, k, tail int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)
TEXT ·smallF32NEONN3(SB), NOSPLIT, $0-112
	SMALL8(2, FMOVS, LDB_N3S, ROWS_1, Z8, Z4, Z1, S8_1, S4_1, S1_1, SROW_N3S)

// func smallF32NEON1(batch, m, k, tail int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)
TEXT ·smallF32NEON1(SB), NOSPLIT, $0-112
	SMALL8(2, FMOVS, LDB_1S, ROWS_1, Z8, Z4, Z1, S8_1, S4_1, S1_1, SROW_1)

// func smallF32NEON2(batch, m, k, tail int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)
TEXT ·smallF32NEON2(SB), NOSPLIT, $0-112
	SMALL8(2, FMOVS, LDB_2S, ROWS_2, Z16, Z8, Z2, S8_2, S4_2, S1_2, SROW_2)

// func smallF32NEON3(batch, m, k, tail int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)
TEXT ·smallF32NEON3(SB), NOSPLIT, $0-112
	SMALL8(2, FMOVS, LDB_3S, ROWS_3, Z24, Z12, Z3, S8_3, S4_3, S1_3, SROW_3)

// func smallF32NEON4(batch, m, k, tail int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)
// Rows of four registers: blocks of four rows (16 accumulators).
TEXT ·smallF32NEON4(SB), NOSPLIT, $0-112
	SMALL(2, FMOVS, LDB_4S, ROWS_4, 4, KSTEP4, Z16, S4_4, NEXT4, Z16, S4_4, Z4, S1_4, SROW_4)

// func smallF64NEONN1(batch, m, k, tail int, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)
TEXT ·smallF64NEONN1(SB), NOSPLIT, $0-112
	SMALL8(3, FMOVD, LDB_N1D, ROWD_1, Z8, Z4, Z1, S8_1, S4_1, S1_1, SROW_N1D)

// func smallF64NEON1(batch, m, k, tail int, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)
TEXT ·smallF64NEON1(SB), NOSPLIT, $0-112
	SMALL8(3, FMOVD, LDB_1D, ROWD_1, Z8, Z4, Z1, S8_1, S4_1, S1_1, SROW_1)

// func smallF64NEON2(batch, m, k, tail int, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)
TEXT ·smallF64NEON2(SB), NOSPLIT, $0-112
	SMALL8(3, FMOVD, LDB_2D, ROWD_2, Z16, Z8, Z2, S8_2, S4_2, S1_2, SROW_2)

// func smallF64NEON3(batch, m, k, tail int, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)
TEXT ·smallF64NEON3(SB), NOSPLIT, $0-112
	SMALL8(3, FMOVD, LDB_3D, ROWD_3, Z24, Z12, Z3, S8_3, S4_3, S1_3, SROW_3)

// func smallF64NEON4(batch, m, k, tail int, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)
TEXT ·smallF64NEON4(SB), NOSPLIT, $0-112
	SMALL(3, FMOVD, LDB_4D, ROWD_4, 4, KSTEP4, Z16, S4_4, NEXT4, Z16, S4_4, Z4, S1_4, SROW_4)

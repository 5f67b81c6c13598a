//go:build !purego

#include "textflag.h"

// The four-row passes of exclusive_rows.go for AVX2, one pair of macros
// (PREFIX4, SUFFIX4) for float32 rows, widened to float64, and float64
// rows. SI walks x and DI o, four columns a step; R8 is a row in bytes and
// R9 three; Y15 holds the four rows' running products (lane r, row r).
// Each step loads the block's four row pieces as float64 and transposes
// them (TRANSPOSE4) so that each register is one column of the four rows.
//
// Between the passes a block of o holds its prefix products by columns:
// the 4×4 block's row r holds column r (the four rows' prefixes there), so
// that the prefix pass stores its columns and the suffix pass loads them
// without transposing either way: three transposes a block for both
// passes where five were (BenchmarkExclusiveRows4, Zen 3: 0.9-0.95 of the
// time). What bounds both passes is their float32↔float64 conversions,
// not the chain of the running products' multiplies: running the two
// passes side by side was no faster (docs/gradients.md, session 24).

// TRANSPOSE4(a, b, c, d, t0, t1, t2, t3) transposes the 4×4 float64 block
// whose rows are a-d into columns in a-d, through t0-t3.
#define TRANSPOSE4(a, b, c, d, t0, t1, t2, t3) \
	VUNPCKLPD  b, a, t0; \
	VUNPCKHPD  b, a, t1; \
	VUNPCKLPD  d, c, t2; \
	VUNPCKHPD  d, c, t3; \
	VPERM2F128 $0x20, t2, t0, a; \
	VPERM2F128 $0x20, t3, t1, b; \
	VPERM2F128 $0x31, t2, t0, c; \
	VPERM2F128 $0x31, t3, t1, d

// ARGS4(shift) loads the arguments: SI x, DI o, R8 and R9 one and three
// rows in bytes (elements of 1<<shift bytes), CX the blocks, DX run and
// its running products into Y15.
#define ARGS4(shift) \
	MOVQ x+0(FP), SI; \
	MOVQ o+8(FP), DI; \
	MOVQ stride+16(FP), R8; \
	SHLQ $shift, R8; \
	LEAQ (R8)(R8*2), R9; \
	MOVQ blocks+24(FP), CX; \
	MOVQ run+32(FP), DX; \
	VMOVUPD (DX), Y15

// LOADF32 and LOADF64(base, a, b, c, d) load four elements of each row
// from base as float64.
#define LOADF32(base, a, b, c, d) \
	VCVTPS2PD (base), a; \
	VCVTPS2PD (base)(R8*1), b; \
	VCVTPS2PD (base)(R8*2), c; \
	VCVTPS2PD (base)(R9*1), d

#define LOADF64(base, a, b, c, d) \
	VMOVUPD (base), a; \
	VMOVUPD (base)(R8*1), b; \
	VMOVUPD (base)(R8*2), c; \
	VMOVUPD (base)(R9*1), d

// ROUNDF32 and ROUNDF64(ya-yd, xa-xd) round four rows to the element type
// (float32: into the xmm halves; float64: nothing to do).
#define ROUNDF32(ya, yb, yc, yd, xa, xb, xc, xd) \
	VCVTPD2PSY ya, xa; \
	VCVTPD2PSY yb, xb; \
	VCVTPD2PSY yc, xc; \
	VCVTPD2PSY yd, xd

#define ROUNDF64(ya, yb, yc, yd, xa, xb, xc, xd)

// STOREF32 and STOREF64(base, ya-yd, xa-xd) store four rounded rows at
// base.
#define STOREF32(base, ya, yb, yc, yd, xa, xb, xc, xd) \
	VMOVUPS xa, (base); \
	VMOVUPS xb, (base)(R8*1); \
	VMOVUPS xc, (base)(R8*2); \
	VMOVUPS xd, (base)(R9*1)

#define STOREF64(base, ya, yb, yc, yd, xa, xb, xc, xd) \
	VMOVUPD ya, (base); \
	VMOVUPD yb, (base)(R8*1); \
	VMOVUPD yc, (base)(R8*2); \
	VMOVUPD yd, (base)(R9*1)

// SCALE4(BCAST, MUL, size, t, a, b, c, d) multiplies the four rounded
// rows a-d by s[0..3] at R10 (elements of size bytes), one product in the
// element type, through t. SCALEF32 and SCALEF64(ya-yd, xa-xd) are it for
// each type.
#define SCALE4(BCAST, MUL, size, t, a, b, c, d) \
	BCAST (0*size)(R10), t; \
	MUL   t, a, a; \
	BCAST (1*size)(R10), t; \
	MUL   t, b, b; \
	BCAST (2*size)(R10), t; \
	MUL   t, c, c; \
	BCAST (3*size)(R10), t; \
	MUL   t, d, d

#define SCALEF32(ya, yb, yc, yd, xa, xb, xc, xd) SCALE4(VBROADCASTSS, VMULPS, 4, X8, xa, xb, xc, xd)
#define SCALEF64(ya, yb, yc, yd, xa, xb, xc, xd) SCALE4(VBROADCASTSD, VMULPD, 8, Y8, ya, yb, yc, yd)

// PREFIX4(shift, step, LOAD, ROUND, STORE) is the prefix pass for elements of
// 1<<shift bytes, four of each row (step bytes) a block: the columns'
// prefix products are the running products before each column (E0-E3 in
// Y4-Y7), rounded and stored by columns.
#define PREFIX4(shift, step, LOAD, ROUND, STORE) \
	ARGS4(shift); \
prefixLoop: \
	LOAD(SI, Y0, Y1, Y2, Y3); \
	TRANSPOSE4(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7); \
	VMOVAPD Y15, Y4; \
	VMULPD  Y0, Y15, Y15; \
	VMOVAPD Y15, Y5; \
	VMULPD  Y1, Y15, Y15; \
	VMOVAPD Y15, Y6; \
	VMULPD  Y2, Y15, Y15; \
	VMOVAPD Y15, Y7; \
	VMULPD  Y3, Y15, Y15; \
	ROUND(Y4, Y5, Y6, Y7, X4, X5, X6, X7); \
	STORE(DI, Y4, Y5, Y6, Y7, X4, X5, X6, X7); \
	ADDQ $step, SI; \
	ADDQ $step, DI; \
	DECQ CX; \
	JNZ  prefixLoop; \
	VMOVUPD Y15, (DX); \
	VZEROUPPER; \
	RET

// SUFFIX4(shift, step, LOAD, ROUND, SCALE, STORE) is the suffix pass, from
// the last block back: the prefix products in o (loaded as columns, Y0-Y3)
// times the running products of the columns after them, the running
// products then times the column of x (Y4-Y7), column 3 first; back to
// rows, rounded, times s[r] when s (R10) is set, and stored.
#define SUFFIX4(shift, step, LOAD, ROUND, SCALE, STORE) \
	ARGS4(shift); \
	MOVQ s+40(FP), R10; \
	MOVQ CX, AX; \
	SHLQ $(shift+2), AX; \
	LEAQ -step(SI)(AX*1), SI; \
	LEAQ -step(DI)(AX*1), DI; \
suffixLoop: \
	LOAD(DI, Y0, Y1, Y2, Y3); \
	LOAD(SI, Y4, Y5, Y6, Y7); \
	TRANSPOSE4(Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11); \
	VMULPD Y15, Y3, Y3; \
	VMULPD Y7, Y15, Y15; \
	VMULPD Y15, Y2, Y2; \
	VMULPD Y6, Y15, Y15; \
	VMULPD Y15, Y1, Y1; \
	VMULPD Y5, Y15, Y15; \
	VMULPD Y15, Y0, Y0; \
	VMULPD Y4, Y15, Y15; \
	TRANSPOSE4(Y0, Y1, Y2, Y3, Y8, Y9, Y10, Y11); \
	ROUND(Y0, Y1, Y2, Y3, X0, X1, X2, X3); \
	TESTQ R10, R10; \
	JZ    suffixStore; \
	SCALE(Y0, Y1, Y2, Y3, X0, X1, X2, X3); \
suffixStore: \
	STORE(DI, Y0, Y1, Y2, Y3, X0, X1, X2, X3); \
	SUBQ $step, SI; \
	SUBQ $step, DI; \
	DECQ CX; \
	JNZ  suffixLoop; \
	VMOVUPD Y15, (DX); \
	VZEROUPPER; \
	RET

// func rowsPrefix4AVX2(x, o *float32, stride, blocks int, run *[4]float64)
TEXT ·rowsPrefix4AVX2(SB), NOSPLIT, $0-40
	PREFIX4(2, 16, LOADF32, ROUNDF32, STOREF32)

// func rowsSuffix4AVX2(x, o *float32, stride, blocks int, run *[4]float64, s *float32)
TEXT ·rowsSuffix4AVX2(SB), NOSPLIT, $0-48
	SUFFIX4(2, 16, LOADF32, ROUNDF32, SCALEF32, STOREF32)

// func rowsPrefix4F64AVX2(x, o *float64, stride, blocks int, run *[4]float64)
TEXT ·rowsPrefix4F64AVX2(SB), NOSPLIT, $0-40
	PREFIX4(3, 32, LOADF64, ROUNDF64, STOREF64)

// func rowsSuffix4F64AVX2(x, o *float64, stride, blocks int, run *[4]float64, s *float64)
TEXT ·rowsSuffix4F64AVX2(SB), NOSPLIT, $0-48
	SUFFIX4(3, 32, LOADF64, ROUNDF64, SCALEF64, STOREF64)

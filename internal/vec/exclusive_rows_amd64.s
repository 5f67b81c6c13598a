//go:build !purego

#include "textflag.h"

// The four-row passes of exclusive_rows.go for AVX2, float32 rows widened
// to float64 and float64 rows (at the end). SI walks x and DI o,
// four columns a step; R8 is a row in bytes and R9 three; Y15 holds the
// four rows' running products (lane r, row r). Each step loads the block's
// four row pieces widened to float64 and transposes them (TRANSPOSE4) so
// that each register is one column of the four rows.

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

// LOAD4(base, a, b, c, d) loads four float32 of each row from base, widened.
#define LOAD4(base, a, b, c, d) \
	VCVTPS2PD (base), a; \
	VCVTPS2PD (base)(R8*1), b; \
	VCVTPS2PD (base)(R8*2), c; \
	VCVTPS2PD (base)(R9*1), d

#define ARGS4 \
	MOVQ x+0(FP), SI; \
	MOVQ o+8(FP), DI; \
	MOVQ stride+16(FP), R8; \
	SHLQ $2, R8; \
	LEAQ (R8)(R8*2), R9; \
	MOVQ blocks+24(FP), CX; \
	MOVQ run+32(FP), DX; \
	VMOVUPD (DX), Y15

// func rowsPrefix4AVX2(x, o *float32, stride, blocks int, run *[4]float64)
//
// Per block: the columns' prefix products are the running products before
// each column (E0-E3 in Y4-Y7), transposed back to rows, rounded to
// float32 and stored.
TEXT ·rowsPrefix4AVX2(SB), NOSPLIT, $0-40
	ARGS4

prefix4Loop:
	LOAD4(SI, Y0, Y1, Y2, Y3)
	TRANSPOSE4(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7)
	VMOVAPD   Y15, Y4
	VMULPD    Y0, Y15, Y15
	VMOVAPD   Y15, Y5
	VMULPD    Y1, Y15, Y15
	VMOVAPD   Y15, Y6
	VMULPD    Y2, Y15, Y15
	VMOVAPD   Y15, Y7
	VMULPD    Y3, Y15, Y15
	TRANSPOSE4(Y4, Y5, Y6, Y7, Y0, Y1, Y2, Y3)
	VCVTPD2PSY Y4, X4
	VCVTPD2PSY Y5, X5
	VCVTPD2PSY Y6, X6
	VCVTPD2PSY Y7, X7
	VMOVUPS   X4, (DI)
	VMOVUPS   X5, (DI)(R8*1)
	VMOVUPS   X6, (DI)(R8*2)
	VMOVUPS   X7, (DI)(R9*1)
	ADDQ      $16, SI
	ADDQ      $16, DI
	DECQ      CX
	JNZ       prefix4Loop

	VMOVUPD Y15, (DX)
	VZEROUPPER
	RET

// func rowsSuffix4AVX2(x, o *float32, stride, blocks int, run *[4]float64, s *float32)
//
// From the last block back: the prefix products in o (Y0-Y3 as columns)
// times the running products of the columns after them, the running
// products then times the column of x (Y4-Y7), column 3 first; back to
// rows, rounded, times s[r] (float32) when s is set, and stored.
TEXT ·rowsSuffix4AVX2(SB), NOSPLIT, $0-48
	ARGS4
	MOVQ s+40(FP), R10
	MOVQ CX, AX
	SHLQ $4, AX
	LEAQ -16(SI)(AX*1), SI
	LEAQ -16(DI)(AX*1), DI

suffix4Loop:
	LOAD4(DI, Y0, Y1, Y2, Y3)
	TRANSPOSE4(Y0, Y1, Y2, Y3, Y8, Y9, Y10, Y11)
	LOAD4(SI, Y4, Y5, Y6, Y7)
	TRANSPOSE4(Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11)
	VMULPD Y15, Y3, Y3
	VMULPD Y7, Y15, Y15
	VMULPD Y15, Y2, Y2
	VMULPD Y6, Y15, Y15
	VMULPD Y15, Y1, Y1
	VMULPD Y5, Y15, Y15
	VMULPD Y15, Y0, Y0
	VMULPD Y4, Y15, Y15
	TRANSPOSE4(Y0, Y1, Y2, Y3, Y8, Y9, Y10, Y11)
	VCVTPD2PSY Y0, X0
	VCVTPD2PSY Y1, X1
	VCVTPD2PSY Y2, X2
	VCVTPD2PSY Y3, X3
	TESTQ      R10, R10
	JZ         suffix4Store
	VBROADCASTSS 0(R10), X8
	VMULPS       X8, X0, X0
	VBROADCASTSS 4(R10), X8
	VMULPS       X8, X1, X1
	VBROADCASTSS 8(R10), X8
	VMULPS       X8, X2, X2
	VBROADCASTSS 12(R10), X8
	VMULPS       X8, X3, X3

suffix4Store:
	VMOVUPS X0, (DI)
	VMOVUPS X1, (DI)(R8*1)
	VMOVUPS X2, (DI)(R8*2)
	VMOVUPS X3, (DI)(R9*1)
	SUBQ    $16, SI
	SUBQ    $16, DI
	DECQ    CX
	JNZ     suffix4Loop

	VMOVUPD Y15, (DX)
	VZEROUPPER
	RET

// The float64 passes: the same steps on four float64 of each row (32
// bytes), loaded and stored as they are; the results need no rounding.

#define ARGS4F64 \
	MOVQ x+0(FP), SI; \
	MOVQ o+8(FP), DI; \
	MOVQ stride+16(FP), R8; \
	SHLQ $3, R8; \
	LEAQ (R8)(R8*2), R9; \
	MOVQ blocks+24(FP), CX; \
	MOVQ run+32(FP), DX; \
	VMOVUPD (DX), Y15

// LOAD4F64(base, a, b, c, d) loads four float64 of each row from base.
#define LOAD4F64(base, a, b, c, d) \
	VMOVUPD (base), a; \
	VMOVUPD (base)(R8*1), b; \
	VMOVUPD (base)(R8*2), c; \
	VMOVUPD (base)(R9*1), d

// STORE4F64(base, a, b, c, d) stores four float64 of each row at base.
#define STORE4F64(base, a, b, c, d) \
	VMOVUPD a, (base); \
	VMOVUPD b, (base)(R8*1); \
	VMOVUPD c, (base)(R8*2); \
	VMOVUPD d, (base)(R9*1)

// func rowsPrefix4F64AVX2(x, o *float64, stride, blocks int, run *[4]float64)
TEXT ·rowsPrefix4F64AVX2(SB), NOSPLIT, $0-40
	ARGS4F64

prefix4F64Loop:
	LOAD4F64(SI, Y0, Y1, Y2, Y3)
	TRANSPOSE4(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7)
	VMOVAPD Y15, Y4
	VMULPD  Y0, Y15, Y15
	VMOVAPD Y15, Y5
	VMULPD  Y1, Y15, Y15
	VMOVAPD Y15, Y6
	VMULPD  Y2, Y15, Y15
	VMOVAPD Y15, Y7
	VMULPD  Y3, Y15, Y15
	TRANSPOSE4(Y4, Y5, Y6, Y7, Y0, Y1, Y2, Y3)
	STORE4F64(DI, Y4, Y5, Y6, Y7)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    CX
	JNZ     prefix4F64Loop

	VMOVUPD Y15, (DX)
	VZEROUPPER
	RET

// func rowsSuffix4F64AVX2(x, o *float64, stride, blocks int, run *[4]float64, s *float64)
TEXT ·rowsSuffix4F64AVX2(SB), NOSPLIT, $0-48
	ARGS4F64
	MOVQ s+40(FP), R10
	MOVQ CX, AX
	SHLQ $5, AX
	LEAQ -32(SI)(AX*1), SI
	LEAQ -32(DI)(AX*1), DI

suffix4F64Loop:
	LOAD4F64(DI, Y0, Y1, Y2, Y3)
	TRANSPOSE4(Y0, Y1, Y2, Y3, Y8, Y9, Y10, Y11)
	LOAD4F64(SI, Y4, Y5, Y6, Y7)
	TRANSPOSE4(Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11)
	VMULPD Y15, Y3, Y3
	VMULPD Y7, Y15, Y15
	VMULPD Y15, Y2, Y2
	VMULPD Y6, Y15, Y15
	VMULPD Y15, Y1, Y1
	VMULPD Y5, Y15, Y15
	VMULPD Y15, Y0, Y0
	VMULPD Y4, Y15, Y15
	TRANSPOSE4(Y0, Y1, Y2, Y3, Y8, Y9, Y10, Y11)
	TESTQ  R10, R10
	JZ     suffix4F64Store
	VBROADCASTSD 0(R10), Y8
	VMULPD       Y8, Y0, Y0
	VBROADCASTSD 8(R10), Y8
	VMULPD       Y8, Y1, Y1
	VBROADCASTSD 16(R10), Y8
	VMULPD       Y8, Y2, Y2
	VBROADCASTSD 24(R10), Y8
	VMULPD       Y8, Y3, Y3

suffix4F64Store:
	STORE4F64(DI, Y0, Y1, Y2, Y3)
	SUBQ $32, SI
	SUBQ $32, DI
	DECQ CX
	JNZ  suffix4F64Loop

	VMOVUPD Y15, (DX)
	VZEROUPPER
	RET

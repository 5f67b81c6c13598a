//go:build !purego

#include "textflag.h"

// Both kernels walk the block column by column of blocks (CX counts the
// columns left) and, inside, down its rows (DX counts them). SI is the
// block's first source column, DI its first destination row; R8 = cs,
// R9 = 3·cs, R11 = pitch, R12 = 3·pitch.

// func transpose4AVX2(dst, src unsafe.Pointer, cs, pitch, rows, cols int)
//
// An 8×8 block: source columns j = 0..7 hold rows 0..7 of column j. Each
// ymm u_j takes rows 0..3 of columns j and j+4 (one 128-bit load and one
// insert), so that a 4×4 transpose inside both lanes (two unpacks and a
// shuffle per register) gives destination rows 0..3 whole; rows 4..7
// likewise from the columns' upper halves.
TEXT ·transpose4AVX2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ cs+16(FP), R8
	MOVQ pitch+24(FP), R11
	MOVQ cols+40(FP), CX
	LEAQ (R8)(R8*2), R9
	LEAQ (R11)(R11*2), R12

col4:
	MOVQ rows+32(FP), DX
	MOVQ SI, AX              // source: rows of this column block
	MOVQ DI, BX              // destination: rows of this column block

row4:
	LEAQ (AX)(R8*4), R10     // columns 4..7
	LEAQ (BX)(R11*4), R13    // destination rows 4..7

	VMOVUPS     (AX), X0
	VINSERTF128 $1, (R10), Y0, Y0
	VMOVUPS     (AX)(R8*1), X1
	VINSERTF128 $1, (R10)(R8*1), Y1, Y1
	VMOVUPS     (AX)(R8*2), X2
	VINSERTF128 $1, (R10)(R8*2), Y2, Y2
	VMOVUPS     (AX)(R9*1), X3
	VINSERTF128 $1, (R10)(R9*1), Y3, Y3
	VUNPCKLPS   Y1, Y0, Y4
	VUNPCKHPS   Y1, Y0, Y5
	VUNPCKLPS   Y3, Y2, Y6
	VUNPCKHPS   Y3, Y2, Y7
	VSHUFPS     $0x44, Y6, Y4, Y0
	VSHUFPS     $0xee, Y6, Y4, Y1
	VSHUFPS     $0x44, Y7, Y5, Y2
	VSHUFPS     $0xee, Y7, Y5, Y3
	VMOVUPS     Y0, (BX)
	VMOVUPS     Y1, (BX)(R11*1)
	VMOVUPS     Y2, (BX)(R11*2)
	VMOVUPS     Y3, (BX)(R12*1)

	VMOVUPS     16(AX), X0
	VINSERTF128 $1, 16(R10), Y0, Y0
	VMOVUPS     16(AX)(R8*1), X1
	VINSERTF128 $1, 16(R10)(R8*1), Y1, Y1
	VMOVUPS     16(AX)(R8*2), X2
	VINSERTF128 $1, 16(R10)(R8*2), Y2, Y2
	VMOVUPS     16(AX)(R9*1), X3
	VINSERTF128 $1, 16(R10)(R9*1), Y3, Y3
	VUNPCKLPS   Y1, Y0, Y4
	VUNPCKHPS   Y1, Y0, Y5
	VUNPCKLPS   Y3, Y2, Y6
	VUNPCKHPS   Y3, Y2, Y7
	VSHUFPS     $0x44, Y6, Y4, Y0
	VSHUFPS     $0xee, Y6, Y4, Y1
	VSHUFPS     $0x44, Y7, Y5, Y2
	VSHUFPS     $0xee, Y7, Y5, Y3
	VMOVUPS     Y0, (R13)
	VMOVUPS     Y1, (R13)(R11*1)
	VMOVUPS     Y2, (R13)(R11*2)
	VMOVUPS     Y3, (R13)(R12*1)

	ADDQ $32, AX             // 8 rows down the source columns
	LEAQ (R13)(R11*4), BX    // 8 rows down the destination
	SUBQ $8, DX
	JNZ  row4

	LEAQ (SI)(R8*8), SI      // the next 8 source columns
	ADDQ $32, DI             // the next 8 destination columns
	SUBQ $8, CX
	JNZ  col4
	VZEROUPPER
	RET

// func transpose8AVX2(dst, src unsafe.Pointer, cs, pitch, rows, cols int)
//
// A 4×4 block: u0 takes rows 0..1 of columns 0 and 2, u1 those of columns
// 1 and 3; their low and high unpacks are destination rows 0 and 1 whole.
// Rows 2..3 likewise from the columns' upper halves.
TEXT ·transpose8AVX2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ cs+16(FP), R8
	MOVQ pitch+24(FP), R11
	MOVQ cols+40(FP), CX
	LEAQ (R8)(R8*2), R9
	LEAQ (R11)(R11*2), R12

col8:
	MOVQ rows+32(FP), DX
	MOVQ SI, AX
	MOVQ DI, BX

row8:
	VMOVUPD     (AX), X0
	VINSERTF128 $1, (AX)(R8*2), Y0, Y0
	VMOVUPD     (AX)(R8*1), X1
	VINSERTF128 $1, (AX)(R9*1), Y1, Y1
	VMOVUPD     16(AX), X2
	VINSERTF128 $1, 16(AX)(R8*2), Y2, Y2
	VMOVUPD     16(AX)(R8*1), X3
	VINSERTF128 $1, 16(AX)(R9*1), Y3, Y3
	VUNPCKLPD   Y1, Y0, Y4
	VUNPCKHPD   Y1, Y0, Y5
	VUNPCKLPD   Y3, Y2, Y6
	VUNPCKHPD   Y3, Y2, Y7
	VMOVUPD     Y4, (BX)
	VMOVUPD     Y5, (BX)(R11*1)
	VMOVUPD     Y6, (BX)(R11*2)
	VMOVUPD     Y7, (BX)(R12*1)

	ADDQ $32, AX             // 4 rows down the source columns
	LEAQ (BX)(R11*4), BX     // 4 rows down the destination
	SUBQ $4, DX
	JNZ  row8

	LEAQ (SI)(R8*4), SI      // the next 4 source columns
	ADDQ $32, DI             // the next 4 destination columns
	SUBQ $4, CX
	JNZ  col8
	VZEROUPPER
	RET

// func transpose2AVX2(dst, src unsafe.Pointer, cs, pitch, rows, cols int)
//
// An 8×8 block of 2-byte elements: the eight source columns are one xmm
// each, and three rounds of unpacks (words, double words, quad words)
// interleave them into the eight destination rows.
TEXT ·transpose2AVX2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ cs+16(FP), R8
	MOVQ pitch+24(FP), R11
	MOVQ cols+40(FP), CX
	LEAQ (R8)(R8*2), R9
	LEAQ (R11)(R11*2), R12

col2:
	MOVQ rows+32(FP), DX
	MOVQ SI, AX
	MOVQ DI, BX

row2:
	LEAQ (AX)(R8*4), R10
	LEAQ (BX)(R11*4), R13
	VMOVDQU (AX), X0
	VMOVDQU (AX)(R8*1), X1
	VMOVDQU (AX)(R8*2), X2
	VMOVDQU (AX)(R9*1), X3
	VMOVDQU (R10), X4
	VMOVDQU (R10)(R8*1), X5
	VMOVDQU (R10)(R8*2), X6
	VMOVDQU (R10)(R9*1), X7

	VPUNPCKLWD X1, X0, X8    // rows 0..3 of columns 0, 1
	VPUNPCKHWD X1, X0, X9    // rows 4..7 of columns 0, 1
	VPUNPCKLWD X3, X2, X10
	VPUNPCKHWD X3, X2, X11
	VPUNPCKLWD X5, X4, X12
	VPUNPCKHWD X5, X4, X13
	VPUNPCKLWD X7, X6, X14
	VPUNPCKHWD X7, X6, X15

	VPUNPCKLDQ X10, X8, X0   // rows 0, 1 of columns 0..3
	VPUNPCKHDQ X10, X8, X1   // rows 2, 3
	VPUNPCKLDQ X11, X9, X2   // rows 4, 5
	VPUNPCKHDQ X11, X9, X3   // rows 6, 7
	VPUNPCKLDQ X14, X12, X4  // the same of columns 4..7
	VPUNPCKHDQ X14, X12, X5
	VPUNPCKLDQ X15, X13, X6
	VPUNPCKHDQ X15, X13, X7

	VPUNPCKLQDQ X4, X0, X8
	VPUNPCKHQDQ X4, X0, X9
	VPUNPCKLQDQ X5, X1, X10
	VPUNPCKHQDQ X5, X1, X11
	VPUNPCKLQDQ X6, X2, X12
	VPUNPCKHQDQ X6, X2, X13
	VPUNPCKLQDQ X7, X3, X14
	VPUNPCKHQDQ X7, X3, X15
	VMOVDQU X8, (BX)
	VMOVDQU X9, (BX)(R11*1)
	VMOVDQU X10, (BX)(R11*2)
	VMOVDQU X11, (BX)(R12*1)
	VMOVDQU X12, (R13)
	VMOVDQU X13, (R13)(R11*1)
	VMOVDQU X14, (R13)(R11*2)
	VMOVDQU X15, (R13)(R12*1)

	ADDQ $16, AX             // 8 rows down the source columns
	LEAQ (R13)(R11*4), BX    // 8 rows down the destination
	SUBQ $8, DX
	JNZ  row2

	LEAQ (SI)(R8*8), SI      // the next 8 source columns
	ADDQ $16, DI             // the next 8 destination columns
	SUBQ $8, CX
	JNZ  col2
	RET

// func transpose1AVX2(dst, src unsafe.Pointer, cs, pitch, rows, cols int)
//
// A 16×8 block of bytes (16 rows, 8 columns): the eight source columns
// are one xmm each, and three rounds of unpacks (bytes, words, double
// words) leave two whole destination rows of 8 bytes in each register.
TEXT ·transpose1AVX2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ cs+16(FP), R8
	MOVQ pitch+24(FP), R11
	MOVQ cols+40(FP), CX
	LEAQ (R8)(R8*2), R9
	LEAQ (R11)(R11*2), R12

col1:
	MOVQ rows+32(FP), DX
	MOVQ SI, AX
	MOVQ DI, BX

row1:
	LEAQ (AX)(R8*4), R10
	VMOVDQU (AX), X0         // rows 0..15 of column 0
	VMOVDQU (AX)(R8*1), X1
	VMOVDQU (AX)(R8*2), X2
	VMOVDQU (AX)(R9*1), X3
	VMOVDQU (R10), X4
	VMOVDQU (R10)(R8*1), X5
	VMOVDQU (R10)(R8*2), X6
	VMOVDQU (R10)(R9*1), X7

	VPUNPCKLBW X1, X0, X8    // rows 0..7 of columns 0, 1
	VPUNPCKHBW X1, X0, X9    // rows 8..15 of columns 0, 1
	VPUNPCKLBW X3, X2, X10
	VPUNPCKHBW X3, X2, X11
	VPUNPCKLBW X5, X4, X12
	VPUNPCKHBW X5, X4, X13
	VPUNPCKLBW X7, X6, X14
	VPUNPCKHBW X7, X6, X15

	VPUNPCKLWD X10, X8, X0   // rows 0..3 of columns 0..3
	VPUNPCKHWD X10, X8, X1   // rows 4..7
	VPUNPCKLWD X11, X9, X2   // rows 8..11
	VPUNPCKHWD X11, X9, X3   // rows 12..15
	VPUNPCKLWD X14, X12, X4  // the same of columns 4..7
	VPUNPCKHWD X14, X12, X5
	VPUNPCKLWD X15, X13, X6
	VPUNPCKHWD X15, X13, X7

	VPUNPCKLDQ X4, X0, X8    // rows 0, 1 whole
	VPUNPCKHDQ X4, X0, X9    // rows 2, 3
	VPUNPCKLDQ X5, X1, X10   // rows 4, 5
	VPUNPCKHDQ X5, X1, X11   // rows 6, 7
	VPUNPCKLDQ X6, X2, X12   // rows 8, 9
	VPUNPCKHDQ X6, X2, X13   // rows 10, 11
	VPUNPCKLDQ X7, X3, X14   // rows 12, 13
	VPUNPCKHDQ X7, X3, X15   // rows 14, 15

	LEAQ    (BX)(R11*4), R13 // destination rows 4..7
	VMOVQ   X8, (BX)
	VMOVHPS X8, (BX)(R11*1)
	VMOVQ   X9, (BX)(R11*2)
	VMOVHPS X9, (BX)(R12*1)
	VMOVQ   X10, (R13)
	VMOVHPS X10, (R13)(R11*1)
	VMOVQ   X11, (R13)(R11*2)
	VMOVHPS X11, (R13)(R12*1)
	LEAQ    (R13)(R11*4), R10 // rows 8..11
	VMOVQ   X12, (R10)
	VMOVHPS X12, (R10)(R11*1)
	VMOVQ   X13, (R10)(R11*2)
	VMOVHPS X13, (R10)(R12*1)
	LEAQ    (R10)(R11*4), R13 // rows 12..15
	VMOVQ   X14, (R13)
	VMOVHPS X14, (R13)(R11*1)
	VMOVQ   X15, (R13)(R11*2)
	VMOVHPS X15, (R13)(R12*1)

	ADDQ $16, AX             // 16 rows down the source columns
	LEAQ (R13)(R11*4), BX    // 16 rows down the destination
	SUBQ $16, DX
	JNZ  row1

	LEAQ (SI)(R8*8), SI      // the next 8 source columns
	ADDQ $8, DI              // the next 8 destination columns
	SUBQ $8, CX
	JNZ  col1
	RET

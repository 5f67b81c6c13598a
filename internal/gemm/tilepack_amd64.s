//go:build !purego

#include "textflag.h"

// AVX-512BW packing for the tile kernels (tiles.go): 64-byte rows of
// bfloat16 moved with one zmm load and store each, tested for subnormals
// on the way (VPTESTNMW: lanes whose exponent bits are zero; VPTESTMW under
// that mask: of those, lanes whose mantissa is not; K3 gathers them).

// Word indices for VPERMT2W: output word 2j is word j of the first row,
// word 2j+1 word j of the second (index 32 + j), for the columns 0-15
// (tilePairLo) and 16-31 (tilePairHi) of a panel.
DATA tilePairLo<>+0(SB)/8, $0x0021000100200000
DATA tilePairLo<>+8(SB)/8, $0x0023000300220002
DATA tilePairLo<>+16(SB)/8, $0x0025000500240004
DATA tilePairLo<>+24(SB)/8, $0x0027000700260006
DATA tilePairLo<>+32(SB)/8, $0x0029000900280008
DATA tilePairLo<>+40(SB)/8, $0x002b000b002a000a
DATA tilePairLo<>+48(SB)/8, $0x002d000d002c000c
DATA tilePairLo<>+56(SB)/8, $0x002f000f002e000e
GLOBL tilePairLo<>(SB), RODATA|NOPTR, $64
DATA tilePairHi<>+0(SB)/8, $0x0031001100300010
DATA tilePairHi<>+8(SB)/8, $0x0033001300320012
DATA tilePairHi<>+16(SB)/8, $0x0035001500340014
DATA tilePairHi<>+24(SB)/8, $0x0037001700360016
DATA tilePairHi<>+32(SB)/8, $0x0039001900380018
DATA tilePairHi<>+40(SB)/8, $0x003b001b003a001a
DATA tilePairHi<>+48(SB)/8, $0x003d001d003c001c
DATA tilePairHi<>+56(SB)/8, $0x003f001f003e001e
GLOBL tilePairHi<>(SB), RODATA|NOPTR, $64

#define MASKS \
	MOVL $0x7f807f80, AX; VPBROADCASTD AX, Z30; \
	MOVL $0x007f007f, AX; VPBROADCASTD AX, Z31; \
	KXORD K3, K3, K3

// TEST_SUB(z) adds the subnormal lanes of z to K3.
#define TEST_SUB(z) \
	VPTESTNMW Z30, z, K1; \
	VPTESTMW Z31, z, K1, K2; \
	KORD K2, K3, K3

// func tileCopyAVX512(dst, src *uint16, chunks int) bool
TEXT ·tileCopyAVX512(SB), NOSPLIT, $0-25
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ chunks+16(FP), CX
	MASKS
	TESTQ CX, CX
	JZ    done

loop:
	VMOVDQU16 (SI), Z0
	VMOVDQU16 Z0, (DI)
	TEST_SUB(Z0)
	ADDQ $64, SI
	ADDQ $2048, DI
	DECQ CX
	JNZ  loop

done:
	KORTESTD K3, K3
	SETNE    ret+24(FP)
	VZEROUPPER
	RET

// func tilePairsAVX512(dst, src *uint16, rs, pairs int) bool
TEXT ·tilePairsAVX512(SB), NOSPLIT, $0-33
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ rs+16(FP), DX
	SHLQ $1, DX
	MOVQ pairs+24(FP), CX
	MASKS
	VMOVDQU64 tilePairLo<>(SB), Z28
	VMOVDQU64 tilePairHi<>(SB), Z29
	TESTQ CX, CX
	JZ    done

loop:
	VMOVDQU16 (SI), Z0
	VMOVDQU16 (SI)(DX*1), Z1
	TEST_SUB(Z0)
	TEST_SUB(Z1)
	VMOVDQA64 Z0, Z2
	VPERMT2W  Z1, Z28, Z0
	VPERMT2W  Z1, Z29, Z2
	VMOVDQU16 Z0, (DI)
	VMOVDQU16 Z2, 1024(DI)
	LEAQ      (SI)(DX*2), SI
	ADDQ      $64, DI
	DECQ      CX
	JNZ       loop

done:
	KORTESTD K3, K3
	SETNE    ret+32(FP)
	VZEROUPPER
	RET

// Transposed B (B's columns contiguous: B[k][j] at src + k + j·cs
// elements): a column's 32 bfloat16 of one K step are one zmm of sixteen
// pairs (dwords), and tile row p is dword p of each of the 16 columns of a
// tile, so each half of the panel is a 16×16 dword transpose: interleave
// dwords, then qwords, within 128-bit lanes (row group g of four columns
// then holds, in lane L, their dword 4L+c in vector 4g+c), then gather the
// 128-bit lanes (VSHUFI32X4) so that output row 4L+c has lane L of the
// four group vectors for c.

// TR_LOAD4 loads four columns (at SI, stepping DX bytes) and tests them.
#define TR_LOAD4(a, b, c, d) \
	VMOVDQU16 (SI), a; ADDQ DX, SI; TEST_SUB(a); \
	VMOVDQU16 (SI), b; ADDQ DX, SI; TEST_SUB(b); \
	VMOVDQU16 (SI), c; ADDQ DX, SI; TEST_SUB(c); \
	VMOVDQU16 (SI), d; ADDQ DX, SI; TEST_SUB(d)

// TR_DQ(r0, r1, r2, r3, t0, t1, t2, t3): the dword interleaves of a group.
#define TR_DQ(r0, r1, r2, r3, t0, t1, t2, t3) \
	VPUNPCKLDQ r1, r0, t0; VPUNPCKHDQ r1, r0, t1; \
	VPUNPCKLDQ r3, r2, t2; VPUNPCKHDQ r3, r2, t3

// TR_QDQ(t0, t1, t2, t3, u0, u1, u2, u3): the qword interleaves, u_c holding
// the group's dword 4L+c in lane L.
#define TR_QDQ(t0, t1, t2, t3, u0, u1, u2, u3) \
	VPUNPCKLQDQ t2, t0, u0; VPUNPCKHQDQ t2, t0, u1; \
	VPUNPCKLQDQ t3, t1, u2; VPUNPCKHQDQ t3, t1, u3

// TR_LANES(a, b, c, d, off): output rows c, 4+c, 8+c, 12+c (at DI + off,
// + 256, + 512, + 768) from the group vectors a, b, c, d of one c.
#define TR_LANES(a, b, c, d, off) \
	VSHUFI32X4 $0x44, b, a, Z16; VSHUFI32X4 $0xee, b, a, Z17; \
	VSHUFI32X4 $0x44, d, c, Z18; VSHUFI32X4 $0xee, d, c, Z19; \
	VSHUFI32X4 $0x88, Z18, Z16, Z20; VMOVDQU32 Z20, off(DI); \
	VSHUFI32X4 $0xdd, Z18, Z16, Z21; VMOVDQU32 Z21, off+256(DI); \
	VSHUFI32X4 $0x88, Z19, Z17, Z22; VMOVDQU32 Z22, off+512(DI); \
	VSHUFI32X4 $0xdd, Z19, Z17, Z23; VMOVDQU32 Z23, off+768(DI)

// TR_HALF transposes the 16 columns at SI (stride DX bytes) into the tile
// at DI, leaving SI at the next column.
#define TR_HALF \
	MOVL $0x7f807f80, AX; VPBROADCASTD AX, Z30; \
	MOVL $0x007f007f, AX; VPBROADCASTD AX, Z31; \
	TR_LOAD4(Z0, Z1, Z2, Z3); TR_LOAD4(Z4, Z5, Z6, Z7); \
	TR_LOAD4(Z8, Z9, Z10, Z11); TR_LOAD4(Z12, Z13, Z14, Z15); \
	TR_DQ(Z0, Z1, Z2, Z3, Z16, Z17, Z18, Z19); \
	TR_DQ(Z4, Z5, Z6, Z7, Z20, Z21, Z22, Z23); \
	TR_DQ(Z8, Z9, Z10, Z11, Z24, Z25, Z26, Z27); \
	TR_DQ(Z12, Z13, Z14, Z15, Z28, Z29, Z30, Z31); \
	TR_QDQ(Z16, Z17, Z18, Z19, Z0, Z1, Z2, Z3); \
	TR_QDQ(Z20, Z21, Z22, Z23, Z4, Z5, Z6, Z7); \
	TR_QDQ(Z24, Z25, Z26, Z27, Z8, Z9, Z10, Z11); \
	TR_QDQ(Z28, Z29, Z30, Z31, Z12, Z13, Z14, Z15); \
	TR_LANES(Z0, Z4, Z8, Z12, 0); \
	TR_LANES(Z1, Z5, Z9, Z13, 64); \
	TR_LANES(Z2, Z6, Z10, Z14, 128); \
	TR_LANES(Z3, Z7, Z11, Z15, 192)

// func tilePairsTAVX512(dst, src *uint16, cs int) bool
TEXT ·tilePairsTAVX512(SB), NOSPLIT, $0-25
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ cs+16(FP), DX
	SHLQ $1, DX
	KXORD K3, K3, K3
	TR_HALF
	ADDQ $1024, DI
	TR_HALF
	KORTESTD K3, K3
	SETNE    ret+24(FP)
	VZEROUPPER
	RET

// Transposed A (A's columns contiguous: A[i][k] at src + i + k·cs
// elements): a K step of a 32-row sliver is a 32×32 transpose of words,
// done as four 16×16 blocks in ymm registers (EVEX, so Y16-Y31 serve):
// interleave words, dwords, then qwords within 128-bit lanes (vector 8h+c
// then holds rows 8h..8h+7 of column c in its low lane and of column 8+c
// in its high one), then pair the lanes (VSHUFI64X2).

// TA_LOAD4 loads four 16-word runs (at SI, stepping DX bytes) and tests them.
#define TA_LOAD4(a, b, c, d) \
	VMOVDQU16 (SI), a; ADDQ DX, SI; TEST_SUB_Y(a); \
	VMOVDQU16 (SI), b; ADDQ DX, SI; TEST_SUB_Y(b); \
	VMOVDQU16 (SI), c; ADDQ DX, SI; TEST_SUB_Y(c); \
	VMOVDQU16 (SI), d; ADDQ DX, SI; TEST_SUB_Y(d)

#define TEST_SUB_Y(y) \
	VPTESTNMW Y30, y, K1; \
	VPTESTMW Y31, y, K1, K2; \
	KORD K2, K3, K3

#define TA_WD(r0, r1, t0, t1) VPUNPCKLWD r1, r0, t0; VPUNPCKHWD r1, r0, t1

#define TA_DQ(t0, t1, t2, t3, u0, u1, u2, u3) \
	VPUNPCKLDQ t2, t0, u0; VPUNPCKHDQ t2, t0, u1; \
	VPUNPCKLDQ t3, t1, u2; VPUNPCKHDQ t3, t1, u3

// TA_QDQ(lo, hi, v0, v1): column pairs of rows 0-3 (lo) and 4-7 (hi).
#define TA_QDQ(lo, hi, v0, v1) VPUNPCKLQDQ hi, lo, v0; VPUNPCKHQDQ hi, lo, v1

// TA_OUT(v, w, c): output rows c and 8+c (at DI + 64c and 64(8+c)) from
// the column vectors of rows 0-7 (v) and 8-15 (w).
#define TA_OUT(v, w, c) \
	VSHUFI64X2 $0, w, v, Y0; VMOVDQU16 Y0, (64*c)(DI); \
	VSHUFI64X2 $3, w, v, Y1; VMOVDQU16 Y1, (64*(8+c))(DI)

// TA_BLOCK transposes the 16×16 block whose 16 runs start at SI (stride
// DX bytes) into 16 rows of 32 bytes at DI (stride 64), leaving SI at the
// next run.
#define TA_BLOCK \
	MOVL $0x7f807f80, AX; VPBROADCASTD AX, Y30; \
	MOVL $0x007f007f, AX; VPBROADCASTD AX, Y31; \
	TA_LOAD4(Y0, Y1, Y2, Y3); TA_LOAD4(Y4, Y5, Y6, Y7); \
	TA_LOAD4(Y8, Y9, Y10, Y11); TA_LOAD4(Y12, Y13, Y14, Y15); \
	TA_WD(Y0, Y1, Y16, Y17); TA_WD(Y2, Y3, Y18, Y19); \
	TA_WD(Y4, Y5, Y20, Y21); TA_WD(Y6, Y7, Y22, Y23); \
	TA_WD(Y8, Y9, Y24, Y25); TA_WD(Y10, Y11, Y26, Y27); \
	TA_WD(Y12, Y13, Y28, Y29); TA_WD(Y14, Y15, Y30, Y31); \
	TA_DQ(Y16, Y17, Y18, Y19, Y0, Y1, Y2, Y3); \
	TA_DQ(Y20, Y21, Y22, Y23, Y4, Y5, Y6, Y7); \
	TA_DQ(Y24, Y25, Y26, Y27, Y8, Y9, Y10, Y11); \
	TA_DQ(Y28, Y29, Y30, Y31, Y12, Y13, Y14, Y15); \
	TA_QDQ(Y0, Y4, Y16, Y17); TA_QDQ(Y1, Y5, Y18, Y19); \
	TA_QDQ(Y2, Y6, Y20, Y21); TA_QDQ(Y3, Y7, Y22, Y23); \
	TA_QDQ(Y8, Y12, Y24, Y25); TA_QDQ(Y9, Y13, Y26, Y27); \
	TA_QDQ(Y10, Y14, Y28, Y29); TA_QDQ(Y11, Y15, Y30, Y31); \
	TA_OUT(Y16, Y24, 0); TA_OUT(Y17, Y25, 1); TA_OUT(Y18, Y26, 2); TA_OUT(Y19, Y27, 3); \
	TA_OUT(Y20, Y28, 4); TA_OUT(Y21, Y29, 5); TA_OUT(Y22, Y30, 6); TA_OUT(Y23, Y31, 7)

// func tileCopyTAVX512(dst, src *uint16, cs int) bool
TEXT ·tileCopyTAVX512(SB), NOSPLIT, $0-25
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), BX
	MOVQ cs+16(FP), DX
	SHLQ $1, DX
	KXORD K3, K3, K3
	// Block (rows 0-15, K 0-15): runs at src, rows to dst.
	MOVQ BX, SI
	TA_BLOCK
	// (rows 0-15, K 16-31): SI is already at K 16; rows to dst + 32 bytes.
	ADDQ $32, DI
	TA_BLOCK
	// (rows 16-31, K 0-15): runs at src + 32 bytes; rows to dst + 1024.
	LEAQ 32(BX), SI
	ADDQ $992, DI
	TA_BLOCK
	// (rows 16-31, K 16-31).
	ADDQ $32, DI
	TA_BLOCK
	KORTESTD K3, K3
	SETNE    ret+24(FP)
	VZEROUPPER
	RET

//go:build !purego

#include "textflag.h"

// Multi-row gather kernels for SpMM (AVX-512): the gatherWm kernels of
// gather_amd64.s for W = 1 and 2, looping over a chunk of rows of a
// themselves. Row r of the chunk has the entries [rowPtr[r],
// rowPtr[r+1]) of cols and vals (indices into the chunk's whole cols and
// vals, which start at the matrix's first entry), and its block of
// results is stored at out + r·ors (ors in bytes, of either sign); a row
// without entries stores +0. A call per row cost as much as a row of ten
// entries of one or two vectors. The arithmetic per entry, the prefetch
// (ahead entries further on in cols, clamped to its last entry) and the
// masked last vector (K1) are those of the per-row kernels, so the bits
// are too.
//
// DI: out, SI: b at the block's first column, DX: b's row stride in bytes,
// R14: rowPtr of the current row, R15: rows left, R8: cols, R9: len(cols),
// R13: len(cols)-1, BX: p, CX: the row's end, R10: vals, R11: ahead, AX:
// entry p's row of b, R12: the prefetched row, Z31: vals[p] broadcast.

// ROWENTRY is gather_amd64.s's ENTRY: AX = entry p's row, R12 = the row to
// prefetch, Z31 = vals[p].
#define ROWENTRY(BCAST, valscale) \
	MOVQ  (R8)(BX*8), AX; \
	IMULQ DX, AX; \
	ADDQ  SI, AX; \
	LEAQ  (BX)(R11*1), R12; \
	CMPQ  R12, R9; \
	CMOVQCC R13, R12; \
	MOVQ  (R8)(R12*8), R12; \
	IMULQ DX, R12; \
	ADDQ  SI, R12; \
	BCAST (R10)(BX*valscale), Z31

#define ROWS_PROLOGUE \
	MOVQ  out+0(FP), DI; \
	MOVQ  b+16(FP), SI; \
	MOVQ  rs+24(FP), DX; \
	MOVQ  rowPtr+32(FP), R14; \
	MOVQ  rows+40(FP), R15; \
	MOVQ  cols_base+48(FP), R8; \
	MOVQ  cols_len+56(FP), R9; \
	LEAQ  -1(R9), R13; \
	MOVQ  vals+72(FP), R10; \
	KMOVQ mask+80(FP), K1; \
	MOVQ  ahead+88(FP), R11

// func gatherRows1mF32AVX512(out *float32, ors int, b *float32, rs int, rowPtr *int64, rows int, cols []int64, vals *float32, mask uint64, ahead int)
TEXT ·gatherRows1mF32AVX512(SB), NOSPLIT, $0-96
	ROWS_PROLOGUE
	TESTQ R15, R15
	JZ    done

row:
	MOVQ   0(R14), BX
	MOVQ   8(R14), CX
	VPXORD Z0, Z0, Z0
	CMPQ   BX, CX
	JAE    store

loop:
	ROWENTRY(VBROADCASTSS, 4)
	PREFETCHT0 0(R12)
	VMULPS.Z 0(AX), Z31, K1, Z16
	VADDPS   Z16, Z0, Z0
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPS Z0, K1, 0(DI)
	ADDQ    ors+8(FP), DI
	ADDQ    $8, R14
	DECQ    R15
	JNZ     row

done:
	VZEROUPPER
	RET

// func gatherRows2mF32AVX512(out *float32, ors int, b *float32, rs int, rowPtr *int64, rows int, cols []int64, vals *float32, mask uint64, ahead int)
TEXT ·gatherRows2mF32AVX512(SB), NOSPLIT, $0-96
	ROWS_PROLOGUE
	TESTQ R15, R15
	JZ    done

row:
	MOVQ   0(R14), BX
	MOVQ   8(R14), CX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	CMPQ   BX, CX
	JAE    store

loop:
	ROWENTRY(VBROADCASTSS, 4)
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	VMULPS   0(AX), Z31, Z16
	VADDPS   Z16, Z0, Z0
	VMULPS.Z 64(AX), Z31, K1, Z17
	VADDPS   Z17, Z1, Z1
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPS Z0, 0(DI)
	VMOVUPS Z1, K1, 64(DI)
	ADDQ    ors+8(FP), DI
	ADDQ    $8, R14
	DECQ    R15
	JNZ     row

done:
	VZEROUPPER
	RET

// func gatherRows1mF64AVX512(out *float64, ors int, b *float64, rs int, rowPtr *int64, rows int, cols []int64, vals *float64, mask uint64, ahead int)
TEXT ·gatherRows1mF64AVX512(SB), NOSPLIT, $0-96
	ROWS_PROLOGUE
	TESTQ R15, R15
	JZ    done

row:
	MOVQ   0(R14), BX
	MOVQ   8(R14), CX
	VPXORD Z0, Z0, Z0
	CMPQ   BX, CX
	JAE    store

loop:
	ROWENTRY(VBROADCASTSD, 8)
	PREFETCHT0 0(R12)
	VMULPD.Z 0(AX), Z31, K1, Z16
	VADDPD   Z16, Z0, Z0
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPD Z0, K1, 0(DI)
	ADDQ    ors+8(FP), DI
	ADDQ    $8, R14
	DECQ    R15
	JNZ     row

done:
	VZEROUPPER
	RET

// func gatherRows2mF64AVX512(out *float64, ors int, b *float64, rs int, rowPtr *int64, rows int, cols []int64, vals *float64, mask uint64, ahead int)
TEXT ·gatherRows2mF64AVX512(SB), NOSPLIT, $0-96
	ROWS_PROLOGUE
	TESTQ R15, R15
	JZ    done

row:
	MOVQ   0(R14), BX
	MOVQ   8(R14), CX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	CMPQ   BX, CX
	JAE    store

loop:
	ROWENTRY(VBROADCASTSD, 8)
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	VMULPD   0(AX), Z31, Z16
	VADDPD   Z16, Z0, Z0
	VMULPD.Z 64(AX), Z31, K1, Z17
	VADDPD   Z17, Z1, Z1
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, K1, 64(DI)
	ADDQ    ors+8(FP), DI
	ADDQ    $8, R14
	DECQ    R15
	JNZ     row

done:
	VZEROUPPER
	RET

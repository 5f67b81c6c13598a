//go:build !purego

#include "textflag.h"

// Row-gather kernels for SpMM (AVX2): gather_amd64.s's kernels on ymm
// registers, full vectors only (the Go wrapper finishes the last len(out)
// mod lanes columns with the Go twin). The W accumulators stay in Y0..Y7
// for the whole row; each receives its products one at a time in storage
// order, multiplies and adds separate, so the bits are the Go twin's.
// Every entry prefetches the block of the row ahead entries further on in
// cols (clamped to cols' last entry).
//
// DI: out, SI: b at the block's first column, DX: b's row stride in bytes,
// R8: cols, R9: len(cols), R13: len(cols)-1, CX: m (entries of the row),
// R10: vals, R11: ahead, BX: p, AX: the address of entry p's row, R12:
// the prefetched row's address, Y15: vals[p] broadcast, Y8..Y14: products.

// ENTRY sets AX to entry p's row, R12 to the row to prefetch and Y15 to
// vals[p].
#define ENTRY(BCAST, valscale) \
	MOVQ  (R8)(BX*8), AX; \
	IMULQ DX, AX; \
	ADDQ  SI, AX; \
	LEAQ  (BX)(R11*1), R12; \
	CMPQ  R12, R9; \
	CMOVQCC R13, R12; \
	MOVQ  (R8)(R12*8), R12; \
	IMULQ DX, R12; \
	ADDQ  SI, R12; \
	BCAST (R10)(BX*valscale), Y15

#define PROLOGUE \
	MOVQ  out+0(FP), DI; \
	MOVQ  b+8(FP), SI; \
	MOVQ  rs+16(FP), DX; \
	MOVQ  cols_base+24(FP), R8; \
	MOVQ  cols_len+32(FP), R9; \
	LEAQ  -1(R9), R13; \
	MOVQ  m+48(FP), CX; \
	MOVQ  vals+56(FP), R10; \
	MOVQ  ahead+64(FP), R11; \
	XORQ  BX, BX

// func gather8F32AVX2(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, ahead int)
TEXT ·gather8F32AVX2(SB), NOSPLIT, $0-72
	PROLOGUE
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSS, 4)
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	PREFETCHT0 128(R12)
	PREFETCHT0 192(R12)
	VMULPS 0(AX), Y15, Y8
	VADDPS Y8, Y0, Y0
	VMULPS 32(AX), Y15, Y9
	VADDPS Y9, Y1, Y1
	VMULPS 64(AX), Y15, Y10
	VADDPS Y10, Y2, Y2
	VMULPS 96(AX), Y15, Y11
	VADDPS Y11, Y3, Y3
	VMULPS 128(AX), Y15, Y12
	VADDPS Y12, Y4, Y4
	VMULPS 160(AX), Y15, Y13
	VADDPS Y13, Y5, Y5
	VMULPS 192(AX), Y15, Y14
	VADDPS Y14, Y6, Y6
	VMULPS 224(AX), Y15, Y8
	VADDPS Y8, Y7, Y7
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VMOVUPS Y4, 128(DI)
	VMOVUPS Y5, 160(DI)
	VMOVUPS Y6, 192(DI)
	VMOVUPS Y7, 224(DI)
	VZEROUPPER
	RET

// func gather4F32AVX2(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, ahead int)
TEXT ·gather4F32AVX2(SB), NOSPLIT, $0-72
	PROLOGUE
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSS, 4)
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	VMULPS 0(AX), Y15, Y8
	VADDPS Y8, Y0, Y0
	VMULPS 32(AX), Y15, Y9
	VADDPS Y9, Y1, Y1
	VMULPS 64(AX), Y15, Y10
	VADDPS Y10, Y2, Y2
	VMULPS 96(AX), Y15, Y11
	VADDPS Y11, Y3, Y3
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VZEROUPPER
	RET

// func gather2F32AVX2(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, ahead int)
TEXT ·gather2F32AVX2(SB), NOSPLIT, $0-72
	PROLOGUE
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSS, 4)
	PREFETCHT0 0(R12)
	VMULPS 0(AX), Y15, Y8
	VADDPS Y8, Y0, Y0
	VMULPS 32(AX), Y15, Y9
	VADDPS Y9, Y1, Y1
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VZEROUPPER
	RET

// func gather1F32AVX2(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, ahead int)
TEXT ·gather1F32AVX2(SB), NOSPLIT, $0-72
	PROLOGUE
	VXORPS Y0, Y0, Y0
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSS, 4)
	PREFETCHT0 0(R12)
	VMULPS 0(AX), Y15, Y8
	VADDPS Y8, Y0, Y0
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPS Y0, 0(DI)
	VZEROUPPER
	RET

// func gather8F64AVX2(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, ahead int)
TEXT ·gather8F64AVX2(SB), NOSPLIT, $0-72
	PROLOGUE
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSD, 8)
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	PREFETCHT0 128(R12)
	PREFETCHT0 192(R12)
	VMULPD 0(AX), Y15, Y8
	VADDPD Y8, Y0, Y0
	VMULPD 32(AX), Y15, Y9
	VADDPD Y9, Y1, Y1
	VMULPD 64(AX), Y15, Y10
	VADDPD Y10, Y2, Y2
	VMULPD 96(AX), Y15, Y11
	VADDPD Y11, Y3, Y3
	VMULPD 128(AX), Y15, Y12
	VADDPD Y12, Y4, Y4
	VMULPD 160(AX), Y15, Y13
	VADDPD Y13, Y5, Y5
	VMULPD 192(AX), Y15, Y14
	VADDPD Y14, Y6, Y6
	VMULPD 224(AX), Y15, Y8
	VADDPD Y8, Y7, Y7
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VMOVUPD Y5, 160(DI)
	VMOVUPD Y6, 192(DI)
	VMOVUPD Y7, 224(DI)
	VZEROUPPER
	RET

// func gather4F64AVX2(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, ahead int)
TEXT ·gather4F64AVX2(SB), NOSPLIT, $0-72
	PROLOGUE
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSD, 8)
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	VMULPD 0(AX), Y15, Y8
	VADDPD Y8, Y0, Y0
	VMULPD 32(AX), Y15, Y9
	VADDPD Y9, Y1, Y1
	VMULPD 64(AX), Y15, Y10
	VADDPD Y10, Y2, Y2
	VMULPD 96(AX), Y15, Y11
	VADDPD Y11, Y3, Y3
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VZEROUPPER
	RET

// func gather2F64AVX2(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, ahead int)
TEXT ·gather2F64AVX2(SB), NOSPLIT, $0-72
	PROLOGUE
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSD, 8)
	PREFETCHT0 0(R12)
	VMULPD 0(AX), Y15, Y8
	VADDPD Y8, Y0, Y0
	VMULPD 32(AX), Y15, Y9
	VADDPD Y9, Y1, Y1
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VZEROUPPER
	RET

// func gather1F64AVX2(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, ahead int)
TEXT ·gather1F64AVX2(SB), NOSPLIT, $0-72
	PROLOGUE
	VXORPS Y0, Y0, Y0
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSD, 8)
	PREFETCHT0 0(R12)
	VMULPD 0(AX), Y15, Y8
	VADDPD Y8, Y0, Y0
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPD Y0, 0(DI)
	VZEROUPPER
	RET


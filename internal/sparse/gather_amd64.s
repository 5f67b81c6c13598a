//go:build !purego

#include "textflag.h"

// Row-gather kernels for SpMM (AVX-512): out = +0 + Σ vals[p]·b[cols[p]]
// over one row of a, for a block of W vectors of columns. The W
// accumulators stay in Z0..Z7 for the whole row, so out is written once,
// never read; each accumulator still receives its products one at a time
// in storage order, multiplies and adds separate, so the bits are those of
// the Go twin (axpy then axpy4 passes over out). In the gatherWm kernels
// the last vector is masked by K1 (lanes that are off are neither read nor
// written); the gatherW kernels ignore mask (masked loads cost a little
// even with every lane on: the spmm/ CSR workload took about a tenth more
// CPU when every block was masked).
//
// Every entry prefetches the block of b's row ahead entries further on in
// cols (clamped to cols' last entry, which the caller lets reach past this
// row into the next rows of its chunk): the rows of b come in random order
// and do not fit in the L2, so without the hint each row stalls on a miss.
//
// DI: out, SI: b at the block's first column, DX: b's row stride in bytes,
// R8: cols, R9: len(cols), R13: len(cols)-1, CX: m (entries of the row),
// R10: vals, R11: ahead, BX: p, AX: the address of entry p's row, R12:
// the prefetched row's address, Z31: vals[p] broadcast, Z16..Z23:
// products.

// ENTRY sets AX to entry p's row, R12 to the row to prefetch and Z31 to
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
	BCAST (R10)(BX*valscale), Z31

#define PROLOGUE \
	MOVQ  out+0(FP), DI; \
	MOVQ  b+8(FP), SI; \
	MOVQ  rs+16(FP), DX; \
	MOVQ  cols_base+24(FP), R8; \
	MOVQ  cols_len+32(FP), R9; \
	LEAQ  -1(R9), R13; \
	MOVQ  m+48(FP), CX; \
	MOVQ  vals+56(FP), R10; \
	KMOVQ mask+64(FP), K1; \
	MOVQ  ahead+72(FP), R11; \
	XORQ  BX, BX

// func gather8F32AVX512(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, mask uint64, ahead int)
TEXT ·gather8F32AVX512(SB), NOSPLIT, $0-80
	PROLOGUE
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSS, 4)
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	PREFETCHT0 128(R12)
	PREFETCHT0 192(R12)
	PREFETCHT0 256(R12)
	PREFETCHT0 320(R12)
	PREFETCHT0 384(R12)
	PREFETCHT0 448(R12)
	VMULPS   0(AX), Z31, Z16
	VADDPS   Z16, Z0, Z0
	VMULPS   64(AX), Z31, Z17
	VADDPS   Z17, Z1, Z1
	VMULPS   128(AX), Z31, Z18
	VADDPS   Z18, Z2, Z2
	VMULPS   192(AX), Z31, Z19
	VADDPS   Z19, Z3, Z3
	VMULPS   256(AX), Z31, Z20
	VADDPS   Z20, Z4, Z4
	VMULPS   320(AX), Z31, Z21
	VADDPS   Z21, Z5, Z5
	VMULPS   384(AX), Z31, Z22
	VADDPS   Z22, Z6, Z6
	VMULPS   448(AX), Z31, Z23
	VADDPS   Z23, Z7, Z7
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPS Z0, 0(DI)
	VMOVUPS Z1, 64(DI)
	VMOVUPS Z2, 128(DI)
	VMOVUPS Z3, 192(DI)
	VMOVUPS Z4, 256(DI)
	VMOVUPS Z5, 320(DI)
	VMOVUPS Z6, 384(DI)
	VMOVUPS Z7, 448(DI)
	VZEROUPPER
	RET

// func gather8mF32AVX512(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, mask uint64, ahead int)
TEXT ·gather8mF32AVX512(SB), NOSPLIT, $0-80
	PROLOGUE
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSS, 4)
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	PREFETCHT0 128(R12)
	PREFETCHT0 192(R12)
	PREFETCHT0 256(R12)
	PREFETCHT0 320(R12)
	PREFETCHT0 384(R12)
	PREFETCHT0 448(R12)
	VMULPS   0(AX), Z31, Z16
	VADDPS   Z16, Z0, Z0
	VMULPS   64(AX), Z31, Z17
	VADDPS   Z17, Z1, Z1
	VMULPS   128(AX), Z31, Z18
	VADDPS   Z18, Z2, Z2
	VMULPS   192(AX), Z31, Z19
	VADDPS   Z19, Z3, Z3
	VMULPS   256(AX), Z31, Z20
	VADDPS   Z20, Z4, Z4
	VMULPS   320(AX), Z31, Z21
	VADDPS   Z21, Z5, Z5
	VMULPS   384(AX), Z31, Z22
	VADDPS   Z22, Z6, Z6
	VMULPS.Z 448(AX), Z31, K1, Z23
	VADDPS   Z23, Z7, Z7
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPS Z0, 0(DI)
	VMOVUPS Z1, 64(DI)
	VMOVUPS Z2, 128(DI)
	VMOVUPS Z3, 192(DI)
	VMOVUPS Z4, 256(DI)
	VMOVUPS Z5, 320(DI)
	VMOVUPS Z6, 384(DI)
	VMOVUPS Z7, K1, 448(DI)
	VZEROUPPER
	RET

// func gather4F32AVX512(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, mask uint64, ahead int)
TEXT ·gather4F32AVX512(SB), NOSPLIT, $0-80
	PROLOGUE
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSS, 4)
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	PREFETCHT0 128(R12)
	PREFETCHT0 192(R12)
	VMULPS   0(AX), Z31, Z16
	VADDPS   Z16, Z0, Z0
	VMULPS   64(AX), Z31, Z17
	VADDPS   Z17, Z1, Z1
	VMULPS   128(AX), Z31, Z18
	VADDPS   Z18, Z2, Z2
	VMULPS   192(AX), Z31, Z19
	VADDPS   Z19, Z3, Z3
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPS Z0, 0(DI)
	VMOVUPS Z1, 64(DI)
	VMOVUPS Z2, 128(DI)
	VMOVUPS Z3, 192(DI)
	VZEROUPPER
	RET

// func gather4mF32AVX512(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, mask uint64, ahead int)
TEXT ·gather4mF32AVX512(SB), NOSPLIT, $0-80
	PROLOGUE
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSS, 4)
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	PREFETCHT0 128(R12)
	PREFETCHT0 192(R12)
	VMULPS   0(AX), Z31, Z16
	VADDPS   Z16, Z0, Z0
	VMULPS   64(AX), Z31, Z17
	VADDPS   Z17, Z1, Z1
	VMULPS   128(AX), Z31, Z18
	VADDPS   Z18, Z2, Z2
	VMULPS.Z 192(AX), Z31, K1, Z19
	VADDPS   Z19, Z3, Z3
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPS Z0, 0(DI)
	VMOVUPS Z1, 64(DI)
	VMOVUPS Z2, 128(DI)
	VMOVUPS Z3, K1, 192(DI)
	VZEROUPPER
	RET

// func gather2F32AVX512(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, mask uint64, ahead int)
TEXT ·gather2F32AVX512(SB), NOSPLIT, $0-80
	PROLOGUE
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSS, 4)
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	VMULPS   0(AX), Z31, Z16
	VADDPS   Z16, Z0, Z0
	VMULPS   64(AX), Z31, Z17
	VADDPS   Z17, Z1, Z1
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPS Z0, 0(DI)
	VMOVUPS Z1, 64(DI)
	VZEROUPPER
	RET

// func gather2mF32AVX512(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, mask uint64, ahead int)
TEXT ·gather2mF32AVX512(SB), NOSPLIT, $0-80
	PROLOGUE
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSS, 4)
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
	VZEROUPPER
	RET

// func gather1F32AVX512(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, mask uint64, ahead int)
TEXT ·gather1F32AVX512(SB), NOSPLIT, $0-80
	PROLOGUE
	VPXORD Z0, Z0, Z0
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSS, 4)
	PREFETCHT0 0(R12)
	VMULPS   0(AX), Z31, Z16
	VADDPS   Z16, Z0, Z0
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPS Z0, 0(DI)
	VZEROUPPER
	RET

// func gather1mF32AVX512(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, mask uint64, ahead int)
TEXT ·gather1mF32AVX512(SB), NOSPLIT, $0-80
	PROLOGUE
	VPXORD Z0, Z0, Z0
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSS, 4)
	PREFETCHT0 0(R12)
	VMULPS.Z 0(AX), Z31, K1, Z16
	VADDPS   Z16, Z0, Z0
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPS Z0, K1, 0(DI)
	VZEROUPPER
	RET

// func gather8F64AVX512(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, mask uint64, ahead int)
TEXT ·gather8F64AVX512(SB), NOSPLIT, $0-80
	PROLOGUE
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSD, 8)
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	PREFETCHT0 128(R12)
	PREFETCHT0 192(R12)
	PREFETCHT0 256(R12)
	PREFETCHT0 320(R12)
	PREFETCHT0 384(R12)
	PREFETCHT0 448(R12)
	VMULPD   0(AX), Z31, Z16
	VADDPD   Z16, Z0, Z0
	VMULPD   64(AX), Z31, Z17
	VADDPD   Z17, Z1, Z1
	VMULPD   128(AX), Z31, Z18
	VADDPD   Z18, Z2, Z2
	VMULPD   192(AX), Z31, Z19
	VADDPD   Z19, Z3, Z3
	VMULPD   256(AX), Z31, Z20
	VADDPD   Z20, Z4, Z4
	VMULPD   320(AX), Z31, Z21
	VADDPD   Z21, Z5, Z5
	VMULPD   384(AX), Z31, Z22
	VADDPD   Z22, Z6, Z6
	VMULPD   448(AX), Z31, Z23
	VADDPD   Z23, Z7, Z7
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, 192(DI)
	VMOVUPD Z4, 256(DI)
	VMOVUPD Z5, 320(DI)
	VMOVUPD Z6, 384(DI)
	VMOVUPD Z7, 448(DI)
	VZEROUPPER
	RET

// func gather8mF64AVX512(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, mask uint64, ahead int)
TEXT ·gather8mF64AVX512(SB), NOSPLIT, $0-80
	PROLOGUE
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSD, 8)
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	PREFETCHT0 128(R12)
	PREFETCHT0 192(R12)
	PREFETCHT0 256(R12)
	PREFETCHT0 320(R12)
	PREFETCHT0 384(R12)
	PREFETCHT0 448(R12)
	VMULPD   0(AX), Z31, Z16
	VADDPD   Z16, Z0, Z0
	VMULPD   64(AX), Z31, Z17
	VADDPD   Z17, Z1, Z1
	VMULPD   128(AX), Z31, Z18
	VADDPD   Z18, Z2, Z2
	VMULPD   192(AX), Z31, Z19
	VADDPD   Z19, Z3, Z3
	VMULPD   256(AX), Z31, Z20
	VADDPD   Z20, Z4, Z4
	VMULPD   320(AX), Z31, Z21
	VADDPD   Z21, Z5, Z5
	VMULPD   384(AX), Z31, Z22
	VADDPD   Z22, Z6, Z6
	VMULPD.Z 448(AX), Z31, K1, Z23
	VADDPD   Z23, Z7, Z7
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, 192(DI)
	VMOVUPD Z4, 256(DI)
	VMOVUPD Z5, 320(DI)
	VMOVUPD Z6, 384(DI)
	VMOVUPD Z7, K1, 448(DI)
	VZEROUPPER
	RET

// func gather4F64AVX512(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, mask uint64, ahead int)
TEXT ·gather4F64AVX512(SB), NOSPLIT, $0-80
	PROLOGUE
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSD, 8)
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	PREFETCHT0 128(R12)
	PREFETCHT0 192(R12)
	VMULPD   0(AX), Z31, Z16
	VADDPD   Z16, Z0, Z0
	VMULPD   64(AX), Z31, Z17
	VADDPD   Z17, Z1, Z1
	VMULPD   128(AX), Z31, Z18
	VADDPD   Z18, Z2, Z2
	VMULPD   192(AX), Z31, Z19
	VADDPD   Z19, Z3, Z3
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, 192(DI)
	VZEROUPPER
	RET

// func gather4mF64AVX512(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, mask uint64, ahead int)
TEXT ·gather4mF64AVX512(SB), NOSPLIT, $0-80
	PROLOGUE
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSD, 8)
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	PREFETCHT0 128(R12)
	PREFETCHT0 192(R12)
	VMULPD   0(AX), Z31, Z16
	VADDPD   Z16, Z0, Z0
	VMULPD   64(AX), Z31, Z17
	VADDPD   Z17, Z1, Z1
	VMULPD   128(AX), Z31, Z18
	VADDPD   Z18, Z2, Z2
	VMULPD.Z 192(AX), Z31, K1, Z19
	VADDPD   Z19, Z3, Z3
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, K1, 192(DI)
	VZEROUPPER
	RET

// func gather2F64AVX512(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, mask uint64, ahead int)
TEXT ·gather2F64AVX512(SB), NOSPLIT, $0-80
	PROLOGUE
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSD, 8)
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	VMULPD   0(AX), Z31, Z16
	VADDPD   Z16, Z0, Z0
	VMULPD   64(AX), Z31, Z17
	VADDPD   Z17, Z1, Z1
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VZEROUPPER
	RET

// func gather2mF64AVX512(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, mask uint64, ahead int)
TEXT ·gather2mF64AVX512(SB), NOSPLIT, $0-80
	PROLOGUE
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSD, 8)
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
	VZEROUPPER
	RET

// func gather1F64AVX512(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, mask uint64, ahead int)
TEXT ·gather1F64AVX512(SB), NOSPLIT, $0-80
	PROLOGUE
	VPXORD Z0, Z0, Z0
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSD, 8)
	PREFETCHT0 0(R12)
	VMULPD   0(AX), Z31, Z16
	VADDPD   Z16, Z0, Z0
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPD Z0, 0(DI)
	VZEROUPPER
	RET

// func gather1mF64AVX512(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, mask uint64, ahead int)
TEXT ·gather1mF64AVX512(SB), NOSPLIT, $0-80
	PROLOGUE
	VPXORD Z0, Z0, Z0
	TESTQ CX, CX
	JZ    store

loop:
	ENTRY(VBROADCASTSD, 8)
	PREFETCHT0 0(R12)
	VMULPD.Z 0(AX), Z31, K1, Z16
	VADDPD   Z16, Z0, Z0
	INCQ BX
	CMPQ BX, CX
	JB   loop

store:
	VMOVUPD Z0, K1, 0(DI)
	VZEROUPPER
	RET


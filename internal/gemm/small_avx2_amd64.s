//go:build !purego

#include "textflag.h"

// AVX2+FMA kernels for batches of tiny products whose C rows fit one or two
// ymm registers (n ≤ 8 or ≤ 16 float32s, ≤ 4 or ≤ 8 float64s): the same
// computation as the AVX-512 small kernels (small_amd64.s), with the same
// fused multiply-adds in the same order, so they give the same bits.
//
// Loop structure, for each matrix of the batch:
//
//	narrow (one ymm per row):  rows in blocks of 8, then 4, then 1;
//	                           per block, for p < k: load B row p once,
//	                           broadcast A(r, p) and fuse it into row r.
//	wide (two ymm per row):    rows in blocks of 4, then 1, likewise.
//
// The tiles fill the sixteen ymm registers: eight accumulators (8 rows × 1
// vector, or 4 rows × 2), the row of B (two vectors, so that the unrolled
// loop can load the next row while the last one is still in use), four
// broadcast A elements and the column mask in Y15. AVX2 has no embedded
// broadcast, so each A element is a VBROADCASTSS/SD load beside its FMA:
// an 8-row step is 9 loads and 8 FMAs, bound by the two FMA ports.
//
// Rows of B and C shorter than the vectors go through VMASKMOVPS/PD with
// the mask in Y15 (masked-off lanes read as 0 and never fault, and are
// never written); the "full" instantiations, for n equal to the vector
// width, use plain moves instead, since a masked store costs several
// micro-ops (and far more on some AMD cores).
//
// Strides are in bytes, offsets in elements. Registers: SI, DI, DX the
// matrix's A row, B, C row; BX rows left; CX the K counter; R8 A's row
// stride, R12 three of them, R9 A's column stride, AX B's row stride; R10,
// R13 walk rows 0-3 and 4-7 of A along K, R11 walks B; the batch index
// lives in a stack slot.
//
// When A's elements along K are adjacent (acs is one element of es bytes),
// narrow eight-row blocks take K four steps at a time with each A element
// at a fixed displacement, as the AVX-512 kernel does.

#include "small_amd64.h"

// The registers that stay for the whole call.
#define PROLOGUE \
	MOVQ    mask+24(FP), AX; \
	VMOVDQU (AX), Y15; \
	MOVQ    ars+40(FP), R8; \
	LEAQ    (R8)(R8*2), R12; \
	MOVQ    acs+48(FP), R9; \
	MOVQ    brs+72(FP), AX; \
	MOVQ    $0, idx-8(SP)

// One k step of an eight-row block: row r's A element at displacement d
// from its walker, times the row of B in b, into Y0..Y7.
#define STEP8(BCAST, FMA, d, b) \
	BCAST d(R10), Y10; \
	FMA   Y10, b, Y0; \
	BCAST d(R10)(R8*1), Y11; \
	FMA   Y11, b, Y1; \
	BCAST d(R10)(R8*2), Y12; \
	FMA   Y12, b, Y2; \
	BCAST d(R10)(R12*1), Y13; \
	FMA   Y13, b, Y3; \
	BCAST d(R13), Y10; \
	FMA   Y10, b, Y4; \
	BCAST d(R13)(R8*1), Y11; \
	FMA   Y11, b, Y5; \
	BCAST d(R13)(R8*2), Y12; \
	FMA   Y12, b, Y6; \
	BCAST d(R13)(R12*1), Y13; \
	FMA   Y13, b, Y7

// One k step of a four-row block (rows at R10), one vector per row.
#define STEP4(BCAST, FMA, b) \
	BCAST (R10), Y10; \
	FMA   Y10, b, Y0; \
	BCAST (R10)(R8*1), Y11; \
	FMA   Y11, b, Y1; \
	BCAST (R10)(R8*2), Y12; \
	FMA   Y12, b, Y2; \
	BCAST (R10)(R12*1), Y13; \
	FMA   Y13, b, Y3

// Stores row accumulator v at DX and moves DX to the next row of C.
#define STOREROW(v) \
	STOREC(v, (DX)); \
	ADDQ CX, DX

// NARROW is the one-vector-per-row kernel. LOADB(src, dst) and
// STOREC(src, dst) are defined before each instantiation (masked or full).
#define NARROW(BCAST, FMA, shift, es) \
	PROLOGUE; \
matrix: \
	MATRIX(shift); \
rows8: \
	CMPQ   BX, $8; \
	JLT    rows4; \
	VXORPS Y0, Y0, Y0; \
	VXORPS Y1, Y1, Y1; \
	VXORPS Y2, Y2, Y2; \
	VXORPS Y3, Y3, Y3; \
	VXORPS Y4, Y4, Y4; \
	VXORPS Y5, Y5, Y5; \
	VXORPS Y6, Y6, Y6; \
	VXORPS Y7, Y7, Y7; \
	MOVQ   SI, R10; \
	LEAQ   (SI)(R8*4), R13; \
	MOVQ   DI, R11; \
	MOVQ   k+16(FP), CX; \
	TESTQ  CX, CX; \
	JZ     store8; \
	CMPQ   R9, $es; \
	JNE    k8; \
	CMPQ   CX, $4; \
	JLT    k8; \
k8x4: \
	LOADB((R11), Y8); \
	STEP8(BCAST, FMA, 0, Y8); \
	LOADB((R11)(AX*1), Y9); \
	STEP8(BCAST, FMA, es, Y9); \
	LEAQ   (R11)(AX*2), R11; \
	LOADB((R11), Y8); \
	STEP8(BCAST, FMA, (2*es), Y8); \
	LOADB((R11)(AX*1), Y9); \
	STEP8(BCAST, FMA, (3*es), Y9); \
	LEAQ   (R11)(AX*2), R11; \
	ADDQ   $(4*es), R10; \
	ADDQ   $(4*es), R13; \
	SUBQ   $4, CX; \
	JZ     store8; \
	CMPQ   CX, $4; \
	JGE    k8x4; \
k8: \
	LOADB((R11), Y8); \
	STEP8(BCAST, FMA, 0, Y8); \
	ADDQ   R9, R10; \
	ADDQ   R9, R13; \
	ADDQ   AX, R11; \
	DECQ   CX; \
	JNZ    k8; \
store8: \
	MOVQ   crs+96(FP), CX; \
	STOREROW(Y0); \
	STOREROW(Y1); \
	STOREROW(Y2); \
	STOREROW(Y3); \
	STOREROW(Y4); \
	STOREROW(Y5); \
	STOREROW(Y6); \
	STOREROW(Y7); \
	LEAQ   (SI)(R8*8), SI; \
	SUBQ   $8, BX; \
	JMP    rows8; \
rows4: \
	CMPQ   BX, $4; \
	JLT    rows1; \
	VXORPS Y0, Y0, Y0; \
	VXORPS Y1, Y1, Y1; \
	VXORPS Y2, Y2, Y2; \
	VXORPS Y3, Y3, Y3; \
	MOVQ   SI, R10; \
	MOVQ   DI, R11; \
	MOVQ   k+16(FP), CX; \
	TESTQ  CX, CX; \
	JZ     store4; \
k4: \
	LOADB((R11), Y8); \
	STEP4(BCAST, FMA, Y8); \
	ADDQ   R9, R10; \
	ADDQ   AX, R11; \
	DECQ   CX; \
	JNZ    k4; \
store4: \
	MOVQ   crs+96(FP), CX; \
	STOREROW(Y0); \
	STOREROW(Y1); \
	STOREROW(Y2); \
	STOREROW(Y3); \
	LEAQ   (SI)(R8*4), SI; \
	SUBQ   $4, BX; \
rows1: \
	TESTQ  BX, BX; \
	JZ     next; \
	VXORPS Y0, Y0, Y0; \
	MOVQ   SI, R10; \
	MOVQ   DI, R11; \
	MOVQ   k+16(FP), CX; \
	TESTQ  CX, CX; \
	JZ     store1; \
k1: \
	LOADB((R11), Y8); \
	BCAST  (R10), Y10; \
	FMA    Y10, Y8, Y0; \
	ADDQ   R9, R10; \
	ADDQ   AX, R11; \
	DECQ   CX; \
	JNZ    k1; \
store1: \
	STOREC(Y0, (DX)); \
	ADDQ   crs+96(FP), DX; \
	ADDQ   R8, SI; \
	DECQ   BX; \
	JMP    rows1; \
next: \
	INCQ   idx-8(SP); \
	JMP    matrix; \
end: \
	FIN; \
	VZEROUPPER; \
	RET

// One k step of a wide four-row block: the row of B is Y8 (full) and Y9
// (its second half, loaded by the caller), row r's element broadcast into
// Y(10+r), fused into Y(2r) and Y(2r+1).
#define WSTEP4(BCAST, FMA) \
	BCAST (R10), Y10; \
	FMA   Y10, Y8, Y0; \
	FMA   Y10, Y9, Y1; \
	BCAST (R10)(R8*1), Y11; \
	FMA   Y11, Y8, Y2; \
	FMA   Y11, Y9, Y3; \
	BCAST (R10)(R8*2), Y12; \
	FMA   Y12, Y8, Y4; \
	FMA   Y12, Y9, Y5; \
	BCAST (R10)(R12*1), Y13; \
	FMA   Y13, Y8, Y6; \
	FMA   Y13, Y9, Y7

// Stores a wide row (lo through STOREF, hi through STOREC) at DX and moves
// DX on.
#define WSTOREROW(MOVU, lo, hi) \
	STOREF(lo, (DX)); \
	STOREC(hi, 32(DX)); \
	ADDQ CX, DX

// WIDE is the two-vectors-per-row kernel: the first vector of each row is
// always full (n is past one vector), the second goes through LOADB and
// STOREC.
#define WIDE(MOVU, BCAST, FMA, shift) \
	PROLOGUE; \
matrix: \
	MATRIX(shift); \
rows4: \
	CMPQ   BX, $4; \
	JLT    rows1; \
	VXORPS Y0, Y0, Y0; \
	VXORPS Y1, Y1, Y1; \
	VXORPS Y2, Y2, Y2; \
	VXORPS Y3, Y3, Y3; \
	VXORPS Y4, Y4, Y4; \
	VXORPS Y5, Y5, Y5; \
	VXORPS Y6, Y6, Y6; \
	VXORPS Y7, Y7, Y7; \
	MOVQ   SI, R10; \
	MOVQ   DI, R11; \
	MOVQ   k+16(FP), CX; \
	TESTQ  CX, CX; \
	JZ     store4; \
k4: \
	MOVU   (R11), Y8; \
	LOADB(32(R11), Y9); \
	WSTEP4(BCAST, FMA); \
	ADDQ   R9, R10; \
	ADDQ   AX, R11; \
	DECQ   CX; \
	JNZ    k4; \
store4: \
	MOVQ   crs+96(FP), CX; \
	WSTOREROW(MOVU, Y0, Y1); \
	WSTOREROW(MOVU, Y2, Y3); \
	WSTOREROW(MOVU, Y4, Y5); \
	WSTOREROW(MOVU, Y6, Y7); \
	LEAQ   (SI)(R8*4), SI; \
	SUBQ   $4, BX; \
	JMP    rows4; \
rows1: \
	TESTQ  BX, BX; \
	JZ     next; \
	VXORPS Y0, Y0, Y0; \
	VXORPS Y1, Y1, Y1; \
	MOVQ   SI, R10; \
	MOVQ   DI, R11; \
	MOVQ   k+16(FP), CX; \
	TESTQ  CX, CX; \
	JZ     store1; \
k1: \
	MOVU   (R11), Y8; \
	LOADB(32(R11), Y9); \
	BCAST  (R10), Y10; \
	FMA    Y10, Y8, Y0; \
	FMA    Y10, Y9, Y1; \
	ADDQ   R9, R10; \
	ADDQ   AX, R11; \
	DECQ   CX; \
	JNZ    k1; \
store1: \
	MOVQ   crs+96(FP), CX; \
	WSTOREROW(MOVU, Y0, Y1); \
	ADDQ   R8, SI; \
	DECQ   BX; \
	JMP    rows1; \
next: \
	INCQ   idx-8(SP); \
	JMP    matrix; \
end: \
	FIN; \
	VZEROUPPER; \
	RET

// The signature of every kernel below:
//
//	func(batch, m, k int, mask *int32, a *T, ars, acs int, aoffs *int, b *T, brs int, boffs *int, c *T, crs int, coffs *int)
//
// mask points at eight int32s whose sign bits select the lanes of the
// masked vector (unused by the full instantiations, but always loaded).

// STOREF(src, dst) stores a full vector of C and FIN ends the kernel: plain
// stores and nothing, or (the Stream instantiations, for rows exactly one
// or two vectors wide, aligned to 32 bytes, of memory no cache holds)
// non-temporal stores and the SFENCE that orders them before the return.
#define STOREF(src, dst) VMOVUPS src, dst
#define FIN

#define LOADB(src, dst) VMASKMOVPS src, Y15, dst
#define STOREC(src, dst) VMASKMOVPS src, Y15, dst

TEXT ·smallF32AVX2Narrow(SB), NOSPLIT, $8-112
	NARROW(VBROADCASTSS, VFMADD231PS, 2, 4)

TEXT ·smallF32AVX2Wide(SB), NOSPLIT, $8-112
	WIDE(VMOVUPS, VBROADCASTSS, VFMADD231PS, 2)

#undef LOADB
#undef STOREC
#define LOADB(src, dst) VMASKMOVPD src, Y15, dst
#define STOREC(src, dst) VMASKMOVPD src, Y15, dst

TEXT ·smallF64AVX2Narrow(SB), NOSPLIT, $8-112
	NARROW(VBROADCASTSD, VFMADD231PD, 3, 8)

TEXT ·smallF64AVX2Wide(SB), NOSPLIT, $8-112
	WIDE(VMOVUPD, VBROADCASTSD, VFMADD231PD, 3)

#undef LOADB
#undef STOREC
#define LOADB(src, dst) VMOVUPS src, dst
#define STOREC(src, dst) VMOVUPS src, dst

TEXT ·smallF32AVX2NarrowFull(SB), NOSPLIT, $8-112
	NARROW(VBROADCASTSS, VFMADD231PS, 2, 4)

TEXT ·smallF32AVX2WideFull(SB), NOSPLIT, $8-112
	WIDE(VMOVUPS, VBROADCASTSS, VFMADD231PS, 2)

TEXT ·smallF64AVX2NarrowFull(SB), NOSPLIT, $8-112
	NARROW(VBROADCASTSD, VFMADD231PD, 3, 8)

TEXT ·smallF64AVX2WideFull(SB), NOSPLIT, $8-112
	WIDE(VMOVUPD, VBROADCASTSD, VFMADD231PD, 3)

#undef STOREC
#undef STOREF
#undef FIN
#define STOREC(src, dst) VMOVNTPS src, dst
#define STOREF(src, dst) VMOVNTPS src, dst
#define FIN SFENCE

TEXT ·smallF32AVX2NarrowStream(SB), NOSPLIT, $8-112
	NARROW(VBROADCASTSS, VFMADD231PS, 2, 4)

TEXT ·smallF32AVX2WideStream(SB), NOSPLIT, $8-112
	WIDE(VMOVUPS, VBROADCASTSS, VFMADD231PS, 2)

TEXT ·smallF64AVX2NarrowStream(SB), NOSPLIT, $8-112
	NARROW(VBROADCASTSD, VFMADD231PD, 3, 8)

TEXT ·smallF64AVX2WideStream(SB), NOSPLIT, $8-112
	WIDE(VMOVUPD, VBROADCASTSD, VFMADD231PD, 3)

//go:build !purego

#include "textflag.h"
#include "small_amd64.h"

// Direct kernels for batches of tiny products whose C rows fit one vector
// register (n ≤ 16 float32s or 8 float64s). Nothing is packed: each row of B
// is one masked load (lanes past n read as 0 and never fault), A elements
// are broadcast from their strided places inside the FMA, and rows of C are
// stored through the same mask. Eight (then four, then one) rows of C are
// computed together so that many independent FMA chains are in flight.
// Narrow rows use ymm registers so that short rows of B and C do not split
// across cache lines.
//
// Strides are in bytes, offsets in elements. Registers: SI, DI, DX the
// matrix's A row, B, C row; BX rows left; CX the K counter; R8 A's row
// stride, R12 three of them, R9 A's column stride, AX B's row stride; R10,
// R13 walk rows 0-3 and 4-7 of A along K, R11 walks B; K1 the column mask;
// the batch index lives in a stack slot. V0..V7 accumulate, V8 and V9 are
// rows of B (V is Z or Y, chosen before each instantiation).
//
// When A's elements along K are adjacent (acs is one element of es bytes),
// eight-row blocks take K four steps at a time, each A element at a fixed
// displacement, then one at a time: the same sums in the same order with a
// quarter of the loop's pointer updates (1024 8×8×8 float32 products, in
// L2, on one thread: 16.9 -> 16.2 µs, p = 0.008).

// One k step of an eight-row block with A's elements along K adjacent:
// row r's element at displacement d from its row start, times the row of
// B in the vector b, into V0..V7.
#define FMA8(FMA, d, b) \
	FMA.BCST d(R10), b, V0; \
	FMA.BCST d(R10)(R8*1), b, V1; \
	FMA.BCST d(R10)(R8*2), b, V2; \
	FMA.BCST d(R10)(R12*1), b, V3; \
	FMA.BCST d(R13), b, V4; \
	FMA.BCST d(R13)(R8*1), b, V5; \
	FMA.BCST d(R13)(R8*2), b, V6; \
	FMA.BCST d(R13)(R12*1), b, V7

// ST stores the row of C in v at DX: through the column mask, or, in the
// Stream variants, around the caches with a non-temporal store of the whole
// vector (rows exactly one vector wide and aligned to it), for results in
// memory that no cache holds; FIN then orders those stores (SFENCE) before
// the kernel returns and anyone reads C.
#define STPS(v) VMOVUPS v, K1, (DX)
#define STPD(v) VMOVUPD v, K1, (DX)
#define NTPS(v) VMOVNTPS v, (DX)
#define NTPD(v) VMOVNTPD v, (DX)
#define NOFENCE
#define SMALL(MOVV, FMA, ST, FIN, shift, es) \
	MOVQ   mask+24(FP), AX; \
	KMOVW  AX, K1; \
	MOVQ   ars+40(FP), R8; \
	LEAQ   (R8)(R8*2), R12; \
	MOVQ   acs+48(FP), R9; \
	MOVQ   brs+72(FP), AX; \
	MOVQ   $0, idx-8(SP); \
matrix: \
	MATRIX(shift); \
rows8: \
	CMPQ   BX, $8; \
	JLT    rows4; \
	VPXORD V0, V0, V0; \
	VPXORD V1, V1, V1; \
	VPXORD V2, V2, V2; \
	VPXORD V3, V3, V3; \
	VPXORD V4, V4, V4; \
	VPXORD V5, V5, V5; \
	VPXORD V6, V6, V6; \
	VPXORD V7, V7, V7; \
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
	MOVV.Z (R11), K1, V8; \
	FMA8(FMA, 0, V8); \
	MOVV.Z (R11)(AX*1), K1, V9; \
	FMA8(FMA, es, V9); \
	LEAQ   (R11)(AX*2), R11; \
	MOVV.Z (R11), K1, V8; \
	FMA8(FMA, (2*es), V8); \
	MOVV.Z (R11)(AX*1), K1, V9; \
	FMA8(FMA, (3*es), V9); \
	LEAQ   (R11)(AX*2), R11; \
	ADDQ   $(4*es), R10; \
	ADDQ   $(4*es), R13; \
	SUBQ   $4, CX; \
	JZ     store8; \
	CMPQ   CX, $4; \
	JGE    k8x4; \
k8: \
	MOVV.Z (R11), K1, V8; \
	FMA.BCST (R10), V8, V0; \
	FMA.BCST (R10)(R8*1), V8, V1; \
	FMA.BCST (R10)(R8*2), V8, V2; \
	FMA.BCST (R10)(R12*1), V8, V3; \
	FMA.BCST (R13), V8, V4; \
	FMA.BCST (R13)(R8*1), V8, V5; \
	FMA.BCST (R13)(R8*2), V8, V6; \
	FMA.BCST (R13)(R12*1), V8, V7; \
	ADDQ   R9, R10; \
	ADDQ   R9, R13; \
	ADDQ   AX, R11; \
	DECQ   CX; \
	JNZ    k8; \
store8: \
	MOVQ   crs+96(FP), CX; \
	ST(V0); \
	ADDQ   CX, DX; \
	ST(V1); \
	ADDQ   CX, DX; \
	ST(V2); \
	ADDQ   CX, DX; \
	ST(V3); \
	ADDQ   CX, DX; \
	ST(V4); \
	ADDQ   CX, DX; \
	ST(V5); \
	ADDQ   CX, DX; \
	ST(V6); \
	ADDQ   CX, DX; \
	ST(V7); \
	ADDQ   CX, DX; \
	LEAQ   (SI)(R8*8), SI; \
	SUBQ   $8, BX; \
	JMP    rows8; \
rows4: \
	CMPQ   BX, $4; \
	JLT    rows1; \
	VPXORD V0, V0, V0; \
	VPXORD V1, V1, V1; \
	VPXORD V2, V2, V2; \
	VPXORD V3, V3, V3; \
	MOVQ   SI, R10; \
	MOVQ   DI, R11; \
	MOVQ   k+16(FP), CX; \
	TESTQ  CX, CX; \
	JZ     store4; \
k4: \
	MOVV.Z (R11), K1, V8; \
	FMA.BCST (R10), V8, V0; \
	FMA.BCST (R10)(R8*1), V8, V1; \
	FMA.BCST (R10)(R8*2), V8, V2; \
	FMA.BCST (R10)(R12*1), V8, V3; \
	ADDQ   R9, R10; \
	ADDQ   AX, R11; \
	DECQ   CX; \
	JNZ    k4; \
store4: \
	MOVQ   crs+96(FP), CX; \
	ST(V0); \
	ADDQ   CX, DX; \
	ST(V1); \
	ADDQ   CX, DX; \
	ST(V2); \
	ADDQ   CX, DX; \
	ST(V3); \
	ADDQ   CX, DX; \
	LEAQ   (SI)(R8*4), SI; \
	SUBQ   $4, BX; \
rows1: \
	TESTQ  BX, BX; \
	JZ     next; \
	VPXORD V0, V0, V0; \
	MOVQ   SI, R10; \
	MOVQ   DI, R11; \
	MOVQ   k+16(FP), CX; \
	TESTQ  CX, CX; \
	JZ     store1; \
k1: \
	MOVV.Z (R11), K1, V8; \
	FMA.BCST (R10), V8, V0; \
	ADDQ   R9, R10; \
	ADDQ   AX, R11; \
	DECQ   CX; \
	JNZ    k1; \
store1: \
	ST(V0); \
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

#define V0 Z0
#define V1 Z1
#define V2 Z2
#define V3 Z3
#define V4 Z4
#define V5 Z5
#define V6 Z6
#define V7 Z7
#define V8 Z8
#define V9 Z9

// func smallF32AVX512(batch, m, k, mask int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)
TEXT ·smallF32AVX512(SB), NOSPLIT, $8-112
	SMALL(VMOVUPS, VFMADD231PS, STPS, NOFENCE, 2, 4)

// func smallF64AVX512(batch, m, k, mask int, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)
TEXT ·smallF64AVX512(SB), NOSPLIT, $8-112
	SMALL(VMOVUPD, VFMADD231PD, STPD, NOFENCE, 3, 8)

// func smallF32AVX512Stream(batch, m, k, mask int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)
TEXT ·smallF32AVX512Stream(SB), NOSPLIT, $8-112
	SMALL(VMOVUPS, VFMADD231PS, NTPS, SFENCE, 2, 4)

// func smallF64AVX512Stream(batch, m, k, mask int, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)
TEXT ·smallF64AVX512Stream(SB), NOSPLIT, $8-112
	SMALL(VMOVUPD, VFMADD231PD, NTPD, SFENCE, 3, 8)

#undef V0
#undef V1
#undef V2
#undef V3
#undef V4
#undef V5
#undef V6
#undef V7
#undef V8
#undef V9
#define V0 Y0
#define V1 Y1
#define V2 Y2
#define V3 Y3
#define V4 Y4
#define V5 Y5
#define V6 Y6
#define V7 Y7
#define V8 Y8
#define V9 Y9

// func smallF32AVX512Y(batch, m, k, mask int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)
TEXT ·smallF32AVX512Y(SB), NOSPLIT, $8-112
	SMALL(VMOVUPS, VFMADD231PS, STPS, NOFENCE, 2, 4)

// func smallF64AVX512Y(batch, m, k, mask int, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)
TEXT ·smallF64AVX512Y(SB), NOSPLIT, $8-112
	SMALL(VMOVUPD, VFMADD231PD, STPD, NOFENCE, 3, 8)

// func smallF32AVX512YStream(batch, m, k, mask int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)
TEXT ·smallF32AVX512YStream(SB), NOSPLIT, $8-112
	SMALL(VMOVUPS, VFMADD231PS, NTPS, SFENCE, 2, 4)

// func smallF64AVX512YStream(batch, m, k, mask int, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)
TEXT ·smallF64AVX512YStream(SB), NOSPLIT, $8-112
	SMALL(VMOVUPD, VFMADD231PD, NTPD, SFENCE, 3, 8)

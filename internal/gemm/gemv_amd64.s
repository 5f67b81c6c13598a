//go:build !purego

#include "textflag.h"

#include "axpy4_amd64.h"

// The registers AXPY4 uses.
#define V0 Z0
#define V1 Z1
#define V2 Z2
#define V3 Z3
#define V4 Z4
#define V5 Z5
#define V6 Z6
#define V7 Z7

// Streaming helpers for matrix-vector products: they are bound by reading
// the matrix once, so each keeps four vectors of loads in flight.

// Four dot products at once, of rows a, a+lda, a+2·lda, a+3·lda with x:
// each chunk of x is loaded once for four rows, and four rows stream from
// memory together. One accumulator per row (Z0..Z3), so that the AVX2 and
// NEON helpers, with sixteen 32-byte or thirty-two 16-byte registers, can
// hold the same lanes for four rows in one pass: each 128-byte step adds
// its first 64 bytes, then its second. Four chains of two multiply-adds a
// step run at 64 bytes of A a cycle, more than L2 delivers. n is a multiple
// of 2 vectors.
#define DOT4(MOVV, FMA, es, vbytes) \
	MOVQ n+0(FP), CX; \
	MOVQ a+8(FP), SI; \
	MOVQ lda+16(FP), R8; \
	SHLQ $es, R8; \
	LEAQ (R8)(R8*2), R9; \
	MOVQ x+24(FP), DI; \
	VPXORD Z0, Z0, Z0; VPXORD Z1, Z1, Z1; VPXORD Z2, Z2, Z2; VPXORD Z3, Z3, Z3; \
	SHRQ $(7-es), CX; \
	JZ   reduce; \
loop: \
	MOVV (DI), Z8; \
	MOVV vbytes(DI), Z9; \
	FMA (SI), Z8, Z0; \
	FMA (SI)(R8*1), Z8, Z1; \
	FMA (SI)(R8*2), Z8, Z2; \
	FMA (SI)(R9*1), Z8, Z3; \
	FMA vbytes(SI), Z9, Z0; \
	FMA vbytes(SI)(R8*1), Z9, Z1; \
	FMA vbytes(SI)(R8*2), Z9, Z2; \
	FMA vbytes(SI)(R9*1), Z9, Z3; \
	ADDQ $(2*vbytes), SI; \
	ADDQ $(2*vbytes), DI; \
	DECQ CX; \
	JNZ  loop; \
reduce:

// func sdotAVX512(n int, x, y *float32) float32
// n is a multiple of 64.
TEXT ·sdotAVX512(SB), NOSPLIT, $0-28
	MOVQ n+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DI
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	SHRQ $6, CX
	JZ   reduce
loop:
	VMOVUPS (SI), Z4
	VMOVUPS 64(SI), Z5
	VMOVUPS 128(SI), Z6
	VMOVUPS 192(SI), Z7
	VFMADD231PS (DI), Z4, Z0
	VFMADD231PS 64(DI), Z5, Z1
	VFMADD231PS 128(DI), Z6, Z2
	VFMADD231PS 192(DI), Z7, Z3
	ADDQ $256, SI
	ADDQ $256, DI
	DECQ CX
	JNZ  loop
reduce:
	VADDPS Z1, Z0, Z0
	VADDPS Z3, Z2, Z2
	VADDPS Z2, Z0, Z0
	VEXTRACTF32X8 $1, Z0, Y1
	VADDPS Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VMOVSS X0, ret+24(FP)
	VZEROUPPER
	RET

// func ddotAVX512(n int, x, y *float64) float64
// n is a multiple of 32.
TEXT ·ddotAVX512(SB), NOSPLIT, $0-32
	MOVQ n+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DI
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	SHRQ $5, CX
	JZ   reduce
loop:
	VMOVUPD (SI), Z4
	VMOVUPD 64(SI), Z5
	VMOVUPD 128(SI), Z6
	VMOVUPD 192(SI), Z7
	VFMADD231PD (DI), Z4, Z0
	VFMADD231PD 64(DI), Z5, Z1
	VFMADD231PD 128(DI), Z6, Z2
	VFMADD231PD 192(DI), Z7, Z3
	ADDQ $256, SI
	ADDQ $256, DI
	DECQ CX
	JNZ  loop
reduce:
	VADDPD Z1, Z0, Z0
	VADDPD Z3, Z2, Z2
	VADDPD Z2, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPD Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	VMOVSD X0, ret+24(FP)
	VZEROUPPER
	RET

// func saxpyAVX512(n int, alpha float32, x, y *float32)
// y[i] += alpha*x[i] (fused); n is a multiple of 64.
TEXT ·saxpyAVX512(SB), NOSPLIT, $0-32
	MOVQ n+0(FP), CX
	VBROADCASTSS alpha+8(FP), Z0
	MOVQ x+16(FP), SI
	MOVQ y+24(FP), DI
	SHRQ $6, CX
	JZ   done
loop:
	VMOVUPS (DI), Z1
	VMOVUPS 64(DI), Z2
	VMOVUPS 128(DI), Z3
	VMOVUPS 192(DI), Z4
	VFMADD231PS (SI), Z0, Z1
	VFMADD231PS 64(SI), Z0, Z2
	VFMADD231PS 128(SI), Z0, Z3
	VFMADD231PS 192(SI), Z0, Z4
	VMOVUPS Z1, (DI)
	VMOVUPS Z2, 64(DI)
	VMOVUPS Z3, 128(DI)
	VMOVUPS Z4, 192(DI)
	ADDQ $256, SI
	ADDQ $256, DI
	DECQ CX
	JNZ  loop
done:
	VZEROUPPER
	RET

// func daxpyAVX512(n int, alpha float64, x, y *float64)
// y[i] += alpha*x[i] (fused); n is a multiple of 32.
TEXT ·daxpyAVX512(SB), NOSPLIT, $0-32
	MOVQ n+0(FP), CX
	VBROADCASTSD alpha+8(FP), Z0
	MOVQ x+16(FP), SI
	MOVQ y+24(FP), DI
	SHRQ $5, CX
	JZ   done
loop:
	VMOVUPD (DI), Z1
	VMOVUPD 64(DI), Z2
	VMOVUPD 128(DI), Z3
	VMOVUPD 192(DI), Z4
	VFMADD231PD (SI), Z0, Z1
	VFMADD231PD 64(SI), Z0, Z2
	VFMADD231PD 128(SI), Z0, Z3
	VFMADD231PD 192(SI), Z0, Z4
	VMOVUPD Z1, (DI)
	VMOVUPD Z2, 64(DI)
	VMOVUPD Z3, 128(DI)
	VMOVUPD Z4, 192(DI)
	ADDQ $256, SI
	ADDQ $256, DI
	DECQ CX
	JNZ  loop
done:
	VZEROUPPER
	RET

// func sdot4AVX512(n int, a *float32, lda int, x *float32, out *[4]float32)
// n is a multiple of 32.
TEXT ·sdot4AVX512(SB), NOSPLIT, $0-40
	DOT4(VMOVUPS, VFMADD231PS, 2, 64)
	// Reduce each of Z0..Z3 to one lane and gather them in X0.
	VEXTRACTF32X8 $1, Z0, Y4
	VADDPS Y4, Y0, Y0
	VEXTRACTF32X8 $1, Z1, Y5
	VADDPS Y5, Y1, Y1
	VEXTRACTF32X8 $1, Z2, Y6
	VADDPS Y6, Y2, Y2
	VEXTRACTF32X8 $1, Z3, Y7
	VADDPS Y7, Y3, Y3
	VHADDPS Y1, Y0, Y0
	VHADDPS Y3, Y2, Y2
	VHADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	MOVQ out+32(FP), AX
	VMOVUPS X0, (AX)
	VZEROUPPER
	RET

// func ddot4AVX512(n int, a *float64, lda int, x *float64, out *[4]float64)
// n is a multiple of 16.
TEXT ·ddot4AVX512(SB), NOSPLIT, $0-40
	DOT4(VMOVUPD, VFMADD231PD, 3, 64)
	VEXTRACTF64X4 $1, Z0, Y4
	VADDPD Y4, Y0, Y0
	VEXTRACTF64X4 $1, Z1, Y5
	VADDPD Y5, Y1, Y1
	VEXTRACTF64X4 $1, Z2, Y6
	VADDPD Y6, Y2, Y2
	VEXTRACTF64X4 $1, Z3, Y7
	VADDPD Y7, Y3, Y3
	// Y0 = (a0+a1, b0+b1, a2+a3, b2+b3) per pair, then combine halves.
	VHADDPD Y1, Y0, Y0
	VHADDPD Y3, Y2, Y2
	VPERM2F128 $0x20, Y2, Y0, Y4
	VPERM2F128 $0x31, Y2, Y0, Y5
	VADDPD Y5, Y4, Y0
	MOVQ out+32(FP), AX
	VMOVUPD Y0, (AX)
	VZEROUPPER
	RET

// func saxpy4AVX512(n int, alpha *[4]float32, x *float32, ldx int, y *float32)
// y[i] += alpha[0]*x[i], then alpha[1]*x[ldx+i], alpha[2]*x[2ldx+i] and
// alpha[3]*x[3ldx+i] (fused, in that order); n is a multiple of 64.
TEXT ·saxpy4AVX512(SB), NOSPLIT, $0-40
	AXPY4(VBROADCASTSS, VMOVUPS, VFMADD231PS, 4, 2, 64, 8)

// func daxpy4AVX512(n int, alpha *[4]float64, x *float64, ldx int, y *float64)
// As saxpy4AVX512 for float64; n is a multiple of 32.
TEXT ·daxpy4AVX512(SB), NOSPLIT, $0-40
	AXPY4(VBROADCASTSD, VMOVUPD, VFMADD231PD, 8, 3, 64, 8)

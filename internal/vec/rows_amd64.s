//go:build !purego

#include "textflag.h"

// Four-row kernels: acc[i] = acc[i]*x0[i]*x1[i]*x2[i]*x3[i], one vector of
// accumulators at a time, the rows at SI, SI+DX, R8 and R8+DX. The last
// vector is masked (K1 holds the low CX bits), so every length is handled.

#define ROWS4_ARGS(SHIFT) \
	MOVQ acc_base+0(FP), DI; \
	MOVQ acc_len+8(FP), CX; \
	MOVQ x_base+24(FP), SI; \
	MOVQ stride+48(FP), DX; \
	SHLQ $SHIFT, DX; \
	LEAQ (SI)(DX*2), R8

#define ROWS4_MASK \
	MOVQ  $1, AX; \
	SHLQ  CX, AX; \
	DECQ  AX; \
	KMOVQ AX, K1

// ROWS4_256 is the AVX2 four-row kernel for L lanes a ymm: two vectors of
// accumulators a step while 2·L elements remain, then one, leaving fewer
// than L for the Go twin (there is no masked multiply). Two vectors a step
// keep eight row loads in flight; the rows stream from memory.
#define ROWS4_256(MOVU, MUL, L) \
	CMPQ CX, $(2*L); \
	JB   one; \
	MOVU (DI), Y0; \
	MOVU 32(DI), Y1; \
	MUL  (SI), Y0, Y0; \
	MUL  32(SI), Y1, Y1; \
	MUL  (SI)(DX*1), Y0, Y0; \
	MUL  32(SI)(DX*1), Y1, Y1; \
	MUL  (R8), Y0, Y0; \
	MUL  32(R8), Y1, Y1; \
	MUL  (R8)(DX*1), Y0, Y0; \
	MUL  32(R8)(DX*1), Y1, Y1; \
	MOVU Y0, (DI); \
	MOVU Y1, 32(DI); \
	ADDQ $64, DI; \
	ADDQ $64, SI; \
	ADDQ $64, R8; \
	SUBQ $(2*L), CX; \
	JMP  loop; \
one: \
	CMPQ CX, $L; \
	JB   done; \
	MOVU (DI), Y0; \
	MUL  (SI), Y0, Y0; \
	MUL  (SI)(DX*1), Y0, Y0; \
	MUL  (R8), Y0, Y0; \
	MUL  (R8)(DX*1), Y0, Y0; \
	MOVU Y0, (DI); \
done: \
	VZEROUPPER; \
	RET

// func rows4F32AVX512(acc, x []float32, stride int)
TEXT ·rows4F32AVX512(SB), NOSPLIT, $0-56
	ROWS4_ARGS(2)
loop:
	CMPQ    CX, $16
	JB      tail
	VMOVUPS (DI), Z0
	VMULPS  (SI), Z0, Z0
	VMULPS  (SI)(DX*1), Z0, Z0
	VMULPS  (R8), Z0, Z0
	VMULPS  (R8)(DX*1), Z0, Z0
	VMOVUPS Z0, (DI)
	ADDQ    $64, DI
	ADDQ    $64, SI
	ADDQ    $64, R8
	SUBQ    $16, CX
	JMP     loop
tail:
	TESTQ     CX, CX
	JZ        done
	ROWS4_MASK
	VMOVUPS.Z (DI), K1, Z0
	VMULPS.Z  (SI), Z0, K1, Z0
	VMULPS.Z  (SI)(DX*1), Z0, K1, Z0
	VMULPS.Z  (R8), Z0, K1, Z0
	VMULPS.Z  (R8)(DX*1), Z0, K1, Z0
	VMOVUPS   Z0, K1, (DI)
done:
	VZEROUPPER
	RET

// func rows4F64AVX512(acc, x []float64, stride int)
TEXT ·rows4F64AVX512(SB), NOSPLIT, $0-56
	ROWS4_ARGS(3)
loop:
	CMPQ    CX, $8
	JB      tail
	VMOVUPD (DI), Z0
	VMULPD  (SI), Z0, Z0
	VMULPD  (SI)(DX*1), Z0, Z0
	VMULPD  (R8), Z0, Z0
	VMULPD  (R8)(DX*1), Z0, Z0
	VMOVUPD Z0, (DI)
	ADDQ    $64, DI
	ADDQ    $64, SI
	ADDQ    $64, R8
	SUBQ    $8, CX
	JMP     loop
tail:
	TESTQ     CX, CX
	JZ        done
	ROWS4_MASK
	VMOVUPD.Z (DI), K1, Z0
	VMULPD.Z  (SI), Z0, K1, Z0
	VMULPD.Z  (SI)(DX*1), Z0, K1, Z0
	VMULPD.Z  (R8), Z0, K1, Z0
	VMULPD.Z  (R8)(DX*1), Z0, K1, Z0
	VMOVUPD   Z0, K1, (DI)
done:
	VZEROUPPER
	RET

// func rows4F32AVX2(acc, x []float32, stride int)
TEXT ·rows4F32AVX2(SB), NOSPLIT, $0-56
	ROWS4_ARGS(2)
loop:
	ROWS4_256(VMOVUPS, VMULPS, 8)

// func rows4F64AVX2(acc, x []float64, stride int)
TEXT ·rows4F64AVX2(SB), NOSPLIT, $0-56
	ROWS4_ARGS(3)
loop:
	ROWS4_256(VMOVUPD, VMULPD, 4)

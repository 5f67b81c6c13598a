//go:build !purego

#include "textflag.h"

// Four-row kernels: acc[i] = acc[i] op x0[i] op x1[i] op x2[i] op x3[i]
// (left to right), one vector of accumulators at a time, the rows at SI,
// SI+DX, R8 and R8+DX. The last vector is masked (K1 holds the low CX
// bits), so every length is handled. OP is the operation's instruction
// (VMULPS, VADDPD, ...).

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
// than L for the Go twin (there is no masked operation). Two vectors a step
// keep eight row loads in flight; the rows stream from memory.
#define ROWS4_256(MOVU, OP, L) \
loop: \
	CMPQ CX, $(2*L); \
	JB   one; \
	MOVU (DI), Y0; \
	MOVU 32(DI), Y1; \
	OP   (SI), Y0, Y0; \
	OP   32(SI), Y1, Y1; \
	OP   (SI)(DX*1), Y0, Y0; \
	OP   32(SI)(DX*1), Y1, Y1; \
	OP   (R8), Y0, Y0; \
	OP   32(R8), Y1, Y1; \
	OP   (R8)(DX*1), Y0, Y0; \
	OP   32(R8)(DX*1), Y1, Y1; \
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
	OP   (SI), Y0, Y0; \
	OP   (SI)(DX*1), Y0, Y0; \
	OP   (R8), Y0, Y0; \
	OP   (R8)(DX*1), Y0, Y0; \
	MOVU Y0, (DI); \
done: \
	VZEROUPPER; \
	RET

// ROWS4 is the kernel for accumulators and rows of one type: MOV moves a
// vector of it, L lanes per vector.
#define ROWS4(MOV, OP, L) \
loop: \
	CMPQ  CX, $L; \
	JB    tail; \
	MOV   (DI), Z0; \
	OP    (SI), Z0, Z0; \
	OP    (SI)(DX*1), Z0, Z0; \
	OP    (R8), Z0, Z0; \
	OP    (R8)(DX*1), Z0, Z0; \
	MOV   Z0, (DI); \
	ADDQ  $64, DI; \
	ADDQ  $64, SI; \
	ADDQ  $64, R8; \
	SUBQ  $L, CX; \
	JMP   loop; \
tail: \
	TESTQ CX, CX; \
	JZ    done; \
	ROWS4_MASK; \
	MOV.Z (DI), K1, Z0; \
	OP.Z  (SI), Z0, K1, Z0; \
	OP.Z  (SI)(DX*1), Z0, K1, Z0; \
	OP.Z  (R8), Z0, K1, Z0; \
	OP.Z  (R8)(DX*1), Z0, K1, Z0; \
	MOV   Z0, K1, (DI); \
done: \
	VZEROUPPER; \
	RET

// ROWS4WIDE is the kernel for float64 accumulators and float32 rows: each
// vector of eight float32 widens (exactly) before OP.
#define ROWS4WIDE(OP) \
loop: \
	CMPQ        CX, $8; \
	JB          tail; \
	VMOVUPD     (DI), Z0; \
	VCVTPS2PD   (SI), Z1; \
	OP          Z1, Z0, Z0; \
	VCVTPS2PD   (SI)(DX*1), Z1; \
	OP          Z1, Z0, Z0; \
	VCVTPS2PD   (R8), Z1; \
	OP          Z1, Z0, Z0; \
	VCVTPS2PD   (R8)(DX*1), Z1; \
	OP          Z1, Z0, Z0; \
	VMOVUPD     Z0, (DI); \
	ADDQ        $64, DI; \
	ADDQ        $32, SI; \
	ADDQ        $32, R8; \
	SUBQ        $8, CX; \
	JMP         loop; \
tail: \
	TESTQ       CX, CX; \
	JZ          done; \
	ROWS4_MASK; \
	VMOVUPD.Z   (DI), K1, Z0; \
	VCVTPS2PD.Z (SI), K1, Z1; \
	OP          Z1, Z0, Z0; \
	VCVTPS2PD.Z (SI)(DX*1), K1, Z1; \
	OP          Z1, Z0, Z0; \
	VCVTPS2PD.Z (R8), K1, Z1; \
	OP          Z1, Z0, Z0; \
	VCVTPS2PD.Z (R8)(DX*1), K1, Z1; \
	OP          Z1, Z0, Z0; \
	VMOVUPD     Z0, K1, (DI); \
done: \
	VZEROUPPER; \
	RET

// ROWS4WIDE_256 is ROWS4WIDE for AVX2: eight float64 accumulators (two
// ymm) a step while eight remain, then four, leaving fewer than four for
// the Go twin; each four float32 of a row widen to one ymm before OP.
#define ROWS4WIDE_256(OP) \
loop: \
	CMPQ      CX, $8; \
	JB        one; \
	VMOVUPD   (DI), Y0; \
	VMOVUPD   32(DI), Y1; \
	VCVTPS2PD (SI), Y2; \
	VCVTPS2PD 16(SI), Y3; \
	OP        Y2, Y0, Y0; \
	OP        Y3, Y1, Y1; \
	VCVTPS2PD (SI)(DX*1), Y2; \
	VCVTPS2PD 16(SI)(DX*1), Y3; \
	OP        Y2, Y0, Y0; \
	OP        Y3, Y1, Y1; \
	VCVTPS2PD (R8), Y2; \
	VCVTPS2PD 16(R8), Y3; \
	OP        Y2, Y0, Y0; \
	OP        Y3, Y1, Y1; \
	VCVTPS2PD (R8)(DX*1), Y2; \
	VCVTPS2PD 16(R8)(DX*1), Y3; \
	OP        Y2, Y0, Y0; \
	OP        Y3, Y1, Y1; \
	VMOVUPD   Y0, (DI); \
	VMOVUPD   Y1, 32(DI); \
	ADDQ      $64, DI; \
	ADDQ      $32, SI; \
	ADDQ      $32, R8; \
	SUBQ      $8, CX; \
	JMP       loop; \
one: \
	CMPQ      CX, $4; \
	JB        done; \
	VMOVUPD   (DI), Y0; \
	VCVTPS2PD (SI), Y2; \
	OP        Y2, Y0, Y0; \
	VCVTPS2PD (SI)(DX*1), Y2; \
	OP        Y2, Y0, Y0; \
	VCVTPS2PD (R8), Y2; \
	OP        Y2, Y0, Y0; \
	VCVTPS2PD (R8)(DX*1), Y2; \
	OP        Y2, Y0, Y0; \
	VMOVUPD   Y0, (DI); \
done: \
	VZEROUPPER; \
	RET

// func mulRows4F32AVX512(acc, x []float32, stride int)
TEXT ·mulRows4F32AVX512(SB), NOSPLIT, $0-56
	ROWS4_ARGS(2)
	ROWS4(VMOVUPS, VMULPS, 16)

// func mulRows4F64AVX512(acc, x []float64, stride int)
TEXT ·mulRows4F64AVX512(SB), NOSPLIT, $0-56
	ROWS4_ARGS(3)
	ROWS4(VMOVUPD, VMULPD, 8)

// func mulRows4F32F64AVX512(acc []float64, x []float32, stride int)
TEXT ·mulRows4F32F64AVX512(SB), NOSPLIT, $0-56
	ROWS4_ARGS(2)
	ROWS4WIDE(VMULPD)

// func addRows4F64AVX512(acc, x []float64, stride int)
TEXT ·addRows4F64AVX512(SB), NOSPLIT, $0-56
	ROWS4_ARGS(3)
	ROWS4(VMOVUPD, VADDPD, 8)

// func addRows4F32F64AVX512(acc []float64, x []float32, stride int)
TEXT ·addRows4F32F64AVX512(SB), NOSPLIT, $0-56
	ROWS4_ARGS(2)
	ROWS4WIDE(VADDPD)

// func mulRows4F32AVX2(acc, x []float32, stride int)
TEXT ·mulRows4F32AVX2(SB), NOSPLIT, $0-56
	ROWS4_ARGS(2)
	ROWS4_256(VMOVUPS, VMULPS, 8)

// func mulRows4F64AVX2(acc, x []float64, stride int)
TEXT ·mulRows4F64AVX2(SB), NOSPLIT, $0-56
	ROWS4_ARGS(3)
	ROWS4_256(VMOVUPD, VMULPD, 4)

// func addRows4F64AVX2(acc, x []float64, stride int)
TEXT ·addRows4F64AVX2(SB), NOSPLIT, $0-56
	ROWS4_ARGS(3)
	ROWS4_256(VMOVUPD, VADDPD, 4)

// func mulRows4F32F64AVX2(acc []float64, x []float32, stride int)
TEXT ·mulRows4F32F64AVX2(SB), NOSPLIT, $0-56
	ROWS4_ARGS(2)
	ROWS4WIDE_256(VMULPD)

// func addRows4F32F64AVX2(acc []float64, x []float32, stride int)
TEXT ·addRows4F32F64AVX2(SB), NOSPLIT, $0-56
	ROWS4_ARGS(2)
	ROWS4WIDE_256(VADDPD)

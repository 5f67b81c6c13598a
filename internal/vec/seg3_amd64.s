//go:build !purego

#include "textflag.h"

// Segments of three (see ProdSeg3F64): for each accumulator i,
// acc[i] = acc[i] op ((x[3i] op x[3i+2]) op x[3i+1]), vec's order for a
// run of three (element j in lane j, lanes folded pairwise) followed by
// the accumulator's own step. Rows of three are consecutive, so a block
// of rows is three vectors of x; two permutes gather each column of the
// block (the first from the first two vectors, the second fills the rest
// from the third), and the columns are combined with packed operations,
// every product rounded on its own as the Go twin's are.

// PREFETCH is reduce_amd64.s's distance (four pages ahead, its reason
// there).
#define PREFETCH 16384

// The permutes' indices: seg3psCa and seg3psCb gather column C of 16
// float32 rows of three (48 elements in three zmm) in two steps;
// seg3pdCa and seg3pdCb column C of 8 float64 rows.
DATA seg3ps0a<>+0(SB)/4, $0
DATA seg3ps0a<>+4(SB)/4, $3
DATA seg3ps0a<>+8(SB)/4, $6
DATA seg3ps0a<>+12(SB)/4, $9
DATA seg3ps0a<>+16(SB)/4, $12
DATA seg3ps0a<>+20(SB)/4, $15
DATA seg3ps0a<>+24(SB)/4, $18
DATA seg3ps0a<>+28(SB)/4, $21
DATA seg3ps0a<>+32(SB)/4, $24
DATA seg3ps0a<>+36(SB)/4, $27
DATA seg3ps0a<>+40(SB)/4, $30
DATA seg3ps0a<>+44(SB)/4, $0
DATA seg3ps0a<>+48(SB)/4, $0
DATA seg3ps0a<>+52(SB)/4, $0
DATA seg3ps0a<>+56(SB)/4, $0
DATA seg3ps0a<>+60(SB)/4, $0
GLOBL seg3ps0a<>(SB), RODATA|NOPTR, $64

DATA seg3ps0b<>+0(SB)/4, $0
DATA seg3ps0b<>+4(SB)/4, $1
DATA seg3ps0b<>+8(SB)/4, $2
DATA seg3ps0b<>+12(SB)/4, $3
DATA seg3ps0b<>+16(SB)/4, $4
DATA seg3ps0b<>+20(SB)/4, $5
DATA seg3ps0b<>+24(SB)/4, $6
DATA seg3ps0b<>+28(SB)/4, $7
DATA seg3ps0b<>+32(SB)/4, $8
DATA seg3ps0b<>+36(SB)/4, $9
DATA seg3ps0b<>+40(SB)/4, $10
DATA seg3ps0b<>+44(SB)/4, $17
DATA seg3ps0b<>+48(SB)/4, $20
DATA seg3ps0b<>+52(SB)/4, $23
DATA seg3ps0b<>+56(SB)/4, $26
DATA seg3ps0b<>+60(SB)/4, $29
GLOBL seg3ps0b<>(SB), RODATA|NOPTR, $64

DATA seg3ps1a<>+0(SB)/4, $1
DATA seg3ps1a<>+4(SB)/4, $4
DATA seg3ps1a<>+8(SB)/4, $7
DATA seg3ps1a<>+12(SB)/4, $10
DATA seg3ps1a<>+16(SB)/4, $13
DATA seg3ps1a<>+20(SB)/4, $16
DATA seg3ps1a<>+24(SB)/4, $19
DATA seg3ps1a<>+28(SB)/4, $22
DATA seg3ps1a<>+32(SB)/4, $25
DATA seg3ps1a<>+36(SB)/4, $28
DATA seg3ps1a<>+40(SB)/4, $31
DATA seg3ps1a<>+44(SB)/4, $0
DATA seg3ps1a<>+48(SB)/4, $0
DATA seg3ps1a<>+52(SB)/4, $0
DATA seg3ps1a<>+56(SB)/4, $0
DATA seg3ps1a<>+60(SB)/4, $0
GLOBL seg3ps1a<>(SB), RODATA|NOPTR, $64

DATA seg3ps1b<>+0(SB)/4, $0
DATA seg3ps1b<>+4(SB)/4, $1
DATA seg3ps1b<>+8(SB)/4, $2
DATA seg3ps1b<>+12(SB)/4, $3
DATA seg3ps1b<>+16(SB)/4, $4
DATA seg3ps1b<>+20(SB)/4, $5
DATA seg3ps1b<>+24(SB)/4, $6
DATA seg3ps1b<>+28(SB)/4, $7
DATA seg3ps1b<>+32(SB)/4, $8
DATA seg3ps1b<>+36(SB)/4, $9
DATA seg3ps1b<>+40(SB)/4, $10
DATA seg3ps1b<>+44(SB)/4, $18
DATA seg3ps1b<>+48(SB)/4, $21
DATA seg3ps1b<>+52(SB)/4, $24
DATA seg3ps1b<>+56(SB)/4, $27
DATA seg3ps1b<>+60(SB)/4, $30
GLOBL seg3ps1b<>(SB), RODATA|NOPTR, $64

DATA seg3ps2a<>+0(SB)/4, $2
DATA seg3ps2a<>+4(SB)/4, $5
DATA seg3ps2a<>+8(SB)/4, $8
DATA seg3ps2a<>+12(SB)/4, $11
DATA seg3ps2a<>+16(SB)/4, $14
DATA seg3ps2a<>+20(SB)/4, $17
DATA seg3ps2a<>+24(SB)/4, $20
DATA seg3ps2a<>+28(SB)/4, $23
DATA seg3ps2a<>+32(SB)/4, $26
DATA seg3ps2a<>+36(SB)/4, $29
DATA seg3ps2a<>+40(SB)/4, $0
DATA seg3ps2a<>+44(SB)/4, $0
DATA seg3ps2a<>+48(SB)/4, $0
DATA seg3ps2a<>+52(SB)/4, $0
DATA seg3ps2a<>+56(SB)/4, $0
DATA seg3ps2a<>+60(SB)/4, $0
GLOBL seg3ps2a<>(SB), RODATA|NOPTR, $64

DATA seg3ps2b<>+0(SB)/4, $0
DATA seg3ps2b<>+4(SB)/4, $1
DATA seg3ps2b<>+8(SB)/4, $2
DATA seg3ps2b<>+12(SB)/4, $3
DATA seg3ps2b<>+16(SB)/4, $4
DATA seg3ps2b<>+20(SB)/4, $5
DATA seg3ps2b<>+24(SB)/4, $6
DATA seg3ps2b<>+28(SB)/4, $7
DATA seg3ps2b<>+32(SB)/4, $8
DATA seg3ps2b<>+36(SB)/4, $9
DATA seg3ps2b<>+40(SB)/4, $16
DATA seg3ps2b<>+44(SB)/4, $19
DATA seg3ps2b<>+48(SB)/4, $22
DATA seg3ps2b<>+52(SB)/4, $25
DATA seg3ps2b<>+56(SB)/4, $28
DATA seg3ps2b<>+60(SB)/4, $31
GLOBL seg3ps2b<>(SB), RODATA|NOPTR, $64

DATA seg3pd0a<>+0(SB)/8, $0
DATA seg3pd0a<>+8(SB)/8, $3
DATA seg3pd0a<>+16(SB)/8, $6
DATA seg3pd0a<>+24(SB)/8, $9
DATA seg3pd0a<>+32(SB)/8, $12
DATA seg3pd0a<>+40(SB)/8, $15
DATA seg3pd0a<>+48(SB)/8, $0
DATA seg3pd0a<>+56(SB)/8, $0
GLOBL seg3pd0a<>(SB), RODATA|NOPTR, $64

DATA seg3pd0b<>+0(SB)/8, $0
DATA seg3pd0b<>+8(SB)/8, $1
DATA seg3pd0b<>+16(SB)/8, $2
DATA seg3pd0b<>+24(SB)/8, $3
DATA seg3pd0b<>+32(SB)/8, $4
DATA seg3pd0b<>+40(SB)/8, $5
DATA seg3pd0b<>+48(SB)/8, $10
DATA seg3pd0b<>+56(SB)/8, $13
GLOBL seg3pd0b<>(SB), RODATA|NOPTR, $64

DATA seg3pd1a<>+0(SB)/8, $1
DATA seg3pd1a<>+8(SB)/8, $4
DATA seg3pd1a<>+16(SB)/8, $7
DATA seg3pd1a<>+24(SB)/8, $10
DATA seg3pd1a<>+32(SB)/8, $13
DATA seg3pd1a<>+40(SB)/8, $0
DATA seg3pd1a<>+48(SB)/8, $0
DATA seg3pd1a<>+56(SB)/8, $0
GLOBL seg3pd1a<>(SB), RODATA|NOPTR, $64

DATA seg3pd1b<>+0(SB)/8, $0
DATA seg3pd1b<>+8(SB)/8, $1
DATA seg3pd1b<>+16(SB)/8, $2
DATA seg3pd1b<>+24(SB)/8, $3
DATA seg3pd1b<>+32(SB)/8, $4
DATA seg3pd1b<>+40(SB)/8, $8
DATA seg3pd1b<>+48(SB)/8, $11
DATA seg3pd1b<>+56(SB)/8, $14
GLOBL seg3pd1b<>(SB), RODATA|NOPTR, $64

DATA seg3pd2a<>+0(SB)/8, $2
DATA seg3pd2a<>+8(SB)/8, $5
DATA seg3pd2a<>+16(SB)/8, $8
DATA seg3pd2a<>+24(SB)/8, $11
DATA seg3pd2a<>+32(SB)/8, $14
DATA seg3pd2a<>+40(SB)/8, $0
DATA seg3pd2a<>+48(SB)/8, $0
DATA seg3pd2a<>+56(SB)/8, $0
GLOBL seg3pd2a<>(SB), RODATA|NOPTR, $64

DATA seg3pd2b<>+0(SB)/8, $0
DATA seg3pd2b<>+8(SB)/8, $1
DATA seg3pd2b<>+16(SB)/8, $2
DATA seg3pd2b<>+24(SB)/8, $3
DATA seg3pd2b<>+32(SB)/8, $4
DATA seg3pd2b<>+40(SB)/8, $9
DATA seg3pd2b<>+48(SB)/8, $12
DATA seg3pd2b<>+56(SB)/8, $15
GLOBL seg3pd2b<>(SB), RODATA|NOPTR, $64

// GATHER gathers a column of three vectors X0, X1, X2 into D, with the
// index vectors IA and IB.
#define GATHER(VPERM, X0, X1, X2, IA, IB, D) \
	VMOVDQA64 X0, D; \
	VPERM     X1, IA, D; \
	VPERM     X2, IB, D

// SEG3PS is the float32 body: 16 rows a step, each column widened to two
// zmm of float64, while 16 rows remain; the Go twin takes the rest.
#define SEG3PS(OP) \
	MOVQ      acc_base+0(FP), DI; \
	MOVQ      acc_len+8(FP), CX; \
	MOVQ      x_base+24(FP), SI; \
	VMOVDQU64 seg3ps0a<>(SB), Z20; \
	VMOVDQU64 seg3ps0b<>(SB), Z21; \
	VMOVDQU64 seg3ps1a<>(SB), Z22; \
	VMOVDQU64 seg3ps1b<>(SB), Z23; \
	VMOVDQU64 seg3ps2a<>(SB), Z24; \
	VMOVDQU64 seg3ps2b<>(SB), Z25; \
	SHRQ      $4, CX; \
	JZ        done; \
loop: \
	PREFETCHT0    PREFETCH(SI); \
	PREFETCHT0    (PREFETCH+64)(SI); \
	PREFETCHT0    (PREFETCH+128)(SI); \
	VMOVUPS       (SI), Z0; \
	VMOVUPS       64(SI), Z1; \
	VMOVUPS       128(SI), Z2; \
	GATHER(VPERMT2PS, Z0, Z1, Z2, Z20, Z21, Z3); \
	GATHER(VPERMT2PS, Z0, Z1, Z2, Z22, Z23, Z4); \
	GATHER(VPERMT2PS, Z0, Z1, Z2, Z24, Z25, Z5); \
	VCVTPS2PD     Y3, Z6; \
	VCVTPS2PD     Y4, Z7; \
	VCVTPS2PD     Y5, Z8; \
	VEXTRACTF64X4 $1, Z3, Y3; \
	VEXTRACTF64X4 $1, Z4, Y4; \
	VEXTRACTF64X4 $1, Z5, Y5; \
	VCVTPS2PD     Y3, Z9; \
	VCVTPS2PD     Y4, Z10; \
	VCVTPS2PD     Y5, Z11; \
	OP            Z8, Z6, Z6; \
	OP            Z11, Z9, Z9; \
	OP            Z7, Z6, Z6; \
	OP            Z10, Z9, Z9; \
	VMOVUPD       (DI), Z12; \
	VMOVUPD       64(DI), Z13; \
	OP            Z6, Z12, Z12; \
	OP            Z9, Z13, Z13; \
	VMOVUPD       Z12, (DI); \
	VMOVUPD       Z13, 64(DI); \
	ADDQ          $192, SI; \
	ADDQ          $128, DI; \
	DECQ          CX; \
	JNZ           loop; \
done: \
	VZEROUPPER; \
	RET

// SEG3PD is the float64 body: 8 rows a step while 8 remain.
#define SEG3PD(OP) \
	MOVQ      acc_base+0(FP), DI; \
	MOVQ      acc_len+8(FP), CX; \
	MOVQ      x_base+24(FP), SI; \
	VMOVDQU64 seg3pd0a<>(SB), Z20; \
	VMOVDQU64 seg3pd0b<>(SB), Z21; \
	VMOVDQU64 seg3pd1a<>(SB), Z22; \
	VMOVDQU64 seg3pd1b<>(SB), Z23; \
	VMOVDQU64 seg3pd2a<>(SB), Z24; \
	VMOVDQU64 seg3pd2b<>(SB), Z25; \
	SHRQ      $3, CX; \
	JZ        done; \
loop: \
	PREFETCHT0 PREFETCH(SI); \
	PREFETCHT0 (PREFETCH+64)(SI); \
	PREFETCHT0 (PREFETCH+128)(SI); \
	VMOVUPD    (SI), Z0; \
	VMOVUPD    64(SI), Z1; \
	VMOVUPD    128(SI), Z2; \
	GATHER(VPERMT2PD, Z0, Z1, Z2, Z20, Z21, Z3); \
	GATHER(VPERMT2PD, Z0, Z1, Z2, Z22, Z23, Z4); \
	GATHER(VPERMT2PD, Z0, Z1, Z2, Z24, Z25, Z5); \
	OP         Z5, Z3, Z3; \
	OP         Z4, Z3, Z3; \
	VMOVUPD    (DI), Z12; \
	OP         Z3, Z12, Z12; \
	VMOVUPD    Z12, (DI); \
	ADDQ       $192, SI; \
	ADDQ       $64, DI; \
	DECQ       CX; \
	JNZ        loop; \
done: \
	VZEROUPPER; \
	RET

// func prodSeg3F32AVX512(acc []float64, x []float32)
TEXT ·prodSeg3F32AVX512(SB), NOSPLIT, $0-48
	SEG3PS(VMULPD)

// func sumSeg3F32AVX512(acc []float64, x []float32)
TEXT ·sumSeg3F32AVX512(SB), NOSPLIT, $0-48
	SEG3PS(VADDPD)

// func prodSeg3F64AVX512(acc, x []float64)
TEXT ·prodSeg3F64AVX512(SB), NOSPLIT, $0-48
	SEG3PD(VMULPD)

// func sumSeg3F64AVX512(acc, x []float64)
TEXT ·sumSeg3F64AVX512(SB), NOSPLIT, $0-48
	SEG3PD(VADDPD)

// SEG3_256 is the AVX2 body: four rows a step, three vectors of four
// float64 (LD loads or widens four elements, VB bytes of them):
//
//	Y0 = a0 a1 | a2 b0   Y1 = b1 b2 | c0 c1   Y2 = c2 d0 | d1 d2
//	U  = a0 a1 | c0 c1 (blend)   V = a2 b0 | c2 d0 (lane permute)   W = b1 b2 | d1 d2 (blend)
//	column 0 = a0 b0 | c0 d0 = shuffle(U, V), column 1 = shuffle(U, W), column 2 = shuffle(V, W)
//
// one cross-lane permute per step, the rest in-lane.
#define SEG3_256(LD, VB, OP) \
	MOVQ acc_base+0(FP), DI; \
	MOVQ acc_len+8(FP), CX; \
	MOVQ x_base+24(FP), SI; \
	SHRQ $2, CX; \
	JZ   done; \
loop: \
	PREFETCHT0 PREFETCH(SI); \
	LD((SI), Y0); \
	LD(VB(SI), Y1); \
	LD((2*VB)(SI), Y2); \
	VBLENDPD   $0x0c, Y1, Y0, Y3; \
	VPERM2F128 $0x21, Y2, Y0, Y4; \
	VBLENDPD   $0x0c, Y2, Y1, Y5; \
	VSHUFPD    $0x0a, Y4, Y3, Y6; \
	VSHUFPD    $0x05, Y5, Y3, Y7; \
	VSHUFPD    $0x0a, Y5, Y4, Y8; \
	OP         Y8, Y6, Y6; \
	OP         Y7, Y6, Y6; \
	VMOVUPD    (DI), Y9; \
	OP         Y6, Y9, Y9; \
	VMOVUPD    Y9, (DI); \
	ADDQ       $(3*VB), SI; \
	ADDQ       $32, DI; \
	DECQ       CX; \
	JNZ        loop; \
done: \
	VZEROUPPER; \
	RET

#define LDPD256(m, y) VMOVUPD m, y
#define LDPS2PD256(m, y) VCVTPS2PD m, y

// func prodSeg3F32AVX2(acc []float64, x []float32)
TEXT ·prodSeg3F32AVX2(SB), NOSPLIT, $0-48
	SEG3_256(LDPS2PD256, 16, VMULPD)

// func sumSeg3F32AVX2(acc []float64, x []float32)
TEXT ·sumSeg3F32AVX2(SB), NOSPLIT, $0-48
	SEG3_256(LDPS2PD256, 16, VADDPD)

// func prodSeg3F64AVX2(acc, x []float64)
TEXT ·prodSeg3F64AVX2(SB), NOSPLIT, $0-48
	SEG3_256(LDPD256, 32, VMULPD)

// func sumSeg3F64AVX2(acc, x []float64)
TEXT ·sumSeg3F64AVX2(SB), NOSPLIT, $0-48
	SEG3_256(LDPD256, 32, VADDPD)

//go:build !purego

#include "textflag.h"

// Element-wise binary kernels (multiply and add). Every kernel loads its
// pointers and element count into DI (dst), SI (a), DX (b) and CX (n), then
// expands a loop skeleton around a per-vector STEP macro: STEP(OP, i)
// handles vector i past the current pointers with the instruction OP
// (VMULPS for a float32 multiply, VADDPS for an add, and so on), so one
// skeleton and one step per layout serve every operation.
// The AVX-512 kernels finish with one masked vector (K1 holds the low n bits),
// so they handle every length; the AVX2 kernels stop at the last full vector
// and leave the rest to the Go twin.

// LOOP512 runs STEP four vectors at a time, then one at a time, then MSTEP
// once with K1 masking the remaining lanes, then FIN, passing OP to both.
// L is lanes per vector;
// DB, AB and BB are the bytes per vector of dst, a and b.
#define LOOP512(STEP, MSTEP, OP, L, DB, AB, BB, FIN) \
	CMPQ  CX, $(4*L); \
	JB    one; \
four: \
	STEP(OP, 0); \
	STEP(OP, 1); \
	STEP(OP, 2); \
	STEP(OP, 3); \
	ADDQ  $(4*DB), DI; \
	ADDQ  $(4*AB), SI; \
	ADDQ  $(4*BB), DX; \
	SUBQ  $(4*L), CX; \
	CMPQ  CX, $(4*L); \
	JAE   four; \
one: \
	CMPQ  CX, $L; \
	JB    tail; \
	STEP(OP, 0); \
	ADDQ  $DB, DI; \
	ADDQ  $AB, SI; \
	ADDQ  $BB, DX; \
	SUBQ  $L, CX; \
	JMP   one; \
tail: \
	TESTQ CX, CX; \
	JZ    done; \
	MOVQ  $1, AX; \
	SHLQ  CX, AX; \
	DECQ  AX; \
	KMOVQ AX, K1; \
	MSTEP(OP); \
done: \
	FIN; \
	VZEROUPPER; \
	RET

// LOOP256 runs STEP four vectors at a time, then one at a time, leaves
// fewer than L elements undone, then FIN.
#define LOOP256(STEP, OP, L, DB, AB, BB, FIN) \
	CMPQ CX, $(4*L); \
	JB   one; \
four: \
	STEP(OP, 0); \
	STEP(OP, 1); \
	STEP(OP, 2); \
	STEP(OP, 3); \
	ADDQ $(4*DB), DI; \
	ADDQ $(4*AB), SI; \
	ADDQ $(4*BB), DX; \
	SUBQ $(4*L), CX; \
	CMPQ CX, $(4*L); \
	JAE  four; \
one: \
	CMPQ CX, $L; \
	JB   done; \
	STEP(OP, 0); \
	ADDQ $DB, DI; \
	ADDQ $AB, SI; \
	ADDQ $BB, DX; \
	SUBQ $L, CX; \
	JMP  one; \
done: \
	FIN; \
	VZEROUPPER; \
	RET

// NOFENCE ends a kernel whose stores are ordinary; STREAMED kernels end
// without a fence too: their callers fence once after their last
// streaming call (fenceStores, vec.FenceStreaming), since an SFENCE per
// call waits for each run to reach memory before the next is computed (a
// walk of rows of 4 KiB into a 16 MiB output, Zen 5: 1.2-1.4x the CPU of
// ordinary stores fenced per row, 0.7x fenced once).
#define NOFENCE
#define STREAMED

// BINARY and SCALAR load the arguments of func(dst, a, b []T) and
// func(dst, a []T, s S); the scalar kernels broadcast s themselves.
#define BINARY \
	MOVQ dst_base+0(FP), DI; \
	MOVQ dst_len+8(FP), CX; \
	MOVQ a_base+24(FP), SI; \
	MOVQ b_base+48(FP), DX

#define SCALAR \
	MOVQ dst_base+0(FP), DI; \
	MOVQ dst_len+8(FP), CX; \
	MOVQ a_base+24(FP), SI

// ---- AVX-512: same-type operations, one instruction per vector ----

// Z7 holds the broadcast scalar in the scalar kernels. The scalar steps
// compute OP(a, s) with s as the first source; every operation here
// commutes, so the order is only a convention.
#define F32V(OP, i) VMOVUPS (i*64)(SI), Z0; OP (i*64)(DX), Z0, Z0; VMOVUPS Z0, (i*64)(DI)
#define F32M(OP) VMOVUPS.Z (SI), K1, Z0; OP.Z (DX), Z0, K1, Z0; VMOVUPS Z0, K1, (DI)
#define F32S(OP, i) OP (i*64)(SI), Z7, Z0; VMOVUPS Z0, (i*64)(DI)
#define F32SM(OP) OP.Z (SI), Z7, K1, Z0; VMOVUPS Z0, K1, (DI)

#define F64V(OP, i) VMOVUPD (i*64)(SI), Z0; OP (i*64)(DX), Z0, Z0; VMOVUPD Z0, (i*64)(DI)
#define F64M(OP) VMOVUPD.Z (SI), K1, Z0; OP.Z (DX), Z0, K1, Z0; VMOVUPD Z0, K1, (DI)
#define F64S(OP, i) OP (i*64)(SI), Z7, Z0; VMOVUPD Z0, (i*64)(DI)
#define F64SM(OP) OP.Z (SI), Z7, K1, Z0; VMOVUPD Z0, K1, (DI)

// Byte and word operations have no masked memory form of every
// instruction: their tails load both operands masked first.
#define I8V(OP, i) VMOVDQU8 (i*64)(SI), Z0; OP (i*64)(DX), Z0, Z0; VMOVDQU8 Z0, (i*64)(DI)
#define I8M(OP) VMOVDQU8.Z (SI), K1, Z0; VMOVDQU8.Z (DX), K1, Z1; OP Z1, Z0, Z0; VMOVDQU8 Z0, K1, (DI)
#define I8S(OP, i) OP (i*64)(SI), Z7, Z0; VMOVDQU8 Z0, (i*64)(DI)
#define I8SM(OP) VMOVDQU8.Z (SI), K1, Z0; OP Z7, Z0, Z0; VMOVDQU8 Z0, K1, (DI)

#define I16V(OP, i) VMOVDQU16 (i*64)(SI), Z0; OP (i*64)(DX), Z0, Z0; VMOVDQU16 Z0, (i*64)(DI)
#define I16M(OP) VMOVDQU16.Z (SI), K1, Z0; VMOVDQU16.Z (DX), K1, Z1; OP Z1, Z0, Z0; VMOVDQU16 Z0, K1, (DI)
#define I16S(OP, i) OP (i*64)(SI), Z7, Z0; VMOVDQU16 Z0, (i*64)(DI)
#define I16SM(OP) VMOVDQU16.Z (SI), K1, Z0; OP Z7, Z0, Z0; VMOVDQU16 Z0, K1, (DI)

#define I32V(OP, i) VMOVDQU32 (i*64)(SI), Z0; OP (i*64)(DX), Z0, Z0; VMOVDQU32 Z0, (i*64)(DI)
#define I32M(OP) VMOVDQU32.Z (SI), K1, Z0; OP.Z (DX), Z0, K1, Z0; VMOVDQU32 Z0, K1, (DI)
#define I32S(OP, i) OP (i*64)(SI), Z7, Z0; VMOVDQU32 Z0, (i*64)(DI)
#define I32SM(OP) OP.Z (SI), Z7, K1, Z0; VMOVDQU32 Z0, K1, (DI)

#define I64V(OP, i) VMOVDQU64 (i*64)(SI), Z0; OP (i*64)(DX), Z0, Z0; VMOVDQU64 Z0, (i*64)(DI)
#define I64M(OP) VMOVDQU64.Z (SI), K1, Z0; OP.Z (DX), Z0, K1, Z0; VMOVDQU64 Z0, K1, (DI)
#define I64S(OP, i) OP (i*64)(SI), Z7, Z0; VMOVDQU64 Z0, (i*64)(DI)
#define I64SM(OP) OP.Z (SI), Z7, K1, Z0; VMOVDQU64 Z0, K1, (DI)

// ---- AVX-512: the int8 multiply, which has no byte instruction ----

// I8MUL512 multiplies the bytes of Z0 by those of b (its odd bytes alone,
// kept in place, in bodd) into Z0. A word multiply leaves the even byte's
// product in its low byte; shifting a's odd byte down and multiplying by
// b's odd byte kept high leaves the odd product in the high byte. Z8 holds
// 0x00ff and Z9 0xff00 in every word. The steps take OP (VPMULLW) for the
// skeleton's sake only.
#define I8MUL512(b, bodd) \
	VPMULLW b, Z0, Z2; \
	VPSRLW  $8, Z0, Z3; \
	VPMULLW bodd, Z3, Z3; \
	VPANDQ  Z8, Z2, Z2; \
	VPORQ   Z3, Z2, Z0

#define I8MULV(OP, i) VMOVDQU8 (i*64)(SI), Z0; VMOVDQU8 (i*64)(DX), Z1; VPANDQ Z9, Z1, Z4; I8MUL512(Z1, Z4); VMOVDQU8 Z0, (i*64)(DI)
#define I8MULM(OP) VMOVDQU8.Z (SI), K1, Z0; VMOVDQU8.Z (DX), K1, Z1; VPANDQ Z9, Z1, Z4; I8MUL512(Z1, Z4); VMOVDQU8 Z0, K1, (DI)
#define I8MULS(OP, i) VMOVDQU8 (i*64)(SI), Z0; I8MUL512(Z7, Z6); VMOVDQU8 Z0, (i*64)(DI)
#define I8MULSM(OP) VMOVDQU8.Z (SI), K1, Z0; I8MUL512(Z7, Z6); VMOVDQU8 Z0, K1, (DI)

#define BYTEMASKS512 \
	MOVL         $0x00ff00ff, AX; \
	VPBROADCASTD AX, Z8; \
	MOVL         $0xff00ff00, AX; \
	VPBROADCASTD AX, Z9

// ---- AVX-512: conversions around a float32 operation ----

#define F32I32V(OP, i) VCVTDQ2PS (i*64)(DX), Z1; OP (i*64)(SI), Z1, Z0; VMOVUPS Z0, (i*64)(DI)
#define F32I32M(OP) VCVTDQ2PS.Z (DX), K1, Z1; OP.Z (SI), Z1, K1, Z0; VMOVUPS Z0, K1, (DI)

// Eight float32 (32 bytes) widen exactly to one zmm of float64.
#define F64F32V(OP, i) VCVTPS2PD (i*32)(DX), Z1; OP (i*64)(SI), Z1, Z0; VMOVUPD Z0, (i*64)(DI)
#define F64F32M(OP) VCVTPS2PD.Z (DX), K1, Z1; OP.Z (SI), Z1, K1, Z0; VMOVUPD Z0, K1, (DI)

// Sixteen halves (32 bytes) widen to one zmm of float32. VCVTPS2PH with
// immediate 0 rounds to nearest even whatever MXCSR says.
#define F16V(OP, i) VCVTPH2PS (i*32)(SI), Z0; VCVTPH2PS (i*32)(DX), Z1; OP Z1, Z0, Z0; VCVTPS2PH $0, Z0, (i*32)(DI)
#define F16M(OP) VCVTPH2PS.Z (SI), K1, Z0; VCVTPH2PS.Z (DX), K1, Z1; OP Z1, Z0, Z0; VCVTPS2PH $0, Z0, K1, (DI)
#define F16S(OP, i) VCVTPH2PS (i*32)(SI), Z0; OP Z7, Z0, Z0; VCVTPS2PH $0, Z0, (i*32)(DI)
#define F16SM(OP) VCVTPH2PS.Z (SI), K1, Z0; OP Z7, Z0, Z0; VCVTPS2PH $0, Z0, K1, (DI)

// BF16ROUND512 rounds the float32 lanes of Z0 to bfloat16 in the low half
// of each lane, as f32ToBF16 does: add 0x7fff plus the lowest kept bit and
// shift, except NaN lanes (K2), which keep their upper half with the quiet
// bit set. Z28 holds 0x7fff, Z29 1 and Z30 0x40 in every lane.
#define BF16ROUND512 \
	VCMPPS  $3, Z0, Z0, K2; \
	VPSRLD  $16, Z0, Z2; \
	VPANDD  Z29, Z2, Z3; \
	VPADDD  Z28, Z0, Z0; \
	VPADDD  Z3, Z0, Z0; \
	VPSRLD  $16, Z0, Z0; \
	VPORD   Z30, Z2, K2, Z0

#define BF16CONST512 \
	MOVL         $0x7fff, AX; \
	VPBROADCASTD AX, Z28; \
	MOVL         $1, AX; \
	VPBROADCASTD AX, Z29; \
	MOVL         $0x40, AX; \
	VPBROADCASTD AX, Z30

// bfloat16 is the upper half of float32: zero-extend and shift up to widen.
#define BF16LD512(m, z) VPMOVZXWD m, z; VPSLLD $16, z, z
#define BF16LDM512(m, z) VPMOVZXWD.Z m, K1, z; VPSLLD $16, z, z

#define BF16V(OP, i) BF16LD512((i*32)(SI), Z0); BF16LD512((i*32)(DX), Z1); OP Z1, Z0, Z0; BF16ROUND512; VPMOVDW Z0, (i*32)(DI)
#define BF16M(OP) BF16LDM512((SI), Z0); BF16LDM512((DX), Z1); OP Z1, Z0, Z0; BF16ROUND512; VPMOVDW Z0, K1, (DI)
#define BF16S(OP, i) BF16LD512((i*32)(SI), Z0); OP Z7, Z0, Z0; BF16ROUND512; VPMOVDW Z0, (i*32)(DI)
#define BF16SM(OP) BF16LDM512((SI), Z0); OP Z7, Z0, Z0; BF16ROUND512; VPMOVDW Z0, K1, (DI)

// ---- AVX2: same-type operations ----

// Y7 holds the broadcast scalar in the scalar kernels.
#define F32V2(OP, i) VMOVUPS (i*32)(SI), Y0; OP (i*32)(DX), Y0, Y0; VMOVUPS Y0, (i*32)(DI)
#define F32S2(OP, i) OP (i*32)(SI), Y7, Y0; VMOVUPS Y0, (i*32)(DI)
#define F64V2(OP, i) VMOVUPD (i*32)(SI), Y0; OP (i*32)(DX), Y0, Y0; VMOVUPD Y0, (i*32)(DI)
#define F64S2(OP, i) OP (i*32)(SI), Y7, Y0; VMOVUPD Y0, (i*32)(DI)
#define INTV2(OP, i) VMOVDQU (i*32)(SI), Y0; OP (i*32)(DX), Y0, Y0; VMOVDQU Y0, (i*32)(DI)
#define INTS2(OP, i) OP (i*32)(SI), Y7, Y0; VMOVDQU Y0, (i*32)(DI)

// ---- AVX2: the int8 multiply, as I8MUL512 with Y8 = 0x00ff and Y9 =
// 0xff00 per word ----

#define I8MUL256(b, bodd) \
	VPMULLW b, Y0, Y2; \
	VPSRLW  $8, Y0, Y3; \
	VPMULLW bodd, Y3, Y3; \
	VPAND   Y8, Y2, Y2; \
	VPOR    Y3, Y2, Y0

#define I8MULV2(OP, i) VMOVDQU (i*32)(SI), Y0; VMOVDQU (i*32)(DX), Y1; VPAND Y9, Y1, Y4; I8MUL256(Y1, Y4); VMOVDQU Y0, (i*32)(DI)
#define I8MULS2(OP, i) VMOVDQU (i*32)(SI), Y0; I8MUL256(Y7, Y6); VMOVDQU Y0, (i*32)(DI)

#define BYTEMASKS256 \
	MOVL         $0x00ff00ff, AX; \
	MOVQ         AX, X8; \
	VPBROADCASTD X8, Y8; \
	VPSLLW       $8, Y8, Y9

// ---- AVX2 + F16C: conversions around a float32 operation ----

#define F32I32V2(OP, i) VCVTDQ2PS (i*32)(DX), Y1; OP (i*32)(SI), Y1, Y0; VMOVUPS Y0, (i*32)(DI)

#define F64F32V2(OP, i) VCVTPS2PD (i*16)(DX), Y1; OP (i*32)(SI), Y1, Y0; VMOVUPD Y0, (i*32)(DI)

#define F16V2(OP, i) VCVTPH2PS (i*16)(SI), Y0; VCVTPH2PS (i*16)(DX), Y1; OP Y1, Y0, Y0; VCVTPS2PH $0, Y0, (i*16)(DI)
#define F16S2(OP, i) VCVTPH2PS (i*16)(SI), Y0; OP Y7, Y0, Y0; VCVTPS2PH $0, Y0, (i*16)(DI)

// The AVX2 bfloat16 kernels take 16 elements per 256-bit load, without
// shuffles: a double word holds two bfloat16, so shifting it up by 16
// gives the even element as a float32 and masking its low half the odd
// one; both are computed and rounded in place, and the rounded halves are
// merged back into double words. (Widening through VPMOVZXWD and narrowing
// through VPACKUSDW cost four shuffle-port operations per eight elements.)
//
// BF16RNDW256 rounds the float32 lanes of f to bfloat16 in their upper
// halves, as f32ToBF16 does: add 0x7fff plus the lowest kept bit, except
// NaN lanes, which keep their upper half with the quiet bit set. Y12 holds
// 0x7fff, Y13 1, Y14 0x00400000 and Y15 0xffff0000 in every lane.
#define BF16RNDW256(f) \
	VCMPPS    $3, f, f, Y4; \
	VPSRLD    $16, f, Y2; \
	VPAND     Y13, Y2, Y2; \
	VPOR      Y14, f, Y3; \
	VPADDD    Y12, f, f; \
	VPADDD    Y2, f, f; \
	VPBLENDVB Y4, Y3, f, f

#define BF16CONST256 \
	MOVL         $0x7fff, AX; \
	MOVQ         AX, X12; \
	VPBROADCASTD X12, Y12; \
	MOVL         $1, AX; \
	MOVQ         AX, X13; \
	VPBROADCASTD X13, Y13; \
	MOVL         $0x400000, AX; \
	MOVQ         AX, X14; \
	VPBROADCASTD X14, Y14; \
	MOVL         $0xffff0000, AX; \
	MOVQ         AX, X15; \
	VPBROADCASTD X15, Y15

// BF16MERGE256 packs the rounded even lanes (Y8) and odd lanes (Y0) into Y0.
#define BF16MERGE256 VPSRLD $16, Y8, Y8; VPAND Y15, Y0, Y0; VPOR Y8, Y0, Y0

#define BF16V2(OP, i) \
	VMOVDQU (i*32)(SI), Y0; VMOVDQU (i*32)(DX), Y1; \
	VPSLLD $16, Y0, Y8; VPSLLD $16, Y1, Y9; VPAND Y15, Y0, Y0; VPAND Y15, Y1, Y1; \
	OP Y9, Y8, Y8; OP Y1, Y0, Y0; \
	BF16RNDW256(Y8); BF16RNDW256(Y0); BF16MERGE256; \
	VMOVDQU Y0, (i*32)(DI)
#define BF16S2(OP, i) \
	VMOVDQU (i*32)(SI), Y0; \
	VPSLLD $16, Y0, Y8; VPAND Y15, Y0, Y0; \
	OP Y7, Y8, Y8; OP Y7, Y0, Y0; \
	BF16RNDW256(Y8); BF16RNDW256(Y0); BF16MERGE256; \
	VMOVDQU Y0, (i*32)(DI)

// ---- AVX-512, streaming: non-temporal stores for outputs far larger than
// cache, which save the read-for-ownership of every dst line. dst must be
// 64-byte aligned (the Go side peels the head); the masked tail uses an
// ordinary store, there being no masked non-temporal one. ----

#define F32VNT(OP, i) VMOVUPS (i*64)(SI), Z0; OP (i*64)(DX), Z0, Z0; VMOVNTPS Z0, (i*64)(DI)
#define F32SNT(OP, i) OP (i*64)(SI), Z7, Z0; VMOVNTPS Z0, (i*64)(DI)
#define F64VNT(OP, i) VMOVUPD (i*64)(SI), Z0; OP (i*64)(DX), Z0, Z0; VMOVNTPD Z0, (i*64)(DI)
#define F64SNT(OP, i) OP (i*64)(SI), Z7, Z0; VMOVNTPD Z0, (i*64)(DI)
#define I8VNT(OP, i) VMOVDQU8 (i*64)(SI), Z0; OP (i*64)(DX), Z0, Z0; VMOVNTDQ Z0, (i*64)(DI)
#define I16VNT(OP, i) VMOVDQU16 (i*64)(SI), Z0; OP (i*64)(DX), Z0, Z0; VMOVNTDQ Z0, (i*64)(DI)
#define I32VNT(OP, i) VMOVDQU32 (i*64)(SI), Z0; OP (i*64)(DX), Z0, Z0; VMOVNTDQ Z0, (i*64)(DI)
#define I32SNT(OP, i) OP (i*64)(SI), Z7, Z0; VMOVNTDQ Z0, (i*64)(DI)
#define I64VNT(OP, i) VMOVDQU64 (i*64)(SI), Z0; OP (i*64)(DX), Z0, Z0; VMOVNTDQ Z0, (i*64)(DI)
#define I8MULVNT(OP, i) VMOVDQU8 (i*64)(SI), Z0; VMOVDQU8 (i*64)(DX), Z1; VPANDQ Z9, Z1, Z4; I8MUL512(Z1, Z4); VMOVNTDQ Z0, (i*64)(DI)
#define F32I32VNT(OP, i) VCVTDQ2PS (i*64)(DX), Z1; OP (i*64)(SI), Z1, Z0; VMOVNTPS Z0, (i*64)(DI)

// AVX2, streaming: as the AVX-512 streaming steps, with ymm non-temporal
// stores (dst 64-byte aligned, so every ymm store is aligned); the Go twin
// finishes the last partial vector with ordinary stores.
#define F32V2NT(OP, i) VMOVUPS (i*32)(SI), Y0; OP (i*32)(DX), Y0, Y0; VMOVNTPS Y0, (i*32)(DI)
#define F32S2NT(OP, i) OP (i*32)(SI), Y7, Y0; VMOVNTPS Y0, (i*32)(DI)
#define F64V2NT(OP, i) VMOVUPD (i*32)(SI), Y0; OP (i*32)(DX), Y0, Y0; VMOVNTPD Y0, (i*32)(DI)
#define F64S2NT(OP, i) OP (i*32)(SI), Y7, Y0; VMOVNTPD Y0, (i*32)(DI)
#define INTV2NT(OP, i) VMOVDQU (i*32)(SI), Y0; OP (i*32)(DX), Y0, Y0; VMOVNTDQ Y0, (i*32)(DI)
#define INTS2NT(OP, i) OP (i*32)(SI), Y7, Y0; VMOVNTDQ Y0, (i*32)(DI)
#define I8MULV2NT(OP, i) VMOVDQU (i*32)(SI), Y0; VMOVDQU (i*32)(DX), Y1; VPAND Y9, Y1, Y4; I8MUL256(Y1, Y4); VMOVNTDQ Y0, (i*32)(DI)
#define F32I32V2NT(OP, i) VCVTDQ2PS (i*32)(DX), Y1; OP (i*32)(SI), Y1, Y0; VMOVNTPS Y0, (i*32)(DI)

// ---- Multiply, AVX-512 ----

// func mulF32AVX512(dst, a, b []float32)
TEXT ·mulF32AVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(F32V, F32M, VMULPS, 16, 64, 64, 64, NOFENCE)

// func mulScalarF32AVX512(dst, a []float32, s float32)
TEXT ·mulScalarF32AVX512(SB), NOSPLIT, $0-52
	SCALAR
	VBROADCASTSS s+48(FP), Z7
	LOOP512(F32S, F32SM, VMULPS, 16, 64, 64, 0, NOFENCE)

// func mulF64AVX512(dst, a, b []float64)
TEXT ·mulF64AVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(F64V, F64M, VMULPD, 8, 64, 64, 64, NOFENCE)

// func mulScalarF64AVX512(dst, a []float64, s float64)
TEXT ·mulScalarF64AVX512(SB), NOSPLIT, $0-56
	SCALAR
	VBROADCASTSD s+48(FP), Z7
	LOOP512(F64S, F64SM, VMULPD, 8, 64, 64, 0, NOFENCE)

// func mulI8AVX512(dst, a, b []int8)
TEXT ·mulI8AVX512(SB), NOSPLIT, $0-72
	BINARY
	BYTEMASKS512
	LOOP512(I8MULV, I8MULM, VPMULLW, 64, 64, 64, 64, NOFENCE)

// func mulScalarI8AVX512(dst, a []int8, s int8)
TEXT ·mulScalarI8AVX512(SB), NOSPLIT, $0-49
	SCALAR
	BYTEMASKS512
	VPBROADCASTB s+48(FP), Z7
	VPANDQ Z9, Z7, Z6
	LOOP512(I8MULS, I8MULSM, VPMULLW, 64, 64, 64, 0, NOFENCE)

// func mulI16AVX512(dst, a, b []int16)
TEXT ·mulI16AVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(I16V, I16M, VPMULLW, 32, 64, 64, 64, NOFENCE)

// func mulScalarI16AVX512(dst, a []int16, s int16)
TEXT ·mulScalarI16AVX512(SB), NOSPLIT, $0-50
	SCALAR
	VPBROADCASTW s+48(FP), Z7
	LOOP512(I16S, I16SM, VPMULLW, 32, 64, 64, 0, NOFENCE)

// func mulI32AVX512(dst, a, b []int32)
TEXT ·mulI32AVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(I32V, I32M, VPMULLD, 16, 64, 64, 64, NOFENCE)

// func mulScalarI32AVX512(dst, a []int32, s int32)
TEXT ·mulScalarI32AVX512(SB), NOSPLIT, $0-52
	SCALAR
	MOVL s+48(FP), AX
	VPBROADCASTD AX, Z7
	LOOP512(I32S, I32SM, VPMULLD, 16, 64, 64, 0, NOFENCE)

// func mulI64AVX512(dst, a, b []int64)
TEXT ·mulI64AVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(I64V, I64M, VPMULLQ, 8, 64, 64, 64, NOFENCE)

// func mulScalarI64AVX512(dst, a []int64, s int64)
TEXT ·mulScalarI64AVX512(SB), NOSPLIT, $0-56
	SCALAR
	VPBROADCASTQ s+48(FP), Z7
	LOOP512(I64S, I64SM, VPMULLQ, 8, 64, 64, 0, NOFENCE)

// func mulF32I32AVX512(dst, a []float32, b []int32)
TEXT ·mulF32I32AVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(F32I32V, F32I32M, VMULPS, 16, 64, 64, 64, NOFENCE)

// func mulF64F32AVX512(dst, a []float64, b []float32)
TEXT ·mulF64F32AVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(F64F32V, F64F32M, VMULPD, 8, 64, 64, 32, NOFENCE)

// func mulF16AVX512(dst, a, b []uint16)
TEXT ·mulF16AVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(F16V, F16M, VMULPS, 16, 32, 32, 32, NOFENCE)

// func mulScalarF16AVX512(dst, a []uint16, s float32)
TEXT ·mulScalarF16AVX512(SB), NOSPLIT, $0-52
	SCALAR
	VBROADCASTSS s+48(FP), Z7
	LOOP512(F16S, F16SM, VMULPS, 16, 32, 32, 0, NOFENCE)

// func mulBF16AVX512(dst, a, b []uint16)
TEXT ·mulBF16AVX512(SB), NOSPLIT, $0-72
	BINARY
	BF16CONST512
	LOOP512(BF16V, BF16M, VMULPS, 16, 32, 32, 32, NOFENCE)

// func mulScalarBF16AVX512(dst, a []uint16, s float32)
TEXT ·mulScalarBF16AVX512(SB), NOSPLIT, $0-52
	SCALAR
	BF16CONST512
	VBROADCASTSS s+48(FP), Z7
	LOOP512(BF16S, BF16SM, VMULPS, 16, 32, 32, 0, NOFENCE)

// ---- Multiply, AVX2 ----

// func mulF32AVX2(dst, a, b []float32)
TEXT ·mulF32AVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(F32V2, VMULPS, 8, 32, 32, 32, NOFENCE)

// func mulScalarF32AVX2(dst, a []float32, s float32)
TEXT ·mulScalarF32AVX2(SB), NOSPLIT, $0-52
	SCALAR
	VBROADCASTSS s+48(FP), Y7
	LOOP256(F32S2, VMULPS, 8, 32, 32, 0, NOFENCE)

// func mulF64AVX2(dst, a, b []float64)
TEXT ·mulF64AVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(F64V2, VMULPD, 4, 32, 32, 32, NOFENCE)

// func mulScalarF64AVX2(dst, a []float64, s float64)
TEXT ·mulScalarF64AVX2(SB), NOSPLIT, $0-56
	SCALAR
	VBROADCASTSD s+48(FP), Y7
	LOOP256(F64S2, VMULPD, 4, 32, 32, 0, NOFENCE)

// func mulI8AVX2(dst, a, b []int8)
TEXT ·mulI8AVX2(SB), NOSPLIT, $0-72
	BINARY
	BYTEMASKS256
	LOOP256(I8MULV2, VPMULLW, 32, 32, 32, 32, NOFENCE)

// func mulScalarI8AVX2(dst, a []int8, s int8)
TEXT ·mulScalarI8AVX2(SB), NOSPLIT, $0-49
	SCALAR
	BYTEMASKS256
	VPBROADCASTB s+48(FP), Y7
	VPAND Y9, Y7, Y6
	LOOP256(I8MULS2, VPMULLW, 32, 32, 32, 0, NOFENCE)

// func mulI16AVX2(dst, a, b []int16)
TEXT ·mulI16AVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(INTV2, VPMULLW, 16, 32, 32, 32, NOFENCE)

// func mulScalarI16AVX2(dst, a []int16, s int16)
TEXT ·mulScalarI16AVX2(SB), NOSPLIT, $0-50
	SCALAR
	VPBROADCASTW s+48(FP), Y7
	LOOP256(INTS2, VPMULLW, 16, 32, 32, 0, NOFENCE)

// func mulI32AVX2(dst, a, b []int32)
TEXT ·mulI32AVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(INTV2, VPMULLD, 8, 32, 32, 32, NOFENCE)

// func mulScalarI32AVX2(dst, a []int32, s int32)
TEXT ·mulScalarI32AVX2(SB), NOSPLIT, $0-52
	SCALAR
	MOVL s+48(FP), AX
	MOVQ AX, X7
	VPBROADCASTD X7, Y7
	LOOP256(INTS2, VPMULLD, 8, 32, 32, 0, NOFENCE)

// func mulF32I32AVX2(dst, a []float32, b []int32)
TEXT ·mulF32I32AVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(F32I32V2, VMULPS, 8, 32, 32, 32, NOFENCE)

// func mulF64F32AVX2(dst, a []float64, b []float32)
TEXT ·mulF64F32AVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(F64F32V2, VMULPD, 4, 32, 32, 16, NOFENCE)

// func mulF16AVX2(dst, a, b []uint16)
TEXT ·mulF16AVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(F16V2, VMULPS, 8, 16, 16, 16, NOFENCE)

// func mulScalarF16AVX2(dst, a []uint16, s float32)
TEXT ·mulScalarF16AVX2(SB), NOSPLIT, $0-52
	SCALAR
	VBROADCASTSS s+48(FP), Y7
	LOOP256(F16S2, VMULPS, 8, 16, 16, 0, NOFENCE)

// func mulBF16AVX2(dst, a, b []uint16)
TEXT ·mulBF16AVX2(SB), NOSPLIT, $0-72
	BINARY
	BF16CONST256
	LOOP256(BF16V2, VMULPS, 16, 32, 32, 32, NOFENCE)

// func mulScalarBF16AVX2(dst, a []uint16, s float32)
TEXT ·mulScalarBF16AVX2(SB), NOSPLIT, $0-52
	SCALAR
	BF16CONST256
	VBROADCASTSS s+48(FP), Y7
	LOOP256(BF16S2, VMULPS, 16, 32, 32, 0, NOFENCE)

// ---- Multiply, AVX-512 streaming ----

// func mulF32StreamAVX512(dst, a, b []float32)
TEXT ·mulF32StreamAVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(F32VNT, F32M, VMULPS, 16, 64, 64, 64, STREAMED)

// func mulScalarF32StreamAVX512(dst, a []float32, s float32)
TEXT ·mulScalarF32StreamAVX512(SB), NOSPLIT, $0-52
	SCALAR
	VBROADCASTSS s+48(FP), Z7
	LOOP512(F32SNT, F32SM, VMULPS, 16, 64, 64, 0, STREAMED)

// func mulF64StreamAVX512(dst, a, b []float64)
TEXT ·mulF64StreamAVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(F64VNT, F64M, VMULPD, 8, 64, 64, 64, STREAMED)

// func mulScalarF64StreamAVX512(dst, a []float64, s float64)
TEXT ·mulScalarF64StreamAVX512(SB), NOSPLIT, $0-56
	SCALAR
	VBROADCASTSD s+48(FP), Z7
	LOOP512(F64SNT, F64SM, VMULPD, 8, 64, 64, 0, STREAMED)

// func mulI8StreamAVX512(dst, a, b []int8)
TEXT ·mulI8StreamAVX512(SB), NOSPLIT, $0-72
	BINARY
	BYTEMASKS512
	LOOP512(I8MULVNT, I8MULM, VPMULLW, 64, 64, 64, 64, STREAMED)

// func mulI16StreamAVX512(dst, a, b []int16)
TEXT ·mulI16StreamAVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(I16VNT, I16M, VPMULLW, 32, 64, 64, 64, STREAMED)

// func mulI32StreamAVX512(dst, a, b []int32)
TEXT ·mulI32StreamAVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(I32VNT, I32M, VPMULLD, 16, 64, 64, 64, STREAMED)

// func mulScalarI32StreamAVX512(dst, a []int32, s int32)
TEXT ·mulScalarI32StreamAVX512(SB), NOSPLIT, $0-52
	SCALAR
	MOVL s+48(FP), AX
	VPBROADCASTD AX, Z7
	LOOP512(I32SNT, I32SM, VPMULLD, 16, 64, 64, 0, STREAMED)

// func mulI64StreamAVX512(dst, a, b []int64)
TEXT ·mulI64StreamAVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(I64VNT, I64M, VPMULLQ, 8, 64, 64, 64, STREAMED)

// func mulF32I32StreamAVX512(dst, a []float32, b []int32)
TEXT ·mulF32I32StreamAVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(F32I32VNT, F32I32M, VMULPS, 16, 64, 64, 64, STREAMED)

// ---- Add, AVX-512 ----

// func addF32AVX512(dst, a, b []float32)
TEXT ·addF32AVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(F32V, F32M, VADDPS, 16, 64, 64, 64, NOFENCE)

// func addScalarF32AVX512(dst, a []float32, s float32)
TEXT ·addScalarF32AVX512(SB), NOSPLIT, $0-52
	SCALAR
	VBROADCASTSS s+48(FP), Z7
	LOOP512(F32S, F32SM, VADDPS, 16, 64, 64, 0, NOFENCE)

// func addF64AVX512(dst, a, b []float64)
TEXT ·addF64AVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(F64V, F64M, VADDPD, 8, 64, 64, 64, NOFENCE)

// func addScalarF64AVX512(dst, a []float64, s float64)
TEXT ·addScalarF64AVX512(SB), NOSPLIT, $0-56
	SCALAR
	VBROADCASTSD s+48(FP), Z7
	LOOP512(F64S, F64SM, VADDPD, 8, 64, 64, 0, NOFENCE)

// func addI8AVX512(dst, a, b []int8)
TEXT ·addI8AVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(I8V, I8M, VPADDB, 64, 64, 64, 64, NOFENCE)

// func addScalarI8AVX512(dst, a []int8, s int8)
TEXT ·addScalarI8AVX512(SB), NOSPLIT, $0-49
	SCALAR
	VPBROADCASTB s+48(FP), Z7
	LOOP512(I8S, I8SM, VPADDB, 64, 64, 64, 0, NOFENCE)

// func addI16AVX512(dst, a, b []int16)
TEXT ·addI16AVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(I16V, I16M, VPADDW, 32, 64, 64, 64, NOFENCE)

// func addScalarI16AVX512(dst, a []int16, s int16)
TEXT ·addScalarI16AVX512(SB), NOSPLIT, $0-50
	SCALAR
	VPBROADCASTW s+48(FP), Z7
	LOOP512(I16S, I16SM, VPADDW, 32, 64, 64, 0, NOFENCE)

// func addI32AVX512(dst, a, b []int32)
TEXT ·addI32AVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(I32V, I32M, VPADDD, 16, 64, 64, 64, NOFENCE)

// func addScalarI32AVX512(dst, a []int32, s int32)
TEXT ·addScalarI32AVX512(SB), NOSPLIT, $0-52
	SCALAR
	MOVL s+48(FP), AX
	VPBROADCASTD AX, Z7
	LOOP512(I32S, I32SM, VPADDD, 16, 64, 64, 0, NOFENCE)

// func addI64AVX512(dst, a, b []int64)
TEXT ·addI64AVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(I64V, I64M, VPADDQ, 8, 64, 64, 64, NOFENCE)

// func addScalarI64AVX512(dst, a []int64, s int64)
TEXT ·addScalarI64AVX512(SB), NOSPLIT, $0-56
	SCALAR
	VPBROADCASTQ s+48(FP), Z7
	LOOP512(I64S, I64SM, VPADDQ, 8, 64, 64, 0, NOFENCE)

// func addF32I32AVX512(dst, a []float32, b []int32)
TEXT ·addF32I32AVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(F32I32V, F32I32M, VADDPS, 16, 64, 64, 64, NOFENCE)

// func addF64F32AVX512(dst, a []float64, b []float32)
TEXT ·addF64F32AVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(F64F32V, F64F32M, VADDPD, 8, 64, 64, 32, NOFENCE)

// func addF16AVX512(dst, a, b []uint16)
TEXT ·addF16AVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(F16V, F16M, VADDPS, 16, 32, 32, 32, NOFENCE)

// func addScalarF16AVX512(dst, a []uint16, s float32)
TEXT ·addScalarF16AVX512(SB), NOSPLIT, $0-52
	SCALAR
	VBROADCASTSS s+48(FP), Z7
	LOOP512(F16S, F16SM, VADDPS, 16, 32, 32, 0, NOFENCE)

// func addBF16AVX512(dst, a, b []uint16)
TEXT ·addBF16AVX512(SB), NOSPLIT, $0-72
	BINARY
	BF16CONST512
	LOOP512(BF16V, BF16M, VADDPS, 16, 32, 32, 32, NOFENCE)

// func addScalarBF16AVX512(dst, a []uint16, s float32)
TEXT ·addScalarBF16AVX512(SB), NOSPLIT, $0-52
	SCALAR
	BF16CONST512
	VBROADCASTSS s+48(FP), Z7
	LOOP512(BF16S, BF16SM, VADDPS, 16, 32, 32, 0, NOFENCE)

// ---- Add, AVX2 ----

// func addF32AVX2(dst, a, b []float32)
TEXT ·addF32AVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(F32V2, VADDPS, 8, 32, 32, 32, NOFENCE)

// func addScalarF32AVX2(dst, a []float32, s float32)
TEXT ·addScalarF32AVX2(SB), NOSPLIT, $0-52
	SCALAR
	VBROADCASTSS s+48(FP), Y7
	LOOP256(F32S2, VADDPS, 8, 32, 32, 0, NOFENCE)

// func addF64AVX2(dst, a, b []float64)
TEXT ·addF64AVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(F64V2, VADDPD, 4, 32, 32, 32, NOFENCE)

// func addScalarF64AVX2(dst, a []float64, s float64)
TEXT ·addScalarF64AVX2(SB), NOSPLIT, $0-56
	SCALAR
	VBROADCASTSD s+48(FP), Y7
	LOOP256(F64S2, VADDPD, 4, 32, 32, 0, NOFENCE)

// func addI8AVX2(dst, a, b []int8)
TEXT ·addI8AVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(INTV2, VPADDB, 32, 32, 32, 32, NOFENCE)

// func addScalarI8AVX2(dst, a []int8, s int8)
TEXT ·addScalarI8AVX2(SB), NOSPLIT, $0-49
	SCALAR
	VPBROADCASTB s+48(FP), Y7
	LOOP256(INTS2, VPADDB, 32, 32, 32, 0, NOFENCE)

// func addI16AVX2(dst, a, b []int16)
TEXT ·addI16AVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(INTV2, VPADDW, 16, 32, 32, 32, NOFENCE)

// func addScalarI16AVX2(dst, a []int16, s int16)
TEXT ·addScalarI16AVX2(SB), NOSPLIT, $0-50
	SCALAR
	VPBROADCASTW s+48(FP), Y7
	LOOP256(INTS2, VPADDW, 16, 32, 32, 0, NOFENCE)

// func addI32AVX2(dst, a, b []int32)
TEXT ·addI32AVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(INTV2, VPADDD, 8, 32, 32, 32, NOFENCE)

// func addScalarI32AVX2(dst, a []int32, s int32)
TEXT ·addScalarI32AVX2(SB), NOSPLIT, $0-52
	SCALAR
	MOVL s+48(FP), AX
	MOVQ AX, X7
	VPBROADCASTD X7, Y7
	LOOP256(INTS2, VPADDD, 8, 32, 32, 0, NOFENCE)

// func addI64AVX2(dst, a, b []int64)
TEXT ·addI64AVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(INTV2, VPADDQ, 4, 32, 32, 32, NOFENCE)

// func addScalarI64AVX2(dst, a []int64, s int64)
TEXT ·addScalarI64AVX2(SB), NOSPLIT, $0-56
	SCALAR
	VPBROADCASTQ s+48(FP), Y7
	LOOP256(INTS2, VPADDQ, 4, 32, 32, 0, NOFENCE)

// func addF32I32AVX2(dst, a []float32, b []int32)
TEXT ·addF32I32AVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(F32I32V2, VADDPS, 8, 32, 32, 32, NOFENCE)

// func addF64F32AVX2(dst, a []float64, b []float32)
TEXT ·addF64F32AVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(F64F32V2, VADDPD, 4, 32, 32, 16, NOFENCE)

// func addF16AVX2(dst, a, b []uint16)
TEXT ·addF16AVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(F16V2, VADDPS, 8, 16, 16, 16, NOFENCE)

// func addScalarF16AVX2(dst, a []uint16, s float32)
TEXT ·addScalarF16AVX2(SB), NOSPLIT, $0-52
	SCALAR
	VBROADCASTSS s+48(FP), Y7
	LOOP256(F16S2, VADDPS, 8, 16, 16, 0, NOFENCE)

// func addBF16AVX2(dst, a, b []uint16)
TEXT ·addBF16AVX2(SB), NOSPLIT, $0-72
	BINARY
	BF16CONST256
	LOOP256(BF16V2, VADDPS, 16, 32, 32, 32, NOFENCE)

// func addScalarBF16AVX2(dst, a []uint16, s float32)
TEXT ·addScalarBF16AVX2(SB), NOSPLIT, $0-52
	SCALAR
	BF16CONST256
	VBROADCASTSS s+48(FP), Y7
	LOOP256(BF16S2, VADDPS, 16, 32, 32, 0, NOFENCE)

// ---- Add, AVX-512 streaming ----

// func addF32StreamAVX512(dst, a, b []float32)
TEXT ·addF32StreamAVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(F32VNT, F32M, VADDPS, 16, 64, 64, 64, STREAMED)

// func addScalarF32StreamAVX512(dst, a []float32, s float32)
TEXT ·addScalarF32StreamAVX512(SB), NOSPLIT, $0-52
	SCALAR
	VBROADCASTSS s+48(FP), Z7
	LOOP512(F32SNT, F32SM, VADDPS, 16, 64, 64, 0, STREAMED)

// func addF64StreamAVX512(dst, a, b []float64)
TEXT ·addF64StreamAVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(F64VNT, F64M, VADDPD, 8, 64, 64, 64, STREAMED)

// func addScalarF64StreamAVX512(dst, a []float64, s float64)
TEXT ·addScalarF64StreamAVX512(SB), NOSPLIT, $0-56
	SCALAR
	VBROADCASTSD s+48(FP), Z7
	LOOP512(F64SNT, F64SM, VADDPD, 8, 64, 64, 0, STREAMED)

// func addI8StreamAVX512(dst, a, b []int8)
TEXT ·addI8StreamAVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(I8VNT, I8M, VPADDB, 64, 64, 64, 64, STREAMED)

// func addI16StreamAVX512(dst, a, b []int16)
TEXT ·addI16StreamAVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(I16VNT, I16M, VPADDW, 32, 64, 64, 64, STREAMED)

// func addI32StreamAVX512(dst, a, b []int32)
TEXT ·addI32StreamAVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(I32VNT, I32M, VPADDD, 16, 64, 64, 64, STREAMED)

// func addScalarI32StreamAVX512(dst, a []int32, s int32)
TEXT ·addScalarI32StreamAVX512(SB), NOSPLIT, $0-52
	SCALAR
	MOVL s+48(FP), AX
	VPBROADCASTD AX, Z7
	LOOP512(I32SNT, I32SM, VPADDD, 16, 64, 64, 0, STREAMED)

// func addI64StreamAVX512(dst, a, b []int64)
TEXT ·addI64StreamAVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(I64VNT, I64M, VPADDQ, 8, 64, 64, 64, STREAMED)

// func addF32I32StreamAVX512(dst, a []float32, b []int32)
TEXT ·addF32I32StreamAVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(F32I32VNT, F32I32M, VADDPS, 16, 64, 64, 64, STREAMED)

// ---- Multiply, AVX2 streaming ----

// func mulF32StreamAVX2(dst, a, b []float32)
TEXT ·mulF32StreamAVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(F32V2NT, VMULPS, 8, 32, 32, 32, STREAMED)

// func mulScalarF32StreamAVX2(dst, a []float32, s float32)
TEXT ·mulScalarF32StreamAVX2(SB), NOSPLIT, $0-52
	SCALAR
	VBROADCASTSS s+48(FP), Y7
	LOOP256(F32S2NT, VMULPS, 8, 32, 32, 0, STREAMED)

// func mulF64StreamAVX2(dst, a, b []float64)
TEXT ·mulF64StreamAVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(F64V2NT, VMULPD, 4, 32, 32, 32, STREAMED)

// func mulScalarF64StreamAVX2(dst, a []float64, s float64)
TEXT ·mulScalarF64StreamAVX2(SB), NOSPLIT, $0-56
	SCALAR
	VBROADCASTSD s+48(FP), Y7
	LOOP256(F64S2NT, VMULPD, 4, 32, 32, 0, STREAMED)

// func mulI8StreamAVX2(dst, a, b []int8)
TEXT ·mulI8StreamAVX2(SB), NOSPLIT, $0-72
	BINARY
	BYTEMASKS256
	LOOP256(I8MULV2NT, VPMULLW, 32, 32, 32, 32, STREAMED)

// func mulI16StreamAVX2(dst, a, b []int16)
TEXT ·mulI16StreamAVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(INTV2NT, VPMULLW, 16, 32, 32, 32, STREAMED)

// func mulI32StreamAVX2(dst, a, b []int32)
TEXT ·mulI32StreamAVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(INTV2NT, VPMULLD, 8, 32, 32, 32, STREAMED)

// func mulScalarI32StreamAVX2(dst, a []int32, s int32)
TEXT ·mulScalarI32StreamAVX2(SB), NOSPLIT, $0-52
	SCALAR
	MOVL s+48(FP), AX
	MOVQ AX, X7
	VPBROADCASTD X7, Y7
	LOOP256(INTS2NT, VPMULLD, 8, 32, 32, 0, STREAMED)

// func mulF32I32StreamAVX2(dst, a []float32, b []int32)
TEXT ·mulF32I32StreamAVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(F32I32V2NT, VMULPS, 8, 32, 32, 32, STREAMED)

// ---- Add, AVX2 streaming ----

// func addF32StreamAVX2(dst, a, b []float32)
TEXT ·addF32StreamAVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(F32V2NT, VADDPS, 8, 32, 32, 32, STREAMED)

// func addScalarF32StreamAVX2(dst, a []float32, s float32)
TEXT ·addScalarF32StreamAVX2(SB), NOSPLIT, $0-52
	SCALAR
	VBROADCASTSS s+48(FP), Y7
	LOOP256(F32S2NT, VADDPS, 8, 32, 32, 0, STREAMED)

// func addF64StreamAVX2(dst, a, b []float64)
TEXT ·addF64StreamAVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(F64V2NT, VADDPD, 4, 32, 32, 32, STREAMED)

// func addScalarF64StreamAVX2(dst, a []float64, s float64)
TEXT ·addScalarF64StreamAVX2(SB), NOSPLIT, $0-56
	SCALAR
	VBROADCASTSD s+48(FP), Y7
	LOOP256(F64S2NT, VADDPD, 4, 32, 32, 0, STREAMED)

// func addI8StreamAVX2(dst, a, b []int8)
TEXT ·addI8StreamAVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(INTV2NT, VPADDB, 32, 32, 32, 32, STREAMED)

// func addI16StreamAVX2(dst, a, b []int16)
TEXT ·addI16StreamAVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(INTV2NT, VPADDW, 16, 32, 32, 32, STREAMED)

// func addI32StreamAVX2(dst, a, b []int32)
TEXT ·addI32StreamAVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(INTV2NT, VPADDD, 8, 32, 32, 32, STREAMED)

// func addScalarI32StreamAVX2(dst, a []int32, s int32)
TEXT ·addScalarI32StreamAVX2(SB), NOSPLIT, $0-52
	SCALAR
	MOVL s+48(FP), AX
	MOVQ AX, X7
	VPBROADCASTD X7, Y7
	LOOP256(INTS2NT, VPADDD, 8, 32, 32, 0, STREAMED)

// func addF32I32StreamAVX2(dst, a []float32, b []int32)
TEXT ·addF32I32StreamAVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(F32I32V2NT, VADDPS, 8, 32, 32, 32, STREAMED)

// ---- Sub (a − b), contiguous float runs only ----

// func subF32AVX512(dst, a, b []float32)
TEXT ·subF32AVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(F32V, F32M, VSUBPS, 16, 64, 64, 64, NOFENCE)

// func subF64AVX512(dst, a, b []float64)
TEXT ·subF64AVX512(SB), NOSPLIT, $0-72
	BINARY
	LOOP512(F64V, F64M, VSUBPD, 8, 64, 64, 64, NOFENCE)

// func subF32AVX2(dst, a, b []float32)
TEXT ·subF32AVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(F32V2, VSUBPS, 8, 32, 32, 32, NOFENCE)

// func subF64AVX2(dst, a, b []float64)
TEXT ·subF64AVX2(SB), NOSPLIT, $0-72
	BINARY
	LOOP256(F64V2, VSUBPD, 4, 32, 32, 32, NOFENCE)

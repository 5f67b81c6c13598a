//go:build !purego

#include "textflag.h"

// The complex64 product kernels (see ProdC64): the full 16-element blocks
// of a into 16 complex128 lanes kept planar, the real parts of the lanes
// in one set of registers and the imaginary parts in another, so that a
// block is four packed multiplies and two packed additions per register
// of lanes, with no shuffle of the accumulators. The first block is taken
// as it is. Each step is the textbook product with every product rounded
// before the sum (no fused multiply-add), cmul.Mul128's bits:
//
//	re' = x·c − y·d, im' = x·d + y·c   (lane x+yi, element c+di)
//
// A block is loaded as interleaved float32 pairs, split into its real and
// imaginary parts (AVX-512: one permute, then widened; AVX2: widened, then
// two in-lane unpacks, see SPLIT256) and widened exactly to float64. The
// lanes are returned planar: the real parts of lanes 0-15, then their
// imaginary parts.

// PREFETCH is reduce_amd64.s's distance (four pages ahead, its reason
// there).
#define PREFETCH 16384

// The dword indices that put the real parts of eight interleaved
// complex64 in the low half of a zmm and the imaginary parts in the high
// half.
DATA deinterleaveC64<>+0(SB)/4, $0
DATA deinterleaveC64<>+4(SB)/4, $2
DATA deinterleaveC64<>+8(SB)/4, $4
DATA deinterleaveC64<>+12(SB)/4, $6
DATA deinterleaveC64<>+16(SB)/4, $8
DATA deinterleaveC64<>+20(SB)/4, $10
DATA deinterleaveC64<>+24(SB)/4, $12
DATA deinterleaveC64<>+28(SB)/4, $14
DATA deinterleaveC64<>+32(SB)/4, $1
DATA deinterleaveC64<>+36(SB)/4, $3
DATA deinterleaveC64<>+40(SB)/4, $5
DATA deinterleaveC64<>+44(SB)/4, $7
DATA deinterleaveC64<>+48(SB)/4, $9
DATA deinterleaveC64<>+52(SB)/4, $11
DATA deinterleaveC64<>+56(SB)/4, $13
DATA deinterleaveC64<>+60(SB)/4, $15
GLOBL deinterleaveC64<>(SB), RODATA|NOPTR, $64

// SPLIT512 loads eight complex64 at m and widens their real parts into RE
// and their imaginary parts into IM, through TZ (TY its low half).
#define SPLIT512(m, TZ, TY, RE, IM) \
	VPERMPS       m, Z31, TZ; \
	VCVTPS2PD     TY, RE; \
	VEXTRACTF64X4 $1, TZ, TY; \
	VCVTPS2PD     TY, IM

// CMUL512 multiplies the lanes X+Yi by C+Di in place.
#define CMUL512(X, Y, C, D) \
	VMULPD C, X, Z14; \
	VMULPD D, Y, Z15; \
	VMULPD D, X, Z16; \
	VMULPD C, Y, Z17; \
	VSUBPD Z15, Z14, X; \
	VADDPD Z17, Z16, Y

// func prodC64AVX512(a []complex64) [32]float64
//
// Lanes 0-7 in Z0 (real) and Z2 (imaginary), lanes 8-15 in Z1 and Z3.
TEXT ·prodC64AVX512(SB), NOSPLIT, $0-280
	MOVQ      a_base+0(FP), SI
	MOVQ      a_len+8(FP), CX
	VMOVDQU64 deinterleaveC64<>(SB), Z31
	SHRQ      $4, CX
	JZ        done512
	SPLIT512(0(SI), Z8, Y8, Z0, Z2)
	SPLIT512(64(SI), Z9, Y9, Z1, Z3)
	ADDQ      $128, SI
	DECQ      CX
	JZ        done512

loop512:
	PREFETCHT0 PREFETCH(SI)
	SPLIT512(0(SI), Z8, Y8, Z10, Z11)
	SPLIT512(64(SI), Z9, Y9, Z12, Z13)
	CMUL512(Z0, Z2, Z10, Z11)
	CMUL512(Z1, Z3, Z12, Z13)
	ADDQ       $128, SI
	DECQ       CX
	JNZ        loop512

done512:
	LEAQ    ret+24(FP), DI
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, 192(DI)
	VZEROUPPER
	RET

// SPLIT256 loads four complex64 at m widened, two at a time (VCVTPS2PD
// from memory), and splits them into real parts RE and imaginary parts
// IM with two in-lane unpacks, through Y8 and Y9. The unpacks leave the
// four elements in the order 0, 2, 1, 3 within the register: each lane
// of a register always takes the same element of a block, so the lanes
// are put back in order once, at the end (UNSWAP). A cross-lane VPERMPS
// of the interleaved floats, then two widenings of halves, took twice the
// time: ProdC64 over 64K in L2 34 µs, against 18-22 (Zen 3,
// BenchmarkProdC64).
#define SPLIT256(m, RE, IM) \
	VCVTPS2PD    m, Y8; \
	VCVTPS2PD    16+m, Y9; \
	VUNPCKLPD    Y9, Y8, RE; \
	VUNPCKHPD    Y9, Y8, IM

// UNSWAP puts the lanes of R, in the order 0, 2, 1, 3, back in order.
#define UNSWAP(R) VPERMPD $0xD8, R, R

// CMUL256 is CMUL512 in ymm, through Y11-Y14.
#define CMUL256(X, Y, C, D) \
	VMULPD C, X, Y11; \
	VMULPD D, Y, Y12; \
	VMULPD D, X, Y13; \
	VMULPD C, Y, Y14; \
	VSUBPD Y12, Y11, X; \
	VADDPD Y14, Y13, Y

// STEP256 multiplies four complex64 at m into the lanes X+Yi.
#define STEP256(m, X, Y) \
	SPLIT256(m, Y10, Y9); \
	CMUL256(X, Y, Y10, Y9)

// func prodC64AVX2(a []complex64) [32]float64
//
// Lanes 4q..4q+3 in Yq (real) and Y(4+q) (imaginary).
TEXT ·prodC64AVX2(SB), NOSPLIT, $0-280
	MOVQ    a_base+0(FP), SI
	MOVQ    a_len+8(FP), CX
	SHRQ    $4, CX
	JZ      done256
	SPLIT256(0(SI), Y0, Y4)
	SPLIT256(32(SI), Y1, Y5)
	SPLIT256(64(SI), Y2, Y6)
	SPLIT256(96(SI), Y3, Y7)
	ADDQ    $128, SI
	DECQ    CX
	JZ      done256

loop256:
	PREFETCHT0 PREFETCH(SI)
	STEP256(0(SI), Y0, Y4)
	STEP256(32(SI), Y1, Y5)
	STEP256(64(SI), Y2, Y6)
	STEP256(96(SI), Y3, Y7)
	ADDQ       $128, SI
	DECQ       CX
	JNZ        loop256

done256:
	UNSWAP(Y0)
	UNSWAP(Y1)
	UNSWAP(Y2)
	UNSWAP(Y3)
	UNSWAP(Y4)
	UNSWAP(Y5)
	UNSWAP(Y6)
	UNSWAP(Y7)
	LEAQ    ret+24(FP), DI
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

// The complex128 kernels (see ProdC128): the same planar lanes, a block of
// 16 complex128 split into real and imaginary parts by two-source
// permutes (AVX-512) or unpacks (AVX2) instead of widened.

// The qword indices that gather the real parts (even) and the imaginary
// parts (odd) of eight interleaved complex128 held in two zmm.
DATA evenC128<>+0(SB)/8, $0
DATA evenC128<>+8(SB)/8, $2
DATA evenC128<>+16(SB)/8, $4
DATA evenC128<>+24(SB)/8, $6
DATA evenC128<>+32(SB)/8, $8
DATA evenC128<>+40(SB)/8, $10
DATA evenC128<>+48(SB)/8, $12
DATA evenC128<>+56(SB)/8, $14
GLOBL evenC128<>(SB), RODATA|NOPTR, $64

DATA oddC128<>+0(SB)/8, $1
DATA oddC128<>+8(SB)/8, $3
DATA oddC128<>+16(SB)/8, $5
DATA oddC128<>+24(SB)/8, $7
DATA oddC128<>+32(SB)/8, $9
DATA oddC128<>+40(SB)/8, $11
DATA oddC128<>+48(SB)/8, $13
DATA oddC128<>+56(SB)/8, $15
GLOBL oddC128<>(SB), RODATA|NOPTR, $64

// SPLITC128 loads eight complex128 at mA and mB (four each) into their
// real parts RE and imaginary parts IM, in element order.
#define SPLITC128(mA, mB, RE, IM) \
	VMOVUPD   mA, RE; \
	VMOVAPD   RE, IM; \
	VPERMT2PD mB, Z30, RE; \
	VPERMT2PD mB, Z31, IM

// func prodC128AVX512(a []complex128) [32]float64
//
// Lanes 0-7 in Z0 (real) and Z2 (imaginary), lanes 8-15 in Z1 and Z3.
TEXT ·prodC128AVX512(SB), NOSPLIT, $0-280
	MOVQ      a_base+0(FP), SI
	MOVQ      a_len+8(FP), CX
	VMOVDQU64 evenC128<>(SB), Z30
	VMOVDQU64 oddC128<>(SB), Z31
	SHRQ      $4, CX
	JZ        doneC128
	SPLITC128(0(SI), 64(SI), Z0, Z2)
	SPLITC128(128(SI), 192(SI), Z1, Z3)
	ADDQ      $256, SI
	DECQ      CX
	JZ        doneC128

loopC128:
	PREFETCHT0 PREFETCH(SI)
	PREFETCHT0 (PREFETCH+128)(SI)
	SPLITC128(0(SI), 64(SI), Z10, Z11)
	SPLITC128(128(SI), 192(SI), Z12, Z13)
	CMUL512(Z0, Z2, Z10, Z11)
	CMUL512(Z1, Z3, Z12, Z13)
	ADDQ       $256, SI
	DECQ       CX
	JNZ        loopC128

doneC128:
	LEAQ    ret+24(FP), DI
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, 192(DI)
	VZEROUPPER
	RET

// STEPC128 multiplies four complex128 at m into the lanes X+Yi. The
// unpacks leave the four in the order 0, 2, 1, 3 (their two 128-bit
// halves apart), and so they stay in the lanes: VPERMPD puts them back at
// the end.
#define STEPC128(m, X, Y) \
	VMOVUPD   m, Y10; \
	VUNPCKLPD 32+m, Y10, Y8; \
	VUNPCKHPD 32+m, Y10, Y9; \
	CMUL256(X, Y, Y8, Y9)

#define FIRSTC128(m, X, Y) \
	VMOVUPD   m, Y10; \
	VUNPCKLPD 32+m, Y10, X; \
	VUNPCKHPD 32+m, Y10, Y

// func prodC128AVX2(a []complex128) [32]float64
//
// Lanes 4q..4q+3 in Yq (real) and Y(4+q) (imaginary), in the order 0, 2,
// 1, 3 until the end.
TEXT ·prodC128AVX2(SB), NOSPLIT, $0-280
	MOVQ    a_base+0(FP), SI
	MOVQ    a_len+8(FP), CX
	SHRQ    $4, CX
	JZ      doneC128x
	FIRSTC128(0(SI), Y0, Y4)
	FIRSTC128(64(SI), Y1, Y5)
	FIRSTC128(128(SI), Y2, Y6)
	FIRSTC128(192(SI), Y3, Y7)
	ADDQ    $256, SI
	DECQ    CX
	JZ      orderC128x

loopC128x:
	PREFETCHT0 PREFETCH(SI)
	PREFETCHT0 (PREFETCH+128)(SI)
	STEPC128(0(SI), Y0, Y4)
	STEPC128(64(SI), Y1, Y5)
	STEPC128(128(SI), Y2, Y6)
	STEPC128(192(SI), Y3, Y7)
	ADDQ       $256, SI
	DECQ       CX
	JNZ        loopC128x

orderC128x:
	VPERMPD $0xd8, Y0, Y0
	VPERMPD $0xd8, Y1, Y1
	VPERMPD $0xd8, Y2, Y2
	VPERMPD $0xd8, Y3, Y3
	VPERMPD $0xd8, Y4, Y4
	VPERMPD $0xd8, Y5, Y5
	VPERMPD $0xd8, Y6, Y6
	VPERMPD $0xd8, Y7, Y7

doneC128x:
	LEAQ    ret+24(FP), DI
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

//go:build !purego

#include "textflag.h"

// The row passes of the exclusive products (exclusive.go): DI walks o, SI
// run, DX x and R8 s, CX counts the elements left. The AVX-512 kernels
// take eight elements a step (one zmm of float64 running products) and
// finish with one step masked by K1; the AVX2 kernels take four and leave
// the rest to the Go twins. Conversions round to nearest even (MXCSR as Go
// leaves it), as Go's conversions do.

#define ARGS \
	MOVQ o_base+0(FP), DI; \
	MOVQ o_len+8(FP), CX; \
	MOVQ run_base+24(FP), SI; \
	MOVQ x_base+48(FP), DX

#define TAILMASK \
	MOVQ  $1, AX; \
	SHLQ  CX, AX; \
	DECQ  AX; \
	KMOVQ AX, K1

#define ADVANCE512 \
	ADDQ $32, DI; \
	ADDQ $64, SI; \
	ADDQ $32, DX; \
	SUBQ $8, CX

// func exclusivePrefixAVX512(o []float32, run []float64, x []float32)
TEXT ·exclusivePrefixAVX512(SB), NOSPLIT, $0-72
	ARGS

prefix8:
	CMPQ      CX, $8
	JB        prefixTail
	VMOVUPD   (SI), Z0
	VCVTPD2PS Z0, Y1
	VMOVUPS   Y1, (DI)
	VCVTPS2PD (DX), Z2
	VMULPD    Z2, Z0, Z0
	VMOVUPD   Z0, (SI)
	ADVANCE512
	JMP       prefix8

prefixTail:
	TESTQ       CX, CX
	JZ          prefixDone
	TAILMASK
	VMOVUPD.Z   (SI), K1, Z0
	VCVTPD2PS   Z0, Y1
	VMOVUPS     Y1, K1, (DI)
	VCVTPS2PD.Z (DX), K1, Z2
	VMULPD      Z2, Z0, Z0
	VMOVUPD     Z0, K1, (SI)

prefixDone:
	VZEROUPPER
	RET

// func exclusiveSuffixAVX512(o []float32, run []float64, x []float32)
TEXT ·exclusiveSuffixAVX512(SB), NOSPLIT, $0-72
	ARGS

suffix8:
	CMPQ      CX, $8
	JB        suffixTail
	VCVTPS2PD (DI), Z1
	VMOVUPD   (SI), Z0
	VMULPD    Z0, Z1, Z1
	VCVTPD2PS Z1, Y1
	VMOVUPS   Y1, (DI)
	VCVTPS2PD (DX), Z2
	VMULPD    Z2, Z0, Z0
	VMOVUPD   Z0, (SI)
	ADVANCE512
	JMP       suffix8

suffixTail:
	TESTQ       CX, CX
	JZ          suffixDone
	TAILMASK
	VCVTPS2PD.Z (DI), K1, Z1
	VMOVUPD.Z   (SI), K1, Z0
	VMULPD      Z0, Z1, Z1
	VCVTPD2PS   Z1, Y1
	VMOVUPS     Y1, K1, (DI)
	VCVTPS2PD.Z (DX), K1, Z2
	VMULPD      Z2, Z0, Z0
	VMOVUPD     Z0, K1, (SI)

suffixDone:
	VZEROUPPER
	RET

// func exclusiveSuffixScaledAVX512(o []float32, run []float64, x, s []float32)
TEXT ·exclusiveSuffixScaledAVX512(SB), NOSPLIT, $0-96
	ARGS
	MOVQ s_base+72(FP), R8

scaled8:
	CMPQ      CX, $8
	JB        scaledTail
	VCVTPS2PD (DI), Z1
	VMOVUPD   (SI), Z0
	VMULPD    Z0, Z1, Z1
	VCVTPD2PS Z1, Y1
	VMULPS    (R8), Y1, Y1
	VMOVUPS   Y1, (DI)
	VCVTPS2PD (DX), Z2
	VMULPD    Z2, Z0, Z0
	VMOVUPD   Z0, (SI)
	ADVANCE512
	ADDQ      $32, R8
	JMP       scaled8

scaledTail:
	TESTQ       CX, CX
	JZ          scaledDone
	TAILMASK
	VCVTPS2PD.Z (DI), K1, Z1
	VMOVUPD.Z   (SI), K1, Z0
	VMULPD      Z0, Z1, Z1
	VCVTPD2PS   Z1, Y1
	VMOVUPS.Z   (R8), K1, Y3
	VMULPS      Y3, Y1, Y1
	VMOVUPS     Y1, K1, (DI)
	VCVTPS2PD.Z (DX), K1, Z2
	VMULPD      Z2, Z0, Z0
	VMOVUPD     Z0, K1, (SI)

scaledDone:
	VZEROUPPER
	RET

#define ADVANCE256 \
	ADDQ $16, DI; \
	ADDQ $32, SI; \
	ADDQ $16, DX; \
	SUBQ $4, CX

// func exclusivePrefixAVX2(o []float32, run []float64, x []float32)
TEXT ·exclusivePrefixAVX2(SB), NOSPLIT, $0-72
	ARGS

prefix4:
	CMPQ       CX, $4
	JB         prefix4Done
	VMOVUPD    (SI), Y0
	VCVTPD2PSY Y0, X1
	VMOVUPS    X1, (DI)
	VCVTPS2PD  (DX), Y2
	VMULPD     Y2, Y0, Y0
	VMOVUPD    Y0, (SI)
	ADVANCE256
	JMP        prefix4

prefix4Done:
	VZEROUPPER
	RET

// func exclusiveSuffixAVX2(o []float32, run []float64, x []float32)
TEXT ·exclusiveSuffixAVX2(SB), NOSPLIT, $0-72
	ARGS

suffix4:
	CMPQ       CX, $4
	JB         suffix4Done
	VCVTPS2PD  (DI), Y1
	VMOVUPD    (SI), Y0
	VMULPD     Y0, Y1, Y1
	VCVTPD2PSY Y1, X1
	VMOVUPS    X1, (DI)
	VCVTPS2PD  (DX), Y2
	VMULPD     Y2, Y0, Y0
	VMOVUPD    Y0, (SI)
	ADVANCE256
	JMP        suffix4

suffix4Done:
	VZEROUPPER
	RET

// func exclusiveSuffixScaledAVX2(o []float32, run []float64, x, s []float32)
TEXT ·exclusiveSuffixScaledAVX2(SB), NOSPLIT, $0-96
	ARGS
	MOVQ s_base+72(FP), R8

scaled4:
	CMPQ       CX, $4
	JB         scaled4Done
	VCVTPS2PD  (DI), Y1
	VMOVUPD    (SI), Y0
	VMULPD     Y0, Y1, Y1
	VCVTPD2PSY Y1, X1
	VMULPS     (R8), X1, X1
	VMOVUPS    X1, (DI)
	VCVTPS2PD  (DX), Y2
	VMULPD     Y2, Y0, Y0
	VMOVUPD    Y0, (SI)
	ADVANCE256
	ADDQ       $16, R8
	JMP        scaled4

scaled4Done:
	VZEROUPPER
	RET

// The strip kernel (ExclusiveColumnsF32): Z0-Z3 carry the 32 running
// products, K1-K4 mask their eight-lane groups and K5/K6 the two
// sixteen-lane halves of a row to the strip's w columns (masked lanes are
// neither read nor written outside the scratch). SI walks x, DI o, R10 the
// rounded prefix products in the scratch (128 bytes a row) and R9 the
// copy of x there (128 bytes a row, so that the second pass reads the
// strip contiguously from the L2 cache, not a page apart per row); R12 and
// R11 are the row strides in bytes; Z20/Z21 hold s, or ones (a product's
// float32 result times one is itself). In place (o is x) there is no copy:
// the second pass reads each row of x before it writes it.

// COLUMNS_PREFETCH is how many rows ahead the first pass prefetches x: its
// rows are a page apart, which the hardware prefetchers do not follow.
#define COLUMNS_PREFETCH 8

// ROUNDROW leaves in Z8 (columns 0-15) and Z10 (16-31) the float32 results
// of the row whose prefix products R10 points at.
#define ROUNDROW \
	VCVTPS2PD     (R10), Z8; \
	VMULPD        Z0, Z8, Z8; \
	VCVTPD2PS     Z8, Y8; \
	VCVTPS2PD     32(R10), Z9; \
	VMULPD        Z1, Z9, Z9; \
	VCVTPD2PS     Z9, Y9; \
	VINSERTF32X8  $1, Y9, Z8, Z8; \
	VCVTPS2PD     64(R10), Z10; \
	VMULPD        Z2, Z10, Z10; \
	VCVTPD2PS     Z10, Y10; \
	VCVTPS2PD     96(R10), Z11; \
	VMULPD        Z3, Z11, Z11; \
	VCVTPD2PS     Z11, Y11; \
	VINSERTF32X8  $1, Y11, Z10, Z10; \
	VMULPS        Z20, Z8, Z8; \
	VMULPS        Z21, Z10, Z10

// LOADROW converts the row of x at SI into Z12-Z15 (masked lanes zero).
#define LOADROW \
	VCVTPS2PD.Z (SI), K1, Z12; \
	VCVTPS2PD.Z 32(SI), K2, Z13; \
	VCVTPS2PD.Z 64(SI), K3, Z14; \
	VCVTPS2PD.Z 96(SI), K4, Z15

// PREFIXROW stores the rounded running products at R10 and multiplies
// Z12-Z15 into them.
#define PREFIXROW \
	VCVTPD2PS Z0, Y16; \
	VMOVUPS   Y16, (R10); \
	VCVTPD2PS Z1, Y17; \
	VMOVUPS   Y17, 32(R10); \
	VCVTPD2PS Z2, Y18; \
	VMOVUPS   Y18, 64(R10); \
	VCVTPD2PS Z3, Y19; \
	VMOVUPS   Y19, 96(R10); \
	VMULPD    Z12, Z0, Z0; \
	VMULPD    Z13, Z1, Z1; \
	VMULPD    Z14, Z2, Z2; \
	VMULPD    Z15, Z3, Z3

// TIMESROW multiplies Z12-Z15 into the running products.
#define TIMESROW \
	VMULPD Z12, Z0, Z0; \
	VMULPD Z13, Z1, Z1; \
	VMULPD Z14, Z2, Z2; \
	VMULPD Z15, Z3, Z3

// SUFFIXCOPY multiplies the row's copy of x (at R9) into the running
// products.
#define SUFFIXCOPY \
	VCVTPS2PD (R9), Z12; \
	VCVTPS2PD 32(R9), Z13; \
	VCVTPS2PD 64(R9), Z14; \
	VCVTPS2PD 96(R9), Z15; \
	TIMESROW

// func exclusiveColumnsAVX512(o, x, s, scratch *float32, ostride, xstride, n, w int, stream, inplace bool, pre, suf *float64, ahead *float32, step int)
TEXT ·exclusiveColumnsAVX512(SB), NOSPLIT, $0-104
	MOVQ o+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ s+16(FP), R8
	MOVQ scratch+24(FP), R10
	MOVQ ostride+32(FP), R11
	SHLQ $2, R11
	MOVQ xstride+40(FP), R12
	SHLQ $2, R12

	// The masks: AX = 2^w - 1, split into bytes and halves.
	MOVQ  w+56(FP), CX
	MOVQ  $1, AX
	SHLQ  CX, AX
	DECQ  AX
	KMOVW AX, K5
	KMOVB AX, K1
	SHRQ  $8, AX
	KMOVB AX, K2
	SHRQ  $8, AX
	KMOVW AX, K6
	KMOVB AX, K3
	SHRQ  $8, AX
	KMOVB AX, K4
	MOVQ  n+48(FP), CX
	MOVQ  CX, R9
	SHLQ  $7, R9
	ADDQ  R10, R9              // the copy of x follows the prefix products

	// s, or ones.
	MOVL         $0x3f800000, AX
	VPBROADCASTD AX, Z20
	VMOVAPS      Z20, Z21
	TESTQ        R8, R8
	JZ           columnsOnes
	VMOVUPS      (R8), K5, Z20
	VMOVUPS      64(R8), K6, Z21

columnsOnes:
	MOVQ         $0x3ff0000000000000, AX
	VPBROADCASTQ AX, Z0
	VMOVAPD      Z0, Z1
	VMOVAPD      Z0, Z2
	VMOVAPD      Z0, Z3
	MOVQ         pre+72(FP), BX
	TESTQ        BX, BX
	JZ           columnsStart
	VMOVUPD      (BX), K1, Z0
	VMOVUPD      64(BX), K2, Z1
	VMOVUPD      128(BX), K3, Z2
	VMOVUPD      192(BX), K4, Z3

columnsStart:
	MOVQ    R12, R13
	IMULQ   $COLUMNS_PREFETCH, R13
	MOVQ    CX, DX
	MOVQ    ahead+88(FP), R8     // s is in Z20/Z21: R8 walks ahead
	MOVBLZX inplace+65(FP), R14
	TESTQ   R14, R14
	JNZ     columnsPrefixInPlace

columnsPrefix:
	PREFETCHT0 (SI)(R13*1)
	PREFETCHT0 64(SI)(R13*1)
	VMOVUPS.Z  (SI), K5, Z8
	VMOVUPS.Z  64(SI), K6, Z9
	VMOVUPS    Z8, (R9)
	VMOVUPS    Z9, 64(R9)
	LOADROW
	PREFIXROW
	ADDQ       R12, SI
	ADDQ       $128, R9
	ADDQ       $128, R10
	DECQ       DX
	JNZ        columnsPrefix
	JMP        columnsPrefixDone

columnsPrefixInPlace:
	PREFETCHT0 (SI)(R13*1)
	PREFETCHT0 64(SI)(R13*1)
	LOADROW
	PREFIXROW
	ADDQ       R12, SI
	ADDQ       $128, R10
	DECQ       DX
	JNZ        columnsPrefixInPlace

columnsPrefixDone:
	TESTQ   BX, BX
	JZ      columnsSecond
	VMOVUPD Z0, K1, (BX)
	VMOVUPD Z1, K2, 64(BX)
	VMOVUPD Z2, K3, 128(BX)
	VMOVUPD Z3, K4, 192(BX)

columnsSecond:
	// The second pass, from the last row up: DI (and SI) to the last row.
	MOVQ         $0x3ff0000000000000, AX
	VPBROADCASTQ AX, Z0
	VMOVAPD      Z0, Z1
	VMOVAPD      Z0, Z2
	VMOVAPD      Z0, Z3
	MOVQ         suf+80(FP), BX
	TESTQ        BX, BX
	JZ           columnsSecondStart
	VMOVUPD      (BX), K1, Z0
	VMOVUPD      64(BX), K2, Z1
	VMOVUPD      128(BX), K3, Z2
	VMOVUPD      192(BX), K4, Z3

columnsSecondStart:
	MOVQ    CX, AX
	DECQ    AX
	IMULQ   R11, AX
	ADDQ    AX, DI
	MOVQ    DI, SI
	MOVQ    step+96(FP), DX  // bytes a row of ahead
	TESTQ   R14, R14
	JNZ     columnsSuffixInPlace
	MOVBLZX stream+64(FP), AX
	TESTQ   AX, AX
	JNZ     columnsStream

columnsSuffix:
	PREFETCHT1 (R8)
	PREFETCHT1 64(R8)
	ADDQ       DX, R8
	SUBQ    $128, R9
	SUBQ    $128, R10
	ROUNDROW
	VMOVUPS Z8, K5, (DI)
	VMOVUPS Z10, K6, 64(DI)
	SUFFIXCOPY
	SUBQ    R11, DI
	DECQ    CX
	JNZ     columnsSuffix
	VZEROUPPER
	RET

columnsStream:
	PREFETCHT1 (R8)
	PREFETCHT1 64(R8)
	ADDQ       DX, R8
	SUBQ     $128, R9
	SUBQ     $128, R10
	ROUNDROW
	VMOVNTPS Z8, (DI)
	VMOVNTPS Z10, 64(DI)
	SUFFIXCOPY
	SUBQ     R11, DI
	DECQ     CX
	JNZ      columnsStream
	SFENCE
	VZEROUPPER
	RET

columnsSuffixInPlace:
	// x's row is read before the results overwrite it.
	PREFETCHT1 (R8)
	PREFETCHT1 64(R8)
	ADDQ       DX, R8
	SUBQ    $128, R10
	ROUNDROW
	LOADROW
	VMOVUPS Z8, K5, (DI)
	VMOVUPS Z10, K6, 64(DI)
	TIMESROW
	SUBQ    R11, DI
	MOVQ    DI, SI
	DECQ    CX
	JNZ     columnsSuffixInPlace
	VZEROUPPER
	RET

// The suffix pass into another row (ExclusiveSuffixIntoF32): DI walks o,
// R9 pre, SI run, DX x and R8 s, which steps R14 bytes per eight elements:
// 32, or 0 along onesF32 when there is no factor (a product's float32
// result times one is itself). CX counts the elements left. A step takes
// eight elements; the streaming loop two steps at once, one whole line.

DATA onesF32<>+0(SB)/8, $0x3f8000003f800000
DATA onesF32<>+8(SB)/8, $0x3f8000003f800000
DATA onesF32<>+16(SB)/8, $0x3f8000003f800000
DATA onesF32<>+24(SB)/8, $0x3f8000003f800000
GLOBL onesF32<>(SB), RODATA|NOPTR, $32

// SUFFIXINTO8(off, y) leaves in y the float32 results of the eight
// elements at byte offset off of the float32 rows (2·off of run) times s,
// and multiplies x into run.
#define SUFFIXINTO8(off, y) \
	VCVTPS2PD off(R9), Z1; \
	VMOVUPD   (off*2)(SI), Z0; \
	VMULPD    Z0, Z1, Z1; \
	VCVTPD2PS Z1, y; \
	VMULPS    (R8), y, y; \
	ADDQ      R14, R8; \
	VCVTPS2PD off(DX), Z2; \
	VMULPD    Z2, Z0, Z0; \
	VMOVUPD   Z0, (off*2)(SI)

// func exclusiveSuffixIntoAVX512(o, pre []float32, run []float64, x, s []float32, stream bool)
TEXT ·exclusiveSuffixIntoAVX512(SB), NOSPLIT, $0-121
	MOVQ  o_base+0(FP), DI
	MOVQ  o_len+8(FP), CX
	MOVQ  pre_base+24(FP), R9
	MOVQ  run_base+48(FP), SI
	MOVQ  x_base+72(FP), DX
	MOVQ  s_base+96(FP), R8
	MOVQ  $32, R14
	TESTQ R8, R8
	JNZ   intoScaled
	LEAQ  onesF32<>(SB), R8
	XORQ  R14, R14

intoScaled:
	MOVBLZX stream+120(FP), AX
	TESTQ   AX, AX
	JZ      into8

into16:
	CMPQ         CX, $16
	JB           into8
	SUFFIXINTO8(0, Y3)
	SUFFIXINTO8(32, Y4)
	VINSERTF32X8 $1, Y4, Z3, Z3
	VMOVNTPS     Z3, (DI)
	ADDQ         $64, DI
	ADDQ         $64, R9
	ADDQ         $128, SI
	ADDQ         $64, DX
	SUBQ         $16, CX
	JMP          into16

into8:
	CMPQ    CX, $8
	JB      intoTail
	SUFFIXINTO8(0, Y3)
	VMOVUPS Y3, (DI)
	ADDQ    $32, DI
	ADDQ    $32, R9
	ADDQ    $64, SI
	ADDQ    $32, DX
	SUBQ    $8, CX
	JMP     into8

intoTail:
	TESTQ       CX, CX
	JZ          intoDone
	TAILMASK
	VCVTPS2PD.Z (R9), K1, Z1
	VMOVUPD.Z   (SI), K1, Z0
	VMULPD      Z0, Z1, Z1
	VCVTPD2PS   Z1, Y1
	VMOVUPS.Z   (R8), K1, Y3
	VMULPS      Y3, Y1, Y1
	VMOVUPS     Y1, K1, (DI)
	VCVTPS2PD.Z (DX), K1, Z2
	VMULPD      Z2, Z0, Z0
	VMOVUPD     Z0, K1, (SI)

intoDone:
	SFENCE
	VZEROUPPER
	RET

// func exclusiveSuffixIntoAVX2(o, pre []float32, run []float64, x, s []float32)
TEXT ·exclusiveSuffixIntoAVX2(SB), NOSPLIT, $0-120
	MOVQ  o_base+0(FP), DI
	MOVQ  o_len+8(FP), CX
	MOVQ  pre_base+24(FP), R9
	MOVQ  run_base+48(FP), SI
	MOVQ  x_base+72(FP), DX
	MOVQ  s_base+96(FP), R8
	MOVQ  $16, R14
	TESTQ R8, R8
	JNZ   into4
	LEAQ  onesF32<>(SB), R8
	XORQ  R14, R14

into4:
	CMPQ       CX, $4
	JB         into4Done
	VCVTPS2PD  (R9), Y1
	VMOVUPD    (SI), Y0
	VMULPD     Y0, Y1, Y1
	VCVTPD2PSY Y1, X1
	VMULPS     (R8), X1, X1
	VMOVUPS    X1, (DI)
	VCVTPS2PD  (DX), Y2
	VMULPD     Y2, Y0, Y0
	VMOVUPD    Y0, (SI)
	ADDQ       $16, DI
	ADDQ       $16, R9
	ADDQ       $32, SI
	ADDQ       $16, DX
	ADDQ       R14, R8
	SUBQ       $4, CX
	JMP        into4

into4Done:
	VZEROUPPER
	RET

// The 16×16 transpose (Transpose16F32): each block's sixteen rows go into
// Z0-Z15, three stages of in-lane unpacks and 128-bit lane shuffles leave
// column j in Zj (64 shuffles for 256 elements), and the columns are
// stored as rows.
#define TRANSPOSE16 \
	VUNPCKLPS Z1, Z0, Z16; \
	VUNPCKHPS Z1, Z0, Z17; \
	VUNPCKLPS Z3, Z2, Z18; \
	VUNPCKHPS Z3, Z2, Z19; \
	VUNPCKLPS Z5, Z4, Z20; \
	VUNPCKHPS Z5, Z4, Z21; \
	VUNPCKLPS Z7, Z6, Z22; \
	VUNPCKHPS Z7, Z6, Z23; \
	VUNPCKLPS Z9, Z8, Z24; \
	VUNPCKHPS Z9, Z8, Z25; \
	VUNPCKLPS Z11, Z10, Z26; \
	VUNPCKHPS Z11, Z10, Z27; \
	VUNPCKLPS Z13, Z12, Z28; \
	VUNPCKHPS Z13, Z12, Z29; \
	VUNPCKLPS Z15, Z14, Z30; \
	VUNPCKHPS Z15, Z14, Z31; \
	VUNPCKLPD Z18, Z16, Z0; \
	VUNPCKHPD Z18, Z16, Z1; \
	VUNPCKLPD Z19, Z17, Z2; \
	VUNPCKHPD Z19, Z17, Z3; \
	VUNPCKLPD Z22, Z20, Z4; \
	VUNPCKHPD Z22, Z20, Z5; \
	VUNPCKLPD Z23, Z21, Z6; \
	VUNPCKHPD Z23, Z21, Z7; \
	VUNPCKLPD Z26, Z24, Z8; \
	VUNPCKHPD Z26, Z24, Z9; \
	VUNPCKLPD Z27, Z25, Z10; \
	VUNPCKHPD Z27, Z25, Z11; \
	VUNPCKLPD Z30, Z28, Z12; \
	VUNPCKHPD Z30, Z28, Z13; \
	VUNPCKLPD Z31, Z29, Z14; \
	VUNPCKHPD Z31, Z29, Z15; \
	VSHUFF32X4 $0x88, Z4, Z0, Z16; \
	VSHUFF32X4 $0xdd, Z4, Z0, Z20; \
	VSHUFF32X4 $0x88, Z5, Z1, Z17; \
	VSHUFF32X4 $0xdd, Z5, Z1, Z21; \
	VSHUFF32X4 $0x88, Z6, Z2, Z18; \
	VSHUFF32X4 $0xdd, Z6, Z2, Z22; \
	VSHUFF32X4 $0x88, Z7, Z3, Z19; \
	VSHUFF32X4 $0xdd, Z7, Z3, Z23; \
	VSHUFF32X4 $0x88, Z12, Z8, Z24; \
	VSHUFF32X4 $0xdd, Z12, Z8, Z28; \
	VSHUFF32X4 $0x88, Z13, Z9, Z25; \
	VSHUFF32X4 $0xdd, Z13, Z9, Z29; \
	VSHUFF32X4 $0x88, Z14, Z10, Z26; \
	VSHUFF32X4 $0xdd, Z14, Z10, Z30; \
	VSHUFF32X4 $0x88, Z15, Z11, Z27; \
	VSHUFF32X4 $0xdd, Z15, Z11, Z31; \
	VSHUFF32X4 $0x88, Z24, Z16, Z0; \
	VSHUFF32X4 $0xdd, Z24, Z16, Z8; \
	VSHUFF32X4 $0x88, Z25, Z17, Z1; \
	VSHUFF32X4 $0xdd, Z25, Z17, Z9; \
	VSHUFF32X4 $0x88, Z26, Z18, Z2; \
	VSHUFF32X4 $0xdd, Z26, Z18, Z10; \
	VSHUFF32X4 $0x88, Z27, Z19, Z3; \
	VSHUFF32X4 $0xdd, Z27, Z19, Z11; \
	VSHUFF32X4 $0x88, Z28, Z20, Z4; \
	VSHUFF32X4 $0xdd, Z28, Z20, Z12; \
	VSHUFF32X4 $0x88, Z29, Z21, Z5; \
	VSHUFF32X4 $0xdd, Z29, Z21, Z13; \
	VSHUFF32X4 $0x88, Z30, Z22, Z6; \
	VSHUFF32X4 $0xdd, Z30, Z22, Z14; \
	VSHUFF32X4 $0x88, Z31, Z23, Z7; \
	VSHUFF32X4 $0xdd, Z31, Z23, Z15;

// func transpose16AVX512(dst *float32, dstRow, dstStep int, src *float32, srcRow, srcStep, blocks int, stream bool)
TEXT ·transpose16AVX512(SB), NOSPLIT, $0-57
	MOVQ dst+0(FP), DI
	MOVQ dstRow+8(FP), R10
	SHLQ $2, R10
	MOVQ dstStep+16(FP), R11
	SHLQ $2, R11
	MOVQ src+24(FP), SI
	MOVQ srcRow+32(FP), R8
	SHLQ $2, R8
	MOVQ srcStep+40(FP), R9
	SHLQ $2, R9
	MOVQ blocks+48(FP), CX
	TESTQ CX, CX
	JZ    transposeDone

	MOVBLZX stream+56(FP), AX
	TESTQ   AX, AX
	JNZ     transposeStream

transposeBlock:
	MOVQ SI, AX
	VMOVUPS (AX), Z0
	ADDQ    R8, AX
	VMOVUPS (AX), Z1
	ADDQ    R8, AX
	VMOVUPS (AX), Z2
	ADDQ    R8, AX
	VMOVUPS (AX), Z3
	ADDQ    R8, AX
	VMOVUPS (AX), Z4
	ADDQ    R8, AX
	VMOVUPS (AX), Z5
	ADDQ    R8, AX
	VMOVUPS (AX), Z6
	ADDQ    R8, AX
	VMOVUPS (AX), Z7
	ADDQ    R8, AX
	VMOVUPS (AX), Z8
	ADDQ    R8, AX
	VMOVUPS (AX), Z9
	ADDQ    R8, AX
	VMOVUPS (AX), Z10
	ADDQ    R8, AX
	VMOVUPS (AX), Z11
	ADDQ    R8, AX
	VMOVUPS (AX), Z12
	ADDQ    R8, AX
	VMOVUPS (AX), Z13
	ADDQ    R8, AX
	VMOVUPS (AX), Z14
	ADDQ    R8, AX
	VMOVUPS (AX), Z15
	ADDQ    R8, AX
	TRANSPOSE16
	MOVQ DI, BX
	VMOVUPS Z0, (BX)
	ADDQ    R10, BX
	VMOVUPS Z1, (BX)
	ADDQ    R10, BX
	VMOVUPS Z2, (BX)
	ADDQ    R10, BX
	VMOVUPS Z3, (BX)
	ADDQ    R10, BX
	VMOVUPS Z4, (BX)
	ADDQ    R10, BX
	VMOVUPS Z5, (BX)
	ADDQ    R10, BX
	VMOVUPS Z6, (BX)
	ADDQ    R10, BX
	VMOVUPS Z7, (BX)
	ADDQ    R10, BX
	VMOVUPS Z8, (BX)
	ADDQ    R10, BX
	VMOVUPS Z9, (BX)
	ADDQ    R10, BX
	VMOVUPS Z10, (BX)
	ADDQ    R10, BX
	VMOVUPS Z11, (BX)
	ADDQ    R10, BX
	VMOVUPS Z12, (BX)
	ADDQ    R10, BX
	VMOVUPS Z13, (BX)
	ADDQ    R10, BX
	VMOVUPS Z14, (BX)
	ADDQ    R10, BX
	VMOVUPS Z15, (BX)
	ADDQ    R10, BX
	ADDQ R9, SI
	ADDQ R11, DI
	DECQ CX
	JNZ  transposeBlock

	JMP  transposeDone

transposeStream:
	MOVQ SI, AX
	VMOVUPS (AX), Z0
	ADDQ    R8, AX
	VMOVUPS (AX), Z1
	ADDQ    R8, AX
	VMOVUPS (AX), Z2
	ADDQ    R8, AX
	VMOVUPS (AX), Z3
	ADDQ    R8, AX
	VMOVUPS (AX), Z4
	ADDQ    R8, AX
	VMOVUPS (AX), Z5
	ADDQ    R8, AX
	VMOVUPS (AX), Z6
	ADDQ    R8, AX
	VMOVUPS (AX), Z7
	ADDQ    R8, AX
	VMOVUPS (AX), Z8
	ADDQ    R8, AX
	VMOVUPS (AX), Z9
	ADDQ    R8, AX
	VMOVUPS (AX), Z10
	ADDQ    R8, AX
	VMOVUPS (AX), Z11
	ADDQ    R8, AX
	VMOVUPS (AX), Z12
	ADDQ    R8, AX
	VMOVUPS (AX), Z13
	ADDQ    R8, AX
	VMOVUPS (AX), Z14
	ADDQ    R8, AX
	VMOVUPS (AX), Z15
	ADDQ    R8, AX
	TRANSPOSE16
	MOVQ DI, BX
	VMOVNTPS Z0, (BX)
	ADDQ    R10, BX
	VMOVNTPS Z1, (BX)
	ADDQ    R10, BX
	VMOVNTPS Z2, (BX)
	ADDQ    R10, BX
	VMOVNTPS Z3, (BX)
	ADDQ    R10, BX
	VMOVNTPS Z4, (BX)
	ADDQ    R10, BX
	VMOVNTPS Z5, (BX)
	ADDQ    R10, BX
	VMOVNTPS Z6, (BX)
	ADDQ    R10, BX
	VMOVNTPS Z7, (BX)
	ADDQ    R10, BX
	VMOVNTPS Z8, (BX)
	ADDQ    R10, BX
	VMOVNTPS Z9, (BX)
	ADDQ    R10, BX
	VMOVNTPS Z10, (BX)
	ADDQ    R10, BX
	VMOVNTPS Z11, (BX)
	ADDQ    R10, BX
	VMOVNTPS Z12, (BX)
	ADDQ    R10, BX
	VMOVNTPS Z13, (BX)
	ADDQ    R10, BX
	VMOVNTPS Z14, (BX)
	ADDQ    R10, BX
	VMOVNTPS Z15, (BX)
	ADDQ    R10, BX
	ADDQ R9, SI
	ADDQ R11, DI
	DECQ CX
	JNZ  transposeStream
	SFENCE
	JMP  transposeDone


transposeDone:
	VZEROUPPER
	RET

// The strip kernel for AVX2 (ExclusiveColumnsF32 on strips of ColumnsWidth
// columns): Y0-Y7 carry the 32 running products, four columns each; SI
// walks x, DI o, R10 the rounded prefix products in the scratch and R9 the
// copy of x there (128 bytes a row each), R8 s or 128 bytes of ones; R12
// and R11 are the row strides in bytes. In place (o is x) there is no
// copy: the second pass reads each row of x before it writes it. The
// stores are ordinary ones (the set does not stream).

DATA ones128F32<>+0(SB)/8, $0x3f8000003f800000
DATA ones128F32<>+8(SB)/8, $0x3f8000003f800000
DATA ones128F32<>+16(SB)/8, $0x3f8000003f800000
DATA ones128F32<>+24(SB)/8, $0x3f8000003f800000
DATA ones128F32<>+32(SB)/8, $0x3f8000003f800000
DATA ones128F32<>+40(SB)/8, $0x3f8000003f800000
DATA ones128F32<>+48(SB)/8, $0x3f8000003f800000
DATA ones128F32<>+56(SB)/8, $0x3f8000003f800000
DATA ones128F32<>+64(SB)/8, $0x3f8000003f800000
DATA ones128F32<>+72(SB)/8, $0x3f8000003f800000
DATA ones128F32<>+80(SB)/8, $0x3f8000003f800000
DATA ones128F32<>+88(SB)/8, $0x3f8000003f800000
DATA ones128F32<>+96(SB)/8, $0x3f8000003f800000
DATA ones128F32<>+104(SB)/8, $0x3f8000003f800000
DATA ones128F32<>+112(SB)/8, $0x3f8000003f800000
DATA ones128F32<>+120(SB)/8, $0x3f8000003f800000
GLOBL ones128F32<>(SB), RODATA|NOPTR, $128

// PREFIX4(off, run) stores the rounded running products run of the four
// columns at byte offset off and multiplies x's (at SI) into them.
#define PREFIX4(off, run) \
	VCVTPD2PSY run, X12; \
	VMOVUPS    X12, off(R10); \
	VCVTPS2PD  off(SI), Y13; \
	VMULPD     Y13, run, run

// SUFFIX4(off, run, xp, st) stores with st the results of the four
// columns at byte offset off and multiplies x's (at xp, read before o is
// written) into the running products run.
#define SUFFIX4(off, run, xp, st) \
	VCVTPS2PD  off(R10), Y12; \
	VMULPD     run, Y12, Y12; \
	VCVTPD2PSY Y12, X12; \
	VMULPS     off(R8), X12, X12; \
	VCVTPS2PD  off(xp), Y13; \
	st         X12, off(DI); \
	VMULPD     Y13, run, run

#define PREFIXROW2 \
	PREFIX4(0, Y0); \
	PREFIX4(16, Y1); \
	PREFIX4(32, Y2); \
	PREFIX4(48, Y3); \
	PREFIX4(64, Y4); \
	PREFIX4(80, Y5); \
	PREFIX4(96, Y6); \
	PREFIX4(112, Y7)

#define SUFFIXROW2(xp, st) \
	SUFFIX4(0, Y0, xp, st); \
	SUFFIX4(16, Y1, xp, st); \
	SUFFIX4(32, Y2, xp, st); \
	SUFFIX4(48, Y3, xp, st); \
	SUFFIX4(64, Y4, xp, st); \
	SUFFIX4(80, Y5, xp, st); \
	SUFFIX4(96, Y6, xp, st); \
	SUFFIX4(112, Y7, xp, st)

// LOADRUNS2 sets Y0-Y7 to the 32 float64 at BX, or to ones when BX is nil.
#define LOADRUNS2(done) \
	MOVQ         $0x3ff0000000000000, AX; \
	MOVQ         AX, X0; \
	VPBROADCASTQ X0, Y0; \
	VMOVAPD      Y0, Y1; \
	VMOVAPD      Y0, Y2; \
	VMOVAPD      Y0, Y3; \
	VMOVAPD      Y0, Y4; \
	VMOVAPD      Y0, Y5; \
	VMOVAPD      Y0, Y6; \
	VMOVAPD      Y0, Y7; \
	TESTQ        BX, BX; \
	JZ           done; \
	VMOVUPD      (BX), Y0; \
	VMOVUPD      32(BX), Y1; \
	VMOVUPD      64(BX), Y2; \
	VMOVUPD      96(BX), Y3; \
	VMOVUPD      128(BX), Y4; \
	VMOVUPD      160(BX), Y5; \
	VMOVUPD      192(BX), Y6; \
	VMOVUPD      224(BX), Y7

// func exclusiveColumnsAVX2(o, x, s, scratch *float32, ostride, xstride, n int, inplace, stream bool, pre, suf *float64, ahead *float32, step int)
TEXT ·exclusiveColumnsAVX2(SB), NOSPLIT, $0-96
	MOVQ o+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ s+16(FP), R8
	MOVQ scratch+24(FP), R10
	MOVQ ostride+32(FP), R11
	SHLQ $2, R11
	MOVQ xstride+40(FP), R12
	SHLQ $2, R12
	MOVQ n+48(FP), CX
	MOVQ CX, R9
	SHLQ $7, R9
	ADDQ R10, R9                 // the copy of x follows the prefix products
	TESTQ R8, R8
	JNZ  columns2Scaled
	LEAQ ones128F32<>(SB), R8

columns2Scaled:
	MOVQ pre+64(FP), BX
	LOADRUNS2(columns2Start)

columns2Start:
	MOVQ    CX, DX
	MOVBLZX inplace+56(FP), R14
	TESTQ   R14, R14
	JNZ     columns2PrefixInPlace

columns2Prefix:
	VMOVUPS (SI), Y8
	VMOVUPS 32(SI), Y9
	VMOVUPS 64(SI), Y10
	VMOVUPS 96(SI), Y11
	VMOVUPS Y8, (R9)
	VMOVUPS Y9, 32(R9)
	VMOVUPS Y10, 64(R9)
	VMOVUPS Y11, 96(R9)
	PREFIXROW2
	ADDQ    R12, SI
	ADDQ    $128, R9
	ADDQ    $128, R10
	DECQ    DX
	JNZ     columns2Prefix
	JMP     columns2PrefixDone

columns2PrefixInPlace:
	PREFIXROW2
	ADDQ R12, SI
	ADDQ $128, R10
	DECQ DX
	JNZ  columns2PrefixInPlace

columns2PrefixDone:
	TESTQ   BX, BX
	JZ      columns2Second
	VMOVUPD Y0, (BX)
	VMOVUPD Y1, 32(BX)
	VMOVUPD Y2, 64(BX)
	VMOVUPD Y3, 96(BX)
	VMOVUPD Y4, 128(BX)
	VMOVUPD Y5, 160(BX)
	VMOVUPD Y6, 192(BX)
	VMOVUPD Y7, 224(BX)

columns2Second:
	// The second pass, from the last row up: DI (and SI) to the last row.
	MOVQ suf+72(FP), BX
	LOADRUNS2(columns2SecondStart)

columns2SecondStart:
	MOVQ  CX, AX
	DECQ  AX
	IMULQ R11, AX
	ADDQ  AX, DI
	MOVQ  DI, SI
	MOVQ  ahead+80(FP), BX     // the next strip, prefetched a row at a time
	MOVQ  step+88(FP), DX      // bytes a row of it
	TESTQ R14, R14
	JNZ   columns2SuffixInPlace
	MOVBLZX stream+57(FP), AX
	TESTQ AX, AX
	JNZ   columns2Stream

columns2Suffix:
	PREFETCHT1 (BX)
	PREFETCHT1 64(BX)
	ADDQ       DX, BX
	SUBQ $128, R9
	SUBQ $128, R10
	SUFFIXROW2(R9, VMOVUPS)
	SUBQ R11, DI
	DECQ CX
	JNZ  columns2Suffix
	VZEROUPPER
	RET

columns2Stream:
	PREFETCHT1 (BX)
	PREFETCHT1 64(BX)
	ADDQ       DX, BX
	SUBQ $128, R9
	SUBQ $128, R10
	SUFFIXROW2(R9, VMOVNTPS)
	SUBQ R11, DI
	DECQ CX
	JNZ  columns2Stream
	SFENCE
	VZEROUPPER
	RET

columns2SuffixInPlace:
	PREFETCHT1 (BX)
	PREFETCHT1 64(BX)
	ADDQ       DX, BX
	SUBQ $128, R10
	SUFFIXROW2(SI, VMOVUPS)
	SUBQ R11, DI
	MOVQ DI, SI
	DECQ CX
	JNZ  columns2SuffixInPlace
	VZEROUPPER
	RET

// The 16×16 transposes for AVX2 (Transpose16F32): each block goes as
// pieces of eight rows by four columns. A piece's four row pairs (rows k
// and k+4) are loaded into the two 128-bit lanes of Y0-Y3, so that one
// 4×4 transpose within the lanes leaves in each of Y0-Y3 one column of the
// eight rows, which is eight consecutive elements of a row of Dst. AX and
// BX point at the piece's first and fifth source rows, CX at its first
// destination row; R8 and R10 are one and three source rows, R11 and R12
// one and three destination rows, in bytes.
#define PIECE4X8(st) \
	VMOVUPS     (AX), X0; \
	VINSERTF128 $1, (BX), Y0, Y0; \
	VMOVUPS     (AX)(R8*1), X1; \
	VINSERTF128 $1, (BX)(R8*1), Y1, Y1; \
	VMOVUPS     (AX)(R8*2), X2; \
	VINSERTF128 $1, (BX)(R8*2), Y2, Y2; \
	VMOVUPS     (AX)(R10*1), X3; \
	VINSERTF128 $1, (BX)(R10*1), Y3, Y3; \
	VUNPCKLPS   Y1, Y0, Y4; \
	VUNPCKHPS   Y1, Y0, Y5; \
	VUNPCKLPS   Y3, Y2, Y6; \
	VUNPCKHPS   Y3, Y2, Y7; \
	VUNPCKLPD   Y6, Y4, Y0; \
	VUNPCKHPD   Y6, Y4, Y1; \
	VUNPCKLPD   Y7, Y5, Y2; \
	VUNPCKHPD   Y7, Y5, Y3; \
	st          Y0, (CX); \
	st          Y1, (CX)(R11*1); \
	st          Y2, (CX)(R11*2); \
	st          Y3, (CX)(R12*1)

// GROUP4(off, st) transposes the block's columns off/4 to off/4+3 (byte
// offset off in a source row), both halves of the rows, into four rows of
// Dst from CX, and moves CX four destination rows on.
#define GROUP4(off, st) \
	LEAQ off(SI), AX; \
	LEAQ (AX)(R9*1), BX; \
	PIECE4X8(st); \
	LEAQ (AX)(R8*8), AX; \
	LEAQ (AX)(R9*1), BX; \
	ADDQ $32, CX; \
	PIECE4X8(st); \
	SUBQ $32, CX; \
	LEAQ (CX)(R11*4), CX

#define BLOCK16(st) \
	MOVQ DI, CX; \
	GROUP4(0, st); \
	GROUP4(16, st); \
	GROUP4(32, st); \
	GROUP4(48, st)

// func transpose16AVX2(dst *float32, dstRow, dstStep int, src *float32, srcRow, srcStep, blocks int, stream bool)
TEXT ·transpose16AVX2(SB), NOSPLIT, $0-57
	MOVQ    dst+0(FP), DI
	MOVQ    dstRow+8(FP), R11
	SHLQ    $2, R11
	MOVQ    dstStep+16(FP), R13
	SHLQ    $2, R13
	MOVQ    src+24(FP), SI
	MOVQ    srcRow+32(FP), R8
	SHLQ    $2, R8
	MOVQ    srcStep+40(FP), R14
	SHLQ    $2, R14
	MOVQ    blocks+48(FP), DX
	LEAQ    (R8)(R8*2), R10
	LEAQ    (R11)(R11*2), R12
	LEAQ    (R8*4), R9
	MOVBLZX stream+56(FP), AX
	TESTQ   AX, AX
	JNZ     t16Stream

t16Block:
	BLOCK16(VMOVUPS)
	ADDQ R14, SI
	ADDQ R13, DI
	DECQ DX
	JNZ  t16Block
	VZEROUPPER
	RET

t16Stream:
	BLOCK16(VMOVNTPS)
	ADDQ R14, SI
	ADDQ R13, DI
	DECQ DX
	JNZ  t16Stream
	SFENCE
	VZEROUPPER
	RET

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

//go:build !purego

#include "textflag.h"

// func copyRows128AVX512(dst, src unsafe.Pointer, rows, stride int)
//
// The Go loop it computes (copyRows128Go):
//
//	for r := 0; r < rows; r++ {
//		copy(dst[128*r : 128*r+128], src[stride*r : stride*r+128])
//	}
TEXT ·copyRows128AVX512(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ rows+16(FP), CX
	MOVQ stride+24(FP), DX
	TESTQ CX, CX
	JLE  done
loop:
	VMOVDQU64 (SI), Z0
	VMOVDQU64 64(SI), Z1
	VMOVDQU64 Z0, (DI)
	VMOVDQU64 Z1, 64(DI)
	ADDQ DX, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  loop
	VZEROUPPER
done:
	RET

// func copyRows64AVX2(dst, src unsafe.Pointer, rows, stride int)
//
// The Go loop it computes (copyRows64Go):
//
//	for r := 0; r < rows; r++ {
//		copy(dst[64*r : 64*r+64], src[stride*r : stride*r+64])
//	}
//
// One row a step, both loads ahead of both stores; rows of a B panel are
// far apart (a row of B), so there is nothing to gain from wider steps.
TEXT ·copyRows64AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ rows+16(FP), CX
	MOVQ stride+24(FP), DX
	TESTQ CX, CX
	JLE  done
loop:
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	ADDQ DX, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  loop
	VZEROUPPER
done:
	RET

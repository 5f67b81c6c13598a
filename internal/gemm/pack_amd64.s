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

// func wideRows128F32AVX512(dst, src unsafe.Pointer, rows, stride, odd int)
//
// The Go loop it computes (wideRowsGo for float32, 128-byte rows): row r
// of dst is the 16 complex64 at src + stride·((odd+r)/2) as (re, im)
// pairs when odd+r is even, as (−im, re) when it is odd. Negation flips
// the sign bit, as Go's does.
TEXT ·wideRows128F32AVX512(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ rows+16(FP), CX
	MOVQ stride+24(FP), DX
	MOVQ odd+32(FP), BX
	MOVQ $0x80000000, AX
	VPBROADCASTQ AX, Z4   // the sign bit of every real (even) lane
	TESTQ CX, CX
	JLE  done
	TESTQ BX, BX
	JNZ  oddrow
evenrow:
	VMOVUPS (SI), Z0
	VMOVUPS 64(SI), Z1
	VMOVUPS Z0, (DI)
	VMOVUPS Z1, 64(DI)
	ADDQ $128, DI
	DECQ CX
	JZ   done
oddrow:
	VPERMILPS $0xB1, (SI), Z0 // (im, re) pairs
	VPERMILPS $0xB1, 64(SI), Z1
	VXORPS Z4, Z0, Z0
	VXORPS Z4, Z1, Z1
	VMOVUPS Z0, (DI)
	VMOVUPS Z1, 64(DI)
	ADDQ $128, DI
	ADDQ DX, SI
	DECQ CX
	JNZ  evenrow
done:
	VZEROUPPER
	RET

// func wideRows128F64AVX512(dst, src unsafe.Pointer, rows, stride, odd int)
//
// wideRows128F32AVX512 for complex128: 8 of them a row.
TEXT ·wideRows128F64AVX512(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ rows+16(FP), CX
	MOVQ stride+24(FP), DX
	MOVQ odd+32(FP), BX
	MOVQ $0x8000000000000000, AX
	MOVQ $0x55, R8
	KMOVB R8, K1
	VPXORQ Z4, Z4, Z4
	VPBROADCASTQ AX, K1, Z4 // the sign bit of every real (even) lane
	TESTQ CX, CX
	JLE  done
	TESTQ BX, BX
	JNZ  oddrow
evenrow:
	VMOVUPD (SI), Z0
	VMOVUPD 64(SI), Z1
	VMOVUPD Z0, (DI)
	VMOVUPD Z1, 64(DI)
	ADDQ $128, DI
	DECQ CX
	JZ   done
oddrow:
	VPERMILPD $0x55, (SI), Z0 // (im, re) pairs
	VPERMILPD $0x55, 64(SI), Z1
	VXORPD Z4, Z0, Z0
	VXORPD Z4, Z1, Z1
	VMOVUPD Z0, (DI)
	VMOVUPD Z1, 64(DI)
	ADDQ $128, DI
	ADDQ DX, SI
	DECQ CX
	JNZ  evenrow
done:
	VZEROUPPER
	RET

// func wideRows64F32AVX2(dst, src unsafe.Pointer, rows, stride, odd int)
//
// wideRows128F32AVX512 for 64-byte rows (8 complex64), the B rows of the
// AVX2 float32 kernel.
TEXT ·wideRows64F32AVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ rows+16(FP), CX
	MOVQ stride+24(FP), DX
	MOVQ odd+32(FP), BX
	MOVQ $0x80000000, AX
	VMOVQ AX, X4
	VPBROADCASTQ X4, Y4 // the sign bit of every real (even) lane
	TESTQ CX, CX
	JLE  done
	TESTQ BX, BX
	JNZ  oddrow
evenrow:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	ADDQ $64, DI
	DECQ CX
	JZ   done
oddrow:
	VPERMILPS $0xB1, (SI), Y0 // (im, re) pairs
	VPERMILPS $0xB1, 32(SI), Y1
	VXORPS Y4, Y0, Y0
	VXORPS Y4, Y1, Y1
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	ADDQ $64, DI
	ADDQ DX, SI
	DECQ CX
	JNZ  evenrow
done:
	VZEROUPPER
	RET

// func wideRows64F64AVX2(dst, src unsafe.Pointer, rows, stride, odd int)
//
// wideRows64F32AVX2 for complex128: 4 of them a row.
TEXT ·wideRows64F64AVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ rows+16(FP), CX
	MOVQ stride+24(FP), DX
	MOVQ odd+32(FP), BX
	MOVQ $0x8000000000000000, AX
	VMOVQ AX, X4
	VPERM2F128 $0x00, Y4, Y4, Y4 // (sign, 0) in both 16-byte lanes
	TESTQ CX, CX
	JLE  done
	TESTQ BX, BX
	JNZ  oddrow
evenrow:
	VMOVUPD (SI), Y0
	VMOVUPD 32(SI), Y1
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	ADDQ $64, DI
	DECQ CX
	JZ   done
oddrow:
	VPERMILPD $0x5, (SI), Y0 // (im, re) pairs
	VPERMILPD $0x5, 32(SI), Y1
	VXORPD Y4, Y0, Y0
	VXORPD Y4, Y1, Y1
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	ADDQ $64, DI
	ADDQ DX, SI
	DECQ CX
	JNZ  evenrow
done:
	VZEROUPPER
	RET

// func copyPanel128AVX512(dst, src unsafe.Pointer, rows, slivers, stride, sliverStride int)
//
// The Go loop it computes (copyPanel128Go): row r of the source, slivers
// 128-byte pieces long, goes to row r of each of the slivers at dst,
// sliverStride bytes apart:
//
//	for r := 0; r < rows; r++ {
//		for s := 0; s < slivers; s++ {
//			copy(dst[s*sliverStride+128*r:][:128], src[r*stride+128*s:][:128])
//		}
//	}
//
// Reading each source row straight through lets the hardware prefetcher
// follow it; walking one sliver down the rows (copyRows128 per sliver)
// touches a new page at every row.
TEXT ·copyPanel128AVX512(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ rows+16(FP), CX
	MOVQ slivers+24(FP), R9
	MOVQ stride+32(FP), DX
	MOVQ sliverStride+40(FP), R10
	TESTQ CX, CX
	JLE  done
	TESTQ R9, R9
	JLE  done
row:
	MOVQ SI, R11
	MOVQ DI, R12
	MOVQ R9, BX
piece:
	VMOVDQU64 (R11), Z0
	VMOVDQU64 64(R11), Z1
	VMOVDQU64 Z0, (R12)
	VMOVDQU64 Z1, 64(R12)
	ADDQ $128, R11
	ADDQ R10, R12
	DECQ BX
	JNZ  piece
	ADDQ DX, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  row
	VZEROUPPER
done:
	RET

// func copyPanel64AVX2(dst, src unsafe.Pointer, rows, slivers, stride, sliverStride int)
//
// copyPanel128AVX512 for 64-byte pieces (copyPanel64Go), in two 32-byte
// vector moves a piece.
TEXT ·copyPanel64AVX2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ rows+16(FP), CX
	MOVQ slivers+24(FP), R9
	MOVQ stride+32(FP), DX
	MOVQ sliverStride+40(FP), R10
	TESTQ CX, CX
	JLE  done
	TESTQ R9, R9
	JLE  done
row:
	MOVQ SI, R11
	MOVQ DI, R12
	MOVQ R9, BX
piece:
	VMOVDQU (R11), Y0
	VMOVDQU 32(R11), Y1
	VMOVDQU Y0, (R12)
	VMOVDQU Y1, 32(R12)
	ADDQ $64, R11
	ADDQ R10, R12
	DECQ BX
	JNZ  piece
	ADDQ DX, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  row
	VZEROUPPER
done:
	RET

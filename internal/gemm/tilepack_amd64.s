//go:build !purego

#include "textflag.h"

// AVX-512BW packing for the tile kernels (tiles.go): 64-byte rows of
// bfloat16 moved with one zmm load and store each, tested for subnormals
// on the way (VPTESTNMW: lanes whose exponent bits are zero; VPTESTMW under
// that mask: of those, lanes whose mantissa is not; K3 gathers them).

// Word indices for VPERMT2W: output word 2j is word j of the first row,
// word 2j+1 word j of the second (index 32 + j), for the columns 0-15
// (tilePairLo) and 16-31 (tilePairHi) of a panel.
DATA tilePairLo<>+0(SB)/8, $0x0021000100200000
DATA tilePairLo<>+8(SB)/8, $0x0023000300220002
DATA tilePairLo<>+16(SB)/8, $0x0025000500240004
DATA tilePairLo<>+24(SB)/8, $0x0027000700260006
DATA tilePairLo<>+32(SB)/8, $0x0029000900280008
DATA tilePairLo<>+40(SB)/8, $0x002b000b002a000a
DATA tilePairLo<>+48(SB)/8, $0x002d000d002c000c
DATA tilePairLo<>+56(SB)/8, $0x002f000f002e000e
GLOBL tilePairLo<>(SB), RODATA|NOPTR, $64
DATA tilePairHi<>+0(SB)/8, $0x0031001100300010
DATA tilePairHi<>+8(SB)/8, $0x0033001300320012
DATA tilePairHi<>+16(SB)/8, $0x0035001500340014
DATA tilePairHi<>+24(SB)/8, $0x0037001700360016
DATA tilePairHi<>+32(SB)/8, $0x0039001900380018
DATA tilePairHi<>+40(SB)/8, $0x003b001b003a001a
DATA tilePairHi<>+48(SB)/8, $0x003d001d003c001c
DATA tilePairHi<>+56(SB)/8, $0x003f001f003e001e
GLOBL tilePairHi<>(SB), RODATA|NOPTR, $64

#define MASKS \
	MOVL $0x7f807f80, AX; VPBROADCASTD AX, Z30; \
	MOVL $0x007f007f, AX; VPBROADCASTD AX, Z31; \
	KXORD K3, K3, K3

// TEST_SUB(z) adds the subnormal lanes of z to K3.
#define TEST_SUB(z) \
	VPTESTNMW Z30, z, K1; \
	VPTESTMW Z31, z, K1, K2; \
	KORD K2, K3, K3

// func tileCopyAVX512(dst, src *uint16, chunks int) bool
TEXT ·tileCopyAVX512(SB), NOSPLIT, $0-25
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ chunks+16(FP), CX
	MASKS
	TESTQ CX, CX
	JZ    done

loop:
	VMOVDQU16 (SI), Z0
	VMOVDQU16 Z0, (DI)
	TEST_SUB(Z0)
	ADDQ $64, SI
	ADDQ $2048, DI
	DECQ CX
	JNZ  loop

done:
	KORTESTD K3, K3
	SETNE    ret+24(FP)
	VZEROUPPER
	RET

// func tilePairsAVX512(dst, src *uint16, rs, pairs int) bool
TEXT ·tilePairsAVX512(SB), NOSPLIT, $0-33
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ rs+16(FP), DX
	SHLQ $1, DX
	MOVQ pairs+24(FP), CX
	MASKS
	VMOVDQU64 tilePairLo<>(SB), Z28
	VMOVDQU64 tilePairHi<>(SB), Z29
	TESTQ CX, CX
	JZ    done

loop:
	VMOVDQU16 (SI), Z0
	VMOVDQU16 (SI)(DX*1), Z1
	TEST_SUB(Z0)
	TEST_SUB(Z1)
	VMOVDQA64 Z0, Z2
	VPERMT2W  Z1, Z28, Z0
	VPERMT2W  Z1, Z29, Z2
	VMOVDQU16 Z0, (DI)
	VMOVDQU16 Z2, 1024(DI)
	LEAQ      (SI)(DX*2), SI
	ADDQ      $64, DI
	DECQ      CX
	JNZ       loop

done:
	KORTESTD K3, K3
	SETNE    ret+32(FP)
	VZEROUPPER
	RET

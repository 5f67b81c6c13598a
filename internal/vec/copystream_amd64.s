//go:build !purego

#include "textflag.h"

// func copyLinesAVX512(dst, src []byte)
// Four lines a step while four remain, then one at a time; the loads are
// unaligned (the source is any buffer), the stores aligned and streaming.
TEXT ·copyLinesAVX512(SB), NOSPLIT, $0-48
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	CMPQ CX, $256
	JB   one
four:
	VMOVDQU64 (SI), Z0
	VMOVDQU64 64(SI), Z1
	VMOVDQU64 128(SI), Z2
	VMOVDQU64 192(SI), Z3
	VMOVNTDQ  Z0, (DI)
	VMOVNTDQ  Z1, 64(DI)
	VMOVNTDQ  Z2, 128(DI)
	VMOVNTDQ  Z3, 192(DI)
	ADDQ $256, SI
	ADDQ $256, DI
	SUBQ $256, CX
	CMPQ CX, $256
	JAE  four
one:
	TESTQ CX, CX
	JZ    done
	VMOVDQU64 (SI), Z0
	VMOVNTDQ  Z0, (DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $64, CX
	JMP  one
done:
	VZEROUPPER
	RET

// func copyLinesAVX2(dst, src []byte)
TEXT ·copyLinesAVX2(SB), NOSPLIT, $0-48
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	CMPQ CX, $256
	JB   one
four:
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU 64(SI), Y2
	VMOVDQU 96(SI), Y3
	VMOVDQU 128(SI), Y4
	VMOVDQU 160(SI), Y5
	VMOVDQU 192(SI), Y6
	VMOVDQU 224(SI), Y7
	VMOVNTDQ Y0, (DI)
	VMOVNTDQ Y1, 32(DI)
	VMOVNTDQ Y2, 64(DI)
	VMOVNTDQ Y3, 96(DI)
	VMOVNTDQ Y4, 128(DI)
	VMOVNTDQ Y5, 160(DI)
	VMOVNTDQ Y6, 192(DI)
	VMOVNTDQ Y7, 224(DI)
	ADDQ $256, SI
	ADDQ $256, DI
	SUBQ $256, CX
	CMPQ CX, $256
	JAE  four
one:
	TESTQ CX, CX
	JZ    done
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVNTDQ Y0, (DI)
	VMOVNTDQ Y1, 32(DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $64, CX
	JMP  one
done:
	VZEROUPPER
	RET

// func fenceStores()
TEXT ·fenceStores(SB), NOSPLIT, $0-0
	SFENCE
	RET

//go:build !purego

#include "textflag.h"

// The AMX bfloat16 kernel. Go's assembler (go 1.26) knows no tile
// instruction, so each is spelt in bytes with its mnemonic (AT&T operand
// order) beside it; llvm-mc -show-encoding gives the same bytes.
//
// Tiles: tmm0..tmm3 are the 2×2 block of 16×16 float32 accumulators (tmm0
// rows 0-15 columns 0-15, tmm1 rows 0-15 columns 16-31, tmm2 rows 16-31
// columns 0-15, tmm3 rows 16-31 columns 16-31); tmm4/tmm5 the A tiles of a
// K step (rows 0-15 and 16-31, 32 bfloat16 each); tmm6/tmm7 the B tiles
// (columns 0-15 and 16-31, 16 rows of 16 pairs). Every tile is 16 rows of
// 64 bytes (tileConfigBF16).
//
// Registers: SI walks the A sliver, DI the B panels, CX is the packed
// tiles' row stride (64 bytes), DX and AX address rows 0 and 16 of the C
// block, BX is C's row stride in bytes, R9 the steps, R10 the C blocks
// left, R11 the accumulate flag, R12 counts steps, R14 the bfloat16 rows
// of the current sliver (out; R14 is free in an ABI0 function).

// tileloadd (%rsi,%rcx,1), %tmm4
#define LOAD_A0 BYTE $0xc4; BYTE $0xe2; BYTE $0x7b; BYTE $0x4b; BYTE $0x24; BYTE $0x0e
// tileloadd 1024(%rsi,%rcx,1), %tmm5
#define LOAD_A1 BYTE $0xc4; BYTE $0xe2; BYTE $0x7b; BYTE $0x4b; BYTE $0xac; BYTE $0x0e; LONG $0x00000400
// tileloadd (%rdi,%rcx,1), %tmm6
#define LOAD_B0 BYTE $0xc4; BYTE $0xe2; BYTE $0x7b; BYTE $0x4b; BYTE $0x34; BYTE $0x0f
// tileloadd 1024(%rdi,%rcx,1), %tmm7
#define LOAD_B1 BYTE $0xc4; BYTE $0xe2; BYTE $0x7b; BYTE $0x4b; BYTE $0xbc; BYTE $0x0f; LONG $0x00000400

// tdpbf16ps %tmm6, %tmm4, %tmm0 (tmm0 += tmm4 · tmm6)
#define DP_00 BYTE $0xc4; BYTE $0xe2; BYTE $0x4a; BYTE $0x5c; BYTE $0xc4
// tdpbf16ps %tmm7, %tmm4, %tmm1
#define DP_01 BYTE $0xc4; BYTE $0xe2; BYTE $0x42; BYTE $0x5c; BYTE $0xcc
// tdpbf16ps %tmm6, %tmm5, %tmm2
#define DP_10 BYTE $0xc4; BYTE $0xe2; BYTE $0x4a; BYTE $0x5c; BYTE $0xd5
// tdpbf16ps %tmm7, %tmm5, %tmm3
#define DP_11 BYTE $0xc4; BYTE $0xe2; BYTE $0x42; BYTE $0x5c; BYTE $0xdd

// tileloadd (%rdx,%rbx,1), %tmm0; tileloadd 64(%rdx,%rbx,1), %tmm1;
// tileloadd (%rax,%rbx,1), %tmm2; tileloadd 64(%rax,%rbx,1), %tmm3
#define LOAD_C \
	BYTE $0xc4; BYTE $0xe2; BYTE $0x7b; BYTE $0x4b; BYTE $0x04; BYTE $0x1a; \
	BYTE $0xc4; BYTE $0xe2; BYTE $0x7b; BYTE $0x4b; BYTE $0x4c; BYTE $0x1a; BYTE $0x40; \
	BYTE $0xc4; BYTE $0xe2; BYTE $0x7b; BYTE $0x4b; BYTE $0x14; BYTE $0x18; \
	BYTE $0xc4; BYTE $0xe2; BYTE $0x7b; BYTE $0x4b; BYTE $0x5c; BYTE $0x18; BYTE $0x40

// tilestored %tmm0, (%rdx,%rbx,1); tilestored %tmm1, 64(%rdx,%rbx,1);
// tilestored %tmm2, (%rax,%rbx,1); tilestored %tmm3, 64(%rax,%rbx,1)
#define STORE_C \
	BYTE $0xc4; BYTE $0xe2; BYTE $0x7a; BYTE $0x4b; BYTE $0x04; BYTE $0x1a; \
	BYTE $0xc4; BYTE $0xe2; BYTE $0x7a; BYTE $0x4b; BYTE $0x4c; BYTE $0x1a; BYTE $0x40; \
	BYTE $0xc4; BYTE $0xe2; BYTE $0x7a; BYTE $0x4b; BYTE $0x14; BYTE $0x18; \
	BYTE $0xc4; BYTE $0xe2; BYTE $0x7a; BYTE $0x4b; BYTE $0x5c; BYTE $0x18; BYTE $0x40

// tilestored %tmm0, (%rax,%rcx,1); tilestored %tmm1, 64(%rax,%rcx,1);
// tilestored %tmm2, 2048(%rax,%rcx,1); tilestored %tmm3, 2112(%rax,%rcx,1):
// the 2×2 block as 32 rows of 32 float32 at AX (CX = 128).
#define STORE_SCRATCH \
	BYTE $0xc4; BYTE $0xe2; BYTE $0x7a; BYTE $0x4b; BYTE $0x04; BYTE $0x08; \
	BYTE $0xc4; BYTE $0xe2; BYTE $0x7a; BYTE $0x4b; BYTE $0x4c; BYTE $0x08; BYTE $0x40; \
	BYTE $0xc4; BYTE $0xe2; BYTE $0x7a; BYTE $0x4b; BYTE $0x94; BYTE $0x08; LONG $0x00000800; \
	BYTE $0xc4; BYTE $0xe2; BYTE $0x7a; BYTE $0x4b; BYTE $0x9c; BYTE $0x08; LONG $0x00000840

// vcvtne2ps2bf16 %zmm1, %zmm0, %zmm2: words 0-15 of Z2 are Z1's sixteen
// float32 rounded to bfloat16, words 16-31 Z0's (to nearest even, a NaN
// quietened with its sign and top payload kept; a subnormal input or result
// would be flushed, but a tile's float32 sums never are subnormal, since
// TDPBF16PS flushes its own results).
#define CVT_Z1_Z0_Z2 BYTE $0x62; BYTE $0xf2; BYTE $0x7f; BYTE $0x48; BYTE $0x72; BYTE $0xd1

// ROUND_ROW(off) rounds the scratch row at off(AX) (32 float32) into the
// 32 bfloat16 at R12 and moves R12 to the next row of out (SI bytes on).
#define ROUND_ROW(off) \
	VMOVUPS off(AX), Z1; \
	VMOVUPS off+64(AX), Z0; \
	CVT_Z1_Z0_Z2; \
	VMOVDQU16 Z2, (R12); \
	ADDQ SI, R12

#define ROUND_8ROWS(off) \
	ROUND_ROW(off); ROUND_ROW(off+128); ROUND_ROW(off+256); ROUND_ROW(off+384); \
	ROUND_ROW(off+512); ROUND_ROW(off+640); ROUND_ROW(off+768); ROUND_ROW(off+896)

// tilezero %tmm0; tilezero %tmm1; tilezero %tmm2; tilezero %tmm3
#define ZERO_C \
	BYTE $0xc4; BYTE $0xe2; BYTE $0x7b; BYTE $0x49; BYTE $0xc0; \
	BYTE $0xc4; BYTE $0xe2; BYTE $0x7b; BYTE $0x49; BYTE $0xc8; \
	BYTE $0xc4; BYTE $0xe2; BYTE $0x7b; BYTE $0x49; BYTE $0xd0; \
	BYTE $0xc4; BYTE $0xe2; BYTE $0x7b; BYTE $0x49; BYTE $0xd8

// ldtilecfg (%rax)
#define LDTILECFG_AX BYTE $0xc4; BYTE $0xe2; BYTE $0x78; BYTE $0x49; BYTE $0x00
// tilerelease
#define TILERELEASE BYTE $0xc4; BYTE $0xe2; BYTE $0x78; BYTE $0x49; BYTE $0xc0

// func tilesBF16AMX(a, b *uint16, c *float32, ldc int, out *uint16, ldo int, scratch *float32, steps, blocks, slivers int, accumulate bool)
//
// The tile state lives only inside this call: it is configured on entry and
// released before the return, so a goroutine that Go moves to another
// thread between calls (assembly is never preempted asynchronously) owns
// no tile state then, and a signal on the way saves it with the rest of
// the thread's extended state. R8 is the current A sliver, R13 the C rows
// of the current sliver.
TEXT ·tilesBF16AMX(SB), NOSPLIT, $0-81
	LEAQ ·tileConfigBF16(SB), AX
	LDTILECFG_AX
	MOVQ a+0(FP), R8
	MOVQ c+16(FP), R13
	MOVQ ldc+24(FP), BX
	SHLQ $2, BX
	MOVQ out+32(FP), R14
	MOVQ steps+56(FP), R9
	MOVBLZX accumulate+80(FP), R11
	MOVQ $64, CX

sliver:
	MOVQ b+8(FP), DI
	MOVQ R13, DX
	MOVQ blocks+64(FP), R10

block:
	MOVQ BX, AX
	SHLQ $4, AX
	ADDQ DX, AX
	TESTQ R11, R11
	JZ   zero
	LOAD_C
	JMP  body

zero:
	ZERO_C

body:
	MOVQ R8, SI
	MOVQ R9, R12

step:
	LOAD_A0
	LOAD_B0
	DP_00
	LOAD_B1
	DP_01
	LOAD_A1
	DP_10
	DP_11
	ADDQ $2048, SI
	ADDQ $2048, DI
	DECQ R12
	JNZ  step

	TESTQ R14, R14
	JNZ   rounded
	STORE_C
	JMP   stored

rounded:
	// Through the scratch block into the bfloat16 block at R14 + 64 bytes
	// per block already done.
	MOVQ scratch+48(FP), AX
	MOVQ $128, CX
	STORE_SCRATCH
	MOVQ $64, CX
	MOVQ blocks+64(FP), R12
	SUBQ R10, R12
	SHLQ $6, R12
	ADDQ R14, R12
	MOVQ ldo+40(FP), SI
	SHLQ $1, SI
	ROUND_8ROWS(0)
	ROUND_8ROWS(1024)
	ROUND_8ROWS(2048)
	ROUND_8ROWS(3072)

stored:
	ADDQ $128, DX
	DECQ R10
	JNZ  block

	// The next sliver: A steps·2 KiB on, C and out 32 rows down.
	MOVQ R9, R12
	SHLQ $11, R12
	ADDQ R12, R8
	MOVQ BX, R12
	SHLQ $5, R12
	ADDQ R12, R13
	TESTQ R14, R14
	JZ    next
	MOVQ ldo+40(FP), R12
	SHLQ $6, R12
	ADDQ R12, R14

next:
	DECQ slivers+72(FP)
	JNZ  sliver

	TILERELEASE
	VZEROUPPER
	RET

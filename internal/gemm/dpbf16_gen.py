def dp(acc, vreg, disp):
    p0 = ((~(acc >> 3)) & 1) << 7 | 1 << 6 | 1 << 5 | 1 << 4 | 0b10
    p1 = ((~vreg) & 15) << 3 | 1 << 2 | 0b10
    p2 = 0b10 << 5 | 1 << 4 | ((~(vreg >> 4)) & 1) << 3
    modrm = 0b01 << 6 | (acc & 7) << 3 | 6
    bs = [0x62, p0, p1, p2, 0x52, modrm, disp]
    return "; ".join("BYTE $0x%02x" % b for b in bs)

out = []
w = out.append
w("""//go:build !purego

#include "textflag.h"

// The AVX512_BF16 strip kernel of dpbf16.go. Go's assembler (go 1.26)
// knows no AVX512_BF16 instruction, so VDPBF16PS and VCVTNE2PS2BF16 are
// spelt in bytes with the instruction (Go operand order) in the comment
// beside them. This file is written by dpbf16_gen.py; edit that instead.
//
// Registers: SI walks the A strip (8 rows of 64 bytes a K step, steps
// 2048 bytes apart), DI the B panel (a step's two 1 KiB tiles, 16 pairs
// of 64 bytes each), CX counts steps; Z0-Z15 are the accumulators (row i
// columns 0-15 in Z(2i), 16-31 in Z(2i+1)), Z16 and Z17 the B pairs of
// one pair of K (columns 0-15 and 16-31); each VDPBF16PS broadcasts row
// i's pair from A (a 32-bit broadcast, its displacement disp8·4 bytes).
// DX and BX are C's rows and row stride in bytes, R8 and R9 out's.

// func dpStripBF16(a, b *uint16, c *float32, ldc int, out *uint16, ldo int, steps int, accumulate bool)
TEXT ·dpStripBF16(SB), NOSPLIT, $0-57
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ c+16(FP), DX
	MOVQ ldc+24(FP), BX
	SHLQ $2, BX
	MOVQ out+32(FP), R8
	MOVQ ldo+40(FP), R9
	SHLQ $1, R9
	MOVQ steps+48(FP), CX""")
for r in range(16):
    w("\tVPXORD Z%d, Z%d, Z%d" % (r, r, r))
w("\nstep:")
for p in range(16):
    w("\tVMOVUPS %d(DI), Z16" % (p * 64))
    w("\tVMOVUPS %d(DI), Z17" % (1024 + p * 64))
    for i in range(8):
        for h in range(2):
            acc, vreg, disp = 2 * i + h, 16 + h, i * 16 + p
            w("\t%s // VDPBF16PS.BCST %d(SI), Z%d, Z%d" % (dp(acc, vreg, disp), disp * 4, vreg, acc))
w("""	ADDQ $2048, SI
	ADDQ $2048, DI
	DECQ CX
	JNZ  step

	// C + the block's sums, as the float32 kernels add a K block to C.
	MOVBLZX accumulate+56(FP), AX
	TESTQ AX, AX
	JZ    sums
	MOVQ  DX, AX""")
for i in range(8):
    w("\tVADDPS (AX), Z%d, Z%d" % (2 * i, 2 * i))
    w("\tVADDPS 64(AX), Z%d, Z%d" % (2 * i + 1, 2 * i + 1))
    if i < 7:
        w("\tADDQ BX, AX")
w("""
sums:
	TESTQ R8, R8
	JNZ   round""")
for i in range(8):
    w("\tVMOVUPS Z%d, (DX)" % (2 * i))
    w("\tVMOVUPS Z%d, 64(DX)" % (2 * i + 1))
    if i < 7:
        w("\tADDQ BX, DX")
w("""	VZEROUPPER
	RET

	// Each row's 32 sums rounded to bfloat16 (nearest even, a NaN kept
	// quiet; no sum is subnormal: see dpbf16.go) and stored as 64 bytes.
round:""")
for i in range(8):
    w("\tVMOVAPS Z%d, Z28" % (2 * i))
    w("\tVMOVAPS Z%d, Z29" % (2 * i + 1))
    w("\tBYTE $0x62; BYTE $0x02; BYTE $0x17; BYTE $0x40; BYTE $0x72; BYTE $0xf4 // VCVTNE2PS2BF16 Z28, Z29, Z30 (Z30 low half from Z28)")
    w("\tVMOVDQU16 Z30, (R8)")
    if i < 7:
        w("\tADDQ R9, R8")
w("""	VZEROUPPER
	RET
""")
w("""// func dpPrepareBF16(p *uint16, n int) bool
//
// Swaps the two bfloat16 of every pair of p[:n] (n a multiple of 32) and
// reports whether one of them is nonzero with a magnitude below 2⁻⁵⁶ (its
// bits less the sign between 1 and 0x237f): Z4 holds the sign mask, Z5
// the bound, K4 gathers the lanes found.
TEXT ·dpPrepareBF16(SB), NOSPLIT, $0-17
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $5, CX
	MOVL $0x7fff7fff, AX
	VPBROADCASTD AX, Z4
	MOVL $0x23802380, AX
	VPBROADCASTD AX, Z5
	KXORD K4, K4, K4
	TESTQ CX, CX
	JZ    done

prep:
	VMOVDQU16 (SI), Z0
	VPRORD    $16, Z0, Z1
	VMOVDQU16 Z1, (SI)
	VPANDD    Z4, Z0, Z2
	VPCMPUW   $1, Z5, Z2, K1 // Z2 < Z5
	VPTESTMW  Z2, Z2, K2     // Z2 != 0
	KANDD     K1, K2, K3
	KORD      K3, K4, K4
	ADDQ      $64, SI
	DECQ      CX
	JNZ       prep

done:
	KORTESTD K4, K4
	SETNE    ret+16(FP)
	VZEROUPPER
	RET
""")
open("/work/wt/zbf16/internal/gemm/dpbf16_amd64.s", "w").write("\n".join(out))

// NEON instructions as WORDs, for the arm64 kernels of this package (Go
// 1.26's assembler has no mnemonic for them): VOP2(OP, d, n) is
// "OP Vd, Vn", the register numbers ORed into the opcode's Rd (bits 0-4)
// and Rn (5-9) fields. Each comment gives the instruction with every
// register V0; the disassembly of the built kernels was checked against
// them. The conversions round by FPCR's mode, nearest even, which Go never
// changes, and quiet a NaN keeping the top of its payload, as the Go twins
// and the x86 instructions do.
#define VOP2(OP, d, n) WORD $((OP)|((n)<<5)|(d))

// FCVTL V0.4S, V0.4H (the low four binary16 widened, exactly)
#define FCVTL_4S 0x0e217800
// FCVTL2 V0.4S, V0.8H (the high four)
#define FCVTL2_4S 0x4e217800
// FCVTN V0.4H, V0.4S (four float32 rounded to binary16 in the low half,
// the high half cleared)
#define FCVTN_4H 0x0e216800
// FCVTN2 V0.8H, V0.4S (into the high half, keeping the low)
#define FCVTN2_8H 0x4e216800
// FCVTL V0.2D, V0.2S (the low two float32 widened, exactly)
#define FCVTL_2D 0x0e617800
// FCVTL2 V0.2D, V0.4S (the high two)
#define FCVTL2_2D 0x4e617800
// FCVTN V0.2S, V0.2D (two float64 rounded to float32 in the low half)
#define FCVTN_2S 0x0e616800
// FCVTN2 V0.4S, V0.2D (into the high half, keeping the low)
#define FCVTN2_4S 0x4e616800
// SCVTF V0.4S, V0.4S (int32 to float32)
#define SCVTF_4S 0x4e21d800
// SHLL V0.4S, V0.4H, #16 (bfloat16 widened: shifted into the upper half)
#define SHLL_4S 0x2e613800
// SHLL2 V0.4S, V0.8H, #16
#define SHLL2_4S 0x6e613800

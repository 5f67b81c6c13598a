// NEON instructions as WORDs, for the arm64 kernels of this package (Go
// 1.26's assembler has no mnemonic for them): VOP2(OP, d, n) is
// "OP Vd, Vn" and VOP3(OP, d, n, m) "OP Vd, Vn, Vm", the register numbers
// ORed into the opcode's Rd (bits 0-4), Rn (5-9) and Rm (16-20) fields. Each comment gives the instruction with every
// register V0; the disassembly of the built kernels was checked against
// them. The conversions round by FPCR's mode, nearest even, which Go never
// changes, and quiet a NaN keeping the top of its payload, as the Go twins
// and the x86 instructions do.
#define VOP2(OP, d, n) WORD $((OP)|((n)<<5)|(d))
#define VOP3(OP, d, n, m) WORD $((OP)|((m)<<16)|((n)<<5)|(d))

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
// ADD V0.4S, V0.4S, V0.4S
#define ADD_4S 0x4ea08400

// The bfloat16 rounding below uses these too, although the assembler has
// mnemonics for all but FCMEQ: as WORDs they take register numbers, as the
// rest of a step does.
// FCMEQ V0.4S, V0.4S, V0.4S (all ones in the lanes that are not NaN, for
// Vn = Vm)
#define FCMEQ_4S 0x4e20e400
// USHR V0.4S, V0.4S, #16
#define USHR16_4S 0x6f300400
// AND V0.16B, V0.16B, V0.16B
#define AND_16B 0x4e201c00
// ORR V0.16B, V0.16B, V0.16B
#define ORR_16B 0x4ea01c00
// BIT V0.16B, V0.16B, V0.16B (Vd takes the bits of Vn where Vm has ones)
#define BIT_16B 0x6ea01c00
// UZP2 V0.8H, V0.8H, V0.8H (the odd halfwords of Vn, then of Vm: the upper
// halves of their 32-bit lanes)
#define UZP2_8H 0x4e405800

// BF16ROUND(v, t, m) rounds the float32 lanes of Vv to bfloat16, as
// f32ToBF16 does, into the upper halves of Vm's lanes (Vv and Vt are
// clobbered): t = u + 0x7fff + (u>>16)&1 carries into the upper half
// exactly when rounding to nearest even goes up; m = u | 0x00400000 is the
// quiet NaN; FCMEQ marks the lanes that are not NaN and BIT takes t there.
// V28 holds 0x7fff, V29 1 and V30 0x00400000 in every lane (BF16CONST).
#define BF16ROUND(v, t, m) \
	VOP2(USHR16_4S, t, v); \
	VOP3(AND_16B, t, t, 29); \
	VOP3(ADD_4S, t, t, 28); \
	VOP3(ADD_4S, t, t, v); \
	VOP3(ORR_16B, m, v, 30); \
	VOP3(FCMEQ_4S, v, v, v); \
	VOP3(BIT_16B, m, t, v)

#define BF16CONST \
	MOVW $0x7fff, R4; \
	VDUP R4, V28.S4; \
	MOVW $1, R4; \
	VDUP R4, V29.S4; \
	MOVW $0x00400000, R4; \
	VDUP R4, V30.S4

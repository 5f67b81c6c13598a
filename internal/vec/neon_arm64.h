// NEON instructions as WORDs, for the arm64 kernels of this package.
//
// Go 1.26's assembler has no mnemonic for the vector arithmetic (FMUL,
// FADD, MUL, SCVTF, FCVTL, FCVTN on arrangements), so the steps emit them
// as WORDs: VOP3(OP, d, n, m) is the three-register instruction
// "OP Vd, Vn, Vm" and VOP2(OP, d, n) the two-register one "OP Vd, Vn",
// the register numbers ORed into the opcode's Rd (bits 0-4), Rn (5-9) and
// Rm (16-20) fields. The opcodes below have those fields zero; each comment
// gives the instruction with every register V0. The disassembly of the
// built kernels was checked against these comments.
#define VOP3(OP, d, n, m) WORD $((OP)|((m)<<16)|((n)<<5)|(d))
#define VOP2(OP, d, n) WORD $((OP)|((n)<<5)|(d))

// FMUL V0.4S, V0.4S, V0.4S
#define FMUL_4S 0x6e20dc00
// FMUL V0.2D, V0.2D, V0.2D
#define FMUL_2D 0x6e60dc00
// FADD V0.4S, V0.4S, V0.4S
#define FADD_4S 0x4e20d400
// FADD V0.2D, V0.2D, V0.2D
#define FADD_2D 0x4e60d400
// MUL V0.16B, V0.16B, V0.16B
#define MUL_16B 0x4e209c00
// MUL V0.8H, V0.8H, V0.8H
#define MUL_8H 0x4e609c00
// MUL V0.4S, V0.4S, V0.4S
#define MUL_4S 0x4ea09c00
// ADD V0.16B, V0.16B, V0.16B (the assembler has VADD; the opcode lets the
// integer add share the steps)
#define ADD_16B 0x4e208400
// ADD V0.8H, V0.8H, V0.8H
#define ADD_8H 0x4e608400
// ADD V0.4S, V0.4S, V0.4S
#define ADD_4S 0x4ea08400
// ADD V0.2D, V0.2D, V0.2D
#define ADD_2D 0x4ee08400
// SCVTF V0.4S, V0.4S (int32 to float32, rounding to nearest even)
#define SCVTF_4S 0x4e21d800
// FCVTL V0.2D, V0.2S (the low two float32 widened, exactly)
#define FCVTL_2D 0x0e617800
// FCVTL2 V0.2D, V0.4S (the high two)
#define FCVTL2_2D 0x4e617800
// FCVTL V0.4S, V0.4H (the low four binary16 widened, exactly)
#define FCVTL_4S 0x0e217800
// FCVTL2 V0.4S, V0.8H (the high four)
#define FCVTL2_4S 0x4e217800
// FCVTN V0.4H, V0.4S (four float32 rounded to binary16 in the low half,
// by FPCR's mode: nearest even, which Go never changes)
#define FCVTN_4H 0x0e216800
// FCVTN2 V0.8H, V0.4S (into the high half, keeping the low)
#define FCVTN2_8H 0x4e216800
// SHLL V0.4S, V0.4H, #16 (bfloat16 widened: shifted into the upper half)
#define SHLL_4S 0x2e613800
// SHLL2 V0.4S, V0.8H, #16
#define SHLL2_4S 0x6e613800
// SXTL V0.8H, V0.8B (sign-extended: SSHLL #0)
#define SXTL_8H 0x0f08a400
// SXTL2 V0.8H, V0.16B
#define SXTL2_8H 0x4f08a400
// SXTL V0.4S, V0.4H
#define SXTL_4S 0x0f10a400
// SXTL2 V0.4S, V0.8H
#define SXTL2_4S 0x4f10a400
// UXTL V0.8H, V0.8B (zero-extended: USHLL #0)
#define UXTL_8H 0x2f08a400
// UXTL2 V0.8H, V0.16B
#define UXTL2_8H 0x6f08a400
// UXTL V0.4S, V0.4H
#define UXTL_4S 0x2f10a400
// UXTL2 V0.4S, V0.8H
#define UXTL2_4S 0x6f10a400

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

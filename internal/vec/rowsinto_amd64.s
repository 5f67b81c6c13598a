//go:build !purego

#include "textflag.h"

// Rows-into kernels (see rowsinto.go): for each vector of out, the first
// row's vector is loaded (widened, exactly, for float32 rows), every
// following row's folded in by OP in row order, and the result rounded
// (float32) and stored. DI walks out, SI the first row, R9 down the rows
// of the current vector; BX is the row count (≥ 1), DX the stride in
// bytes, CX the elements left.

#define ROWSINTO_ARGS(SHIFT) \
	MOVQ out_base+0(FP), DI; \
	MOVQ out_len+8(FP), CX; \
	MOVQ x_base+24(FP), SI; \
	MOVQ rows+48(FP), BX; \
	MOVQ stride+56(FP), DX; \
	SHLQ $SHIFT, DX

// The low CX bits of K1 (CX < 64).
#define ROWSINTO_MASK \
	MOVQ  $1, AX; \
	SHLQ  CX, AX; \
	DECQ  AX; \
	KMOVQ AX, K1

// ROWSINTO_WIDE512: float32 rows, float64 accumulators, float32 out.
// Sixteen elements a step (two zmm), then eight, then a masked rest.
#define ROWSINTO_WIDE512(OP) \
loop: \
	CMPQ        CX, $16; \
	JB          eight; \
	MOVQ        SI, R9; \
	MOVQ        BX, R10; \
	VCVTPS2PD   (R9), Z0; \
	VCVTPS2PD   32(R9), Z1; \
	JMP         next16; \
row16: \
	VCVTPS2PD   (R9), Z2; \
	VCVTPS2PD   32(R9), Z3; \
	OP          Z2, Z0, Z0; \
	OP          Z3, Z1, Z1; \
next16: \
	ADDQ        DX, R9; \
	DECQ        R10; \
	JNZ         row16; \
	VCVTPD2PS   Z0, Y0; \
	VCVTPD2PS   Z1, Y1; \
	VMOVUPS     Y0, (DI); \
	VMOVUPS     Y1, 32(DI); \
	ADDQ        $64, DI; \
	ADDQ        $64, SI; \
	SUBQ        $16, CX; \
	JMP         loop; \
eight: \
	CMPQ        CX, $8; \
	JB          tail; \
	MOVQ        SI, R9; \
	MOVQ        BX, R10; \
	VCVTPS2PD   (R9), Z0; \
	JMP         next8; \
row8: \
	VCVTPS2PD   (R9), Z2; \
	OP          Z2, Z0, Z0; \
next8: \
	ADDQ        DX, R9; \
	DECQ        R10; \
	JNZ         row8; \
	VCVTPD2PS   Z0, Y0; \
	VMOVUPS     Y0, (DI); \
	ADDQ        $32, DI; \
	ADDQ        $32, SI; \
	SUBQ        $8, CX; \
tail: \
	TESTQ       CX, CX; \
	JZ          done; \
	ROWSINTO_MASK; \
	MOVQ        SI, R9; \
	MOVQ        BX, R10; \
	VCVTPS2PD.Z (R9), K1, Z0; \
	JMP         nextm; \
rowm: \
	VCVTPS2PD.Z (R9), K1, Z2; \
	OP          Z2, Z0, Z0; \
nextm: \
	ADDQ        DX, R9; \
	DECQ        R10; \
	JNZ         rowm; \
	VCVTPD2PS   Z0, Y0; \
	VMOVUPS     Y0, K1, (DI); \
done: \
	VZEROUPPER; \
	RET

// ROWSINTO_512: float64 rows, accumulators and out. Sixteen elements a
// step (two zmm), then eight, then a masked rest.
#define ROWSINTO_512(OP) \
loop: \
	CMPQ      CX, $16; \
	JB        eight; \
	MOVQ      SI, R9; \
	MOVQ      BX, R10; \
	VMOVUPD   (R9), Z0; \
	VMOVUPD   64(R9), Z1; \
	JMP       next16; \
row16: \
	OP        (R9), Z0, Z0; \
	OP        64(R9), Z1, Z1; \
next16: \
	ADDQ      DX, R9; \
	DECQ      R10; \
	JNZ       row16; \
	VMOVUPD   Z0, (DI); \
	VMOVUPD   Z1, 64(DI); \
	ADDQ      $128, DI; \
	ADDQ      $128, SI; \
	SUBQ      $16, CX; \
	JMP       loop; \
eight: \
	CMPQ      CX, $8; \
	JB        tail; \
	MOVQ      SI, R9; \
	MOVQ      BX, R10; \
	VMOVUPD   (R9), Z0; \
	JMP       next8; \
row8: \
	OP        (R9), Z0, Z0; \
next8: \
	ADDQ      DX, R9; \
	DECQ      R10; \
	JNZ       row8; \
	VMOVUPD   Z0, (DI); \
	ADDQ      $64, DI; \
	ADDQ      $64, SI; \
	SUBQ      $8, CX; \
tail: \
	TESTQ     CX, CX; \
	JZ        done; \
	ROWSINTO_MASK; \
	MOVQ      SI, R9; \
	MOVQ      BX, R10; \
	VMOVUPD.Z (R9), K1, Z0; \
	JMP       nextm; \
rowm: \
	OP.Z      (R9), Z0, K1, Z0; \
nextm: \
	ADDQ      DX, R9; \
	DECQ      R10; \
	JNZ       rowm; \
	VMOVUPD   Z0, K1, (DI); \
done: \
	VZEROUPPER; \
	RET

// ROWSINTO_WIDE256: the AVX2 float32 kernel, eight elements a step (two
// ymm of float64), then four, leaving fewer than four for the Go twin.
#define ROWSINTO_WIDE256(OP) \
loop: \
	CMPQ       CX, $8; \
	JB         four; \
	MOVQ       SI, R9; \
	MOVQ       BX, R10; \
	VCVTPS2PD  (R9), Y0; \
	VCVTPS2PD  16(R9), Y1; \
	JMP        next8; \
row8: \
	VCVTPS2PD  (R9), Y2; \
	VCVTPS2PD  16(R9), Y3; \
	OP         Y2, Y0, Y0; \
	OP         Y3, Y1, Y1; \
next8: \
	ADDQ       DX, R9; \
	DECQ       R10; \
	JNZ        row8; \
	VCVTPD2PSY Y0, X0; \
	VCVTPD2PSY Y1, X1; \
	VMOVUPS    X0, (DI); \
	VMOVUPS    X1, 16(DI); \
	ADDQ       $32, DI; \
	ADDQ       $32, SI; \
	SUBQ       $8, CX; \
	JMP        loop; \
four: \
	CMPQ       CX, $4; \
	JB         done; \
	MOVQ       SI, R9; \
	MOVQ       BX, R10; \
	VCVTPS2PD  (R9), Y0; \
	JMP        next4; \
row4: \
	VCVTPS2PD  (R9), Y2; \
	OP         Y2, Y0, Y0; \
next4: \
	ADDQ       DX, R9; \
	DECQ       R10; \
	JNZ        row4; \
	VCVTPD2PSY Y0, X0; \
	VMOVUPS    X0, (DI); \
done: \
	VZEROUPPER; \
	RET

// ROWSINTO_256: the AVX2 float64 kernel, eight elements a step (two ymm),
// then four, leaving fewer than four for the Go twin.
#define ROWSINTO_256(OP) \
loop: \
	CMPQ    CX, $8; \
	JB      four; \
	MOVQ    SI, R9; \
	MOVQ    BX, R10; \
	VMOVUPD (R9), Y0; \
	VMOVUPD 32(R9), Y1; \
	JMP     next8; \
row8: \
	OP      (R9), Y0, Y0; \
	OP      32(R9), Y1, Y1; \
next8: \
	ADDQ    DX, R9; \
	DECQ    R10; \
	JNZ     row8; \
	VMOVUPD Y0, (DI); \
	VMOVUPD Y1, 32(DI); \
	ADDQ    $64, DI; \
	ADDQ    $64, SI; \
	SUBQ    $8, CX; \
	JMP     loop; \
four: \
	CMPQ    CX, $4; \
	JB      done; \
	MOVQ    SI, R9; \
	MOVQ    BX, R10; \
	VMOVUPD (R9), Y0; \
	JMP     next4; \
row4: \
	OP      (R9), Y0, Y0; \
next4: \
	ADDQ    DX, R9; \
	DECQ    R10; \
	JNZ     row4; \
	VMOVUPD Y0, (DI); \
done: \
	VZEROUPPER; \
	RET

// func sumRowsIntoF32AVX512(out, x []float32, rows, stride int)
TEXT ·sumRowsIntoF32AVX512(SB), NOSPLIT, $0-64
	ROWSINTO_ARGS(2)
	ROWSINTO_WIDE512(VADDPD)

// func prodRowsIntoF32AVX512(out, x []float32, rows, stride int)
TEXT ·prodRowsIntoF32AVX512(SB), NOSPLIT, $0-64
	ROWSINTO_ARGS(2)
	ROWSINTO_WIDE512(VMULPD)

// func sumRowsIntoF64AVX512(out, x []float64, rows, stride int)
TEXT ·sumRowsIntoF64AVX512(SB), NOSPLIT, $0-64
	ROWSINTO_ARGS(3)
	ROWSINTO_512(VADDPD)

// func prodRowsIntoF64AVX512(out, x []float64, rows, stride int)
TEXT ·prodRowsIntoF64AVX512(SB), NOSPLIT, $0-64
	ROWSINTO_ARGS(3)
	ROWSINTO_512(VMULPD)

// func sumRowsIntoF32AVX2(out, x []float32, rows, stride int)
TEXT ·sumRowsIntoF32AVX2(SB), NOSPLIT, $0-64
	ROWSINTO_ARGS(2)
	ROWSINTO_WIDE256(VADDPD)

// func prodRowsIntoF32AVX2(out, x []float32, rows, stride int)
TEXT ·prodRowsIntoF32AVX2(SB), NOSPLIT, $0-64
	ROWSINTO_ARGS(2)
	ROWSINTO_WIDE256(VMULPD)

// func sumRowsIntoF64AVX2(out, x []float64, rows, stride int)
TEXT ·sumRowsIntoF64AVX2(SB), NOSPLIT, $0-64
	ROWSINTO_ARGS(3)
	ROWSINTO_256(VADDPD)

// func prodRowsIntoF64AVX2(out, x []float64, rows, stride int)
TEXT ·prodRowsIntoF64AVX2(SB), NOSPLIT, $0-64
	ROWSINTO_ARGS(3)
	ROWSINTO_256(VMULPD)

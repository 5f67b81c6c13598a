//go:build !purego

#include "textflag.h"

// AVX2 row kernels for SpMM: the AVX-512 ones (axpy_amd64.s) in ymm
// registers, full vectors only; the Go wrapper finishes the last partial
// vector with the Go twin. One vector of y a step: each step's four
// products are a chain of dependent adds, and consecutive steps are
// independent, so the out-of-order core overlaps them. Multiplies and
// adds stay separate instructions, as in the Go twins, so the rounding is
// identical. DI walks y; R8..R11 walk the x rows; CX counts the elements
// left (a multiple of the vector's lanes).

// func axpyF32AVX2(y []float32, a float32, x *float32)
TEXT ·axpyF32AVX2(SB), NOSPLIT, $0-40
	MOVQ         y_base+0(FP), DI
	MOVQ         y_len+8(FP), CX
	VBROADCASTSS a+24(FP), Y4
	MOVQ         x+32(FP), R8
	SHRQ         $3, CX
	JZ           done

loop:
	VMULPS  (R8), Y4, Y1
	VADDPS  (DI), Y1, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, R8
	DECQ    CX
	JNZ     loop

done:
	VZEROUPPER
	RET

// func axpy4F32AVX2(y []float32, a0, a1, a2, a3 float32, x0, x1, x2, x3 *float32)
TEXT ·axpy4F32AVX2(SB), NOSPLIT, $0-72
	MOVQ         y_base+0(FP), DI
	MOVQ         y_len+8(FP), CX
	VBROADCASTSS a0+24(FP), Y4
	VBROADCASTSS a1+28(FP), Y5
	VBROADCASTSS a2+32(FP), Y6
	VBROADCASTSS a3+36(FP), Y7
	MOVQ         x0+40(FP), R8
	MOVQ         x1+48(FP), R9
	MOVQ         x2+56(FP), R10
	MOVQ         x3+64(FP), R11
	SHRQ         $3, CX
	JZ           done

loop:
	VMOVUPS (DI), Y0
	VMULPS  (R8), Y4, Y1
	VADDPS  Y1, Y0, Y0
	VMULPS  (R9), Y5, Y1
	VADDPS  Y1, Y0, Y0
	VMULPS  (R10), Y6, Y1
	VADDPS  Y1, Y0, Y0
	VMULPS  (R11), Y7, Y1
	VADDPS  Y1, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, R8
	ADDQ    $32, R9
	ADDQ    $32, R10
	ADDQ    $32, R11
	DECQ    CX
	JNZ     loop

done:
	VZEROUPPER
	RET

// func axpyF64AVX2(y []float64, a float64, x *float64)
TEXT ·axpyF64AVX2(SB), NOSPLIT, $0-40
	MOVQ         y_base+0(FP), DI
	MOVQ         y_len+8(FP), CX
	VBROADCASTSD a+24(FP), Y4
	MOVQ         x+32(FP), R8
	SHRQ         $2, CX
	JZ           done

loop:
	VMULPD  (R8), Y4, Y1
	VADDPD  (DI), Y1, Y0
	VMOVUPD Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, R8
	DECQ    CX
	JNZ     loop

done:
	VZEROUPPER
	RET

// func axpy4F64AVX2(y []float64, a0, a1, a2, a3 float64, x0, x1, x2, x3 *float64)
TEXT ·axpy4F64AVX2(SB), NOSPLIT, $0-88
	MOVQ         y_base+0(FP), DI
	MOVQ         y_len+8(FP), CX
	VBROADCASTSD a0+24(FP), Y4
	VBROADCASTSD a1+32(FP), Y5
	VBROADCASTSD a2+40(FP), Y6
	VBROADCASTSD a3+48(FP), Y7
	MOVQ         x0+56(FP), R8
	MOVQ         x1+64(FP), R9
	MOVQ         x2+72(FP), R10
	MOVQ         x3+80(FP), R11
	SHRQ         $2, CX
	JZ           done

loop:
	VMOVUPD (DI), Y0
	VMULPD  (R8), Y4, Y1
	VADDPD  Y1, Y0, Y0
	VMULPD  (R9), Y5, Y1
	VADDPD  Y1, Y0, Y0
	VMULPD  (R10), Y6, Y1
	VADDPD  Y1, Y0, Y0
	VMULPD  (R11), Y7, Y1
	VADDPD  Y1, Y0, Y0
	VMOVUPD Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, R8
	ADDQ    $32, R9
	ADDQ    $32, R10
	ADDQ    $32, R11
	DECQ    CX
	JNZ     loop

done:
	VZEROUPPER
	RET

//go:build !purego

#include "textflag.h"

// complex64 products, (ac−bd) + (ad+bc)i on interleaved (re, im) float32
// pairs, each product rounded before the sum as cmul.Mul64 rounds it (no
// fused multiply-add). With A = (a, b) pairs in A and B = (c, d) in B:
// MOVSLDUP gives (a, a), MOVSHDUP (b, b), PERMILPS $0xB1 swaps B to
// (d, c); the two products are then (ac, ad) and (bd, bc), and the real
// lanes take their difference, the imaginary lanes their sum, with the
// same operands in the same order as the Go twin.

// CMUL512 leaves the product of Z4 (A) and Z5 (B) in Z0; Z3 holds B
// swapped. K2 marks the real lanes.
#define CMUL512 \
	VMOVSLDUP Z4, Z1; \
	VMOVSHDUP Z4, Z2; \
	VMULPS    Z5, Z1, Z1; \
	VMULPS    Z3, Z2, Z2; \
	VADDPS    Z2, Z1, Z0; \
	VSUBPS    Z2, Z1, K2, Z0

// CMUL256 is CMUL512 on ymm registers: ADDSUBPS subtracts in the real
// (even) lanes and adds in the imaginary ones.
#define CMUL256 \
	VMOVSLDUP Y4, Y1; \
	VMOVSHDUP Y4, Y2; \
	VMULPS    Y5, Y1, Y1; \
	VMULPS    Y3, Y2, Y2; \
	VADDSUBPS Y2, Y1, Y0

#define ARGS \
	MOVQ dst_base+0(FP), DI; \
	MOVQ dst_len+8(FP), CX; \
	MOVQ a_base+24(FP), SI

#define REALLANES \
	MOVQ  $0x5555, AX; \
	KMOVW AX, K2

// TAIL512 sets K1 to the low 2·CX float lanes (CX < 8 elements left).
#define TAIL512 \
	SHLQ  $1, CX; \
	MOVQ  $1, AX; \
	SHLQ  CX, AX; \
	DECQ  AX; \
	KMOVW AX, K1

// func mulC64AVX512(dst, a, b []complex64)
TEXT ·mulC64AVX512(SB), NOSPLIT, $0-72
	ARGS
	MOVQ b_base+48(FP), DX
	REALLANES
loop:
	CMPQ      CX, $8
	JB        tail
	VMOVUPS   (SI), Z4
	VMOVUPS   (DX), Z5
	VPERMILPS $0xB1, Z5, Z3
	CMUL512
	VMOVUPS   Z0, (DI)
	ADDQ      $64, SI
	ADDQ      $64, DX
	ADDQ      $64, DI
	SUBQ      $8, CX
	JMP       loop
tail:
	TESTQ     CX, CX
	JZ        done
	TAIL512
	VMOVUPS.Z (SI), K1, Z4
	VMOVUPS.Z (DX), K1, Z5
	VPERMILPS $0xB1, Z5, Z3
	CMUL512
	VMOVUPS   Z0, K1, (DI)
done:
	VZEROUPPER
	RET

// func mulScalarC64AVX512(dst, a []complex64, s complex64)
TEXT ·mulScalarC64AVX512(SB), NOSPLIT, $0-56
	ARGS
	REALLANES
	VBROADCASTSD s+48(FP), Z5
	VPERMILPS    $0xB1, Z5, Z3
loop:
	CMPQ      CX, $8
	JB        tail
	VMOVUPS   (SI), Z4
	CMUL512
	VMOVUPS   Z0, (DI)
	ADDQ      $64, SI
	ADDQ      $64, DI
	SUBQ      $8, CX
	JMP       loop
tail:
	TESTQ     CX, CX
	JZ        done
	TAIL512
	VMOVUPS.Z (SI), K1, Z4
	CMUL512
	VMOVUPS   Z0, K1, (DI)
done:
	VZEROUPPER
	RET

// func mulC64AVX2(dst, a, b []complex64)
TEXT ·mulC64AVX2(SB), NOSPLIT, $0-72
	ARGS
	MOVQ b_base+48(FP), DX
loop:
	CMPQ      CX, $4
	JB        done
	VMOVUPS   (SI), Y4
	VMOVUPS   (DX), Y5
	VPERMILPS $0xB1, Y5, Y3
	CMUL256
	VMOVUPS   Y0, (DI)
	ADDQ      $32, SI
	ADDQ      $32, DX
	ADDQ      $32, DI
	SUBQ      $4, CX
	JMP       loop
done:
	VZEROUPPER
	RET

// func mulScalarC64AVX2(dst, a []complex64, s complex64)
TEXT ·mulScalarC64AVX2(SB), NOSPLIT, $0-56
	ARGS
	VBROADCASTSD s+48(FP), Y5
	VPERMILPS    $0xB1, Y5, Y3
loop:
	CMPQ    CX, $4
	JB      done
	VMOVUPS (SI), Y4
	CMUL256
	VMOVUPS Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $4, CX
	JMP     loop
done:
	VZEROUPPER
	RET

// The streaming forms: dst is 64-byte aligned (alwaysStreamed peels the
// head), so every VMOVNTPS is aligned; the AVX-512 masked tail stores as
// usual, there being no masked non-temporal store, and the AVX2 ones
// leave the last partial vector to the Go twin. No fence: the caller
// fences once after its last streaming call.

// func mulC64StreamAVX512(dst, a, b []complex64)
TEXT ·mulC64StreamAVX512(SB), NOSPLIT, $0-72
	ARGS
	MOVQ b_base+48(FP), DX
	REALLANES
loop:
	CMPQ      CX, $8
	JB        tail
	VMOVUPS   (SI), Z4
	VMOVUPS   (DX), Z5
	VPERMILPS $0xB1, Z5, Z3
	CMUL512
	VMOVNTPS  Z0, (DI)
	ADDQ      $64, SI
	ADDQ      $64, DX
	ADDQ      $64, DI
	SUBQ      $8, CX
	JMP       loop
tail:
	TESTQ     CX, CX
	JZ        done
	TAIL512
	VMOVUPS.Z (SI), K1, Z4
	VMOVUPS.Z (DX), K1, Z5
	VPERMILPS $0xB1, Z5, Z3
	CMUL512
	VMOVUPS   Z0, K1, (DI)
done:
	VZEROUPPER
	RET

// func mulScalarC64StreamAVX512(dst, a []complex64, s complex64)
TEXT ·mulScalarC64StreamAVX512(SB), NOSPLIT, $0-56
	ARGS
	REALLANES
	VBROADCASTSD s+48(FP), Z5
	VPERMILPS    $0xB1, Z5, Z3
loop:
	CMPQ      CX, $8
	JB        tail
	VMOVUPS   (SI), Z4
	CMUL512
	VMOVNTPS  Z0, (DI)
	ADDQ      $64, SI
	ADDQ      $64, DI
	SUBQ      $8, CX
	JMP       loop
tail:
	TESTQ     CX, CX
	JZ        done
	TAIL512
	VMOVUPS.Z (SI), K1, Z4
	CMUL512
	VMOVUPS   Z0, K1, (DI)
done:
	VZEROUPPER
	RET

// func mulC64StreamAVX2(dst, a, b []complex64)
TEXT ·mulC64StreamAVX2(SB), NOSPLIT, $0-72
	ARGS
	MOVQ b_base+48(FP), DX
loop:
	CMPQ      CX, $4
	JB        done
	VMOVUPS   (SI), Y4
	VMOVUPS   (DX), Y5
	VPERMILPS $0xB1, Y5, Y3
	CMUL256
	VMOVNTPS  Y0, (DI)
	ADDQ      $32, SI
	ADDQ      $32, DX
	ADDQ      $32, DI
	SUBQ      $4, CX
	JMP       loop
done:
	VZEROUPPER
	RET

// func mulScalarC64StreamAVX2(dst, a []complex64, s complex64)
TEXT ·mulScalarC64StreamAVX2(SB), NOSPLIT, $0-56
	ARGS
	VBROADCASTSD s+48(FP), Y5
	VPERMILPS    $0xB1, Y5, Y3
loop:
	CMPQ     CX, $4
	JB       done
	VMOVUPS  (SI), Y4
	CMUL256
	VMOVNTPS Y0, (DI)
	ADDQ     $32, SI
	ADDQ     $32, DI
	SUBQ     $4, CX
	JMP      loop
done:
	VZEROUPPER
	RET

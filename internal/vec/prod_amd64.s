//go:build !purego

#include "textflag.h"

// Product block kernels: func(a []E) [256 bytes of lanes]. Each multiplies
// the full blocks of a (len(a) is a multiple of the block length, 64 or 32
// elements) into lanes that start at 1, keeping lane j of the canonical
// order in lane j%W of accumulator j/W, and returns the lanes.

// Every loop prefetches the line PREFETCH bytes ahead of the block it
// reads, once per block. The hardware prefetchers stop at each 4 KiB page
// boundary, and on a virtual machine a missed address translation costs a
// long nested page walk; reaching four pages ahead starts both early. On
// the 64 MiB float32 product in 4 KiB pages (this project's VM, two
// threads) the median time fell from 7.7 to 2.9 ms when the data came from
// DRAM and was unchanged when it came from L3; nearer distances did less,
// and extra prefetches per block nothing. Prefetches past the end of a
// never fault.
#define PREFETCH 16384

// PROD512 keeps the lanes in Z0-Z3 and converts each block into Z4-Z7 with
// LD(memory, register) before MUL. ONE fills Z0 with ones; SHIFT is log2 of
// the block length and VB the bytes of a per vector.
#define PROD512(ONE, LD, MUL, SHIFT, VB) \
	MOVQ      a_base+0(FP), SI; \
	MOVQ      a_len+8(FP), CX; \
	ONE; \
	VMOVDQA64 Z0, Z1; \
	VMOVDQA64 Z0, Z2; \
	VMOVDQA64 Z0, Z3; \
	SHRQ      $SHIFT, CX; \
	JZ        done; \
loop: \
	PREFETCHT0 PREFETCH(SI); \
	LD((0*VB)(SI), Z4); \
	LD((1*VB)(SI), Z5); \
	LD((2*VB)(SI), Z6); \
	LD((3*VB)(SI), Z7); \
	MUL       Z4, Z0, Z0; \
	MUL       Z5, Z1, Z1; \
	MUL       Z6, Z2, Z2; \
	MUL       Z7, Z3, Z3; \
	ADDQ      $(4*VB), SI; \
	DECQ      CX; \
	JNZ       loop; \
done: \
	LEAQ      ret+24(FP), DI; \
	VMOVDQU64 Z0, (DI); \
	VMOVDQU64 Z1, 64(DI); \
	VMOVDQU64 Z2, 128(DI); \
	VMOVDQU64 Z3, 192(DI); \
	VZEROUPPER; \
	RET

#define ONEF32_512 MOVL $0x3f800000, AX; VPBROADCASTD AX, Z0
#define ONEF64_512 MOVQ $0x3ff0000000000000, AX; VPBROADCASTQ AX, Z0
#define ONEI32_512 MOVL $1, AX; VPBROADCASTD AX, Z0
#define ONEI64_512 MOVQ $1, AX; VPBROADCASTQ AX, Z0

#define LDPS(m, z) VMOVUPS m, z
#define LDPD(m, z) VMOVUPD m, z
#define LDQ512(m, z) VMOVDQU64 m, z
#define LDSXBD(m, z) VPMOVSXBD m, z
#define LDZXBD(m, z) VPMOVZXBD m, z
#define LDSXWD(m, z) VPMOVSXWD m, z
#define LDZXWD(m, z) VPMOVZXWD m, z
#define LDPH(m, z) VCVTPH2PS m, z
#define LDBF(m, z) VPMOVZXWD m, z; VPSLLD $16, z, z

// func prodF32AVX512(a []float32) [64]float32
TEXT ·prodF32AVX512(SB), NOSPLIT, $0-280
	PROD512(ONEF32_512, LDPS, VMULPS, 6, 64)

// func prodF64AVX512(a []float64) [32]float64
TEXT ·prodF64AVX512(SB), NOSPLIT, $0-280
	PROD512(ONEF64_512, LDPD, VMULPD, 5, 64)

// func prodI32AVX512(a []int32) [64]int32
TEXT ·prodI32AVX512(SB), NOSPLIT, $0-280
	PROD512(ONEI32_512, LDQ512, VPMULLD, 6, 64)

// func prodI64AVX512(a []int64) [32]int64
TEXT ·prodI64AVX512(SB), NOSPLIT, $0-280
	PROD512(ONEI64_512, LDQ512, VPMULLQ, 5, 64)

// func prodI8AVX512(a []int8) [64]int32
TEXT ·prodI8AVX512(SB), NOSPLIT, $0-280
	PROD512(ONEI32_512, LDSXBD, VPMULLD, 6, 16)

// func prodU8AVX512(a []uint8) [64]int32
TEXT ·prodU8AVX512(SB), NOSPLIT, $0-280
	PROD512(ONEI32_512, LDZXBD, VPMULLD, 6, 16)

// func prodI16AVX512(a []int16) [64]int32
TEXT ·prodI16AVX512(SB), NOSPLIT, $0-280
	PROD512(ONEI32_512, LDSXWD, VPMULLD, 6, 32)

// func prodU16AVX512(a []uint16) [64]int32
TEXT ·prodU16AVX512(SB), NOSPLIT, $0-280
	PROD512(ONEI32_512, LDZXWD, VPMULLD, 6, 32)

// func prodF16AVX512(a []uint16) [64]float32
TEXT ·prodF16AVX512(SB), NOSPLIT, $0-280
	PROD512(ONEF32_512, LDPH, VMULPS, 6, 32)

// func prodBF16AVX512(a []uint16) [64]float32
TEXT ·prodBF16AVX512(SB), NOSPLIT, $0-280
	PROD512(ONEF32_512, LDBF, VMULPS, 6, 32)

// PROD256 is PROD512 with eight ymm accumulators Y0-Y7 and temporaries
// Y8-Y15, so the lanes, and hence the order, are the same.
#define PROD256(ONE, LD, MUL, SHIFT, VB) \
	MOVQ    a_base+0(FP), SI; \
	MOVQ    a_len+8(FP), CX; \
	ONE; \
	VMOVDQA Y0, Y1; \
	VMOVDQA Y0, Y2; \
	VMOVDQA Y0, Y3; \
	VMOVDQA Y0, Y4; \
	VMOVDQA Y0, Y5; \
	VMOVDQA Y0, Y6; \
	VMOVDQA Y0, Y7; \
	SHRQ    $SHIFT, CX; \
	JZ      done; \
loop: \
	PREFETCHT0 PREFETCH(SI); \
	LD((0*VB)(SI), Y8); \
	LD((1*VB)(SI), Y9); \
	LD((2*VB)(SI), Y10); \
	LD((3*VB)(SI), Y11); \
	LD((4*VB)(SI), Y12); \
	LD((5*VB)(SI), Y13); \
	LD((6*VB)(SI), Y14); \
	LD((7*VB)(SI), Y15); \
	MUL     Y8, Y0, Y0; \
	MUL     Y9, Y1, Y1; \
	MUL     Y10, Y2, Y2; \
	MUL     Y11, Y3, Y3; \
	MUL     Y12, Y4, Y4; \
	MUL     Y13, Y5, Y5; \
	MUL     Y14, Y6, Y6; \
	MUL     Y15, Y7, Y7; \
	ADDQ    $(8*VB), SI; \
	DECQ    CX; \
	JNZ     loop; \
done: \
	LEAQ    ret+24(FP), DI; \
	VMOVDQU Y0, (DI); \
	VMOVDQU Y1, 32(DI); \
	VMOVDQU Y2, 64(DI); \
	VMOVDQU Y3, 96(DI); \
	VMOVDQU Y4, 128(DI); \
	VMOVDQU Y5, 160(DI); \
	VMOVDQU Y6, 192(DI); \
	VMOVDQU Y7, 224(DI); \
	VZEROUPPER; \
	RET

#define ONEF32_256 MOVL $0x3f800000, AX; MOVQ AX, X0; VPBROADCASTD X0, Y0
#define ONEF64_256 MOVQ $0x3ff0000000000000, AX; MOVQ AX, X0; VPBROADCASTQ X0, Y0
#define ONEI32_256 MOVL $1, AX; MOVQ AX, X0; VPBROADCASTD X0, Y0

#define LDDQU256(m, y) VMOVDQU m, y

// func prodF32AVX2(a []float32) [64]float32
TEXT ·prodF32AVX2(SB), NOSPLIT, $0-280
	PROD256(ONEF32_256, LDPS, VMULPS, 6, 32)

// func prodF64AVX2(a []float64) [32]float64
TEXT ·prodF64AVX2(SB), NOSPLIT, $0-280
	PROD256(ONEF64_256, LDPD, VMULPD, 5, 32)

// func prodI32AVX2(a []int32) [64]int32
TEXT ·prodI32AVX2(SB), NOSPLIT, $0-280
	PROD256(ONEI32_256, LDDQU256, VPMULLD, 6, 32)

// func prodI8AVX2(a []int8) [64]int32
TEXT ·prodI8AVX2(SB), NOSPLIT, $0-280
	PROD256(ONEI32_256, LDSXBD, VPMULLD, 6, 8)

// func prodU8AVX2(a []uint8) [64]int32
TEXT ·prodU8AVX2(SB), NOSPLIT, $0-280
	PROD256(ONEI32_256, LDZXBD, VPMULLD, 6, 8)

// func prodI16AVX2(a []int16) [64]int32
TEXT ·prodI16AVX2(SB), NOSPLIT, $0-280
	PROD256(ONEI32_256, LDSXWD, VPMULLD, 6, 16)

// func prodU16AVX2(a []uint16) [64]int32
TEXT ·prodU16AVX2(SB), NOSPLIT, $0-280
	PROD256(ONEI32_256, LDZXWD, VPMULLD, 6, 16)

// func prodF16AVX2(a []uint16) [64]float32
TEXT ·prodF16AVX2(SB), NOSPLIT, $0-280
	PROD256(ONEF32_256, LDPH, VMULPS, 6, 16)

// func prodBF16AVX2(a []uint16) [64]float32
TEXT ·prodBF16AVX2(SB), NOSPLIT, $0-280
	PROD256(ONEF32_256, LDBF, VMULPS, 6, 16)

// The folds multiply the same pairs in the same rounds as fold64 and
// fold32 do, lanes l[j] and l[j+half] in one register each, so every
// result has the same bits (NaN payloads aside, which the Go compiler does
// not fix either: it may swap the operands of a product).

// func foldF32AVX512(l [64]float32) float32
TEXT ·foldF32AVX512(SB), NOSPLIT, $0-260
	LEAQ          l+0(FP), SI
	VMOVUPS       (SI), Z0
	VMOVUPS       64(SI), Z1
	VMOVUPS       128(SI), Z2
	VMOVUPS       192(SI), Z3
	VMULPS        Z2, Z0, Z0      // half 32: lanes 0-15
	VMULPS        Z3, Z1, Z1      // half 32: lanes 16-31
	VMULPS        Z1, Z0, Z0      // half 16
	VEXTRACTF64X4 $1, Z0, Y1
	VMULPS        Y1, Y0, Y0      // half 8
	VEXTRACTF128  $1, Y0, X1
	VMULPS        X1, X0, X0      // half 4
	VMOVHLPS      X0, X0, X1
	VMULPS        X1, X0, X0      // half 2
	VMOVSHDUP     X0, X1
	VMULSS        X1, X0, X0      // half 1
	VMOVSS        X0, ret+256(FP)
	VZEROUPPER
	RET

// func foldF64AVX512(l [32]float64) float64
TEXT ·foldF64AVX512(SB), NOSPLIT, $0-264
	LEAQ          l+0(FP), SI
	VMOVUPD       (SI), Z0
	VMOVUPD       64(SI), Z1
	VMOVUPD       128(SI), Z2
	VMOVUPD       192(SI), Z3
	VMULPD        Z2, Z0, Z0      // half 16: lanes 0-7
	VMULPD        Z3, Z1, Z1      // half 16: lanes 8-15
	VMULPD        Z1, Z0, Z0      // half 8
	VEXTRACTF64X4 $1, Z0, Y1
	VMULPD        Y1, Y0, Y0      // half 4
	VEXTRACTF128  $1, Y0, X1
	VMULPD        X1, X0, X0      // half 2
	VMOVHLPS      X0, X0, X1
	VMULSD        X1, X0, X0      // half 1
	VMOVSD        X0, ret+256(FP)
	VZEROUPPER
	RET

// The AVX2 folds: foldF32AVX512 and foldF64AVX512 with the lanes in eight
// ymm (Y0..Y7, lanes 8i.. of l in Yi for float32, 4i.. for float64), the
// same pairs multiplied in the same rounds.

// func foldF32AVX2(l [64]float32) float32
TEXT ·foldF32AVX2(SB), NOSPLIT, $0-260
	LEAQ         l+0(FP), SI
	VMOVUPS      (SI), Y0
	VMOVUPS      32(SI), Y1
	VMOVUPS      64(SI), Y2
	VMOVUPS      96(SI), Y3
	VMULPS       128(SI), Y0, Y0 // half 32: lanes 0-31
	VMULPS       160(SI), Y1, Y1
	VMULPS       192(SI), Y2, Y2
	VMULPS       224(SI), Y3, Y3
	VMULPS       Y2, Y0, Y0      // half 16
	VMULPS       Y3, Y1, Y1
	VMULPS       Y1, Y0, Y0      // half 8
	VEXTRACTF128 $1, Y0, X1
	VMULPS       X1, X0, X0      // half 4
	VMOVHLPS     X0, X0, X1
	VMULPS       X1, X0, X0      // half 2
	VMOVSHDUP    X0, X1
	VMULSS       X1, X0, X0      // half 1
	VMOVSS       X0, ret+256(FP)
	VZEROUPPER
	RET

// func foldF64AVX2(l [32]float64) float64
TEXT ·foldF64AVX2(SB), NOSPLIT, $0-264
	LEAQ         l+0(FP), SI
	VMOVUPD      (SI), Y0
	VMOVUPD      32(SI), Y1
	VMOVUPD      64(SI), Y2
	VMOVUPD      96(SI), Y3
	VMULPD       128(SI), Y0, Y0 // half 16: lanes 0-15
	VMULPD       160(SI), Y1, Y1
	VMULPD       192(SI), Y2, Y2
	VMULPD       224(SI), Y3, Y3
	VMULPD       Y2, Y0, Y0      // half 8
	VMULPD       Y3, Y1, Y1
	VMULPD       Y1, Y0, Y0      // half 4
	VEXTRACTF128 $1, Y0, X1
	VMULPD       X1, X0, X0      // half 2
	VMOVHLPS     X0, X0, X1
	VMULSD       X1, X0, X0      // half 1
	VMOVSD       X0, ret+256(FP)
	VZEROUPPER
	RET

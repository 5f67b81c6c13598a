//go:build !purego

#include "textflag.h"

// The four-row passes (exclusive_quads.go), sixteen columns a step: the
// running products two zmm of float64 (Z0, Z1), loaded once and stored
// once for the four rows. DX, R11, R12 and R13 walk the four rows of x;
// pre and o are reached from them by their distance from x (BX and DI),
// which is the same for every row since all three share one stride, and
// so is the rows to prefetch (R9). SI walks run, CX counts the columns
// left (a multiple of 16; the Go side finishes). Conversions round to
// nearest even, as Go's do; only products, so no fused multiply-add.

// ROWS4 sets the four row pointers from x and the stride in bytes.
#define ROWS4 \
	MOVQ x+0(FP), DX; \
	MOVQ stride+8(FP), AX; \
	LEAQ (DX)(AX*1), R11; \
	LEAQ (DX)(AX*2), R12; \
	LEAQ (R11)(AX*2), R13

// UPARGS loads the up pass's arguments: the row pointers, pre and o as
// offsets from x's rows (BX, DI), run (SI), s and its step (R8, R14), the
// columns (CX), the rows ahead as an offset from x's rows or 0 (R9), and
// tests stream (AX), so that a JNZ follows to the streaming loop.
#define UPARGS \
	ROWS4; \
	MOVQ    pre+16(FP), BX; \
	SUBQ    DX, BX; \
	MOVQ    o+24(FP), DI; \
	SUBQ    DX, DI; \
	MOVQ    run+32(FP), SI; \
	MOVQ    s+40(FP), R8; \
	MOVQ    sstep+48(FP), R14; \
	MOVQ    n+56(FP), CX; \
	MOVQ    ahead+64(FP), R9; \
	XORQ    AX, AX; \
	TESTQ   R9, R9; \
	JZ      aheadSet; \
	SUBQ    DX, R9; \
	MOVQ    R9, AX; \
aheadSet: \
	MOVQ    AX, R9; \
	MOVBLZX stream+72(FP), AX; \
	TESTQ   AX, AX

// DOWNROW(xr) stores the running products rounded at pre's row and
// multiplies the row of x in.
#define DOWNROW(xr) \
	VCVTPD2PS    Z0, Y2; \
	VCVTPD2PS    Z1, Y3; \
	VINSERTF32X8 $1, Y3, Z2, Z2; \
	VMOVUPS      Z2, (xr)(BX*1); \
	VCVTPS2PD    (xr), Z4; \
	VCVTPS2PD    32(xr), Z5; \
	VMULPD       Z4, Z0, Z0; \
	VMULPD       Z5, Z1, Z1

// func exclusiveDown4AVX512(x *float32, stride int, pre *float32, run *float64, n int)
TEXT ·exclusiveDown4AVX512(SB), NOSPLIT, $0-40
	ROWS4
	MOVQ pre+16(FP), BX
	SUBQ DX, BX
	MOVQ run+24(FP), SI
	MOVQ n+32(FP), CX

down16:
	TESTQ   CX, CX
	JZ      downDone
	VMOVUPD (SI), Z0
	VMOVUPD 64(SI), Z1
	DOWNROW(DX)
	DOWNROW(R11)
	DOWNROW(R12)
	DOWNROW(R13)
	VMOVUPD Z0, (SI)
	VMOVUPD Z1, 64(SI)
	ADDQ    $64, DX
	ADDQ    $64, R11
	ADDQ    $64, R12
	ADDQ    $64, R13
	ADDQ    $128, SI
	SUBQ    $16, CX
	JMP     down16

downDone:
	VZEROUPPER
	RET

// UPROW(xr, store) reads the row of x, stores (with store) at o's row the
// prefix products at pre's row times the running products, rounded, times
// s (Z6), and multiplies the row of x in; then it prefetches the line of
// the row ahead into the L2 cache.
#define UPROW(xr, store) \
	VCVTPS2PD    (xr), Z4; \
	VCVTPS2PD    32(xr), Z5; \
	VCVTPS2PD    (xr)(BX*1), Z2; \
	VCVTPS2PD    32(xr)(BX*1), Z3; \
	VMULPD       Z0, Z2, Z2; \
	VMULPD       Z1, Z3, Z3; \
	VCVTPD2PS    Z2, Y2; \
	VCVTPD2PS    Z3, Y3; \
	VINSERTF32X8 $1, Y3, Z2, Z2; \
	VMULPS       Z6, Z2, Z2; \
	store        Z2, (xr)(DI*1); \
	VMULPD       Z4, Z0, Z0; \
	VMULPD       Z5, Z1, Z1; \
	PREFETCHT1   (xr)(R9*1)

// UPSTEP(store) is one step of sixteen columns over the rows from the last.
#define UPSTEP(store) \
	VMOVUPD (SI), Z0; \
	VMOVUPD 64(SI), Z1; \
	VMOVUPS (R8), Z6; \
	UPROW(R13, store); \
	UPROW(R12, store); \
	UPROW(R11, store); \
	UPROW(DX, store); \
	VMOVUPD Z0, (SI); \
	VMOVUPD Z1, 64(SI); \
	ADDQ    $64, DX; \
	ADDQ    $64, R11; \
	ADDQ    $64, R12; \
	ADDQ    $64, R13; \
	ADDQ    $128, SI; \
	ADDQ    R14, R8; \
	SUBQ    $16, CX

// func exclusiveUp4AVX512(x *float32, stride int, pre, o *float32, run *float64, s *float32, sstep, n int, ahead *float32, stream bool)
//
// s steps sstep bytes a step: 64, or 0 over sixteen ones (a product's
// float32 result times one is itself). ahead nil prefetches x itself.
TEXT ·exclusiveUp4AVX512(SB), NOSPLIT, $0-73
	UPARGS
	JNZ     upStream

up16:
	TESTQ CX, CX
	JZ    upDone
	UPSTEP(VMOVUPS)
	JMP   up16

upStream:
	TESTQ CX, CX
	JZ    upStreamDone
	UPSTEP(VMOVNTPS)
	JMP   upStream

upStreamDone:
	SFENCE

upDone:
	VZEROUPPER
	RET

// The AVX2 four-row passes, eight columns a step: the running products two
// ymm of float64 (Y0, Y1), the registers walking the rows, pre, o, s, run
// and the rows ahead as in the AVX-512 kernels above (CX a multiple of 8).
// Each eight float32 widen as two halves of four (VCVTPS2PD from 16 bytes)
// and round back as two halves joined by VINSERTF128. No fused
// multiply-add, as above.

// DOWNROW2(xr) is DOWNROW on eight columns.
#define DOWNROW2(xr) \
	VCVTPD2PSY  Y0, X2; \
	VCVTPD2PSY  Y1, X3; \
	VINSERTF128 $1, X3, Y2, Y2; \
	VMOVUPS     Y2, (xr)(BX*1); \
	VCVTPS2PD   (xr), Y4; \
	VCVTPS2PD   16(xr), Y5; \
	VMULPD      Y4, Y0, Y0; \
	VMULPD      Y5, Y1, Y1

// func exclusiveDown4AVX2(x *float32, stride int, pre *float32, run *float64, n int)
TEXT ·exclusiveDown4AVX2(SB), NOSPLIT, $0-40
	ROWS4
	MOVQ pre+16(FP), BX
	SUBQ DX, BX
	MOVQ run+24(FP), SI
	MOVQ n+32(FP), CX

down8:
	TESTQ   CX, CX
	JZ      down8Done
	VMOVUPD (SI), Y0
	VMOVUPD 32(SI), Y1
	DOWNROW2(DX)
	DOWNROW2(R11)
	DOWNROW2(R12)
	DOWNROW2(R13)
	VMOVUPD Y0, (SI)
	VMOVUPD Y1, 32(SI)
	ADDQ    $32, DX
	ADDQ    $32, R11
	ADDQ    $32, R12
	ADDQ    $32, R13
	ADDQ    $64, SI
	SUBQ    $8, CX
	JMP     down8

down8Done:
	VZEROUPPER
	RET

// UPROW2(xr, store) is UPROW on eight columns (s in Y6). It prefetches
// the row ahead at every step, so twice a line (the second finds the line
// already requested), which keeps the loop one step of one shape.
#define UPROW2(xr, store) \
	VCVTPS2PD   (xr), Y4; \
	VCVTPS2PD   16(xr), Y5; \
	VCVTPS2PD   (xr)(BX*1), Y2; \
	VCVTPS2PD   16(xr)(BX*1), Y3; \
	VMULPD      Y0, Y2, Y2; \
	VMULPD      Y1, Y3, Y3; \
	VCVTPD2PSY  Y2, X2; \
	VCVTPD2PSY  Y3, X3; \
	VINSERTF128 $1, X3, Y2, Y2; \
	VMULPS      Y6, Y2, Y2; \
	store       Y2, (xr)(DI*1); \
	VMULPD      Y4, Y0, Y0; \
	VMULPD      Y5, Y1, Y1; \
	PREFETCHT1  (xr)(R9*1)

// UPSTEP2(store) is one step of eight columns over the rows from the last.
#define UPSTEP2(store) \
	VMOVUPD (SI), Y0; \
	VMOVUPD 32(SI), Y1; \
	VMOVUPS (R8), Y6; \
	UPROW2(R13, store); \
	UPROW2(R12, store); \
	UPROW2(R11, store); \
	UPROW2(DX, store); \
	VMOVUPD Y0, (SI); \
	VMOVUPD Y1, 32(SI); \
	ADDQ    $32, DX; \
	ADDQ    $32, R11; \
	ADDQ    $32, R12; \
	ADDQ    $32, R13; \
	ADDQ    $64, SI; \
	ADDQ    R14, R8; \
	SUBQ    $8, CX

// func exclusiveUp4AVX2(x *float32, stride int, pre, o *float32, run *float64, s *float32, sstep, n int, ahead *float32, stream bool)
//
// s steps sstep bytes a step: 32, or 0 over eight ones. ahead nil
// prefetches x itself. Streamed, o's rows start on 64-byte lines, so two
// steps store whole lines; the streaming loop takes them in pairs, fences,
// and leaves an odd last step (half a line) to ordinary stores, so that
// only whole lines go around the cache.
TEXT ·exclusiveUp4AVX2(SB), NOSPLIT, $0-73
	UPARGS
	JNZ     up8Stream

up8:
	TESTQ CX, CX
	JZ    up8Done
	UPSTEP2(VMOVUPS)
	JMP   up8

up8Stream:
	CMPQ CX, $16
	JB   up8StreamDone
	UPSTEP2(VMOVNTPS)
	UPSTEP2(VMOVNTPS)
	JMP  up8Stream

up8StreamDone:
	SFENCE
	JMP up8

up8Done:
	VZEROUPPER
	RET

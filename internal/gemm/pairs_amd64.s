//go:build !purego

#include "textflag.h"

// The byte rewrites of pairs.go with AVX-512 (F, BW): int8 or uint8 rows
// widened to int16 lanes, pairs of a row (pairBytes) or of two rows
// side by side (interleaveBytes). Their Go twins are pairBytes and
// interleaveBytes; the Go wrappers in pairs_amd64.go do the tails.

// INTERLEAVE widens 16 bytes of lo and of hi to int32 lanes (MOVX the
// sign- or zero-extension) and takes each lane's low half from lo and its
// high half from hi (the odd words, mask K1).
#define INTERLEAVE(MOVX) \
	MOVQ dst+0(FP), DI; \
	MOVQ lo+8(FP), SI; \
	MOVQ hi+16(FP), DX; \
	MOVQ n+24(FP), CX; \
	MOVL $0xaaaaaaaa, AX; \
	KMOVD AX, K1; \
	SHRQ $4, CX; \
	JZ   done; \
loop: \
	MOVX (SI), Z0; \
	MOVX (DX), Z1; \
	VPSLLD $16, Z1, Z1; \
	VPBLENDMW Z1, Z0, K1, Z2; \
	VMOVDQU32 Z2, (DI); \
	ADDQ $16, SI; \
	ADDQ $16, DX; \
	ADDQ $64, DI; \
	DECQ CX; \
	JNZ  loop; \
done: \
	VZEROUPPER; \
	RET

// func pairBytesSignedAVX512(dst *int32, src *byte, n int)
// n, the bytes, is a multiple of 32: each 32 bytes become 32 int16.
TEXT ·pairBytesSignedAVX512(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $5, CX
	JZ   done
loop:
	VPMOVSXBW (SI), Z0
	VMOVDQU16 Z0, (DI)
	ADDQ $32, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  loop
done:
	VZEROUPPER
	RET

// func pairBytesUnsignedAVX512(dst *int32, src *byte, n int)
TEXT ·pairBytesUnsignedAVX512(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $5, CX
	JZ   done
loop:
	VPMOVZXBW (SI), Z0
	VMOVDQU16 Z0, (DI)
	ADDQ $32, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  loop
done:
	VZEROUPPER
	RET

// func interleaveBytesSignedAVX512(dst *int32, lo, hi *byte, n int)
// n, the bytes of each row, is a multiple of 16.
TEXT ·interleaveBytesSignedAVX512(SB), NOSPLIT, $0-32
	INTERLEAVE(VPMOVSXBD)

// func interleaveBytesUnsignedAVX512(dst *int32, lo, hi *byte, n int)
TEXT ·interleaveBytesUnsignedAVX512(SB), NOSPLIT, $0-32
	INTERLEAVE(VPMOVZXBD)

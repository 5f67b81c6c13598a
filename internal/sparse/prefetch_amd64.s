//go:build !purego

#include "textflag.h"

// func prefetchRowsAsm(rowPtr, cols []int64, vals unsafe.Pointer, valSize uintptr, ks []int64)
// SI: rowPtr, DI: cols, R8: vals, R9: valSize, R10 walks ks, CX counts the
// entries of ks left. Prefetches never fault, so addresses past the arrays
// are harmless.
TEXT ·prefetchRowsAsm(SB), NOSPLIT, $0-88
	MOVQ rowPtr_base+0(FP), SI
	MOVQ cols_base+24(FP), DI
	MOVQ vals+48(FP), R8
	MOVQ valSize+56(FP), R9
	MOVQ ks_base+64(FP), R10
	MOVQ ks_len+72(FP), CX
	TESTQ CX, CX
	JEQ  done

loop:
	MOVQ       (R10), AX       // k
	MOVQ       (SI)(AX*8), AX  // x = rowPtr[k]
	PREFETCHT0 (DI)(AX*8)
	PREFETCHT0 64(DI)(AX*8)
	IMULQ      R9, AX          // x·valSize
	PREFETCHT0 (R8)(AX*1)
	PREFETCHT0 64(R8)(AX*1)
	ADDQ       $8, R10
	DECQ       CX
	JNE        loop

done:
	RET

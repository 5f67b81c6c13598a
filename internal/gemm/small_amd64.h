// Shared by the AVX-512 (small_amd64.s) and AVX2 (small_avx2_amd64.s)
// small kernels, whose arguments are the same.

// MATRIX starts each matrix of the batch (the index in the stack slot
// idx-8(SP)): SI, DI, DX at its A, B and C, BX = m; jumps to
// end when the batch is done. shift is log2 of the element size.
#define MATRIX(shift) \
	MOVQ idx-8(SP), CX; \
	CMPQ CX, batch+0(FP); \
	JGE  end; \
	MOVQ aoffs+56(FP), SI; \
	MOVQ (SI)(CX*8), SI; \
	SHLQ $shift, SI; \
	ADDQ a+32(FP), SI; \
	MOVQ boffs+80(FP), DI; \
	MOVQ (DI)(CX*8), DI; \
	SHLQ $shift, DI; \
	ADDQ b+64(FP), DI; \
	MOVQ coffs+104(FP), DX; \
	MOVQ (DX)(CX*8), DX; \
	SHLQ $shift, DX; \
	ADDQ c+88(FP), DX; \
	MOVQ m+8(FP), BX

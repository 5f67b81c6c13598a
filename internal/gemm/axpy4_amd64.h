// AXPY4 is the body of the four-row axpy helpers of gemv_amd64.s (AVX-512)
// and gemv_avx2_amd64.s (AVX2), for elements of es bytes (shift = log2 es)
// and vectors of VB bytes, steps = log2(4·VB): V4..V7 hold the four
// alphas, V0..V3 four vectors of y, each taking its four products in row
// order; SI, R10, R11 and R12 walk the four rows. The including file names
// the registers V0..V7 (zmm or ymm).
#define AXPY4(BCAST, MOVU, FMA, es, shift, VB, steps) \
	MOVQ n+0(FP), CX; \
	MOVQ alpha+8(FP), AX; \
	BCAST (0*es)(AX), V4; \
	BCAST (1*es)(AX), V5; \
	BCAST (2*es)(AX), V6; \
	BCAST (3*es)(AX), V7; \
	MOVQ x+16(FP), SI; \
	MOVQ ldx+24(FP), R8; \
	SHLQ $shift, R8; \
	LEAQ (SI)(R8*1), R10; \
	LEAQ (SI)(R8*2), R11; \
	LEAQ (R10)(R8*2), R12; \
	MOVQ y+32(FP), DI; \
	SHRQ $(steps-shift), CX; \
	JZ   done; \
loop: \
	MOVU (DI), V0; \
	MOVU (1*VB)(DI), V1; \
	MOVU (2*VB)(DI), V2; \
	MOVU (3*VB)(DI), V3; \
	AXPYROW(FMA, SI, V4, VB); \
	AXPYROW(FMA, R10, V5, VB); \
	AXPYROW(FMA, R11, V6, VB); \
	AXPYROW(FMA, R12, V7, VB); \
	MOVU V0, (DI); \
	MOVU V1, (1*VB)(DI); \
	MOVU V2, (2*VB)(DI); \
	MOVU V3, (3*VB)(DI); \
	ADDQ $(4*VB), SI; \
	ADDQ $(4*VB), R10; \
	ADDQ $(4*VB), R11; \
	ADDQ $(4*VB), R12; \
	ADDQ $(4*VB), DI; \
	DECQ CX; \
	JNZ  loop; \
done: \
	VZEROUPPER; \
	RET

// One row's products into the four vectors of y, the row at base.
#define AXPYROW(FMA, base, alpha, VB) \
	FMA (base), alpha, V0; \
	FMA (1*VB)(base), alpha, V1; \
	FMA (2*VB)(base), alpha, V2; \
	FMA (3*VB)(base), alpha, V3

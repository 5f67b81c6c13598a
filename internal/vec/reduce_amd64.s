//go:build !purego

#include "textflag.h"

// Reduction block kernels (product and sum): func(a []E) [256 bytes of
// lanes]. Each combines the full blocks of a (len(a) is a multiple of the
// block length, 64 or 32 elements) into lanes that start at the
// reduction's starting value (1 for products, 0 or -0 for sums) with the
// instruction OP, keeping lane j of the canonical order in lane j%W of
// accumulator j/W, and returns the lanes.

// The folds combine the same pairs in the same rounds as the Go folds do,
// lanes l[j] and l[j+half] in one register each, so every result has the
// same bits (NaN payloads aside, which the Go compiler does not fix either:
// it may swap the operands of a product). OP is the packed instruction,
// OPS its scalar form.

// The rounds: half 32 (lanes 0-15 and 16-31), 16, 8, 4, 2, 1.
#define FOLDF64(OP, OPS) \
	LEAQ          l+0(FP), SI; \
	VMOVUPD       (SI), Z0; \
	VMOVUPD       64(SI), Z1; \
	VMOVUPD       128(SI), Z2; \
	VMOVUPD       192(SI), Z3; \
	OP            Z2, Z0, Z0; \
	OP            Z3, Z1, Z1; \
	OP            Z1, Z0, Z0; \
	VEXTRACTF64X4 $1, Z0, Y1; \
	OP            Y1, Y0, Y0; \
	VEXTRACTF128  $1, Y0, X1; \
	OP            X1, X0, X0; \
	VMOVHLPS      X0, X0, X1; \
	OPS           X1, X0, X0; \
	VMOVSD        X0, ret+256(FP); \
	VZEROUPPER; \
	RET

// The AVX2 folds: FOLDF32 and FOLDF64 with the lanes in eight ymm (lanes
// 8i.. of l in Yi for float32, 4i.. for float64), the same pairs combined
// in the same rounds.
// The rounds: half 16 (four ymm against four), 8, 4, 2, 1.
#define FOLDF64_256(OP, OPS) \
	LEAQ         l+0(FP), SI; \
	VMOVUPD      (SI), Y0; \
	VMOVUPD      32(SI), Y1; \
	VMOVUPD      64(SI), Y2; \
	VMOVUPD      96(SI), Y3; \
	OP           128(SI), Y0, Y0; \
	OP           160(SI), Y1, Y1; \
	OP           192(SI), Y2, Y2; \
	OP           224(SI), Y3, Y3; \
	OP           Y2, Y0, Y0; \
	OP           Y3, Y1, Y1; \
	OP           Y1, Y0, Y0; \
	VEXTRACTF128 $1, Y0, X1; \
	OP           X1, X0, X0; \
	VMOVHLPS     X0, X0, X1; \
	OPS          X1, X0, X0; \
	VMOVSD       X0, ret+256(FP); \
	VZEROUPPER; \
	RET

// float32 and the 16-bit floats are multiplied and summed in float64:
// eight elements (32 bytes of float32, 16 of halves) widen, exactly, to one
// zmm; four (16 bytes, 8) to one ymm.
#define LDPS2PD(m, z) VCVTPS2PD m, z
#define LDPH2PD(m, z) VCVTPH2PS m, Y15; VCVTPS2PD Y15, z
#define LDPS2PD256(m, y) VCVTPS2PD m, y
#define LDPH2PD256(m, y) VCVTPH2PS m, X15; VCVTPS2PD X15, y

// Every loop prefetches the line R8 bytes ahead of the block it reads,
// once per block. The hardware prefetchers stop at each 4 KiB page
// boundary, and on a virtual machine a missed address translation costs a
// long nested page walk; reaching four pages ahead (16 KiB) starts both
// early. On the 64 MiB float32 product in 4 KiB pages (Sapphire Rapids
// under KVM, two threads) the median time fell from 7.7 to 2.9 ms when the
// data came from DRAM and was unchanged when it came from L3; nearer
// distances did less, and extra prefetches per block nothing. The float32
// loops (LDAHEAD: single runs, pairs, complex64 parts) take the distance
// from streamAhead, which is per processor model (ahead_amd64.go): on
// Zen 5 it is 0, the line the block reads, a no-op; on Emerald Rapids
// 4 KiB, since a pair's two streams 16 KiB ahead each cost more from L3
// than they saved. The others
// (FIXEDAHEAD) keep 16 KiB everywhere: on Zen 5 bfloat16 sums from memory
// took 28% more CPU time without it, float64 and int32 products the same.
// Prefetches past the end of a never fault.
#define LDAHEAD MOVQ ·streamAhead(SB), R8
#define FIXEDAHEAD MOVQ $16384, R8
#define PREFETCH(R) PREFETCHT0 (R)(R8*1)

// REDUCE512 keeps the lanes in Z0-Z3 and converts each block into Z4-Z7
// with LD(memory, register) before OP. INIT fills Z0 with the starting
// value; SHIFT is log2 of the block length and VB the bytes of a per
// vector.
#define REDUCE512(AHEAD, INIT, LD, OP, SHIFT, VB) \
	MOVQ      a_base+0(FP), SI; \
	AHEAD; \
	MOVQ      a_len+8(FP), CX; \
	INIT; \
	VMOVDQA64 Z0, Z1; \
	VMOVDQA64 Z0, Z2; \
	VMOVDQA64 Z0, Z3; \
	SHRQ      $SHIFT, CX; \
	JZ        done; \
loop: \
	PREFETCH(SI); \
	LD((0*VB)(SI), Z4); \
	LD((1*VB)(SI), Z5); \
	LD((2*VB)(SI), Z6); \
	LD((3*VB)(SI), Z7); \
	OP        Z4, Z0, Z0; \
	OP        Z5, Z1, Z1; \
	OP        Z6, Z2, Z2; \
	OP        Z7, Z3, Z3; \
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

// PAIRTAIL multiplies the last len&31 elements of the run at R into the
// lanes A0-A3 (lane j of the tail into lane j, as the Go tail loop does),
// the four masks K1-K4 holding the low bits of the tail's length for each
// vector of eight; masked elements are neither read nor multiplied.
// LDZ(m, k, z) loads the elements at m that mask k selects into z, as
// float64 (zero elsewhere); VB is the bytes of one vector of eight.
#define PAIRTAIL(LDZ, VB, OP, R, A0, A1, A2, A3) \
	LDZ((0*VB)(R), K1, Z4); \
	OP          Z4, A0, K1, A0; \
	LDZ((1*VB)(R), K2, Z5); \
	OP          Z5, A1, K2, A1; \
	LDZ((2*VB)(R), K3, Z6); \
	OP          Z6, A2, K3, A2; \
	LDZ((3*VB)(R), K4, Z7); \
	OP          Z7, A3, K4, A3

// The pair kernels' loads of eight elements as float64, whole and masked:
// float32 widened (32 bytes a vector), float64 as they are (64).
#define PAIRLDPS(m, z) VCVTPS2PD m, z
#define PAIRLDPSZ(m, k, z) VCVTPS2PD.Z m, k, z
#define PAIRLDPD(m, z) VMOVUPD m, z
#define PAIRLDPDZ(m, k, z) VMOVUPD.Z m, k, z

// PAIRFOLD2 folds the lanes A0-A3 into the two low elements of A0 in the
// rounds of FOLDF64 (and of the Go fold32) but its last, using the halves
// of A0 and A1.
#define PAIRFOLD2(OP, A0, A1, A2, A3, Y0, Y1, X0, X1) \
	OP            A2, A0, A0; \
	OP            A3, A1, A1; \
	OP            A1, A0, A0; \
	VEXTRACTF64X4 $1, A0, Y1; \
	OP            Y1, Y0, Y0; \
	VEXTRACTF128  $1, Y0, X1; \
	OP            X1, X0, X0

// FINAL ends a fold of float lanes in X0 (the last round, lane 0 with lane
// 1, through X1) and stores the result at dst; FINALC stores the two
// lanes as they are, a complex sum's real and imaginary parts (see
// complexFold).
#define FINAL(OPS, X0, X1, dst) VMOVHLPS X0, X0, X1; OPS X1, X0, X0; VMOVSD X0, dst
#define FINALC(OPS, X0, X1, dst) VMOVUPD X0, dst

// PAIR512 is the body of the AVX-512 pair kernels: AHEAD sets the
// prefetch distance (LDAHEAD or FIXEDAHEAD), LD and LDZ load eight
// elements (VB bytes) as float64, whole or masked (PAIRLDPS, PAIRLDPD and
// their Z forms), INIT fills Z0 with the starting value, OP and OPS are
// the packed and scalar operation, END is FINAL or FINALC and B the
// offset of b's result. A block is 32 elements of each run.
#define PAIR512(AHEAD, LD, LDZ, VB, INIT, OP, OPS, END, B) \
	MOVQ      a_base+0(FP), SI; \
	AHEAD; \
	MOVQ      a_len+8(FP), CX; \
	MOVQ      b_base+24(FP), DI; \
	INIT; \
	VMOVDQA64 Z0, Z1; \
	VMOVDQA64 Z0, Z2; \
	VMOVDQA64 Z0, Z3; \
	VMOVDQA64 Z0, Z8; \
	VMOVDQA64 Z0, Z9; \
	VMOVDQA64 Z0, Z10; \
	VMOVDQA64 Z0, Z11; \
	SHRQ      $5, CX; \
	JZ        pairtail; \
pairloop: \
	PREFETCH(SI); \
	PREFETCH(DI); \
	LD((0*VB)(SI), Z4); \
	LD((1*VB)(SI), Z5); \
	LD((2*VB)(SI), Z6); \
	LD((3*VB)(SI), Z7); \
	LD((0*VB)(DI), Z12); \
	LD((1*VB)(DI), Z13); \
	LD((2*VB)(DI), Z14); \
	LD((3*VB)(DI), Z15); \
	OP        Z4, Z0, Z0; \
	OP        Z5, Z1, Z1; \
	OP        Z6, Z2, Z2; \
	OP        Z7, Z3, Z3; \
	OP        Z12, Z8, Z8; \
	OP        Z13, Z9, Z9; \
	OP        Z14, Z10, Z10; \
	OP        Z15, Z11, Z11; \
	ADDQ      $(4*VB), SI; \
	ADDQ      $(4*VB), DI; \
	DECQ      CX; \
	JNZ       pairloop; \
pairtail: \
	MOVQ      a_len+8(FP), CX; \
	ANDQ      $31, CX; \
	JZ        pairfold; \
	MOVQ      $1, AX; \
	SHLQ      CX, AX; \
	DECQ      AX; \
	KMOVQ     AX, K1; \
	SHRQ      $8, AX; \
	KMOVQ     AX, K2; \
	SHRQ      $8, AX; \
	KMOVQ     AX, K3; \
	SHRQ      $8, AX; \
	KMOVQ     AX, K4; \
	PAIRTAIL(LDZ, VB, OP, SI, Z0, Z1, Z2, Z3); \
	PAIRTAIL(LDZ, VB, OP, DI, Z8, Z9, Z10, Z11); \
pairfold: \
	PAIRFOLD2(OP, Z0, Z1, Z2, Z3, Y0, Y1, X0, X1); \
	END(OPS, X0, X1, pa+48(FP)); \
	PAIRFOLD2(OP, Z8, Z9, Z10, Z11, Y8, Y9, X8, X9); \
	END(OPS, X8, X9, pb+B(FP)); \
	VZEROUPPER; \
	RET

// PAIRFOLD256 folds float64 lanes 0-31 in Y0-Y7 (lanes 4q.. in Yq) into
// the two low elements of X0 in the rounds of FOLDF64_256 (and the Go
// fold32) but its last (see FINAL).
#define PAIRFOLD256(OP) \
	OP           Y4, Y0, Y0; \
	OP           Y5, Y1, Y1; \
	OP           Y6, Y2, Y2; \
	OP           Y7, Y3, Y3; \
	OP           Y2, Y0, Y0; \
	OP           Y3, Y1, Y1; \
	OP           Y1, Y0, Y0; \
	VEXTRACTF128 $1, Y0, X1; \
	OP           X1, X0, X0

// PAIRA256 multiplies four float32 at off(R), widened through Y15, into
// the lane register A. One temporary serves every widening: the renamer
// gives each write of Y15 a register of its own, so the sixteen chains stay
// independent and fifteen of them fit in registers.
#define PAIRA256(OP, R, off, A) \
	VCVTPS2PD off(R), Y15; \
	OP        Y15, A, A

// PAIR256 is the body of the AVX2 pair kernels (see PAIR512, whose END
// and B it takes too): a's lanes
// in Y0-Y7 as in REDUCE256, b's in Y8-Y14 and, for its last four, the
// frame; so one chain of sixteen goes through memory per block, not eight
// (its load-multiply-store is still shorter than a block's work).
#define PAIR256(INIT, OP, OPS, END, B) \
	MOVQ    a_base+0(FP), SI; \
	LDAHEAD; \
	MOVQ    a_len+8(FP), CX; \
	MOVQ    b_base+24(FP), DI; \
	INIT; \
	VMOVDQA Y0, Y1; \
	VMOVDQA Y0, Y2; \
	VMOVDQA Y0, Y3; \
	VMOVDQA Y0, Y4; \
	VMOVDQA Y0, Y5; \
	VMOVDQA Y0, Y6; \
	VMOVDQA Y0, Y7; \
	VMOVDQA Y0, Y8; \
	VMOVDQA Y0, Y9; \
	VMOVDQA Y0, Y10; \
	VMOVDQA Y0, Y11; \
	VMOVDQA Y0, Y12; \
	VMOVDQA Y0, Y13; \
	VMOVDQA Y0, Y14; \
	VMOVUPD Y0, 0(SP); \
	SHRQ    $5, CX; \
	JZ      pair256fold; \
pair256loop: \
	PREFETCH(SI); \
	PREFETCH(DI); \
	PAIRA256(OP, SI, 0, Y0); \
	PAIRA256(OP, DI, 0, Y8); \
	PAIRA256(OP, SI, 16, Y1); \
	PAIRA256(OP, DI, 16, Y9); \
	PAIRA256(OP, SI, 32, Y2); \
	PAIRA256(OP, DI, 32, Y10); \
	PAIRA256(OP, SI, 48, Y3); \
	PAIRA256(OP, DI, 48, Y11); \
	PAIRA256(OP, SI, 64, Y4); \
	PAIRA256(OP, DI, 64, Y12); \
	PAIRA256(OP, SI, 80, Y5); \
	PAIRA256(OP, DI, 80, Y13); \
	PAIRA256(OP, SI, 96, Y6); \
	PAIRA256(OP, DI, 96, Y14); \
	PAIRA256(OP, SI, 112, Y7); \
	VCVTPS2PD 112(DI), Y15; \
	OP        0(SP), Y15, Y15; \
	VMOVUPD   Y15, 0(SP); \
	ADDQ      $128, SI; \
	ADDQ      $128, DI; \
	DECQ      CX; \
	JNZ       pair256loop; \
pair256fold: \
	PAIRFOLD256(OP); \
	END(OPS, X0, X1, pa+48(FP)); \
	VMOVDQA   Y8, Y0; \
	VMOVDQA   Y9, Y1; \
	VMOVDQA   Y10, Y2; \
	VMOVDQA   Y11, Y3; \
	VMOVDQA   Y12, Y4; \
	VMOVDQA   Y13, Y5; \
	VMOVDQA   Y14, Y6; \
	VMOVUPD   0(SP), Y7; \
	PAIRFOLD256(OP); \
	END(OPS, X0, X1, pb+B(FP)); \
	VZEROUPPER; \
	RET

// bfloat16 is the high half of a float32, so a dword of two bfloat16
// holds both widened elements one shift or one mask away: the dword
// shifted left by 16 is the even element as a float32, the dword with its
// low half cleared the odd one. Widening by VPMOVZXWD took a shuffle (port
// 5) per eight elements on top of the conversion's own port 5 half; the
// shift and the mask run on the other vector ports. The widened elements
// come out split even/odd, so the lanes are kept permuted in the loop
// (each lane still takes its elements in order, one per block) and put
// back in order once, at the end.

// REDUCEBF512 is REDUCE512 for bfloat16, 32 elements per block: Z0 holds
// lanes 0, 2, …, 14, Z1 lanes 1, 3, …, 15, Z2 and Z3 the same of 16-31.
#define REDUCEBF512(INIT, OP) \
	MOVQ      a_base+0(FP), SI; \
	FIXEDAHEAD; \
	MOVQ      a_len+8(FP), CX; \
	INIT; \
	VMOVDQA64 Z0, Z1; \
	VMOVDQA64 Z0, Z2; \
	VMOVDQA64 Z0, Z3; \
	MOVL      $0xffff0000, AX; \
	VPBROADCASTD AX, Y8; \
	SHRQ      $5, CX; \
	JZ        done; \
loop: \
	PREFETCH(SI); \
	VPSLLD    $16, (SI), Y4; \
	VPAND     (SI), Y8, Y5; \
	VPSLLD    $16, 32(SI), Y6; \
	VPAND     32(SI), Y8, Y7; \
	VCVTPS2PD Y4, Z4; \
	VCVTPS2PD Y5, Z5; \
	VCVTPS2PD Y6, Z6; \
	VCVTPS2PD Y7, Z7; \
	OP        Z4, Z0, Z0; \
	OP        Z5, Z1, Z1; \
	OP        Z6, Z2, Z2; \
	OP        Z7, Z3, Z3; \
	ADDQ      $64, SI; \
	DECQ      CX; \
	JNZ       loop; \
done: \
	VMOVDQU64 bfLo<>(SB), Z9; \
	VMOVDQU64 bfHi<>(SB), Z10; \
	VMOVDQA64 Z0, Z4; \
	VPERMT2PD Z1, Z9, Z4; \
	VPERMT2PD Z1, Z10, Z0; \
	VMOVDQA64 Z2, Z6; \
	VPERMT2PD Z3, Z9, Z6; \
	VPERMT2PD Z3, Z10, Z2; \
	LEAQ      ret+24(FP), DI; \
	VMOVDQU64 Z4, (DI); \
	VMOVDQU64 Z0, 64(DI); \
	VMOVDQU64 Z6, 128(DI); \
	VMOVDQU64 Z2, 192(DI); \
	VZEROUPPER; \
	RET

// VPERMT2PD indices interleaving the even lanes (first table, 0-7) with
// the odd ones (second, 8-15): the low and the high eight lanes.
DATA bfLo<>+0(SB)/8, $0
DATA bfLo<>+8(SB)/8, $8
DATA bfLo<>+16(SB)/8, $1
DATA bfLo<>+24(SB)/8, $9
DATA bfLo<>+32(SB)/8, $2
DATA bfLo<>+40(SB)/8, $10
DATA bfLo<>+48(SB)/8, $3
DATA bfLo<>+56(SB)/8, $11
GLOBL bfLo<>(SB), RODATA|NOPTR, $64
DATA bfHi<>+0(SB)/8, $4
DATA bfHi<>+8(SB)/8, $12
DATA bfHi<>+16(SB)/8, $5
DATA bfHi<>+24(SB)/8, $13
DATA bfHi<>+32(SB)/8, $6
DATA bfHi<>+40(SB)/8, $14
DATA bfHi<>+48(SB)/8, $7
DATA bfHi<>+56(SB)/8, $15
GLOBL bfHi<>(SB), RODATA|NOPTR, $64

// BFLD256 widens the eight bfloat16 at off(SI) into E (lanes 8q, 8q+2,
// 8q+4, 8q+6 of the block) and O (8q+1, …, 8q+7) and folds them into
// accumulators AE and AO, through X12 and X13; Y15 holds the mask.
#define BFLD256(OP, off, AE, AO) \
	VMOVDQU   off(SI), X12; \
	VPSLLD    $16, X12, X13; \
	VPAND     X12, X15, X12; \
	VCVTPS2PD X13, Y13; \
	VCVTPS2PD X12, Y12; \
	OP        Y13, AE, AE; \
	OP        Y12, AO, AO

// BFUNPERM256 puts the lanes 8q.. of E (even) and O (odd) back in order
// into E (8q..8q+3) and O (8q+4..8q+7).
#define BFUNPERM256(E, O) \
	VUNPCKLPD  O, E, Y12; \
	VUNPCKHPD  O, E, Y13; \
	VPERM2F128 $0x20, Y13, Y12, E; \
	VPERM2F128 $0x31, Y13, Y12, O

// REDUCEBF256 is REDUCEBF512 for AVX2: Y(2q) holds the even lanes of
// 8q..8q+7, Y(2q+1) the odd ones.
#define REDUCEBF256(INIT, OP) \
	MOVQ    a_base+0(FP), SI; \
	FIXEDAHEAD; \
	MOVQ    a_len+8(FP), CX; \
	INIT; \
	VMOVDQA Y0, Y1; \
	VMOVDQA Y0, Y2; \
	VMOVDQA Y0, Y3; \
	VMOVDQA Y0, Y4; \
	VMOVDQA Y0, Y5; \
	VMOVDQA Y0, Y6; \
	VMOVDQA Y0, Y7; \
	MOVL    $0xffff0000, AX; \
	MOVQ    AX, X15; \
	VPBROADCASTD X15, Y15; \
	SHRQ    $5, CX; \
	JZ      done; \
loop: \
	PREFETCH(SI); \
	BFLD256(OP, 0, Y0, Y1); \
	BFLD256(OP, 16, Y2, Y3); \
	BFLD256(OP, 32, Y4, Y5); \
	BFLD256(OP, 48, Y6, Y7); \
	ADDQ    $64, SI; \
	DECQ    CX; \
	JNZ     loop; \
done: \
	BFUNPERM256(Y0, Y1); \
	BFUNPERM256(Y2, Y3); \
	BFUNPERM256(Y4, Y5); \
	BFUNPERM256(Y6, Y7); \
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

// func prodF32AVX512(a []float32) [32]float64
TEXT ·prodF32AVX512(SB), NOSPLIT, $0-280
	REDUCE512(LDAHEAD, ONEF64_512, LDPS2PD, VMULPD, 5, 32)

// func prodF64AVX512(a []float64) [32]float64
TEXT ·prodF64AVX512(SB), NOSPLIT, $0-280
	REDUCE512(FIXEDAHEAD, ONEF64_512, LDPD, VMULPD, 5, 64)

// func prodI32AVX512(a []int32) [64]int32
TEXT ·prodI32AVX512(SB), NOSPLIT, $0-280
	REDUCE512(FIXEDAHEAD, ONEI32_512, LDQ512, VPMULLD, 6, 64)

// func prodI64AVX512(a []int64) [32]int64
TEXT ·prodI64AVX512(SB), NOSPLIT, $0-280
	REDUCE512(FIXEDAHEAD, ONEI64_512, LDQ512, VPMULLQ, 5, 64)

// func prodI8AVX512(a []int8) [64]int32
TEXT ·prodI8AVX512(SB), NOSPLIT, $0-280
	REDUCE512(FIXEDAHEAD, ONEI32_512, LDSXBD, VPMULLD, 6, 16)

// func prodU8AVX512(a []uint8) [64]int32
TEXT ·prodU8AVX512(SB), NOSPLIT, $0-280
	REDUCE512(FIXEDAHEAD, ONEI32_512, LDZXBD, VPMULLD, 6, 16)

// func prodI16AVX512(a []int16) [64]int32
TEXT ·prodI16AVX512(SB), NOSPLIT, $0-280
	REDUCE512(FIXEDAHEAD, ONEI32_512, LDSXWD, VPMULLD, 6, 32)

// func prodU16AVX512(a []uint16) [64]int32
TEXT ·prodU16AVX512(SB), NOSPLIT, $0-280
	REDUCE512(FIXEDAHEAD, ONEI32_512, LDZXWD, VPMULLD, 6, 32)

// func prodF16AVX512(a []uint16) [32]float64
TEXT ·prodF16AVX512(SB), NOSPLIT, $0-280
	REDUCE512(FIXEDAHEAD, ONEF64_512, LDPH2PD, VMULPD, 5, 16)

// func prodBF16AVX512(a []uint16) [32]float64
TEXT ·prodBF16AVX512(SB), NOSPLIT, $0-280
	REDUCEBF512(ONEF64_512, VMULPD)

// REDUCE256 is REDUCE512 with eight ymm accumulators Y0-Y7 and
// temporaries Y8-Y15, so the lanes, and hence the order, are the same.
#define REDUCE256(AHEAD, INIT, LD, OP, SHIFT, VB) \
	MOVQ    a_base+0(FP), SI; \
	AHEAD; \
	MOVQ    a_len+8(FP), CX; \
	INIT; \
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
	PREFETCH(SI); \
	LD((0*VB)(SI), Y8); \
	LD((1*VB)(SI), Y9); \
	LD((2*VB)(SI), Y10); \
	LD((3*VB)(SI), Y11); \
	LD((4*VB)(SI), Y12); \
	LD((5*VB)(SI), Y13); \
	LD((6*VB)(SI), Y14); \
	LD((7*VB)(SI), Y15); \
	OP      Y8, Y0, Y0; \
	OP      Y9, Y1, Y1; \
	OP      Y10, Y2, Y2; \
	OP      Y11, Y3, Y3; \
	OP      Y12, Y4, Y4; \
	OP      Y13, Y5, Y5; \
	OP      Y14, Y6, Y6; \
	OP      Y15, Y7, Y7; \
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

// func prodF32AVX2(a []float32) [32]float64
TEXT ·prodF32AVX2(SB), NOSPLIT, $0-280
	REDUCE256(LDAHEAD, ONEF64_256, LDPS2PD256, VMULPD, 5, 16)

// func prodF64AVX2(a []float64) [32]float64
TEXT ·prodF64AVX2(SB), NOSPLIT, $0-280
	REDUCE256(FIXEDAHEAD, ONEF64_256, LDPD, VMULPD, 5, 32)

// func prodI32AVX2(a []int32) [64]int32
TEXT ·prodI32AVX2(SB), NOSPLIT, $0-280
	REDUCE256(FIXEDAHEAD, ONEI32_256, LDDQU256, VPMULLD, 6, 32)

// func prodI8AVX2(a []int8) [64]int32
TEXT ·prodI8AVX2(SB), NOSPLIT, $0-280
	REDUCE256(FIXEDAHEAD, ONEI32_256, LDSXBD, VPMULLD, 6, 8)

// func prodU8AVX2(a []uint8) [64]int32
TEXT ·prodU8AVX2(SB), NOSPLIT, $0-280
	REDUCE256(FIXEDAHEAD, ONEI32_256, LDZXBD, VPMULLD, 6, 8)

// func prodI16AVX2(a []int16) [64]int32
TEXT ·prodI16AVX2(SB), NOSPLIT, $0-280
	REDUCE256(FIXEDAHEAD, ONEI32_256, LDSXWD, VPMULLD, 6, 16)

// func prodU16AVX2(a []uint16) [64]int32
TEXT ·prodU16AVX2(SB), NOSPLIT, $0-280
	REDUCE256(FIXEDAHEAD, ONEI32_256, LDZXWD, VPMULLD, 6, 16)

// func prodF16AVX2(a []uint16) [32]float64
TEXT ·prodF16AVX2(SB), NOSPLIT, $0-280
	REDUCE256(FIXEDAHEAD, ONEF64_256, LDPH2PD256, VMULPD, 5, 8)

// func prodBF16AVX2(a []uint16) [32]float64
TEXT ·prodBF16AVX2(SB), NOSPLIT, $0-280
	REDUCEBF256(ONEF64_256, VMULPD)

// func foldF64AVX512(l [32]float64) float64
TEXT ·foldF64AVX512(SB), NOSPLIT, $0-264
	FOLDF64(VMULPD, VMULSD)

// func foldF64AVX2(l [32]float64) float64
TEXT ·foldF64AVX2(SB), NOSPLIT, $0-264
	FOLDF64_256(VMULPD, VMULSD)

// func sumFoldF64AVX2(l [32]float64) float64
TEXT ·sumFoldF64AVX2(SB), NOSPLIT, $0-264
	FOLDF64_256(VADDPD, VADDSD)

// func sumFoldF64AVX512(l [32]float64) float64
TEXT ·sumFoldF64AVX512(SB), NOSPLIT, $0-264
	FOLDF64(VADDPD, VADDSD)

// ---- Sums ----

#define ZERO512 VPXORQ Z0, Z0, Z0
#define NEGZERO64_512 MOVQ $0x8000000000000000, AX; VPBROADCASTQ AX, Z0


// func sumF32AVX512(a []float32) [32]float64
TEXT ·sumF32AVX512(SB), NOSPLIT, $0-280
	REDUCE512(LDAHEAD, NEGZERO64_512, LDPS2PD, VADDPD, 5, 32)

// func sumF64AVX512(a []float64) [32]float64
TEXT ·sumF64AVX512(SB), NOSPLIT, $0-280
	REDUCE512(FIXEDAHEAD, NEGZERO64_512, LDPD, VADDPD, 5, 64)

// func sumF16AVX512(a []uint16) [32]float64
TEXT ·sumF16AVX512(SB), NOSPLIT, $0-280
	REDUCE512(FIXEDAHEAD, NEGZERO64_512, LDPH2PD, VADDPD, 5, 16)

// func sumBF16AVX512(a []uint16) [32]float64
TEXT ·sumBF16AVX512(SB), NOSPLIT, $0-280
	REDUCEBF512(NEGZERO64_512, VADDPD)

// func sumI32AVX512(a []int32) [64]int32
TEXT ·sumI32AVX512(SB), NOSPLIT, $0-280
	REDUCE512(FIXEDAHEAD, ZERO512, LDQ512, VPADDD, 6, 64)

// func sumI64AVX512(a []int64) [32]int64
TEXT ·sumI64AVX512(SB), NOSPLIT, $0-280
	REDUCE512(FIXEDAHEAD, ZERO512, LDQ512, VPADDQ, 5, 64)

// func sumI8AVX512(a []int8) [64]int32
TEXT ·sumI8AVX512(SB), NOSPLIT, $0-280
	REDUCE512(FIXEDAHEAD, ZERO512, LDSXBD, VPADDD, 6, 16)

// func sumU8AVX512(a []uint8) [64]int32
TEXT ·sumU8AVX512(SB), NOSPLIT, $0-280
	REDUCE512(FIXEDAHEAD, ZERO512, LDZXBD, VPADDD, 6, 16)

// func sumI16AVX512(a []int16) [64]int32
TEXT ·sumI16AVX512(SB), NOSPLIT, $0-280
	REDUCE512(FIXEDAHEAD, ZERO512, LDSXWD, VPADDD, 6, 32)

// func sumU16AVX512(a []uint16) [64]int32
TEXT ·sumU16AVX512(SB), NOSPLIT, $0-280
	REDUCE512(FIXEDAHEAD, ZERO512, LDZXWD, VPADDD, 6, 32)

#define ZERO256 VPXOR Y0, Y0, Y0
#define NEGZERO64_256 MOVQ $0x8000000000000000, AX; MOVQ AX, X0; VPBROADCASTQ X0, Y0


// func sumF32AVX2(a []float32) [32]float64
TEXT ·sumF32AVX2(SB), NOSPLIT, $0-280
	REDUCE256(LDAHEAD, NEGZERO64_256, LDPS2PD256, VADDPD, 5, 16)

// func sumF64AVX2(a []float64) [32]float64
TEXT ·sumF64AVX2(SB), NOSPLIT, $0-280
	REDUCE256(FIXEDAHEAD, NEGZERO64_256, LDPD, VADDPD, 5, 32)

// func sumF16AVX2(a []uint16) [32]float64
TEXT ·sumF16AVX2(SB), NOSPLIT, $0-280
	REDUCE256(FIXEDAHEAD, NEGZERO64_256, LDPH2PD256, VADDPD, 5, 8)

// func sumBF16AVX2(a []uint16) [32]float64
TEXT ·sumBF16AVX2(SB), NOSPLIT, $0-280
	REDUCEBF256(NEGZERO64_256, VADDPD)

// func sumI32AVX2(a []int32) [64]int32
TEXT ·sumI32AVX2(SB), NOSPLIT, $0-280
	REDUCE256(FIXEDAHEAD, ZERO256, LDDQU256, VPADDD, 6, 32)

// func sumI64AVX2(a []int64) [32]int64
TEXT ·sumI64AVX2(SB), NOSPLIT, $0-280
	REDUCE256(FIXEDAHEAD, ZERO256, LDDQU256, VPADDQ, 5, 32)

// func sumI8AVX2(a []int8) [64]int32
TEXT ·sumI8AVX2(SB), NOSPLIT, $0-280
	REDUCE256(FIXEDAHEAD, ZERO256, LDSXBD, VPADDD, 6, 8)

// func sumU8AVX2(a []uint8) [64]int32
TEXT ·sumU8AVX2(SB), NOSPLIT, $0-280
	REDUCE256(FIXEDAHEAD, ZERO256, LDZXBD, VPADDD, 6, 8)

// func sumI16AVX2(a []int16) [64]int32
TEXT ·sumI16AVX2(SB), NOSPLIT, $0-280
	REDUCE256(FIXEDAHEAD, ZERO256, LDSXWD, VPADDD, 6, 16)

// func sumU16AVX2(a []uint16) [64]int32
TEXT ·sumU16AVX2(SB), NOSPLIT, $0-280
	REDUCE256(FIXEDAHEAD, ZERO256, LDZXWD, VPADDD, 6, 16)

// func prodF32PairAVX512(a, b []float32) (pa, pb float64)
//
// ProdF32 of a and of b (as long as a) side by side, tails and folds
// included: a's lanes in Z0-Z3, b's in Z8-Z11, each run's products in the
// order of prodF32AVX512, the Go tail loop and the fold, so each result
// has the bits ProdF32 gives. Two runs read at once keep two streams of
// loads and hardware prefetches in flight: one core multiplied a 64 MiB
// float32 run from memory in 20-30% less time as two halves side by side
// than straight through (Xeon Sapphire Rapids, KVM), where the widening
// loads' extra micro-operations leave one stream too few loads in flight.
TEXT ·prodF32PairAVX512(SB), NOSPLIT, $0-64
	PAIR512(LDAHEAD, PAIRLDPS, PAIRLDPSZ, 32, ONEF64_512, VMULPD, VMULSD, FINAL, 56)

// func sumF32PairAVX512(a, b []float32) (pa, pb float64)
TEXT ·sumF32PairAVX512(SB), NOSPLIT, $0-64
	PAIR512(LDAHEAD, PAIRLDPS, PAIRLDPSZ, 32, NEGZERO64_512, VADDPD, VADDSD, FINAL, 56)

// func prodF32PairAVX2(a, b []float32) (pa, pb float64)
//
// prodF32PairAVX512 for AVX2, for runs of whole 32-element blocks (the
// caller reduces others one at a time): two runs' lanes take all sixteen
// ymm registers, so one group of b's lanes lives in the frame (see
// PAIR256).
TEXT ·prodF32PairAVX2(SB), NOSPLIT, $32-64
	PAIR256(ONEF64_256, VMULPD, VMULSD, FINAL, 56)

// func sumF32PairAVX2(a, b []float32) (pa, pb float64)
TEXT ·sumF32PairAVX2(SB), NOSPLIT, $32-64
	PAIR256(NEGZERO64_256, VADDPD, VADDSD, FINAL, 56)

// func sumC64PairAVX512(a, b []float32) (pa, pb complex128)
//
// sumF32PairAVX512 for the parts of two complex64 runs: SumC64 of each,
// whose lanes fold as 16 complex lanes (FINALC).
TEXT ·sumC64PairAVX512(SB), NOSPLIT, $0-80
	PAIR512(LDAHEAD, PAIRLDPS, PAIRLDPSZ, 32, NEGZERO64_512, VADDPD, VADDSD, FINALC, 64)

// func sumC64PairAVX2(a, b []float32) (pa, pb complex128)
//
// sumC64PairAVX512 for runs of whole blocks of parts.
TEXT ·sumC64PairAVX2(SB), NOSPLIT, $32-80
	PAIR256(NEGZERO64_256, VADDPD, VADDSD, FINALC, 64)

// func prodF64PairAVX512(a, b []float64) (pa, pb float64)
//
// ProdF64 of a and of b (as long as a) side by side, tails and folds
// included, as prodF32PairAVX512 does for float32: each result has the
// bits ProdF64 gives. A reduction over the last axis of float64 rows of
// a thousand (8 KB) spent a fifth of its time around the block kernel,
// in the lanes it returns, the Go tail loop and the fold called through a
// function value, one row at a time. It prefetches 16 KiB ahead, as
// prodF64AVX512 does: on Emerald Rapids the pair from L3 was 0.9-0.95x
// the time at 16 KiB against 4 KiB.
TEXT ·prodF64PairAVX512(SB), NOSPLIT, $0-64
	PAIR512(FIXEDAHEAD, PAIRLDPD, PAIRLDPDZ, 64, ONEF64_512, VMULPD, VMULSD, FINAL, 56)

// func sumF64PairAVX512(a, b []float64) (pa, pb float64)
TEXT ·sumF64PairAVX512(SB), NOSPLIT, $0-64
	PAIR512(FIXEDAHEAD, PAIRLDPD, PAIRLDPDZ, 64, NEGZERO64_512, VADDPD, VADDSD, FINAL, 56)

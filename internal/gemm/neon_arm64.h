// NEON instructions Go's arm64 assembler lacks, encoded with WORD; d, n,
// m are vector register numbers. The encodings were checked against
// llvm-mc's disassembly of the assembled objects.

// FMLA Vd.4S, Vn.4S, Vm.S[lane]: Vd += Vn · Vm[lane], fused.
#define FMLAS(d, n, m, lane) WORD $(0x4F801000 | (((lane)&1)<<21) | (((lane)>>1)<<11) | ((m)<<16) | ((n)<<5) | (d))

// FMLA Vd.2D, Vn.2D, Vm.D[lane]: Vd += Vn · Vm[lane], fused.
#define FMLAD(d, n, m, lane) WORD $(0x4FC01000 | ((lane)<<11) | ((m)<<16) | ((n)<<5) | (d))

// FADD Vd.4S, Vn.4S, Vm.4S and FADD Vd.2D, Vn.2D, Vm.2D.
#define FADDS(d, n, m) WORD $(0x4E20D400 | ((m)<<16) | ((n)<<5) | (d))
#define FADDD(d, n, m) WORD $(0x4E60D400 | ((m)<<16) | ((n)<<5) | (d))

// FADDP Vd.4S, Vn.4S, Vm.4S: pairwise sums, [n0+n1, n2+n3, m0+m1, m2+m3];
// FADDP Vd.2D, Vn.2D, Vm.2D: [n0+n1, m0+m1].
#define FADDPS(d, n, m) WORD $(0x6E20D400 | ((m)<<16) | ((n)<<5) | (d))
#define FADDPD(d, n, m) WORD $(0x6E60D400 | ((m)<<16) | ((n)<<5) | (d))

// FADDP Sd, Vn.2S and FADDP Dd, Vn.2D: the sum of the two low lanes.
#define FADDPS2(d, n) WORD $(0x7E30D800 | ((n)<<5) | (d))
#define FADDPD2(d, n) WORD $(0x7E70D800 | ((n)<<5) | (d))

//go:build !purego

package kernels

import "golang.org/x/sys/cpu"

// AVX2 is the set for x86-64 processors with AVX2, FMA3 and F16C (Haswell,
// Zen and later): 16 vector registers of 32 bytes. Every AVX2 processor
// has F16C; requiring it keeps a virtual machine that hides it on the Go
// twins rather than on kernels that would fault.
var AVX2 = &Set{
	Name:      "avx2",
	Requires:  []string{"AVX2", "FMA", "F16C"},
	Lower:     Generic,
	supported: cpu.X86.HasAVX2 && cpu.X86.HasFMA && cpu.X86.HasAVX && cpu.X86.HasF16C,
}

// AVX512 is the set for x86-64 processors with the AVX-512 foundation,
// DQ, BW and VL subsets (Skylake-SP, Ice Lake, Sapphire Rapids, Zen 4 and
// later): 32 vector registers of 64 bytes and mask registers. Families
// without an AVX-512 kernel use the AVX2 one.
var AVX512 = &Set{
	Name:     "avx512",
	Requires: []string{"AVX-512F", "AVX-512DQ", "AVX-512BW", "AVX-512VL", "AVX2", "FMA", "F16C"},
	Lower:    AVX2,
	supported: AVX2.supported && cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ &&
		cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL,
}

// AMX is the avx512 set with Intel's Advanced Matrix Extensions for
// bfloat16 (Sapphire Rapids and later): eight tile registers of up to 16
// rows of 64 bytes and a tile dot product (TDPBF16PS). Only the bfloat16
// GEMM uses them; every other family is the avx512 set's. The processor
// must have the instructions and the operating system must let this
// process use the tile data state (tileDataPermitted: on Linux an
// arch_prctl request, made once, at the first product that would run on
// the tiles, through Permitted; a refusal leaves the avx512 set in use).
// Its products are within the
// float32 path's error bound, not its bits (docs/kernels.md), so
// TENSOR_KERNELS=avx512 switches the tiles off.
var AMX = &Set{
	Name:       "amx",
	Requires:   append([]string{"AMX-TILE", "AMX-BF16", "XTILEDATA permission from the OS"}, AVX512.Requires...),
	Lower:      AVX512,
	supported:  AVX512.supported && cpu.X86.HasAMXTile && cpu.X86.HasAMXBF16,
	permission: &permission{ask: tileDataPermitted},
}

func init() { register(AMX, AVX512, AVX2) }

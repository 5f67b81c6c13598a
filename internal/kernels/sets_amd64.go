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

func init() { register(AVX512, AVX2) }

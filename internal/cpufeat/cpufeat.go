// Package cpufeat says which instruction-set extensions the kernels may use.
//
// It is the single place where the library asks the processor what it can
// do, so that every kernel package dispatches on the same answers and tests
// can see what was chosen.
package cpufeat

import "golang.org/x/sys/cpu"

// AVX512 is true when the AVX-512 foundation, DQ, BW and VL subsets are all
// present and enabled by the operating system; the kernels use all four.
var AVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL

// AVX2FMA is true when AVX2 and FMA3 are both present and enabled.
var AVX2FMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// F16C is true when the half-precision conversion instructions are present
// (they need AVX as well).
var F16C = cpu.X86.HasAVX && cpu.X86.HasF16C

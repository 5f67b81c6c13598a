//go:build !purego

package kernels

import "golang.org/x/sys/cpu"

// NEON is the set for 64-bit Arm processors with Advanced SIMD (every
// arm64 processor Go runs on: Apple M1 and later, Neoverse N1/V1/V2,
// Cortex-A53 and later): 32 vector registers of 16 bytes and a
// by-element fused multiply-add. Families without a NEON kernel use the
// Go twins.
var NEON = &Set{
	Name:      "neon",
	Requires:  []string{"ASIMD", "FP"},
	Lower:     Generic,
	supported: cpu.ARM64.HasASIMD && cpu.ARM64.HasFP,
}

func init() { register(NEON) }

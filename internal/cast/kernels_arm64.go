//go:build !purego

package cast

import "github.com/tensor-go/tensor/internal/kernels"

// NEON kernels, in kernels_arm64.s. They convert len(dst)/8*8 elements, 32
// per iteration and then eight at a time, and leave the rest to the Go
// twin. Each is bound by memory bandwidth: per 32 elements one to four
// 64-byte loads and stores and eight or sixteen conversions, which four
// vector pipes retire in two to four cycles.

// halfToFloat32NEON: one load, eight FCVTL/FCVTL2, two stores per 32.
//
//go:noescape
func halfToFloat32NEON(dst []float32, src []uint16)

// float32ToHalfNEON: two loads, eight FCVTN/FCVTN2, one store per 32.
//
//go:noescape
func float32ToHalfNEON(dst []uint16, src []float32)

// brainToFloat32NEON: one load, eight SHLL/SHLL2, two stores per 32.
//
//go:noescape
func brainToFloat32NEON(dst []float32, src []uint16)

// float32ToBrainNEON: two loads, eight roundings of seven integer and
// compare instructions (the twin's rounding, NaNs kept quiet), four UZP2
// and one store per 32; some 64 instructions, sixteen cycles on four
// pipes, so it keeps up with memory but not with L1.
//
//go:noescape
func float32ToBrainNEON(dst []uint16, src []float32)

// float32ToFloat64NEON: two loads, sixteen FCVTL/FCVTL2, four stores per
// 32.
//
//go:noescape
func float32ToFloat64NEON(dst []float64, src []float32)

// float64ToFloat32NEON: four loads, sixteen FCVTN/FCVTN2, two stores per
// 32.
//
//go:noescape
func float64ToFloat32NEON(dst []float32, src []float64)

// int32ToFloat32NEON: two loads, eight SCVTF, two stores per 32.
//
//go:noescape
func int32ToFloat32NEON(dst []float32, src []int32)

// float32 → bfloat16 rounds with integer instructions: BFCVTN is an
// extension (BF16) that not every arm64 processor has.
func init() {
	kernelSets.Add(kernels.NEON, convKernels{
		int32ToFloat32:   withTail(int32ToFloat32NEON, int32ToFloat32Go),
		float32ToFloat64: withTail(float32ToFloat64NEON, float32ToFloat64Go),
		float64ToFloat32: withTail(float64ToFloat32NEON, float64ToFloat32Go),
		brainToFloat32:   withTail(brainToFloat32NEON, brainToFloat32Go),
		float32ToBrain:   withTail(float32ToBrainNEON, float32ToBrainGo),
		halfToFloat32:    withTail(halfToFloat32NEON, halfToFloat32Go),
		float32ToHalf:    withTail(float32ToHalfNEON, float32ToHalfGo),
	})
}

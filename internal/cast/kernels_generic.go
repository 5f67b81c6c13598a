package cast

import (
	"github.com/tensor-go/tensor/bfloat16"
	"github.com/tensor-go/tensor/internal/kernels"
	"github.com/x448/float16"
)

// Contiguous kernels for the conversions that matter most for speed, one
// entry per kernel set: the Go twins below, on amd64 AVX2/F16C assembly
// (kernels_amd64.go) and on arm64 NEON (kernels_arm64.go). The assembly
// computes exactly the twins' loops, bit for bit: the same instructions'
// rounding (MXCSR's or FPCR's round-to-nearest-even, which Go never
// changes), NaNs quieted alike.
// Every kernel requires len(src) >= len(dst) and converts len(dst)
// elements.
type convKernels struct {
	int32ToFloat32   func(dst []float32, src []int32)
	float32ToFloat64 func(dst []float64, src []float32)
	float64ToFloat32 func(dst []float32, src []float64)
	halfToFloat32    func(dst []float32, src []uint16)
	float32ToHalf    func(dst []uint16, src []float32)
	brainToFloat32   func(dst []float32, src []uint16)
	float32ToBrain   func(dst []uint16, src []float32)
}

// active holds the active kernel set's entry; kernelSets keeps it so.
var (
	active     convKernels
	kernelSets = kernels.NewTable(&active, convKernels{
		int32ToFloat32: int32ToFloat32Go, float32ToFloat64: float32ToFloat64Go, float64ToFloat32: float64ToFloat32Go,
		halfToFloat32: halfToFloat32Go, float32ToHalf: float32ToHalfGo,
		brainToFloat32: brainToFloat32Go, float32ToBrain: float32ToBrainGo,
	})
)

func int32ToFloat32Go(dst []float32, src []int32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = float32(v)
	}
}

func float32ToFloat64Go(dst []float64, src []float32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = float64(v)
	}
}

func float64ToFloat32Go(dst []float32, src []float64) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = float32(v)
	}
}

// halfToFloat32Go widens IEEE binary16 bit patterns exactly; a NaN gets
// its quiet bit set and keeps its payload, as VCVTPH2PS does.
func halfToFloat32Go(dst []float32, src []uint16) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = float16.Frombits(v).Float32()
	}
}

// float32ToHalfGo rounds to binary16 bit patterns, to nearest even; a NaN
// gets its quiet bit set and keeps the top of its payload, as VCVTPS2PH
// does.
func float32ToHalfGo(dst []uint16, src []float32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = float16.Fromfloat32(v).Bits()
	}
}

// brainToFloat32Go widens bfloat16 bit patterns exactly (a shift).
func brainToFloat32Go(dst []float32, src []uint16) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = bfloat16.BFloat16(v).Float32()
	}
}

// float32ToBrainGo rounds to bfloat16 bit patterns, to nearest even, with
// a NaN kept a quiet NaN of the same sign and top payload.
func float32ToBrainGo(dst []uint16, src []float32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = bfloat16.FromFloat32(v).Bits()
	}
}

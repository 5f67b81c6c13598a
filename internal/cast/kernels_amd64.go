//go:build !purego

package cast

import "github.com/tensor-go/tensor/internal/kernels"

// Assembly kernels, in kernels_amd64.s. They convert len(dst)/8*8 elements,
// eight per 256-bit vector, and leave the rest to the caller.

//go:noescape
func int32ToFloat32AVX(dst []float32, src []int32)

//go:noescape
func float32ToFloat64AVX(dst []float64, src []float32)

//go:noescape
func float64ToFloat32AVX(dst []float32, src []float64)

//go:noescape
func brainToFloat32AVX2(dst []float32, src []uint16)

//go:noescape
func float32ToBrainAVX2(dst []uint16, src []float32)

//go:noescape
func halfToFloat32F16C(dst []float32, src []uint16)

//go:noescape
func float32ToHalfF16C(dst []uint16, src []float32)

// The AVX2 set implies the AVX these conversions need, and F16C.
func init() {
	kernelSets.Add(kernels.AVX2, convKernels{
		int32ToFloat32:   withTail(int32ToFloat32AVX, int32ToFloat32Go),
		float32ToFloat64: withTail(float32ToFloat64AVX, float32ToFloat64Go),
		float64ToFloat32: withTail(float64ToFloat32AVX, float64ToFloat32Go),
		brainToFloat32:   withTail(brainToFloat32AVX2, brainToFloat32Go),
		float32ToBrain:   withTail(float32ToBrainAVX2, float32ToBrainGo),
		halfToFloat32:    withTail(halfToFloat32F16C, halfToFloat32Go),
		float32ToHalf:    withTail(float32ToHalfF16C, float32ToHalfGo),
	})
}

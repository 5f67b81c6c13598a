package ewise

import (
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/vec"
)

// MulWithSumKernel computes one contiguous run of n elements of both
// gradients of a broadcasting product with cotangent g: out = g·u, the
// full operand's gradient, and acc += g·v folded element by element into
// the broadcast operand's accumulators (Sum's accumulator dtype), g read
// once for both (see vec.MulWithSumF32). The products and sums round as
// Mul's kernel and Sum's run kernel round them, so the bits are those of
// the two.
type MulWithSumKernel func(out, g, u, v, acc unsafe.Pointer, n int)

// MulWithSum returns the kernel for dtype dt, or nil when dt has none (or
// UseVec is off). With stream, out is stored around the cache unfenced: the
// caller calls vec.FenceStreaming once it is done.
func MulWithSum(dt dtype.DType, stream bool) MulWithSumKernel {
	if !UseVec {
		return nil
	}
	switch dt {
	case dtype.Float32:
		return mulWithSums[0][b2i(stream)]
	case dtype.Float64:
		return mulWithSums[1][b2i(stream)]
	}
	return nil
}

// mulWithSums are the kernels by dtype (float32, float64) and streaming,
// made once so that choosing one allocates nothing.
var mulWithSums = [2][2]MulWithSumKernel{
	{mulWithSumF32(false), mulWithSumF32(true)},
	{mulWithSumF64(false), mulWithSumF64(true)},
}

func mulWithSumF32(stream bool) MulWithSumKernel {
	return func(out, g, u, v, acc unsafe.Pointer, n int) {
		vec.MulWithSumF32(run[float32](out, n), run[float32](g, n), run[float32](u, n), run[float32](v, n), run[float64](acc, n), stream)
	}
}

func mulWithSumF64(stream bool) MulWithSumKernel {
	return func(out, g, u, v, acc unsafe.Pointer, n int) {
		vec.MulWithSumF64(run[float64](out, n), run[float64](g, n), run[float64](u, n), run[float64](v, n), run[float64](acc, n), stream)
	}
}

// MulScalarPairKernel makes a piece of n elements of both gradients of a
// product whose broadcast operand is one number along the run (a column,
// a scalar): out = g·s, the full operand's gradient, and buf = g·v, which
// the caller folds into the run's one accumulator by the sum's own order
// (see vec.MulScalarPairF32). The products round as Mul's kernels round
// them.
type MulScalarPairKernel func(out, buf, g, v, s unsafe.Pointer, n int)

// MulScalarPair returns the kernel for dtype dt, or nil when dt has none
// (or UseVec is off); streaming as MulWithSum's.
func MulScalarPair(dt dtype.DType, stream bool) MulScalarPairKernel {
	if !UseVec {
		return nil
	}
	switch dt {
	case dtype.Float32:
		return mulScalarPairs[0][b2i(stream)]
	case dtype.Float64:
		return mulScalarPairs[1][b2i(stream)]
	}
	return nil
}

// mulScalarPairs are the pair kernels by dtype (float32, float64) and
// streaming, made once so that choosing one allocates nothing.
var mulScalarPairs = [2][2]MulScalarPairKernel{
	{mulScalarPairF32(false), mulScalarPairF32(true)},
	{mulScalarPairF64(false), mulScalarPairF64(true)},
}

func mulScalarPairF32(stream bool) MulScalarPairKernel {
	return func(out, buf, g, v, s unsafe.Pointer, n int) {
		vec.MulScalarPairF32(run[float32](out, n), run[float32](buf, n), run[float32](g, n), run[float32](v, n), *(*float32)(s), stream)
	}
}

func mulScalarPairF64(stream bool) MulScalarPairKernel {
	return func(out, buf, g, v, s unsafe.Pointer, n int) {
		vec.MulScalarPairF64(run[float64](out, n), run[float64](buf, n), run[float64](g, n), run[float64](v, n), *(*float64)(s), stream)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

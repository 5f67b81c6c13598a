package ewise

import (
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/vec"
)

// Add is the element-wise sum: integers wrap, bool is logical or, float16
// and bfloat16 are added in float32 and rounded once (which gives the
// correctly rounded sum), IEEE-754 throughout (inf + -inf is NaN, -0 + -0
// is -0, -0 + +0 is +0).
var Add = newBinary("add", addKernel, addStreaming, vec.AddF32I32)

// addKernel is Add's kernel table.
func addKernel(dt dtype.DType) iter.Kernel {
	switch dt {
	case dtype.Bool:
		return loopKernel(orLoop)
	case dtype.Int8:
		return realKernel(vec.AddI8, vec.AddScalarI8, addLoop[int8])
	case dtype.Uint8:
		return realKernel(unsignedBinary[uint8](vec.AddI8), unsignedScalar[uint8](vec.AddScalarI8), addLoop[uint8])
	case dtype.Int16:
		return realKernel(vec.AddI16, vec.AddScalarI16, addLoop[int16])
	case dtype.Uint16:
		return realKernel(unsignedBinary[uint16](vec.AddI16), unsignedScalar[uint16](vec.AddScalarI16), addLoop[uint16])
	case dtype.Int32:
		return realKernel(vec.AddI32, vec.AddScalarI32, addLoop[int32])
	case dtype.Uint32:
		return realKernel(unsignedBinary[uint32](vec.AddI32), unsignedScalar[uint32](vec.AddScalarI32), addLoop[uint32])
	case dtype.Int64:
		return realKernel(vec.AddI64, vec.AddScalarI64, addLoop[int64])
	case dtype.Uint64:
		return realKernel(unsignedBinary[uint64](vec.AddI64), unsignedScalar[uint64](vec.AddScalarI64), addLoop[uint64])
	case dtype.Float32:
		return realKernel(vec.AddF32, vec.AddScalarF32, addLoop[float32])
	case dtype.Float64:
		return realKernel(vec.AddF64, vec.AddScalarF64, addLoop[float64])
	case dtype.Float16:
		return halfKernel(vec.AddF16, vec.AddScalarF16, f16ToF32, f32ToF16, addF32)
	case dtype.BFloat16:
		return halfKernel(vec.AddBF16, vec.AddScalarBF16, bf16ToF32, f32ToBF16, addF32)
	case dtype.Complex64:
		return realKernel(inParts[complex64](vec.AddF32), addScalarLoop[complex64], addLoop[complex64])
	case dtype.Complex128:
		return realKernel(inParts[complex128](vec.AddF64), addScalarLoop[complex128], addLoop[complex128])
	}
	return nil
}

// addStreaming is Add's table of streaming kernels.
func addStreaming(dt dtype.DType) iter.Kernel {
	switch dt {
	case dtype.Int8:
		return realKernel(vec.AddI8Streaming, vec.AddScalarI8, addLoop[int8])
	case dtype.Uint8:
		return realKernel(unsignedBinary[uint8](vec.AddI8Streaming), unsignedScalar[uint8](vec.AddScalarI8), addLoop[uint8])
	case dtype.Int16:
		return realKernel(vec.AddI16Streaming, vec.AddScalarI16, addLoop[int16])
	case dtype.Uint16:
		return realKernel(unsignedBinary[uint16](vec.AddI16Streaming), unsignedScalar[uint16](vec.AddScalarI16), addLoop[uint16])
	case dtype.Int32:
		return realKernel(vec.AddI32Streaming, vec.AddScalarI32Streaming, addLoop[int32])
	case dtype.Uint32:
		return realKernel(unsignedBinary[uint32](vec.AddI32Streaming), unsignedScalar[uint32](vec.AddScalarI32Streaming), addLoop[uint32])
	case dtype.Int64:
		return realKernel(vec.AddI64Streaming, vec.AddScalarI64, addLoop[int64])
	case dtype.Uint64:
		return realKernel(unsignedBinary[uint64](vec.AddI64Streaming), unsignedScalar[uint64](vec.AddScalarI64), addLoop[uint64])
	case dtype.Float32:
		return realKernel(vec.AddF32Streaming, vec.AddScalarF32Streaming, addLoop[float32])
	case dtype.Float64:
		return realKernel(vec.AddF64Streaming, vec.AddScalarF64Streaming, addLoop[float64])
	case dtype.Complex64:
		// Contiguous runs go to the float32 streaming kernel as their
		// parts; the rest streams through a buffer as it would without.
		return contiguousOr(inParts[complex64](vec.AddF32Streaming), streamedVia(addKernel(dt), dt.Size()))
	case dtype.Complex128:
		return contiguousOr(inParts[complex128](vec.AddF64Streaming), streamedVia(addKernel(dt), dt.Size()))
	}
	return nil
}

func addF32(x, y float32) float32 { return x + y }

func addLoop[T number | ~complex64 | ~complex128](d, a, b unsafe.Pointer, sd, sa, sb, n int) {
	for i := range n {
		*at[T](d, i, sd) = *at[T](a, i, sa) + *at[T](b, i, sb)
	}
}

// inParts runs f, a float kernel of vec's (a sum or a difference), on
// contiguous complex runs as float runs of twice their length: a complex
// sum or difference is the sums or differences of its parts.
func inParts[C ~complex64 | ~complex128, F ~float32 | ~float64](f func(dst, a, b []F)) func(dst, a, b []C) {
	return func(dst, a, b []C) { f(partsOf[C, F](dst), partsOf[C, F](a), partsOf[C, F](b)) }
}

// partsOf is c seen as the float run of its parts, real and imaginary
// in turn.
func partsOf[C ~complex64 | ~complex128, F ~float32 | ~float64](c []C) []F {
	return unsafe.Slice((*F)(unsafe.Pointer(unsafe.SliceData(c))), 2*len(c))
}

func addScalarLoop[T ~complex64 | ~complex128](dst, a []T, s T) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] + s
	}
}

// orLoop is bool's sum, logical or.
func orLoop(d, a, b unsafe.Pointer, sd, sa, sb, n int) {
	for i := range n {
		*at[bool](d, i, sd) = *at[bool](a, i, sa) || *at[bool](b, i, sb)
	}
}

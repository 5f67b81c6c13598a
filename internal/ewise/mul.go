package ewise

import (
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/cmul"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/vec"
)

// Mul is the element-wise multiply: integers wrap, bool is logical and,
// float16 and bfloat16 are multiplied in float32 and rounded once, complex
// numbers use (ac−bd) + (ad+bc)i without C99's recovery of infinities, as
// NumPy does.
var Mul = newBinary("mul", mulKernel, mulStreaming, vec.MulF32I32)

// mulKernel is Mul's kernel table.
func mulKernel(dt dtype.DType) iter.Kernel {
	switch dt {
	case dtype.Bool:
		return loopKernel(andLoop)
	case dtype.Int8:
		return realKernel(vec.MulI8, vec.MulScalarI8, mulLoop[int8])
	case dtype.Uint8:
		return realKernel(unsignedBinary[uint8](vec.MulI8), unsignedScalar[uint8](vec.MulScalarI8), mulLoop[uint8])
	case dtype.Int16:
		return realKernel(vec.MulI16, vec.MulScalarI16, mulLoop[int16])
	case dtype.Uint16:
		return realKernel(unsignedBinary[uint16](vec.MulI16), unsignedScalar[uint16](vec.MulScalarI16), mulLoop[uint16])
	case dtype.Int32:
		return realKernel(vec.MulI32, vec.MulScalarI32, mulLoop[int32])
	case dtype.Uint32:
		return realKernel(unsignedBinary[uint32](vec.MulI32), unsignedScalar[uint32](vec.MulScalarI32), mulLoop[uint32])
	case dtype.Int64:
		return realKernel(vec.MulI64, vec.MulScalarI64, mulLoop[int64])
	case dtype.Uint64:
		return realKernel(unsignedBinary[uint64](vec.MulI64), unsignedScalar[uint64](vec.MulScalarI64), mulLoop[uint64])
	case dtype.Float32:
		return realKernel(vec.MulF32, vec.MulScalarF32, mulLoop[float32])
	case dtype.Float64:
		return realKernel(vec.MulF64, vec.MulScalarF64, mulLoop[float64])
	case dtype.Float16:
		return halfKernel(vec.MulF16, vec.MulScalarF16, f16ToF32, f32ToF16, mulF32)
	case dtype.BFloat16:
		return halfKernel(vec.MulBF16, vec.MulScalarBF16, bf16ToF32, f32ToBF16, mulF32)
	case dtype.Complex64:
		return realKernel(vec.MulC64, vec.MulScalarC64, cmulLoop64)
	case dtype.Complex128:
		return loopKernel(cmulLoop128)
	}
	return nil
}

// mulStreaming is Mul's table of streaming kernels.
func mulStreaming(dt dtype.DType) iter.Kernel {
	switch dt {
	case dtype.Int8:
		return realKernel(vec.MulI8Streaming, vec.MulScalarI8, mulLoop[int8])
	case dtype.Uint8:
		return realKernel(unsignedBinary[uint8](vec.MulI8Streaming), unsignedScalar[uint8](vec.MulScalarI8), mulLoop[uint8])
	case dtype.Int16:
		return realKernel(vec.MulI16Streaming, vec.MulScalarI16, mulLoop[int16])
	case dtype.Uint16:
		return realKernel(unsignedBinary[uint16](vec.MulI16Streaming), unsignedScalar[uint16](vec.MulScalarI16), mulLoop[uint16])
	case dtype.Int32:
		return realKernel(vec.MulI32Streaming, vec.MulScalarI32Streaming, mulLoop[int32])
	case dtype.Uint32:
		return realKernel(unsignedBinary[uint32](vec.MulI32Streaming), unsignedScalar[uint32](vec.MulScalarI32Streaming), mulLoop[uint32])
	case dtype.Int64:
		return realKernel(vec.MulI64Streaming, vec.MulScalarI64, mulLoop[int64])
	case dtype.Uint64:
		return realKernel(unsignedBinary[uint64](vec.MulI64Streaming), unsignedScalar[uint64](vec.MulScalarI64), mulLoop[uint64])
	case dtype.Float32:
		return realKernel(vec.MulF32Streaming, vec.MulScalarF32Streaming, mulLoop[float32])
	case dtype.Float64:
		return realKernel(vec.MulF64Streaming, vec.MulScalarF64Streaming, mulLoop[float64])
	case dtype.Complex64:
		// Its own streaming kernels: through a buffer (streamedVia), a
		// cold 1M product took 1.4-1.8x the CPU of the float32 sum's
		// parts streamed (Emerald Rapids, one goroutine, load 10-16).
		// Other runs stream through a buffer as before.
		return vecRunsOr(realKernel(vec.MulC64Streaming, vec.MulScalarC64Streaming, cmulLoop64), 8, streamedVia(mulKernel(dt), 8))
	}
	return nil
}

// vecRunsOr gives a kernel fast for the runs realKernel hands to its vec
// kernels (a contiguous output, each input contiguous or one element
// broadcast, not both broadcast) and other for the rest.
func vecRunsOr(fast iter.Kernel, size int, other iter.Kernel) iter.Kernel {
	return func(ptrs []unsafe.Pointer, strides []int, n int) {
		sa, sb := strides[1], strides[2]
		if UseVec && strides[0] == size && (sa == size || sa == 0) && (sb == size || sb == 0) && sa+sb != 0 {
			fast(ptrs, strides, n)
			return
		}
		other(ptrs, strides, n)
	}
}

func mulF32(x, y float32) float32 { return x * y }

func mulLoop[T number](d, a, b unsafe.Pointer, sd, sa, sb, n int) {
	for i := range n {
		*at[T](d, i, sd) = *at[T](a, i, sa) * *at[T](b, i, sb)
	}
}

// andLoop is bool's product, logical and.
func andLoop(d, a, b unsafe.Pointer, sd, sa, sb, n int) {
	for i := range n {
		*at[bool](d, i, sd) = *at[bool](a, i, sa) && *at[bool](b, i, sb)
	}
}

// cmul64 and cmul128 write the textbook formula out: the explicit
// conversions round each product on its own, so no compiler may fuse them
// into a multiply-add, and no infinity is recovered from a NaN part.
func cmul64(x, y complex64) complex64 { return cmul.Mul64(x, y) }

func cmul128(x, y complex128) complex128 { return cmul.Mul128(x, y) }

func cmulLoop64(d, a, b unsafe.Pointer, sd, sa, sb, n int) {
	if sd == 8 && sa == 8 && sb == 8 {
		// Contiguous runs as slices: the compiler then keeps the loop in
		// registers instead of recomputing three strided addresses.
		dst, x, y := run[complex64](d, n), run[complex64](a, n), run[complex64](b, n)
		for i := range dst {
			dst[i] = cmul64(x[i], y[i])
		}
		return
	}
	for i := range n {
		*at[complex64](d, i, sd) = cmul64(*at[complex64](a, i, sa), *at[complex64](b, i, sb))
	}
}

func cmulLoop128(d, a, b unsafe.Pointer, sd, sa, sb, n int) {
	if sd == 16 && sa == 16 && sb == 16 {
		dst, x, y := run[complex128](d, n), run[complex128](a, n), run[complex128](b, n)
		for i := range dst {
			dst[i] = cmul128(x[i], y[i])
		}
		return
	}
	for i := range n {
		*at[complex128](d, i, sd) = cmul128(*at[complex128](a, i, sa), *at[complex128](b, i, sb))
	}
}

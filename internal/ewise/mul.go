package ewise

import (
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/vec"
)

// Mul returns the kernel dst[i] = a[i] * b[i] for operands [dst, a, b] that
// all have dtype dt, or nil for an invalid dtype. Integers wrap, bool is
// logical and, float16 and bfloat16 are multiplied in float32 and rounded
// once, complex numbers use (ac−bd) + (ad+bc)i without C99's recovery of
// infinities, as NumPy does.
func Mul(dt dtype.DType) iter.Kernel {
	if !dt.Valid() {
		return nil
	}
	return mulKernels[dt]
}

// mulKernels holds the kernels, built once so that looking one up never
// allocates.
var mulKernels = func() (t [dtype.Complex128 + 1]iter.Kernel) {
	for _, dt := range dtype.All {
		t[dt] = newMul(dt)
	}
	return t
}()

func newMul(dt dtype.DType) iter.Kernel {
	switch dt {
	case dtype.Bool:
		return mulBool
	case dtype.Int8:
		return mulReal(vec.MulI8, vec.MulScalarI8)
	case dtype.Uint8:
		return mulReal(unsignedBinary[uint8](vec.MulI8), unsignedScalar[uint8](vec.MulScalarI8))
	case dtype.Int16:
		return mulReal(vec.MulI16, vec.MulScalarI16)
	case dtype.Uint16:
		return mulReal(unsignedBinary[uint16](vec.MulI16), unsignedScalar[uint16](vec.MulScalarI16))
	case dtype.Int32:
		return mulReal(vec.MulI32, vec.MulScalarI32)
	case dtype.Uint32:
		return mulReal(unsignedBinary[uint32](vec.MulI32), unsignedScalar[uint32](vec.MulScalarI32))
	case dtype.Int64:
		return mulReal(vec.MulI64, vec.MulScalarI64)
	case dtype.Uint64:
		return mulReal(unsignedBinary[uint64](vec.MulI64), unsignedScalar[uint64](vec.MulScalarI64))
	case dtype.Float32:
		return mulReal(vec.MulF32, vec.MulScalarF32)
	case dtype.Float64:
		return mulReal(vec.MulF64, vec.MulScalarF64)
	case dtype.Float16:
		return mulHalf(vec.MulF16, vec.MulScalarF16, f16ToF32, f32ToF16)
	case dtype.BFloat16:
		return mulHalf(vec.MulBF16, vec.MulScalarBF16, bf16ToF32, f32ToBF16)
	case dtype.Complex64:
		return mulComplex64
	case dtype.Complex128:
		return mulComplex128
	}
	return nil
}

// unsignedBinary and unsignedScalar serve an unsigned dtype with vec's
// signed kernel of the same width: wrapping products have the same bits.
func unsignedBinary[U, S integer](f func(dst, a, b []S)) func(dst, a, b []U) {
	return func(dst, a, b []U) { f(as[S](dst), as[S](a), as[S](b)) }
}

func unsignedScalar[U, S integer](f func(dst, a []S, s S)) func(dst, a []U, s U) {
	return func(dst, a []U, s U) { f(as[S](dst), as[S](a), S(s)) }
}

// mulReal builds the kernel of a type multiplied by Go's * operator, with
// fast (vec) versions of the contiguous and the scalar-broadcast runs.
func mulReal[T number](fast func(dst, a, b []T), fastScalar func(dst, a []T, s T)) iter.Kernel {
	return func(ptrs []unsafe.Pointer, strides []int, n int) {
		size := int(unsafe.Sizeof(*new(T)))
		d, a, b := ptrs[0], ptrs[1], ptrs[2]
		sd, sa, sb := strides[0], strides[1], strides[2]
		if UseVec && sd == size {
			switch {
			case sa == size && sb == size:
				fast(run[T](d, n), run[T](a, n), run[T](b, n))
				return
			case sa == size && sb == 0:
				fastScalar(run[T](d, n), run[T](a, n), *(*T)(b))
				return
			case sa == 0 && sb == size:
				// Multiplication commutes for every real type, NaN included.
				fastScalar(run[T](d, n), run[T](b, n), *(*T)(a))
				return
			}
		}
		for i := range n {
			*at[T](d, i, sd) = *at[T](a, i, sa) * *at[T](b, i, sb)
		}
	}
}

// mulHalf builds the kernel of a 16-bit float type held as its bits: each
// product is computed in float32, where it is exact (bfloat16 products
// below float32's normal range excepted, which round there first as every
// implementation does), and rounded once to the 16-bit type.
func mulHalf(fast func(dst, a, b []uint16), fastScalar func(dst, a []uint16, s float32),
	widen func(uint16) float32, narrow func(float32) uint16) iter.Kernel {
	return func(ptrs []unsafe.Pointer, strides []int, n int) {
		d, a, b := ptrs[0], ptrs[1], ptrs[2]
		sd, sa, sb := strides[0], strides[1], strides[2]
		if UseVec && sd == 2 {
			switch {
			case sa == 2 && sb == 2:
				fast(run[uint16](d, n), run[uint16](a, n), run[uint16](b, n))
				return
			case sa == 2 && sb == 0:
				fastScalar(run[uint16](d, n), run[uint16](a, n), widen(*(*uint16)(b)))
				return
			case sa == 0 && sb == 2:
				fastScalar(run[uint16](d, n), run[uint16](b, n), widen(*(*uint16)(a)))
				return
			}
		}
		for i := range n {
			*at[uint16](d, i, sd) = narrow(widen(*at[uint16](a, i, sa)) * widen(*at[uint16](b, i, sb)))
		}
	}
}

// mulBool is logical and; bytes other than 0 and 1 never occur in a bool
// tensor, so the product of the bytes would do, but & says what it means.
func mulBool(ptrs []unsafe.Pointer, strides []int, n int) {
	d, a, b := ptrs[0], ptrs[1], ptrs[2]
	sd, sa, sb := strides[0], strides[1], strides[2]
	for i := range n {
		*at[bool](d, i, sd) = *at[bool](a, i, sa) && *at[bool](b, i, sb)
	}
}

// cmul64 and cmul128 write the textbook formula out: the explicit
// conversions round each product on its own, so no compiler may fuse them
// into a multiply-add, and no infinity is recovered from a NaN part.
func cmul64(x, y complex64) complex64 {
	a, b, c, d := real(x), imag(x), real(y), imag(y)
	return complex(float32(a*c)-float32(b*d), float32(a*d)+float32(b*c))
}

func cmul128(x, y complex128) complex128 {
	a, b, c, d := real(x), imag(x), real(y), imag(y)
	return complex(float64(a*c)-float64(b*d), float64(a*d)+float64(b*c))
}

func mulComplex64(ptrs []unsafe.Pointer, strides []int, n int) {
	d, a, b := ptrs[0], ptrs[1], ptrs[2]
	sd, sa, sb := strides[0], strides[1], strides[2]
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

func mulComplex128(ptrs []unsafe.Pointer, strides []int, n int) {
	d, a, b := ptrs[0], ptrs[1], ptrs[2]
	sd, sa, sb := strides[0], strides[1], strides[2]
	if sd == 16 && sa == 16 && sb == 16 {
		// Contiguous runs as slices: the compiler then keeps the loop in
		// registers instead of recomputing three strided addresses.
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

// MulStreaming returns the multiply kernel for dtype dt (all three
// operands of dtype dt) for an output too large for the caches: where vec
// has Streaming kernels (float32, float64) it stores every contiguous run
// of the output around the cache, however short, saving the read of each
// output line before it is written. For other dtypes it is Mul(dt).
func MulStreaming(dt dtype.DType) iter.Kernel {
	switch dt {
	case dtype.Float32:
		return mulStreamingF32
	case dtype.Float64:
		return mulStreamingF64
	}
	return Mul(dt)
}

// The streaming kernels, built once so that looking one up never allocates.
var (
	mulStreamingF32 = mulReal(vec.MulF32Streaming, vec.MulScalarF32Streaming)
	mulStreamingF64 = mulReal(vec.MulF64Streaming, vec.MulScalarF64Streaming)
)

package ewise

import (
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/vec"
)

// Sub is the element-wise difference a − b: integers wrap, float16 and
// bfloat16 are subtracted in float32 and rounded once, IEEE-754 throughout
// (inf − inf is NaN, +0 − +0 is +0, −0 − +0 is −0). Bool has no kernel:
// the API refuses it, as PyTorch does.
//
// Contiguous float runs use vec's differences. Elsewhere the vector
// kernels are Add's and Mul's: a − b is a + (−b) exactly in IEEE-754 and
// in wrapping integers, and −b is b·(−1) exactly (a NaN's sign is not
// specified, §5), so a contiguous run is negated into a small buffer and
// added, and a run against a scalar adds the negated scalar.
var Sub = newBinary("sub", subKernel, noStreaming, nil)

// Neg is the element-wise negation −a, run on the binary engine with its
// operand in both places: its kernels read a only. Integers wrap (the
// most negative value is its own negation); floats flip the sign, so
// −(+0) is −0. Bool has no kernel.
var Neg = newBinary("neg", negKernel, noStreaming, nil)

func noStreaming(dtype.DType) iter.Kernel { return nil }

// subKernel is Sub's kernel table.
func subKernel(dt dtype.DType) iter.Kernel {
	switch dt {
	case dtype.Int8:
		return negAddKernel(vec.AddI8, vec.AddScalarI8, vec.MulScalarI8, subLoop[int8])
	case dtype.Uint8:
		return negAddKernel(unsignedBinary[uint8](vec.AddI8), unsignedScalar[uint8](vec.AddScalarI8), unsignedScalar[uint8](vec.MulScalarI8), subLoop[uint8])
	case dtype.Int16:
		return negAddKernel(vec.AddI16, vec.AddScalarI16, vec.MulScalarI16, subLoop[int16])
	case dtype.Uint16:
		return negAddKernel(unsignedBinary[uint16](vec.AddI16), unsignedScalar[uint16](vec.AddScalarI16), unsignedScalar[uint16](vec.MulScalarI16), subLoop[uint16])
	case dtype.Int32:
		return negAddKernel(vec.AddI32, vec.AddScalarI32, vec.MulScalarI32, subLoop[int32])
	case dtype.Uint32:
		return negAddKernel(unsignedBinary[uint32](vec.AddI32), unsignedScalar[uint32](vec.AddScalarI32), unsignedScalar[uint32](vec.MulScalarI32), subLoop[uint32])
	case dtype.Int64:
		return negAddKernel(vec.AddI64, vec.AddScalarI64, vec.MulScalarI64, subLoop[int64])
	case dtype.Uint64:
		return negAddKernel(unsignedBinary[uint64](vec.AddI64), unsignedScalar[uint64](vec.AddScalarI64), unsignedScalar[uint64](vec.MulScalarI64), subLoop[uint64])
	case dtype.Float32:
		return withSub(vec.SubF32, negAddKernel(vec.AddF32, vec.AddScalarF32, vec.MulScalarF32, subLoop[float32]))
	case dtype.Float64:
		return withSub(vec.SubF64, negAddKernel(vec.AddF64, vec.AddScalarF64, vec.MulScalarF64, subLoop[float64]))
	case dtype.Float16:
		return halfSubKernel(vec.AddF16, vec.AddScalarF16, vec.MulScalarF16, f16ToF32, f32ToF16)
	case dtype.BFloat16:
		return halfSubKernel(vec.AddBF16, vec.AddScalarBF16, vec.MulScalarBF16, bf16ToF32, f32ToBF16)
	case dtype.Complex64:
		return withSub(inParts[complex64](vec.SubF32), loopKernel(subLoop[complex64]))
	case dtype.Complex128:
		return withSub(inParts[complex128](vec.SubF64), loopKernel(subLoop[complex128]))
	}
	return nil
}

// withSub gives a kernel vec's difference for contiguous runs (one pass,
// the same bits as negating and adding, or for complex runs as the
// differences of their parts) and other for the rest.
func withSub[T any](sub func(dst, a, b []T), other iter.Kernel) iter.Kernel {
	return contiguousOr(sub, other)
}

// negChunk is how many elements of b a contiguous difference negates at a
// time: a buffer on the stack that stays in the L1 cache.
const negChunk = 512

// negAddKernel builds Sub's kernel of a number type from the vec sum, sum
// with a scalar and product with a scalar; loop does every other run.
func negAddKernel[T number](add func(dst, a, b []T), addScalar, mulScalar func(dst, a []T, s T), loop stridedLoop) iter.Kernel {
	var one T = 1
	minus := -one // wraps to the all-ones value for unsigned types
	return func(ptrs []unsafe.Pointer, strides []int, n int) {
		size := int(unsafe.Sizeof(one))
		d, a, b := ptrs[0], ptrs[1], ptrs[2]
		sd, sa, sb := strides[0], strides[1], strides[2]
		if UseVec && sd == size {
			switch {
			case sa == size && sb == size:
				var buf [negChunk]T
				dr, ar, br := run[T](d, n), run[T](a, n), run[T](b, n)
				for i := 0; i < n; i += negChunk {
					j := min(n, i+negChunk)
					nb := buf[:j-i]
					mulScalar(nb, br[i:j], minus)
					add(dr[i:j], ar[i:j], nb)
				}
				return
			case sa == size && sb == 0:
				addScalar(run[T](d, n), run[T](a, n), -*(*T)(b))
				return
			case sa == 0 && sb == size:
				s := *(*T)(a) // read before d, which may be b, is written
				mulScalar(run[T](d, n), run[T](b, n), minus)
				addScalar(run[T](d, n), run[T](d, n), s)
				return
			}
		}
		loop(d, a, b, sd, sa, sb, n)
	}
}

// halfSubKernel is negAddKernel for a 16-bit float type held as its bits:
// each difference is computed in float32 and rounded once (the negation
// is exact).
func halfSubKernel(add func(dst, a, b []uint16), addScalar, mulScalar func(dst, a []uint16, s float32),
	widen func(uint16) float32, narrow func(float32) uint16) iter.Kernel {
	return func(ptrs []unsafe.Pointer, strides []int, n int) {
		d, a, b := ptrs[0], ptrs[1], ptrs[2]
		sd, sa, sb := strides[0], strides[1], strides[2]
		if UseVec && sd == 2 {
			switch {
			case sa == 2 && sb == 2:
				var buf [negChunk]uint16
				dr, ar, br := run[uint16](d, n), run[uint16](a, n), run[uint16](b, n)
				for i := 0; i < n; i += negChunk {
					j := min(n, i+negChunk)
					nb := buf[:j-i]
					mulScalar(nb, br[i:j], -1)
					add(dr[i:j], ar[i:j], nb)
				}
				return
			case sa == 2 && sb == 0:
				addScalar(run[uint16](d, n), run[uint16](a, n), -widen(*(*uint16)(b)))
				return
			case sa == 0 && sb == 2:
				s := widen(*(*uint16)(a))
				mulScalar(run[uint16](d, n), run[uint16](b, n), -1)
				addScalar(run[uint16](d, n), run[uint16](d, n), s)
				return
			}
		}
		for i := range n {
			*at[uint16](d, i, sd) = narrow(widen(*at[uint16](a, i, sa)) - widen(*at[uint16](b, i, sb)))
		}
	}
}

func subLoop[T number | ~complex64 | ~complex128](d, a, b unsafe.Pointer, sd, sa, sb, n int) {
	for i := range n {
		*at[T](d, i, sd) = *at[T](a, i, sa) - *at[T](b, i, sb)
	}
}

// negKernel is Neg's kernel table.
func negKernel(dt dtype.DType) iter.Kernel {
	switch dt {
	case dtype.Int8:
		return negRealKernel(vec.MulScalarI8, negLoop[int8])
	case dtype.Uint8:
		return negRealKernel(unsignedScalar[uint8](vec.MulScalarI8), negLoop[uint8])
	case dtype.Int16:
		return negRealKernel(vec.MulScalarI16, negLoop[int16])
	case dtype.Uint16:
		return negRealKernel(unsignedScalar[uint16](vec.MulScalarI16), negLoop[uint16])
	case dtype.Int32:
		return negRealKernel(vec.MulScalarI32, negLoop[int32])
	case dtype.Uint32:
		return negRealKernel(unsignedScalar[uint32](vec.MulScalarI32), negLoop[uint32])
	case dtype.Int64:
		return negRealKernel(vec.MulScalarI64, negLoop[int64])
	case dtype.Uint64:
		return negRealKernel(unsignedScalar[uint64](vec.MulScalarI64), negLoop[uint64])
	case dtype.Float32:
		return negRealKernel(vec.MulScalarF32, negLoop[float32])
	case dtype.Float64:
		return negRealKernel(vec.MulScalarF64, negLoop[float64])
	case dtype.Float16, dtype.BFloat16:
		// The sign bit flipped: exactly −a, NaN included.
		return loopKernel(negHalfLoop)
	case dtype.Complex64:
		return negPartsKernel[complex64](vec.MulScalarF32, negLoop[complex64])
	case dtype.Complex128:
		return negPartsKernel[complex128](vec.MulScalarF64, negLoop[complex128])
	}
	return nil
}

// negRealKernel negates a contiguous run as its product with −1 (exact);
// loop does every other run.
func negRealKernel[T number](mulScalar func(dst, a []T, s T), loop stridedLoop) iter.Kernel {
	var one T = 1
	minus := -one
	return negRunsKernel(func(dst, a []T) { mulScalar(dst, a, minus) }, loop)
}

// negPartsKernel is negRealKernel for a complex type: a contiguous run
// is negated as the float run of its parts, each the float's negation.
func negPartsKernel[C ~complex64 | ~complex128, F ~float32 | ~float64](mulScalar func(dst, a []F, s F), loop stridedLoop) iter.Kernel {
	return negRunsKernel(func(dst, a []C) { mulScalar(partsOf[C, F](dst), partsOf[C, F](a), -1) }, loop)
}

// negRunsKernel negates a contiguous run of T with neg; loop does every
// other run.
func negRunsKernel[T any](neg func(dst, a []T), loop stridedLoop) iter.Kernel {
	size := int(unsafe.Sizeof(*new(T)))
	return func(ptrs []unsafe.Pointer, strides []int, n int) {
		if UseVec && strides[0] == size && strides[1] == size {
			neg(run[T](ptrs[0], n), run[T](ptrs[1], n))
			return
		}
		loop(ptrs[0], ptrs[1], ptrs[2], strides[0], strides[1], strides[2], n)
	}
}

func negLoop[T number | ~complex64 | ~complex128](d, a, _ unsafe.Pointer, sd, sa, _, n int) {
	for i := range n {
		*at[T](d, i, sd) = -*at[T](a, i, sa)
	}
}

func negHalfLoop(d, a, _ unsafe.Pointer, sd, sa, _, n int) {
	for i := range n {
		*at[uint16](d, i, sd) = *at[uint16](a, i, sa) ^ 0x8000
	}
}

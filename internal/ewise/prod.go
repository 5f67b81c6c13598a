package ewise

import (
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/vec"
)

// ProdAccumulator is the dtype in which the product of elements of dtype dt
// is carried: the result dtype of prod (bool and narrow integers widen to 32
// bits), except that float16 and bfloat16 are carried in float32 and
// rounded once at the end.
func ProdAccumulator(dt dtype.DType) dtype.DType {
	return dtype.Accumulator(dtype.ProdResult(dt))
}

// Prod returns the product-reduction kernel for input dtype dt, or nil for
// an invalid dtype. Its operands are [acc, x]: acc has dtype
// ProdAccumulator(dt) and already holds a running product (1 to begin
// with); the kernel multiplies x's run into it. A run with acc stride 0
// reduces x's run into the one accumulator; any other run multiplies
// element by element, acc[i] *= x[i], which is how a reduction over an
// outer axis proceeds a whole row of accumulators at a time.
func Prod(dt dtype.DType) iter.Kernel {
	if !dt.Valid() {
		return nil
	}
	return prodKernels[dt]
}

// prodKernels holds the kernels, built once so that looking one up never
// allocates.
var prodKernels = func() (t [dtype.Complex128 + 1]iter.Kernel) {
	for _, dt := range dtype.All {
		t[dt] = newProd(dt)
	}
	return t
}()

func newProd(dt dtype.DType) iter.Kernel {
	switch dt {
	case dtype.Bool:
		return prodBool
	case dtype.Int8:
		return prodWiden[int8, int32](vec.ProdI8)
	case dtype.Uint8:
		return prodWiden[uint8, uint32](vec.ProdU8)
	case dtype.Int16:
		return prodWiden[int16, int32](vec.ProdI16)
	case dtype.Uint16:
		return prodWiden[uint16, uint32](vec.ProdU16)
	case dtype.Int32:
		return prodSame(vec.ProdI32, vec.MulI32)
	case dtype.Uint32:
		return prodSame(unsignedReduce[uint32](vec.ProdI32), unsignedBinary[uint32](vec.MulI32))
	case dtype.Int64:
		return prodSame(vec.ProdI64, vec.MulI64)
	case dtype.Uint64:
		return prodSame(unsignedReduce[uint64](vec.ProdI64), unsignedBinary[uint64](vec.MulI64))
	case dtype.Float32:
		return prodSame(vec.ProdF32, vec.MulF32)
	case dtype.Float64:
		return prodSame(vec.ProdF64, vec.MulF64)
	case dtype.Float16:
		return prodHalf(vec.ProdF16, f16ToF32)
	case dtype.BFloat16:
		return prodHalf(vec.ProdBF16, bf16ToF32)
	case dtype.Complex64:
		return prodComplex(cmul64)
	case dtype.Complex128:
		return prodComplex(cmul128)
	}
	return nil
}

func unsignedReduce[U, S integer](f func([]S) S) func([]U) U {
	return func(a []U) U { return U(f(as[S](a))) }
}

// prodSame builds the kernel of a type that is its own accumulator.
func prodSame[T number](fastReduce func([]T) T, fastMul func(dst, a, b []T)) iter.Kernel {
	return func(ptrs []unsafe.Pointer, strides []int, n int) {
		size := int(unsafe.Sizeof(*new(T)))
		acc, x := ptrs[0], ptrs[1]
		sacc, sx := strides[0], strides[1]
		if sacc == 0 {
			if UseVec && sx == size {
				*(*T)(acc) *= fastReduce(run[T](x, n))
				return
			}
			p := *(*T)(acc)
			for i := range n {
				p *= *at[T](x, i, sx)
			}
			*(*T)(acc) = p
			return
		}
		if UseVec && sacc == size && sx == size {
			a := run[T](acc, n)
			fastMul(a, a, run[T](x, n))
			return
		}
		for i := range n {
			*at[T](acc, i, sacc) *= *at[T](x, i, sx)
		}
	}
}

// prodWiden builds the kernel of a narrow integer type carried in 32 bits.
func prodWiden[I int8 | uint8 | int16 | uint16, A int32 | uint32](fastReduce func([]I) A) iter.Kernel {
	return func(ptrs []unsafe.Pointer, strides []int, n int) {
		size := int(unsafe.Sizeof(*new(I)))
		acc, x := ptrs[0], ptrs[1]
		sacc, sx := strides[0], strides[1]
		if sacc == 0 {
			if UseVec && sx == size {
				*(*A)(acc) *= fastReduce(run[I](x, n))
				return
			}
			p := *(*A)(acc)
			for i := range n {
				p *= A(*at[I](x, i, sx))
			}
			*(*A)(acc) = p
			return
		}
		for i := range n {
			*at[A](acc, i, sacc) *= A(*at[I](x, i, sx))
		}
	}
}

// prodHalf builds the kernel of a 16-bit float type carried in float32.
func prodHalf(fastReduce func([]uint16) float32, widen func(uint16) float32) iter.Kernel {
	return func(ptrs []unsafe.Pointer, strides []int, n int) {
		acc, x := ptrs[0], ptrs[1]
		sacc, sx := strides[0], strides[1]
		if sacc == 0 {
			if UseVec && sx == 2 {
				*(*float32)(acc) *= fastReduce(run[uint16](x, n))
				return
			}
			p := *(*float32)(acc)
			for i := range n {
				p *= widen(*at[uint16](x, i, sx))
			}
			*(*float32)(acc) = p
			return
		}
		for i := range n {
			*at[float32](acc, i, sacc) *= widen(*at[uint16](x, i, sx))
		}
	}
}

// prodBool carries the product of bools (true only if all are) as int32.
func prodBool(ptrs []unsafe.Pointer, strides []int, n int) {
	acc, x := ptrs[0], ptrs[1]
	sacc, sx := strides[0], strides[1]
	for i := range n {
		if !*at[bool](x, i, sx) {
			*at[int32](acc, i, sacc) = 0
		}
	}
}

// prodComplex builds the kernel of a complex type with the textbook
// product, except that an accumulator of exactly 1 takes the factor as it
// is. The textbook formula is not an identity for 1 when the other factor
// has an infinite part (1·(2−∞i) would give NaN−∞i), and every product
// starts from 1: skipping it makes the product start from the first
// element, as NumPy's does.
func prodComplex[C complex64 | complex128](mul func(x, y C) C) iter.Kernel {
	return func(ptrs []unsafe.Pointer, strides []int, n int) {
		acc, x := ptrs[0], ptrs[1]
		sacc, sx := strides[0], strides[1]
		for i := range n {
			a, v := at[C](acc, i, sacc), *at[C](x, i, sx)
			if *a == 1 {
				*a = v
			} else {
				*a = mul(*a, v)
			}
		}
	}
}

// FillOne sets the n contiguous elements of dtype dt at p to 1, the
// neutral element every product starts from.
func FillOne(dt dtype.DType, p unsafe.Pointer, n int) {
	switch dt {
	case dtype.Bool:
		fill(p, n, true)
	case dtype.Int8, dtype.Uint8:
		fill(p, n, uint8(1))
	case dtype.Int16, dtype.Uint16:
		fill(p, n, uint16(1))
	case dtype.Int32, dtype.Uint32:
		fill(p, n, uint32(1))
	case dtype.Int64, dtype.Uint64:
		fill(p, n, uint64(1))
	case dtype.Float16:
		fill(p, n, f32ToF16(1))
	case dtype.BFloat16:
		fill(p, n, f32ToBF16(1))
	case dtype.Float32:
		fill(p, n, float32(1))
	case dtype.Float64:
		fill(p, n, float64(1))
	case dtype.Complex64:
		fill(p, n, complex64(1))
	case dtype.Complex128:
		fill(p, n, complex128(1))
	}
}

func fill[T any](p unsafe.Pointer, n int, v T) {
	s := run[T](p, n)
	for i := range s {
		s[i] = v
	}
}

// RowsKernel multiplies rows of x into a row of n contiguous accumulators,
// one row after another, the rows rowStride bytes apart (rowStride > 0)
// and each contiguous:
//
//	for r := range rows { for i := range n { acc[i] *= x[r][i] } }
//
// It computes what the Prod kernel computes run by run, in the same order,
// so results are the same bit for bit; it only takes several rows per pass
// over the accumulators.
type RowsKernel func(acc, x unsafe.Pointer, n, rows, rowStride int)

// ProdRows returns the RowsKernel for input dtype dt, or nil when dt has
// none (or UseVec is off); the Prod kernel then handles one row at a time.
func ProdRows(dt dtype.DType) RowsKernel {
	if !UseVec {
		return nil
	}
	switch dt {
	case dtype.Float32:
		return prodRows(vec.MulRowsF32)
	case dtype.Float64:
		return prodRows(vec.MulRowsF64)
	}
	return nil
}

// prodRows adapts a vec row kernel to raw pointers and a byte stride.
func prodRows[T float32 | float64](mulRows func(acc, x []T, rows, stride int)) RowsKernel {
	return func(acc, x unsafe.Pointer, n, rows, rowStride int) {
		size := int(unsafe.Sizeof(*new(T)))
		stride := rowStride / size
		mulRows(run[T](acc, n), run[T](x, (rows-1)*stride+n), rows, stride)
	}
}

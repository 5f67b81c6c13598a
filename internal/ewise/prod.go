package ewise

import (
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/vec"
)

// Prod is the product reduction: integers wrap (exactly, in any order),
// NaN propagates. float32, float16 and bfloat16 are carried in float64 and
// complex64 in complex128, each rounded once at the end: a float32
// product of millions of factors then has no error that grows with the
// length in one direction (semantics §11; float32 accumulators drifted by
// -1.3e-4 at 10^6 factors near 1, NumPy's error being 5.7e-5). The
// product of no elements is 1.
var Prod = newReduction("prod", prodKernel, prodRows, wideAccumulator, prodFill).withSegments(prodSegments).withPairs(prodPairs).
	withRowsInto(prodRowsInto)

// wideAccumulator is the result dtype, widened to float64 for floats of
// fewer bits and to complex128 for complex64 (the accumulator of Prod and
// Sum).
func wideAccumulator(dt dtype.DType) dtype.DType {
	switch dt {
	case dtype.Float16, dtype.BFloat16, dtype.Float32:
		return dtype.Float64
	case dtype.Complex64:
		return dtype.Complex128
	}
	return dtype.ProdResult(dt)
}

// prodKernel is Prod's kernel table.
func prodKernel(dt dtype.DType) iter.Kernel {
	switch dt {
	case dtype.Bool:
		return loopReduction(prodBoolLoop)
	case dtype.Int8:
		return foldKernel(vec.ProdI8, nil, mul[int32], prodLoop[int8, int32])
	case dtype.Uint8:
		return foldKernel(vec.ProdU8, nil, mul[uint32], prodLoop[uint8, uint32])
	case dtype.Int16:
		return foldKernel(vec.ProdI16, nil, mul[int32], prodLoop[int16, int32])
	case dtype.Uint16:
		return foldKernel(vec.ProdU16, nil, mul[uint32], prodLoop[uint16, uint32])
	case dtype.Int32:
		return foldKernel(vec.ProdI32, into(vec.MulI32), mul[int32], prodLoop[int32, int32])
	case dtype.Uint32:
		return foldKernel(unsignedReduce[uint32](vec.ProdI32), into(unsignedBinary[uint32](vec.MulI32)), mul[uint32], prodLoop[uint32, uint32])
	case dtype.Int64:
		return foldKernel(vec.ProdI64, into(vec.MulI64), mul[int64], prodLoop[int64, int64])
	case dtype.Uint64:
		return foldKernel(unsignedReduce[uint64](vec.ProdI64), into(unsignedBinary[uint64](vec.MulI64)), mul[uint64], prodLoop[uint64, uint64])
	case dtype.Float32:
		return foldKernel(vec.ProdF32, widenInto(vec.MulF64F32), mul[float64], prodLoop[float32, float64])
	case dtype.Float64:
		return foldKernel(vec.ProdF64, into(vec.MulF64), mul[float64], prodLoop[float64, float64])
	case dtype.Float16:
		return foldKernel(vec.ProdF16, nil, mul[float64], prodHalfLoop(f16ToF32))
	case dtype.BFloat16:
		return foldKernel(vec.ProdBF16, nil, mul[float64], prodHalfLoop(bf16ToF32))
	case dtype.Complex64:
		return prodC64Kernel
	case dtype.Complex128:
		return prodC128Kernel
	}
	return nil
}

// prodRows is Prod's table of row kernels.
func prodRows(dt dtype.DType) RowsKernel {
	switch dt {
	case dtype.Float32:
		return rowsKernel(vec.MulRowsF32F64)
	case dtype.Float64:
		return rowsKernel(vec.MulRowsF64)
	}
	return nil
}

func mul[T number](a, b T) T { return a * b }

// prodLoop folds a run of X into accumulators of A by multiplication.
func prodLoop[X, A number](acc, x unsafe.Pointer, sacc, sx, n int) {
	if sacc == 0 {
		p := *(*A)(acc)
		for i := range n {
			p *= A(*at[X](x, i, sx))
		}
		*(*A)(acc) = p
		return
	}
	for i := range n {
		*at[A](acc, i, sacc) *= A(*at[X](x, i, sx))
	}
}

// prodHalfLoop is prodLoop for a 16-bit float type carried in float64.
func prodHalfLoop(widen func(uint16) float32) reduceLoop {
	return func(acc, x unsafe.Pointer, sacc, sx, n int) {
		if sacc == 0 {
			p := *(*float64)(acc)
			for i := range n {
				p *= float64(widen(*at[uint16](x, i, sx)))
			}
			*(*float64)(acc) = p
			return
		}
		for i := range n {
			*at[float64](acc, i, sacc) *= float64(widen(*at[uint16](x, i, sx)))
		}
	}
}

// prodBoolLoop carries the product of bools (true only if all are) as
// int32.
func prodBoolLoop(acc, x unsafe.Pointer, sacc, sx, n int) {
	for i := range n {
		if !*at[bool](x, i, sx) {
			*at[int32](acc, i, sacc) = 0
		}
	}
}

// prodComplexLoop folds a run of C into complex128 accumulators with the
// textbook product (cmul128), except that an accumulator of exactly 1
// takes the factor as it is. The textbook formula
// is not an identity for 1 when the other factor has an infinite part
// (1·(2−∞i) would give NaN−∞i), and every product starts from 1: skipping
// it makes the product start from the first element, as NumPy's does.
func prodComplexLoop[C complex64 | complex128](acc, x unsafe.Pointer, sacc, sx, n int) {
	for i := range n {
		a := at[complex128](acc, i, sacc)
		*a = prodComplexStep(*a, complex128(*at[C](x, i, sx)))
	}
}

// prodC64Kernel folds a run of complex64 into complex128 accumulators: a
// contiguous run of vec.ProdC64Min or more into one accumulator through
// vec.ProdC64, in its lanes (9x faster than a chain of products, each
// waiting for the last, in BenchmarkProdC64), everything else one element after another,
// as NumPy's order goes. The choice depends on the run's length alone.
func prodC64Kernel(ptrs []unsafe.Pointer, strides []int, n int) {
	if UseVec && strides[0] == 0 && strides[1] == 8 && n >= vec.ProdC64Min {
		acc := (*complex128)(ptrs[0])
		*acc = prodComplexStep(*acc, vec.ProdC64(run[complex64](ptrs[1], n)))
		return
	}
	prodComplexLoop[complex64](ptrs[0], ptrs[1], strides[0], strides[1], n)
}

// prodC128Kernel is prodC64Kernel for complex128, through vec.ProdC128.
func prodC128Kernel(ptrs []unsafe.Pointer, strides []int, n int) {
	if UseVec && strides[0] == 0 && strides[1] == 16 && n >= vec.ProdC128Min {
		acc := (*complex128)(ptrs[0])
		*acc = prodComplexStep(*acc, vec.ProdC128(run[complex128](ptrs[1], n)))
		return
	}
	prodComplexLoop[complex128](ptrs[0], ptrs[1], strides[0], strides[1], n)
}

// prodComplexStep is one step of a complex product: a·v, or v when a is
// exactly 1 (see prodComplexLoop).
func prodComplexStep(a, v complex128) complex128 {
	if a == 1 {
		return v
	}
	return cmul128(a, v)
}

// prodFill sets accumulators to 1, the neutral element every product
// starts from and the empty product.
func prodFill(dt dtype.DType, p unsafe.Pointer, n int, _ bool) { FillOne(dt, p, n) }

// FillOne sets the n contiguous elements of dtype dt at p to 1.
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

package ewise

import (
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/iter"
)

// Reduction is a reduction such as the product or the sum, as the
// reduction engine needs it: a run kernel per input dtype, the dtype the
// running results are carried in, the combining kernel (the run kernel of
// that dtype), an optional kernel for rows of an outer-axis reduction, and
// the starting value. The engine's schedules (package tensor, reduce.go)
// are written once against it; a reduction is its kernel table (see Prod
// and Sum).
type Reduction struct {
	// Name is the reduction's name in error messages ("prod", "sum").
	Name string

	kernels     [numDTypes]iter.Kernel
	rows        [numDTypes]RowsKernel
	segments    *[numDTypes]SegmentsKernel // see withSegments
	pairs       *[numDTypes]PairKernel     // see withPairs
	rowsInto    *[numDTypes]RowsIntoKernel // see withRowsInto
	accumulator func(dtype.DType) dtype.DType
	fill        func(dt dtype.DType, p unsafe.Pointer, n int, empty bool)
}

// newReduction builds a reduction's tables once, so that looking a kernel
// up never allocates.
func newReduction(name string, kernel func(dtype.DType) iter.Kernel, rows func(dtype.DType) RowsKernel,
	accumulator func(dtype.DType) dtype.DType, fill func(dtype.DType, unsafe.Pointer, int, bool)) *Reduction {
	r := &Reduction{Name: name, accumulator: accumulator, fill: fill}
	for _, dt := range dtype.All {
		r.kernels[dt], r.rows[dt] = kernel(dt), rows(dt)
	}
	return r
}

// Result is the dtype the reduction returns for an input of dtype dt
// (semantics §6, the same table for every reduction): bool, int8, int16 →
// int32; uint8, uint16 → uint32; the others keep theirs.
func (r *Reduction) Result(dt dtype.DType) dtype.DType { return dtype.ProdResult(dt) }

// Accumulator is the dtype in which the reduction of elements of dtype dt
// is carried before the one final rounding to the result dtype.
func (r *Reduction) Accumulator(dt dtype.DType) dtype.DType { return r.accumulator(dt) }

// Kernel returns the run kernel for input dtype dt, or nil for an invalid
// dtype. Its operands are [acc, x]: acc has dtype Accumulator(dt) and
// already holds a running result (the starting value to begin with); the
// kernel folds x's run into it. A run with acc stride 0 reduces x's run
// into the one accumulator; any other run combines element by element,
// acc[i] = acc[i] op x[i], which is how a reduction over an outer axis
// proceeds a whole row of accumulators at a time.
func (r *Reduction) Kernel(dt dtype.DType) iter.Kernel {
	if !dt.Valid() {
		return nil
	}
	return r.kernels[dt]
}

// Combine returns the kernel that folds partial results of dtype acc (an
// Accumulator dtype, its own accumulator) into others.
func (r *Reduction) Combine(acc dtype.DType) iter.Kernel { return r.Kernel(acc) }

// Rows returns the RowsKernel for input dtype dt, or nil when dt has none
// (or UseVec is off); the run kernel then handles one row at a time.
func (r *Reduction) Rows(dt dtype.DType) RowsKernel {
	if !UseVec || !dt.Valid() {
		return nil
	}
	return r.rows[dt]
}

// Fill sets the n contiguous accumulators of dtype dt at p to the starting
// value. empty says that no element will be folded into them: the value is
// then the result of the empty reduction (1 for a product, +0 for a sum,
// where a non-empty float sum starts from -0, the identity of IEEE
// addition, so that a sum of -0 is -0).
func (r *Reduction) Fill(dt dtype.DType, p unsafe.Pointer, n int, empty bool) {
	r.fill(dt, p, n, empty)
}

// RowsKernel folds rows of x into a row of n contiguous accumulators, one
// row after another, the rows rowStride bytes apart (rowStride > 0) and
// each contiguous:
//
//	for r := range rows { for i := range n { acc[i] = acc[i] op x[r][i] } }
//
// It computes what the run kernel computes run by run, in the same order,
// so results are the same bit for bit; it only takes several rows per pass
// over the accumulators.
type RowsKernel func(acc, x unsafe.Pointer, n, rows, rowStride int)

// reduceLoop is a reduction's plain Go loop over one run of any byte
// strides (see Reduction.Kernel); kernels call it once per run.
type reduceLoop func(acc, x unsafe.Pointer, sacc, sx, n int)

// foldKernel builds the run kernel of input type X carried in A: a
// contiguous run into one accumulator goes to fastRun, whose result
// combine folds in; a contiguous run into as many contiguous accumulators
// to fastRows (when not nil); everything else to loop.
func foldKernel[X, A any](fastRun func([]X) A, fastRows func(acc []A, x []X), combine func(acc, v A) A, loop reduceLoop) iter.Kernel {
	return func(ptrs []unsafe.Pointer, strides []int, n int) {
		xs, as := int(unsafe.Sizeof(*new(X))), int(unsafe.Sizeof(*new(A)))
		acc, x := ptrs[0], ptrs[1]
		sacc, sx := strides[0], strides[1]
		if UseVec && sx == xs {
			switch {
			case sacc == 0:
				*(*A)(acc) = combine(*(*A)(acc), fastRun(run[X](x, n)))
				return
			case sacc == as && fastRows != nil:
				fastRows(run[A](acc, n), run[X](x, n))
				return
			}
		}
		loop(acc, x, sacc, sx, n)
	}
}

// loopReduction builds the run kernel of a type with no vec kernels.
func loopReduction(loop reduceLoop) iter.Kernel {
	return func(ptrs []unsafe.Pointer, strides []int, n int) {
		loop(ptrs[0], ptrs[1], strides[0], strides[1], n)
	}
}

// into adapts a vec binary kernel to fold a run into accumulators in place.
func into[T any](f func(dst, a, b []T)) func(acc, x []T) {
	return func(acc, x []T) { f(acc, acc, x) }
}

// unsignedReduce serves an unsigned dtype with vec's signed reduction of
// the same width: wrapping products and sums have the same bits.
func unsignedReduce[U, S integer](f func([]S) S) func([]U) U {
	return func(a []U) U { return U(f(as[S](a))) }
}

// rowsKernel adapts a vec row kernel to raw pointers and a byte stride.
func rowsKernel[A, X any](f func(acc []A, x []X, rows, stride int)) RowsKernel {
	return func(acc, x unsafe.Pointer, n, rows, rowStride int) {
		stride := rowStride / int(unsafe.Sizeof(*new(X)))
		f(run[A](acc, n), run[X](x, (rows-1)*stride+n), rows, stride)
	}
}

// fill sets n values of T at p to v: one block element by element, then
// block copies of it (memmove's vector stores). The element loop alone was
// a third of a product over a last axis of 10^6×3 float64 (its 8 MB of
// accumulators) and a quarter of a sum over a middle axis of length 3.
func fill[T any](p unsafe.Pointer, n int, v T) {
	s := run[T](p, n)
	k := min(n, fillBlockBytes/int(unsafe.Sizeof(v)))
	for i := range s[:k] {
		s[i] = v
	}
	for i := k; i < n; i += k {
		copy(s[i:], s[:k])
	}
}

// fillBlockBytes is fill's block: large enough that a copy's call is
// small beside it, small enough to stay in L1 while it is copied.
const fillBlockBytes = 512

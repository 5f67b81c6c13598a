// Package gemm multiplies strided matrices the way BLIS does: the operands
// are copied ("packed") block by block into contiguous slivers sized for the
// caches, and a small register-tiled micro-kernel, written in assembly for
// each instruction set, computes one MR×NR tile of C at a time.
//
// The loops, the packing, the edge handling and the threading are Go; only
// the micro-kernels (and a few streaming helpers) are assembly, and every
// assembly routine has a Go twin that computes the same thing, selected with
// the purego build tag or by flipping the dispatch variables in tests.
//
// This is an internal package: callers (the matmul layer) validate shapes
// and report errors. Views must lie inside their slices; because the
// assembly addresses rows by pointer arithmetic, every entry point checks
// that in O(1) per matrix and panics on a view that does not, rather than
// read or write out of bounds.
package gemm

import (
	"fmt"
	"runtime"
)

// Matrix is a strided view of a matrix in a slice: element (i, j) is
// Data[Off + i*RS + j*CS]. Strides are in elements and may be any value,
// including 0 (broadcast) and negative (reversed views).
type Matrix[T any] struct {
	Data   []T
	Off    int
	RS, CS int
}

// at returns element (i, j) of the view.
func (x Matrix[T]) at(i, j int) T { return x.Data[x.Off+i*x.RS+j*x.CS] }

// transpose returns the view of the transposed matrix; no data moves.
func (x Matrix[T]) transpose() Matrix[T] { return Matrix[T]{x.Data, x.Off, x.CS, x.RS} }

// shift returns the view whose element (0, 0) is element (i, j) of x.
func (x Matrix[T]) shift(i, j int) Matrix[T] {
	return Matrix[T]{x.Data, x.Off + i*x.RS + j*x.CS, x.RS, x.CS}
}

// Options tunes one multiplication.
type Options struct {
	// Threads is the number of goroutines to use; 0 means
	// runtime.GOMAXPROCS(0). Small products stay on one goroutine anyway.
	Threads int
	// TF32 applies to float32 only: A and B elements are rounded to TF32
	// (10 mantissa bits, round to nearest even, NaN and Inf kept) while
	// packing; accumulation stays float32.
	TF32 bool
	// Cold says that C is memory no cache holds (a new result, fresh or
	// recycled through a collection) which the call overwrites whole, so
	// that paths writing much of it may store it around the caches.
	Cold bool
}

// threads resolves Options.Threads to a positive goroutine count.
func (o Options) threads() int {
	if o.Threads > 0 {
		return o.Threads
	}
	return runtime.GOMAXPROCS(0)
}

// Elem is the set of element types the real kernels handle.
type Elem interface {
	float32 | float64 | int32 | int64
}

// Mul computes C = A·B for an m×k A and a k×n B, overwriting the m×n C.
//
// C's old contents are never read: a NaN already in C never leaks, and k == 0
// writes zeros. C may have any strides but must not overlap A or B. There is
// no zero skipping, so NaN and Inf in A or B propagate (0·Inf = NaN), and
// every sum starts at +0, so [-0]·[1] gives +0. Integer products and sums
// wrap modulo 2^bits as in Go.
//
// The result does not depend on Options.Threads: work is split over M and N
// only, never over K, so every element is summed in the same order.
func Mul[T Elem](m, n, k int, a, b, c Matrix[T], opt Options) {
	if m <= 0 || n <= 0 {
		return
	}
	mustFit("C", c, m, n)
	if k <= 0 {
		fillZero(m, n, c)
		return
	}
	mustFit("A", a, m, k)
	mustFit("B", b, k, n)
	if opt.TF32 {
		if af, ok := any(a).(Matrix[float32]); ok {
			bf := any(b).(Matrix[float32])
			cf := any(c).(Matrix[float32])
			mulF32(m, n, k, af, bf, cf, opt)
			return
		}
	}
	mul(kernelFor[T](), m, n, k, a, b, c, opt)
}

// mulF32 is Mul for float32 with TF32 rounding switched on. The blocked
// path rounds while packing; the paths that do not pack (vectors, tiny
// products) get rounded copies instead, which they can afford.
func mulF32(m, n, k int, a, b, c Matrix[float32], opt Options) {
	if m == 1 || n == 1 || smallFor(m, n, k, b, c) != nil || smallFor(n, m, k, a.transpose(), c.transpose()) != nil {
		mul(active.f32, m, n, k, roundedCopy(a, m, k), roundedCopy(b, k, n), c, opt)
		return
	}
	mul(tf32Kernel(), m, n, k, a, b, c, opt)
}

// roundedCopy returns the r×c view x over a TF32-rounded copy of the part
// of its data it spans, with the same strides, so the product takes exactly
// the path it would on pre-rounded operands.
func roundedCopy(x Matrix[float32], r, c int) Matrix[float32] {
	lo, hi := extent(x, r, c)
	y := Matrix[float32]{append([]float32(nil), x.Data[lo:hi+1]...), x.Off - lo, x.RS, x.CS}
	roundTF32Slice(y.Data)
	return y
}

// fillZero writes zeros to every element of the m×n view c.
func fillZero[T any](m, n int, c Matrix[T]) {
	var zero T
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			c.Data[c.Off+i*c.RS+j*c.CS] = zero
		}
	}
}

// mustFit panics unless every element of the r×c view x lies in x.Data.
func mustFit[T any](name string, x Matrix[T], r, c int) {
	if r <= 0 || c <= 0 {
		return
	}
	lo, hi := extent(x, r, c)
	if lo < 0 || hi >= len(x.Data) {
		panic(fmt.Sprintf("gemm: %s view %d×%d at offset %d with strides (%d, %d) reaches [%d, %d], outside its %d elements",
			name, r, c, x.Off, x.RS, x.CS, lo, hi, len(x.Data)))
	}
}

// extent returns the least and greatest index of Data that the r×c view x
// (r, c > 0) touches.
func extent[T any](x Matrix[T], r, c int) (lo, hi int) {
	lo, hi = x.Off, x.Off
	for _, d := range [2]int{(r - 1) * x.RS, (c - 1) * x.CS} {
		if d < 0 {
			lo += d
		} else {
			hi += d
		}
	}
	return lo, hi
}

// mustFitBatch checks every matrix of a batched operand: the matrices are
// translates of one view, so checking those at the least and the greatest
// offset covers them all.
func mustFitBatch[T any](name string, x Matrix[T], offs []int, r, c int) {
	if len(offs) == 0 {
		return
	}
	lo, hi := offs[0], offs[0]
	for _, off := range offs {
		lo, hi = min(lo, off), max(hi, off)
	}
	mustFit(name, x.withOff(x.Off+lo), r, c)
	mustFit(name, x.withOff(x.Off+hi), r, c)
}

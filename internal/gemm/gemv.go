package gemm

import (
	"unsafe"

	"github.com/tensor-go/tensor/internal/kernels"
	"github.com/tensor-go/tensor/internal/parallel"
)

// special handles the shapes the blocked loops serve badly and reports
// whether it did: matrix-vector products (m == 1 or n == 1), which are bound
// by reading the matrix once and gain nothing from packing.
func special[T Elem](m, n, k int, a, b, c Matrix[T], opt Options) bool {
	switch {
	case n == 1:
		gemv(m, k, a, b, c, opt)
	case m == 1:
		// A row vector times B is Bᵀ times a column vector.
		gemv(n, k, b.transpose(), a.transpose(), c.transpose(), opt)
	default:
		return false
	}
	return true
}

// minGemvPerThread is the matrix size (elements) below which a second
// goroutine for a matrix-vector product does not pay for itself.
const minGemvPerThread = 1 << 15

// gemv computes y = A·x for an m×k A, a k-vector x (column view, element p
// at x.Off + p*x.RS) and an m-vector y (element i at y.Off + i*y.RS). Rows
// are split over goroutines; each output is summed wholly by one goroutine,
// so the thread count changes no bit.
func gemv[T Elem](m, k int, a, x, y Matrix[T], opt Options) {
	var xs []T
	if x.RS == 1 {
		xs = x.Data[x.Off : x.Off+k]
	} else {
		xs = make([]T, k)
		for p := range xs {
			xs[p] = x.at(p, 0)
		}
	}
	threads := min(opt.threads(), m*k/minGemvPerThread)
	if m <= maxPieceRows && k >= 2*pieceLimit[T](m) {
		gemvPieces(m, k, a, xs, y, max(threads, 1))
		return
	}
	rows := func(i0, i1 int) { gemvRows(i0, i1, k, a, xs, y) }
	if a.RS == 1 && a.CS != 1 {
		if m*k >= minHalvedColumns {
			gemvHalves(m, k, a, xs, y, max(threads, 1))
			return
		}
		// A column-major A is read in pieces of every column, one piece
		// per range of rows: one range per goroutine keeps the pieces
		// long enough to stream (a 4096² product x·W read 2 KiB pieces
		// of W's rows in 8 ranges).
		splitParts(m, 64, threads, threads, rows)
		return
	}
	split(m, 64, threads, rows)
}

// minHalvedColumns is the size (elements) of a column-major A from which
// gemvHalves sums its columns in two halves: measured as a 1024² float32 A,
// 4 MiB, twice the 2 MiB L2, beyond what the caches keep between calls.
// A core with a smaller L2 reaches that point sooner.
var minHalvedColumns = min(1<<20, 2*kernels.CacheSizes().L2/4)

// kPiece is the length of the pieces of K that gemvPieces sums apart:
// 256 KiB of a float32 row, long enough that a piece streams at memory
// speed and that adding the partial sums costs nothing beside it. Two
// goroutines, pieces of 16K / 64K / 256K elements (µs, medians of three):
// a 1M float64 dot 324 / 331 / 333, float32 162 / 163 / 169; 8 rows of
// 256K float64 370 / 399 / 768 (one piece: one goroutine).
const kPiece = 1 << 16

// maxPieceRows is the most rows of A for which gemvPieces splits K: up to
// 64 rows, the unit split gives rows, there is one range of rows and so one
// goroutine.
const maxPieceRows = 64

// pieceRows is how many rows of a piece make one part of gemvPieces' split
// (a multiple of 4, dot4's rows).
const pieceRows = 16

// xPieceBytes bounds the pieces of K of gemvPieces for more than one row:
// each group of four rows reads its piece of x again, and a piece this
// size stays in any L1 of 32 KiB or more instead of coming from L2 beside
// the streaming rows (BenchmarkMul's few-long-rows cases time it). It is
// a constant, not the detected L1 size, because the pieces fix the order
// of the partial sums: a size taken from the machine would give other
// bits on another machine.
const xPieceBytes = 32 << 10

// pieceLimit is the longest piece of K gemvPieces cuts for m rows of T,
// and half the shortest K it takes: kPiece for one row, xPieceBytes of x
// for more.
func pieceLimit[T Elem](m int) int {
	if m == 1 {
		return kPiece
	}
	var z T
	return xPieceBytes / int(unsafe.Sizeof(z))
}

// gemvPieces computes y = A·x for an A of few, long rows (a dot product is
// one row) as partial sums over pieces of K, added in order at the end:
// its rows are too few to share between goroutines, its pieces are not.
// The pieces are of equal length (a multiple of 64; at most kPiece for one
// row, and at most xPieceBytes of x for more, which every four rows read
// again), and each piece's rows go in groups of pieceRows, so that the
// goroutines get parts of equal size (a 64×100000 A in two pieces of 65536
// and 34464 gave one goroutine 65% of the work). The pieces depend on m
// and k alone and a row's partial sum on its piece alone (the groups start
// at multiples of 4, as gemvRows groups rows), so the number of goroutines
// changes no bit of the result.
func gemvPieces[T Elem](m, k int, a Matrix[T], x []T, y Matrix[T], threads int) {
	step := balanced(k, pieceLimit[T](m), 64)
	pieces, groups := ceilDiv(k, step), ceilDiv(m, pieceRows)
	partial := make([]T, pieces*m)
	split(pieces*groups, 1, threads, func(p0, p1 int) {
		for part := p0; part < p1; part++ {
			p, g := part/groups, part%groups
			k0, k1 := p*step, min((p+1)*step, k)
			i0, i1 := g*pieceRows, min((g+1)*pieceRows, m)
			gemvRows(i0, i1, k1-k0, a.shift(0, k0), x[k0:k1], Matrix[T]{partial, p * m, 1, 1})
		}
	})
	for i := range m {
		s := partial[i]
		for p := 1; p < pieces; p++ {
			s += partial[p*m+i]
		}
		y.Data[y.Off+i*y.RS] = s
	}
}

// gemvHalves computes y = A·x for a large column-major A as two partial
// sums, over the first and the second half of A's columns, added at the
// end. Each goroutine streams whole columns (a row of W in x·W) instead of
// a piece of every column, which the hardware prefetchers follow far
// better: x·W for a 4096² float32 W 1.69 -> 1.37 ms on two goroutines.
// The halves are the same whatever the number of goroutines (which only
// splits each half's rows further), so the thread count changes no bit.
func gemvHalves[T Elem](m, k int, a Matrix[T], x []T, y Matrix[T], threads int) {
	first, second := outputRun(y, 0, m), make([]T, m)
	ranges := max(1, threads/2)
	step := roundUp(ceilDiv(m, ranges), 64)
	ranges = ceilDiv(m, step)
	half := k / 2
	parallel.For(2*ranges, threads, func(_, part int) {
		acc, p0, p1 := first, 0, half
		if part >= ranges {
			acc, p0, p1 = second, half, k
		}
		i0 := (part % ranges) * step
		acc = acc[i0:min(i0+step, m)]
		clear(acc)
		addColumns(acc, a, x, i0, p0, p1)
	})
	for i := range first {
		first[i] += second[i]
	}
	storeRun(y, 0, first)
}

// addColumns adds x[p]·A[i0 : i0+len(acc), p] to acc for every p in
// [p0, p1), A column-major: four columns at a time where their stride is
// positive, each element of acc taking the four products in column order
// (the sums of one column at a time, with acc read and written a quarter
// as often and four streams of A in flight). x·W on two goroutines: a
// 2048² float64 W 728 -> 622 µs, float32 357 -> 318; 4096² float64 3.9 ->
// 2.5 ms, float32 1.54 -> 1.22.
func addColumns[T Elem](acc []T, a Matrix[T], x []T, i0, p0, p1 int) {
	axpy, axpy4 := axpyFor[T](), axpy4For[T]()
	p := p0
	for ; a.CS > 0 && p+4 <= p1; p += 4 {
		at := a.Off + i0 + p*a.CS
		axpy4((*[4]T)(x[p:p+4]), a.Data[at:at+3*a.CS+len(acc)], a.CS, acc)
	}
	for ; p < p1; p++ {
		at := a.Off + i0 + p*a.CS
		axpy(x[p], a.Data[at:at+len(acc)], acc)
	}
}

// outputRun returns where elements [i0, i1) of y are summed: y's own
// elements when they are contiguous, a temporary for storeRun otherwise.
func outputRun[T Elem](y Matrix[T], i0, i1 int) []T {
	if y.RS == 1 {
		return y.Data[y.Off+i0 : y.Off+i1]
	}
	return make([]T, i1-i0)
}

// storeRun writes run, summed where outputRun said, to y from element i0
// on: nothing to do when it is y's own elements.
func storeRun[T Elem](y Matrix[T], i0 int, run []T) {
	if y.RS == 1 {
		return
	}
	for i, v := range run {
		y.Data[y.Off+(i0+i)*y.RS] = v
	}
}

// gemvRows computes rows [i0, i1) of y = A·x: as dot products of rows when A
// is row-major, as a sum of column multiples when it is column-major.
func gemvRows[T Elem](i0, i1, k int, a Matrix[T], x []T, y Matrix[T]) {
	switch {
	case a.CS == 1 && a.RS > 0:
		// Four rows at a time share each load of x; rows are grouped from
		// i0, which the callers keep a multiple of 4, so a row's summation
		// order does not depend on the split.
		dot, dot4 := dotFor[T](), dot4For[T]()
		var out [4]T
		i := i0
		for ; i+4 <= i1; i += 4 {
			at := a.Off + i*a.RS
			dot4(a.Data[at:at+3*a.RS+k], a.RS, x, &out)
			for r, v := range out {
				y.Data[y.Off+(i+r)*y.RS] = v
			}
		}
		for ; i < i1; i++ {
			at := a.Off + i*a.RS
			y.Data[y.Off+i*y.RS] = dot(a.Data[at:at+k], x)
		}
	case a.CS == 1:
		dot := dotFor[T]()
		for i := i0; i < i1; i++ {
			at := a.Off + i*a.RS
			y.Data[y.Off+i*y.RS] = dot(a.Data[at:at+k], x)
		}
	case a.RS == 1:
		acc := outputRun(y, i0, i1)
		clear(acc)
		addColumns(acc, a, x, i0, 0, len(x))
		storeRun(y, i0, acc)
	default:
		for i := i0; i < i1; i++ {
			var s T
			for p, v := range x {
				s += T(a.at(i, p) * v) // rounded, as in dotGo
			}
			y.Data[y.Off+i*y.RS] = s
		}
	}
}

package sparse

import "fmt"

// SpMM sets c = a·b for an m×k CSR matrix a, a k×n dense b and an m×n
// dense c. Every element of c is written and none is read first, so stale
// contents (NaN included) never leak; c must not overlap b. Element (i, j)
// is +0 plus a's stored entries of row i times b's matching elements,
// added in storage order. Work is split over rows of a with about equal
// entries per goroutine; threads ≤ 1 runs on the calling goroutine.
// Mismatched shapes panic: callers check them.
func SpMM[T Number](a *CSR[T], b, c Dense[T], threads int) {
	if a.Cols != b.Rows {
		panic(fmt.Sprintf("sparse: SpMM inner sizes differ: %d×%d · %d×%d", a.Rows, a.Cols, b.Rows, b.Cols))
	}
	b.mustFit("SpMM operand")
	c.mustShape("SpMM result", a.Rows, b.Cols)
	if c.Rows == 0 || c.Cols == 0 {
		return
	}
	n := int64(b.Cols)
	if !b.rowsContiguous() && int64(a.Nnz()) >= int64(b.Rows)/4 && int64(b.Rows)*n <= int64(len(b.Data)) {
		b = contiguousRows(b, threads)
	}
	// A row costs n to clear plus n per entry.
	bounds := splitRows(a.Rows, threads, func(i int) int64 { return (a.RowPtr[i] + int64(i)) * n })
	runChunks(bounds, func(_, lo, hi int) { spmmRows(a, b, c, lo, hi) })
}

// contiguousRows returns a copy of b with contiguous rows, copied by
// threads goroutines. SpMM makes one when b's rows are strided (a
// transposed view, say) and a has at least an entry for every four rows
// of b: each entry then reads its row of b with vector loads, one cache
// line per vector instead of one per element (the spmm/ sweep workload
// with a transposed 50000×64 float32 b and 500k entries spent nearly all
// its time in those strided reads). SpMM copies only a b whose elements
// are all distinct in memory (not a broadcast), so the copy is never
// larger than b's own data.
func contiguousRows[T Number](b Dense[T], threads int) Dense[T] {
	n := b.Cols
	p := Dense[T]{Data: uninitialized[T](b.Rows * n), RS: n, CS: 1, Rows: b.Rows, Cols: n}
	bounds := splitRows(b.Rows, threads, func(i int) int64 { return int64(i) * int64(n) })
	runChunks(bounds, func(_, lo, hi int) {
		// Sixteen rows at a time, column by column: a transposed b reads
		// sixteen neighbours (a cache line) per column, and the sixteen
		// rows being written stay in the L1.
		for i0 := lo; i0 < hi; i0 += 16 {
			i1 := min(i0+16, hi)
			for j := range n {
				src := b.Off + j*b.CS
				for i := i0; i < i1; i++ {
					p.Data[i*n+j] = b.Data[src+i*b.RS]
				}
			}
		}
	})
	return p
}

// SpMMCOO sets c = a·b for an m×k COO matrix a, with the contract of
// SpMM; duplicates and any entry order are allowed. It groups the entries
// by row first (a counting sort, stable, so each row keeps its storage
// order and the sums are those of a direct pass over a), without sorting
// columns or merging duplicates. That pays for itself even on one thread:
// on the spmm/ COO workload (400k unordered entries, 128 columns) grouping
// then SpMM took about 35 ms against about 60 ms for adding each entry
// straight into its row of c, since grouped rows stay in cache and go four
// entries per pass. Grouped rows are also independent, so they split over
// threads. A coalesced a needs only its row pointers. A narrow real b
// (cooDirectMax columns, cooDirectBytes per row) is the exception: there
// the grouping cost several times the product, and each entry's products
// go straight into c, in storage order, on the calling goroutine (the same
// sums, spmmCOODirect).
func SpMMCOO[T Number](a *COO[T], b, c Dense[T], threads int) {
	if a.Cols != b.Rows {
		panic(fmt.Sprintf("sparse: SpMM inner sizes differ: %d×%d · %d×%d", a.Rows, a.Cols, b.Rows, b.Cols))
	}
	b.mustFit("SpMM operand")
	c.mustShape("SpMM result", a.Rows, b.Cols)
	if c.Rows == 0 || c.Cols == 0 || spmmCOODirect(a, b, c) {
		return
	}
	SpMM(a.GroupRows(), b, c, threads)
}

// spmmRows computes rows [lo, hi) of c = a·b.
func spmmRows[T Number](a *CSR[T], b, c Dense[T], lo, hi int) {
	k := kernelsFor[T]()
	if k.rows != nil && k.rows(a, b, c, lo, hi) || spmmNarrow(a, b, c, lo, hi) {
		return
	}
	var acc []T
	if !c.rowsContiguous() {
		acc = make([]T, c.Cols)
	}
	// The row kernels may look ahead to the entries of the chunk's later
	// rows (to prefetch their rows of b), never further.
	chunkCols := a.ColIdx[:a.RowPtr[hi]]
	for i := lo; i < hi; i++ {
		out := acc
		if c.rowsContiguous() {
			out = c.row(i)
		}
		start, end := a.RowPtr[i], a.RowPtr[i+1]
		switch {
		case len(out) < narrowCols:
			gatherNarrow(out, b, a.ColIdx[start:end], a.Values[start:end])
		case b.rowsContiguous():
			k.gather(out, b, chunkCols[start:], a.Values[start:end])
		default:
			clear(out)
			for p, col := range a.ColIdx[start:end] {
				axpyStrided(out, a.Values[start+int64(p)], b.Data, b.Off+int(col)*b.RS, b.CS)
			}
		}
		if !c.rowsContiguous() {
			for j, v := range out {
				c.Data[c.Off+i*c.RS+j*c.CS] = v
			}
		}
	}
}

// narrowCols is the width below which SpMM's rows take gatherNarrow
// whatever the kernel set, where spmmNarrow does not take the chunk (a
// complex b of one column): for a b of one column (a matrix-vector
// product) a call of a row kernel per row of a costs more than the row's
// work (the @1 case of BenchmarkSpMMShapes took about a third less CPU;
// at three columns the two were level, Zen 5).
const narrowCols = 2

// gatherNarrow is rowKernels.gather for rows of a few elements, a plain
// loop over the entries with the same sums (+0, then each product in
// order); b's rows may be strided, and it ignores cols past len(vals).
func gatherNarrow[T Number](out []T, b Dense[T], cols []int64, vals []T) {
	cmul := productOf[T]()
	cols = cols[:len(vals)]
	if len(out) == 1 {
		var s T
		for p, col := range cols {
			s += product(vals[p], b.Data[b.Off+int(col)*b.RS], cmul)
		}
		out[0] = s
		return
	}
	clear(out)
	for p, col := range cols {
		row := b.Off + int(col)*b.RS
		for j := range out {
			out[j] += product(vals[p], b.Data[row+j*b.CS], cmul)
		}
	}
}

// addRowsContiguous adds vals[p]·(row cols[p] of b) to out for every p in
// order; b's rows must be contiguous. Four rows go through each pass over
// out so that out's elements are loaded and stored a quarter as often;
// each element still receives its products one at a time in order, so the
// rounding is that of four separate passes.
func addRowsContiguous[T Number](k rowKernels[T], out []T, cols []int64, vals []T, b Dense[T]) {
	p := 0
	for ; p+4 <= len(cols); p += 4 {
		k.axpy4(out, vals[p], vals[p+1], vals[p+2], vals[p+3],
			b.row(int(cols[p])), b.row(int(cols[p+1])), b.row(int(cols[p+2])), b.row(int(cols[p+3])))
	}
	for ; p < len(cols); p++ {
		k.axpy(out, vals[p], b.row(int(cols[p])))
	}
}

// axpyStrided computes y[j] += a*x[off+j*stride] for j in [0, len(y)).
func axpyStrided[T Number](y []T, a T, x []T, off, stride int) {
	cmul := productOf[T]()
	for j := range y {
		y[j] += product(a, x[off+j*stride], cmul)
	}
}

// DenseSpMM sets c = a·b for an m×k dense a, a k×n CSR matrix b and an
// m×n dense c, with the contract of SpMM: c is written without being read
// and must not overlap a, and an element of a meets only b's stored
// entries. Element (i, j) adds a[i,k]·b[k,j] for ascending k and, within
// row k of b, in storage order. Work is split over rows of a.
func DenseSpMM[T Number](a Dense[T], b *CSR[T], c Dense[T], threads int) {
	if a.Cols != b.Rows {
		panic(fmt.Sprintf("sparse: DenseSpMM inner sizes differ: %d×%d · %d×%d", a.Rows, a.Cols, b.Rows, b.Cols))
	}
	a.mustFit("DenseSpMM operand")
	c.mustShape("DenseSpMM result", a.Rows, b.Cols)
	if c.Rows == 0 || c.Cols == 0 {
		return
	}
	if a.Rows >= transposedMinRows {
		// cᵀ = bᵀ·aᵀ, an SpMM whose rows are b's columns: see
		// transposedMinRows.
		SpMM(b.columns(), a.transposed(), c.transposed(), threads)
		return
	}
	denseSpmmDirect(a, b, c, threads)
}

// transposedMinRows is the number of rows of a from which DenseSpMM
// computes cᵀ = bᵀ·aᵀ with SpMM (b's entries grouped by column, aᵀ
// copied to contiguous rows by SpMM, cᵀ written through its strides)
// instead of scattering every row of b into every row of c: the scatter
// is a scalar loop that loads and stores c's element per entry, while SpMM
// keeps a block of a row of cᵀ in vector registers and reads aᵀ's rows
// with vector loads. The dense256×20000 @ csr20000² (200k entries)
// float64 sweep row took 0.4-0.5x the CPU (64 rows 0.5x, 16 rows
// 0.75-0.9x, 8 rows level; BenchmarkDenseSpMM, one goroutine, Intel Xeon
// family 6 model 207 Emerald Rapids, load 13-15), the copy of aᵀ and the
// strided stores of cᵀ being a third of it. The sums are the same: element (i, j) of either adds
// a[i,k]·b[k,j] for ascending k and, within a row k, in b's storage order,
// since columns keeps that order (TestDenseSpMMTransposedBits).
var transposedMinRows = 16

// denseSpmmDirect is DenseSpMM by rows of a, each scattering the rows of
// b it meets into its row of c.
func denseSpmmDirect[T Number](a Dense[T], b *CSR[T], c Dense[T], threads int) {
	// Every row of a meets all of b.
	perRow := int64(b.Nnz()) + int64(b.Rows) + int64(b.Cols)
	bounds := splitRows(a.Rows, threads, func(i int) int64 { return int64(i) * perRow })
	runChunks(bounds, func(_, lo, hi int) { denseSpmmRows(a, b, c, lo, hi) })
}

// denseSpmmRows computes rows [lo, hi) of c = a·b: each row of c gathers
// the rows of b scaled by the matching element of a's row.
func denseSpmmRows[T Number](a Dense[T], b *CSR[T], c Dense[T], lo, hi int) {
	var acc []T
	if c.CS != 1 {
		acc = make([]T, c.Cols)
	}
	for i := lo; i < hi; i++ {
		out := acc
		if c.CS == 1 {
			out = c.row(i)
		}
		clear(out)
		for k := 0; k < b.Rows; k++ {
			start, end := b.RowPtr[k], b.RowPtr[k+1]
			if start == end {
				continue // a[i,k] faces only implicit zeros
			}
			scatterAdd(out, a.At(i, k), b.ColIdx[start:end], b.Values[start:end])
		}
		if c.CS != 1 {
			for j, v := range out {
				c.Data[c.Off+i*c.RS+j*c.CS] = v
			}
		}
	}
}

// scatterAdd computes y[cols[p]] += a*vals[p] for every p in order.
func scatterAdd[T Number](y []T, a T, cols []int64, vals []T) {
	vals = vals[:len(cols)]
	cmul := productOf[T]()
	for p, j := range cols {
		y[j] += product(a, vals[p], cmul)
	}
}

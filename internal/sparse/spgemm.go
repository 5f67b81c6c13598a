package sparse

import (
	"cmp"
	"fmt"
	mathbits "math/bits"
	"slices"
	"sync"
)

// denseAccumulatorMin is the column count up to which SpGEMM always uses a
// dense accumulator (an array of b.Cols values and markers per thread):
// beyond it, only when the chunk's work is large enough to pay for it.
const denseAccumulatorMin = 1 << 16

// SpGEMM returns a·b for an m×k CSR matrix a and a k×n CSR matrix b as a
// sorted, duplicate-free CSR matrix. Either operand may be unsorted or
// hold repeated columns. Row i of the result holds exactly the columns
// reached by a product of stored entries, even where those products
// cancel to zero (as PyTorch keeps them; SciPy drops exact-zero sums);
// each element is +0 plus its products added in the order of a's row i,
// then of b's row within it, so results are identical for every thread
// count. Work is split over rows of a by their number of products, and a
// thread that finishes early takes over rows of another; threads ≤ 1
// runs on the calling goroutine.
// Mismatched inner sizes panic: callers check them.
func SpGEMM[T Number](a, b *CSR[T], threads int) *CSR[T] {
	if a.Cols != b.Rows {
		panic(fmt.Sprintf("sparse: SpGEMM inner sizes differ: %d×%d · %d×%d", a.Rows, a.Cols, b.Rows, b.Cols))
	}
	products := countProducts(a, b, threads)
	bounds := splitRows(a.Rows, threads, func(i int) int64 { return products[i] + int64(i) })
	chunks, total := len(bounds)-1, products[a.Rows]
	dense := b.Cols <= denseAccumulatorMin || int64(b.Cols) <= 4*(total/int64(chunks))
	// Placing rows straight into the result reserves room for every
	// product: only when the products, which bound the entries, are in
	// proportion to the inputs.
	if dense && total <= 8*int64(a.Nnz()+b.Nnz())+1024 {
		return spgemmPlaced(a, b, products, bounds)
	}
	return spgemmGrown(a, b, products, bounds, dense)
}

// countProducts returns products with products[i] the number of
// multiplications of rows [0, i) of a·b, which bounds the entries of those
// rows and measures their work. Counting visits b's row pointers in
// random order, a cache miss per entry of a: worth the threads too.
func countProducts[T Number](a, b *CSR[T], threads int) []int64 {
	products := make([]int64, a.Rows+1)
	runChunks(splitRows(a.Rows, threads, func(i int) int64 { return a.RowPtr[i] + int64(i) }), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			var sum int64
			for _, k := range a.ColIdx[a.RowPtr[i]:a.RowPtr[i+1]] {
				sum += b.RowPtr[k+1] - b.RowPtr[k]
			}
			products[i+1] = sum
		}
	})
	for i := 1; i <= a.Rows; i++ {
		products[i] += products[i-1]
	}
	return products
}

// spgemmGrown computes a·b for the cases spgemmPlaced leaves: each chunk
// of bounds appends its rows to buffers of its own, grown as needed, which
// are then concatenated. dense chooses the dense accumulator over the
// sorting one.
func spgemmGrown[T Number](a, b *CSR[T], products []int64, bounds []int, dense bool) *CSR[T] {
	parts := make([]spgemmPart[T], len(bounds)-1)
	rowPtr := make([]int64, a.Rows+1) // rowPtr[i+1] = entries of row i, then prefix-summed
	runChunks(bounds, func(t, lo, hi int) {
		parts[t] = spgemmRows(a, b, lo, hi, products, dense, rowPtr[lo+1:hi+1])
	})
	for i := 1; i <= a.Rows; i++ {
		rowPtr[i] += rowPtr[i-1]
	}
	out := &CSR[T]{Rows: a.Rows, Cols: b.Cols, RowPtr: rowPtr, Sorted: true}
	if len(parts) == 1 {
		out.ColIdx, out.Values = parts[0].cols, parts[0].vals
		return out
	}
	nnz := rowPtr[a.Rows]
	out.ColIdx, out.Values = uninitialized[int64](int(nnz)), uninitialized[T](int(nnz))
	runChunks(bounds, func(t, lo, _ int) {
		copy(out.ColIdx[rowPtr[lo]:], parts[t].cols)
		copy(out.Values[rowPtr[lo]:], parts[t].vals)
	})
	return out
}

// spgemmPart is the output of one chunk of rows, concatenated.
type spgemmPart[T Number] struct {
	cols []int64
	vals []T
}

// spgemmRows returns rows [lo, hi) of a·b, storing row lo+r's entry count
// in counts[r]. products[i] counts the multiplications of rows [0, i) and
// bounds their entries.
func spgemmRows[T Number](a, b *CSR[T], lo, hi int, products []int64, dense bool, counts []int64) spgemmPart[T] {
	// The entries number at most the work and at most (hi-lo)·b.Cols;
	// start from a guess in proportion to the inputs and let the buffers
	// grow, so a product with heavy cancellation does not reserve its work
	// in memory.
	work := products[hi] - products[lo]
	guess := min(work, int64(hi-lo)*int64(b.Cols), 8*int64(a.Nnz()+b.Nnz())+1024)
	part := spgemmPart[T]{cols: make([]int64, 0, guess), vals: make([]T, 0, guess)}
	if !dense {
		var acc sortingAccumulator[T]
		for i := lo; i < hi; i++ {
			n := len(part.cols)
			part = acc.row(a, b, i, part)
			counts[i-lo] = int64(len(part.cols) - n)
		}
		return part
	}
	acc := getDenseAccumulator[T](b.Cols)
	defer denseAccumulators.Put(acc)
	for i := lo; i < hi; i++ {
		n, c := len(part.cols), acc.add(a, b, i, products[i+1]-products[i])
		part.cols, part.vals = slices.Grow(part.cols, c)[:n+c], slices.Grow(part.vals, c)[:n+c]
		acc.emit(part.cols[n:], part.vals[n:])
		counts[i-lo] = int64(c)
	}
	return part
}

// denseAccumulator sums one output row at a time in an array indexed by
// column, with a bitmap flagging the columns the row has reached and a
// second-level bitmap flagging the nonzero words of the first. Both fit in
// the L1 cache, and reading them back in order emits the columns already
// sorted at a cost of about one step per column; every bit is cleared on
// the way out, so nothing needs clearing between rows. Where the second
// level would take many words per column reached (wide, very sparse
// results), the row lists its columns instead and sorts them.
type denseAccumulator[T Number] struct {
	sums  []T
	seen  []uint64 // bit j: column j reached
	words []uint64 // bit w: seen[w] != 0
	// list holds the columns of the current row in the order reached, when
	// listing.
	list    []int64
	listing bool
}

// spgemmLookahead is how many rows of a ahead of the one being multiplied
// SpGEMM prefetches the rows of b for: far enough for the misses to
// complete, near enough for the lines to still be in L1 when used.
const spgemmLookahead = 1

// denseAccumulators keeps accumulators between calls: SpGEMM is called
// over and over on matrices of similar width, and a fresh accumulator
// costs clearing b.Cols values. The pool holds every element type; a
// mismatch just allocates.
var denseAccumulators sync.Pool

// getDenseAccumulator returns a clear accumulator for at least cols
// columns, from the pool when it holds one of the right type and width.
func getDenseAccumulator[T Number](cols int) *denseAccumulator[T] {
	if acc, ok := denseAccumulators.Get().(*denseAccumulator[T]); ok && len(acc.sums) >= cols && len(acc.sums) <= 2*cols+1024 {
		return acc
	}
	nw := (cols + 63) / 64
	return &denseAccumulator[T]{sums: make([]T, cols), seen: make([]uint64, nw), words: make([]uint64, (nw+63)/64)}
}

// add sums the products of row i of a·b, which number work, and returns
// the row's entry count, for emit to write.
func (acc *denseAccumulator[T]) add(a, b *CSR[T], i int, work int64) int {
	acc.listing = int64(len(acc.words)) > 8*work
	if !acc.listing {
		return acc.scatter(a, b, i, nil)
	}
	if int64(cap(acc.list)) < work {
		acc.list = make([]int64, work)
	}
	n := acc.scatter(a, b, i, acc.list[:work])
	acc.list = acc.list[:n]
	return n
}

// emit writes the row that add summed to cols and vals, which must have
// its entry count as length, columns ascending, and clears the
// accumulator.
func (acc *denseAccumulator[T]) emit(cols []int64, vals []T) {
	if !acc.listing {
		acc.gather(cols, vals)
		return
	}
	slices.Sort(acc.list)
	copy(cols, acc.list)
	vals = vals[:len(cols)]
	for x, j := range cols {
		vals[x] = acc.sums[j]
		acc.seen[j>>6] = 0
		acc.words[j>>12] = 0
	}
}

// scatter adds the products of row i of a·b into the accumulator and
// returns how many columns it reached; when list is not nil, it also
// stores those columns in list in the order reached.
func (acc *denseAccumulator[T]) scatter(a, b *CSR[T], i int, list []int64) int {
	if list != nil {
		return acc.scatterListing(a, b, i, list)
	}
	sums, seen, words := acc.sums, acc.seen, acc.words
	aLo, aHi := a.RowPtr[i], a.RowPtr[i+1]
	aCols, aVals := a.ColIdx[aLo:aHi], a.Values[aLo:aHi]
	aVals = aVals[:len(aCols)]
	var zero T
	cmul := productOf[T]()
	n := 0
	for p, k := range aCols {
		av := aVals[p]
		bLo, bHi := b.RowPtr[k], b.RowPtr[k+1]
		rowCols, rowVals := b.ColIdx[bLo:bHi], b.Values[bLo:bHi]
		rowVals = rowVals[:len(rowCols)]
		for q, j := range rowCols {
			w := uint64(j) >> 6
			old := seen[w]
			if old>>(j&63)&1 == 0 {
				seen[w] = old | 1<<(j&63)
				words[w>>6] |= 1 << (w & 63)
				sums[j] = zero + product(av, rowVals[q], cmul) // sums start at +0
				n++
			} else {
				sums[j] += product(av, rowVals[q], cmul)
			}
		}
	}
	return n
}

// scatterListing is scatter that also lists the columns reached.
func (acc *denseAccumulator[T]) scatterListing(a, b *CSR[T], i int, list []int64) int {
	sums, seen, words := acc.sums, acc.seen, acc.words
	var zero T
	cmul := productOf[T]()
	n := 0
	for p := a.RowPtr[i]; p < a.RowPtr[i+1]; p++ {
		av, k := a.Values[p], a.ColIdx[p]
		for q := b.RowPtr[k]; q < b.RowPtr[k+1]; q++ {
			j := b.ColIdx[q]
			w, bit := uint64(j)>>6, uint64(1)<<(j&63)
			if seen[w]&bit == 0 {
				seen[w] |= bit
				words[w>>6] |= 1 << (w & 63)
				sums[j] = zero + product(av, b.Values[q], cmul)
				list[n] = j
				n++
			} else {
				sums[j] += product(av, b.Values[q], cmul)
			}
		}
	}
	return n
}

// gather writes the columns the bitmaps flag, ascending, to cols and their
// sums to vals, clears the bitmaps and returns the count.
func (acc *denseAccumulator[T]) gather(cols []int64, vals []T) int {
	seen, words := acc.seen, acc.words
	x := 0
	for s, ws := range words {
		for ; ws != 0; ws &= ws - 1 {
			w := s<<6 + mathbits.TrailingZeros64(ws)
			bits := seen[w]
			seen[w] = 0
			base := int64(w) << 6
			for ; bits != 0; bits &= bits - 1 {
				cols[x] = base + int64(mathbits.TrailingZeros64(bits))
				x++
			}
		}
		words[s] = 0
	}
	// A second loop for the values keeps the first one's variables in
	// registers.
	sums := acc.sums
	vals = vals[:x]
	for y, j := range cols[:x] {
		vals[y] = sums[j]
	}
	return x
}

// sortingAccumulator sums one output row at a time by listing its
// products and sorting them by column, for results too wide for a dense
// accumulator. Ties keep product order, so sums match denseAccumulator's
// bit for bit.
type sortingAccumulator[T Number] struct {
	cols  []int64
	prods []T
	order []int
}

// row appends row i of a·b to part, columns ascending.
func (acc *sortingAccumulator[T]) row(a, b *CSR[T], i int, part spgemmPart[T]) spgemmPart[T] {
	acc.cols, acc.prods, acc.order = acc.cols[:0], acc.prods[:0], acc.order[:0]
	cmul := productOf[T]()
	for p := a.RowPtr[i]; p < a.RowPtr[i+1]; p++ {
		av, k := a.Values[p], a.ColIdx[p]
		for q := b.RowPtr[k]; q < b.RowPtr[k+1]; q++ {
			acc.order = append(acc.order, len(acc.cols))
			acc.cols = append(acc.cols, b.ColIdx[q])
			acc.prods = append(acc.prods, product(av, b.Values[q], cmul))
		}
	}
	cols := acc.cols
	slices.SortFunc(acc.order, func(x, y int) int { return cmp.Or(cmp.Compare(cols[x], cols[y]), cmp.Compare(x, y)) })
	var zero T
	start := len(part.cols)
	for _, x := range acc.order {
		n := len(part.cols)
		if n > start && part.cols[n-1] == cols[x] {
			part.vals[n-1] += acc.prods[x]
			continue
		}
		part.cols = append(part.cols, cols[x])
		part.vals = append(part.vals, zero+acc.prods[x])
	}
	return part
}

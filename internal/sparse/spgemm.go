package sparse

import (
	"cmp"
	"fmt"
	mathbits "math/bits"
	"slices"
	"sync"
	"unsafe"
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
// count. Work is split over rows of a by their number of products;
// threads ≤ 1 runs on the calling goroutine.
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
		return spgemmPlaced(a, b, products, chunks)
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

// spgemmPlaced computes a·b with dense accumulators that write each row
// straight to its final place in the result, which is allocated once and
// never cleared, and for two threads never moved: the result is the
// largest array SpGEMM touches, often several times the inputs, and every
// extra pass over it costs about as much as computing it.
//
// The arrays have room for every product, which bounds the entries. The
// chunks of rows go in pairs that meet at the product bound between them:
// the first of a pair computes its rows last to first and stores them
// downwards, ending at the bound, the second upwards from it. A scatter
// tells a row's entry count before its entries are written, so rows
// stored downwards land in place too. The pair's entries are then
// contiguous, and only the gaps between pairs (for three threads or more)
// need closing.
func spgemmPlaced[T Number](a, b *CSR[T], products []int64, threads int) *CSR[T] {
	m := a.Rows
	bounds := splitRows(m, threads, func(i int) int64 { return products[i] + int64(i) })
	chunks := len(bounds) - 1
	cols, vals := uninitialized[int64](int(products[m])), uninitialized[T](int(products[m]))
	// at[i] is where row i starts in cols and vals; segment s, the entries
	// of pair s, ends at ends[s].
	at := make([]int64, m+1)
	ends := make([]int64, (chunks+1)/2)
	runChunks(bounds, func(t, lo, hi int) {
		switch {
		case t%2 == 0 && t+1 < chunks:
			placeRowsDown(a, b, lo, hi, products, products[hi], cols, vals, at)
		default:
			ends[t/2] = placeRowsUp(a, b, lo, hi, products, products[lo], cols, vals, at)
		}
	})
	// Close the gaps: segment s moves left by shifts[s].
	base, dest := at[0], at[0]
	shifts := make([]int64, len(ends))
	for s, end := range ends {
		from := at[bounds[2*s]]
		shifts[s] = from - dest
		shiftLeft(cols, from, dest, end-from, chunks)
		shiftLeft(vals, from, dest, end-from, chunks)
		dest += end - from
	}
	rowPtr := at
	for s := range ends {
		lo, hi := bounds[2*s], bounds[min(2*s+2, chunks)]
		for i := lo; i < hi; i++ {
			rowPtr[i] -= base + shifts[s]
		}
	}
	nnz := dest - base
	rowPtr[m] = nnz
	return &CSR[T]{Rows: m, Cols: b.Cols, RowPtr: rowPtr,
		ColIdx: cols[base : base+nnz : base+nnz], Values: vals[base : base+nnz : base+nnz], Sorted: true}
}

// placeRowsUp computes rows [lo, hi) of a·b into cols and vals from
// position pos upwards (products[i] counts the multiplications of rows
// [0, i)), stores where each row i starts in at[i], and
// returns the position after the rows.
func placeRowsUp[T Number](a, b *CSR[T], lo, hi int, products []int64, pos int64, cols []int64, vals []T, at []int64) int64 {
	acc := getDenseAccumulator[T](b.Cols)
	defer denseAccumulators.Put(acc)
	pre := newRowPrefetcher(a, b)
	pre.rows(lo, min(lo+spgemmLookahead, hi))
	for i := lo; i < hi; i++ {
		if ahead := i + spgemmLookahead; ahead < hi {
			pre.rows(ahead, ahead+1)
		}
		n := int64(acc.add(a, b, i, products[i+1]-products[i]))
		acc.emit(cols[pos:pos+n], vals[pos:pos+n])
		at[i] = pos
		pos += n
	}
	return pos
}

// placeRowsDown computes rows [lo, hi) of a·b into cols and vals, last row
// first, ending at position end, and stores where each row i starts in
// at[i].
func placeRowsDown[T Number](a, b *CSR[T], lo, hi int, products []int64, end int64, cols []int64, vals []T, at []int64) {
	acc := getDenseAccumulator[T](b.Cols)
	defer denseAccumulators.Put(acc)
	pre := newRowPrefetcher(a, b)
	pre.rows(max(hi-spgemmLookahead, lo), hi)
	pos := end
	for i := hi - 1; i >= lo; i-- {
		if ahead := i - spgemmLookahead; ahead >= lo {
			pre.rows(ahead, ahead+1)
		}
		n := int64(acc.add(a, b, i, products[i+1]-products[i]))
		pos -= n
		acc.emit(cols[pos:pos+n], vals[pos:pos+n])
		at[i] = pos
	}
}

// rowPrefetcher asks the cache for the rows of b that rows of a will
// multiply (see prefetchRows).
type rowPrefetcher[T Number] struct {
	a, b    *CSR[T]
	bVals   unsafe.Pointer
	valSize uintptr
}

func newRowPrefetcher[T Number](a, b *CSR[T]) rowPrefetcher[T] {
	var zero T
	return rowPrefetcher[T]{a: a, b: b, bVals: unsafe.Pointer(unsafe.SliceData(b.Values)), valSize: unsafe.Sizeof(zero)}
}

// rows prefetches the rows of b that rows [lo, hi) of a multiply.
func (p rowPrefetcher[T]) rows(lo, hi int) {
	if lo < hi {
		prefetchRows(p.b.RowPtr, p.b.ColIdx, p.bVals, p.valSize, p.a.ColIdx[p.a.RowPtr[lo]:p.a.RowPtr[hi]])
	}
}

// shiftLeft moves buf[from:from+n] to buf[to:to+n], to ≤ from, in up to
// threads pieces at once. The pieces must not race: piece k writes over
// the last from-to elements of piece k-1's source, so those are saved
// first and piece k-1 takes them from the copy.
func shiftLeft[E any](buf []E, from, to, n int64, threads int) {
	d := from - to
	pieces := max(1, min(int64(threads), n/minShiftPiece))
	if d == 0 || pieces == 1 || n/pieces < d {
		copy(buf[to:to+n], buf[from:from+n])
		return
	}
	bounds := make([]int, pieces+1)
	for k := range bounds {
		bounds[k] = int(from + int64(k)*n/pieces)
	}
	// tails[k] holds the source elements of piece k that piece k+1
	// overwrites.
	tails := make([][]E, pieces-1)
	for k := range tails {
		end := int64(bounds[k+1])
		tails[k] = slices.Clone(buf[end-d : end])
	}
	runChunks(bounds, func(k, lo, hi int) {
		l, h := int64(lo), int64(hi)
		if k == len(tails) {
			copy(buf[l-d:h-d], buf[l:h])
			return
		}
		copy(buf[l-d:h-2*d], buf[l:h-d])
		copy(buf[h-2*d:h-d], tails[k])
	})
}

// minShiftPiece is the number of elements below which a move is not
// worth a goroutine. A variable so that tests can split small moves.
var minShiftPiece int64 = 1 << 15

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
	sums, seen, words := acc.sums, acc.seen, acc.words
	bPtr, bCols, bVals := b.RowPtr, b.ColIdx, b.Values
	aLo, aHi := a.RowPtr[i], a.RowPtr[i+1]
	aCols, aVals := a.ColIdx[aLo:aHi], a.Values[aLo:aHi]
	aVals = aVals[:len(aCols)]
	listing := list != nil
	var zero T
	n := 0
	for p, k := range aCols {
		av := aVals[p]
		bLo, bHi := bPtr[k], bPtr[k+1]
		rowCols, rowVals := bCols[bLo:bHi], bVals[bLo:bHi]
		rowVals = rowVals[:len(rowCols)]
		for q, j := range rowCols {
			prod := av * rowVals[q]
			w, bit := uint64(j)>>6, uint64(1)<<(j&63)
			if seen[w]&bit == 0 {
				seen[w] |= bit
				words[w>>6] |= 1 << (w & 63)
				sums[j] = zero + prod // sums start at +0
				if listing {
					list[n] = j
				}
				n++
			} else {
				sums[j] += prod
			}
		}
	}
	return n
}

// gather writes the columns the bitmaps flag, ascending, to cols and their
// sums to vals, clears the bitmaps and returns the count.
func (acc *denseAccumulator[T]) gather(cols []int64, vals []T) int {
	sums, seen, words := acc.sums, acc.seen, acc.words
	vals = vals[:len(cols)]
	x := 0
	for s, ws := range words {
		for ; ws != 0; ws &= ws - 1 {
			w := s<<6 + mathbits.TrailingZeros64(ws)
			bits := seen[w]
			seen[w] = 0
			for ; bits != 0; bits &= bits - 1 {
				j := w<<6 + mathbits.TrailingZeros64(bits)
				cols[x], vals[x] = int64(j), sums[j]
				x++
			}
		}
		words[s] = 0
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
	for p := a.RowPtr[i]; p < a.RowPtr[i+1]; p++ {
		av, k := a.Values[p], a.ColIdx[p]
		for q := b.RowPtr[k]; q < b.RowPtr[k+1]; q++ {
			acc.order = append(acc.order, len(acc.cols))
			acc.cols = append(acc.cols, b.ColIdx[q])
			acc.prods = append(acc.prods, av*b.Values[q])
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

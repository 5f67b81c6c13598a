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
	// products[i] counts the multiplications of rows [0, i); it bounds the
	// entries of those rows and balances the split.
	// Counting visits b's row pointers in random order, a cache miss per
	// entry of a: worth the threads too.
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
	bounds := splitRows(a.Rows, threads, func(i int) int64 { return products[i] + int64(i) })
	parts := make([]spgemmPart[T], len(bounds)-1)
	// When the products, which bound the entries, are in proportion to the
	// inputs, every chunk writes straight into the result from its bound's
	// offset (its capacity ends at the next chunk's, so append cannot
	// spill), and only the gaps that repeated columns leave need closing
	// afterwards. Otherwise chunks grow their own buffers, concatenated at
	// the end.
	var cols []int64
	var vals []T
	inPlace := products[a.Rows] <= 8*int64(a.Nnz()+b.Nnz())+1024
	if inPlace {
		cols, vals = make([]int64, products[a.Rows]), make([]T, products[a.Rows])
		for t := range parts {
			from, to := products[bounds[t]], products[bounds[t+1]]
			parts[t] = spgemmPart[T]{cols: cols[from:from:to], vals: vals[from:from:to]}
		}
	}
	rowNnz := make([]int64, a.Rows+1) // rowNnz[i+1] = entries of row i, then prefix-summed
	runChunks(bounds, func(t, lo, hi int) {
		parts[t] = spgemmRows(a, b, lo, hi, products, parts[t], rowNnz[lo+1:hi+1])
	})
	for i := 1; i <= a.Rows; i++ {
		rowNnz[i] += rowNnz[i-1]
	}
	out := &CSR[T]{Rows: a.Rows, Cols: b.Cols, RowPtr: rowNnz, Sorted: true}
	nnz := rowNnz[a.Rows]
	switch {
	case inPlace:
		// Chunk t moves left onto the end of chunk t-1, so going in order
		// never overwrites data still to be moved.
		for t := 1; t < len(parts); t++ {
			from, to, n := products[bounds[t]], rowNnz[bounds[t]], int64(len(parts[t].cols))
			shiftLeft(cols, from, to, n, len(parts))
			shiftLeft(vals, from, to, n, len(parts))
		}
		out.ColIdx, out.Values = cols[:nnz:nnz], vals[:nnz:nnz]
	case len(parts) == 1:
		out.ColIdx, out.Values = parts[0].cols, parts[0].vals
	default:
		out.ColIdx, out.Values = make([]int64, nnz), make([]T, nnz)
		runChunks(bounds, func(t, lo, _ int) {
			copy(out.ColIdx[rowNnz[lo]:], parts[t].cols)
			copy(out.Values[rowNnz[lo]:], parts[t].vals)
		})
	}
	return out
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

// spgemmPart is the output of one chunk of rows, concatenated.
type spgemmPart[T Number] struct {
	cols []int64
	vals []T
}

// spgemmRows appends rows [lo, hi) of a·b to part, storing row lo+r's
// entry count in counts[r]. products[i] counts the multiplications of rows
// [0, i) and bounds their entries.
func spgemmRows[T Number](a, b *CSR[T], lo, hi int, products []int64, part spgemmPart[T], counts []int64) spgemmPart[T] {
	work := products[hi] - products[lo]
	if part.cols == nil {
		// The entries number at most work and at most (hi-lo)·b.Cols; start
		// from a guess in proportion to the inputs and let the buffers grow,
		// so a product with heavy cancellation does not reserve its work in
		// memory.
		guess := min(work, int64(hi-lo)*int64(b.Cols), 8*int64(a.Nnz()+b.Nnz())+1024)
		part = spgemmPart[T]{cols: make([]int64, 0, guess), vals: make([]T, 0, guess)}
	}
	if b.Cols <= denseAccumulatorMin || int64(b.Cols) <= 4*work {
		acc := getDenseAccumulator[T](b.Cols)
		defer denseAccumulators.Put(acc)
		var zero T
		bVals, valSize := unsafe.Pointer(unsafe.SliceData(b.Values)), unsafe.Sizeof(zero)
		for i := lo; i < min(lo+spgemmLookahead, hi); i++ {
			prefetchRows(b.RowPtr, b.ColIdx, bVals, valSize, a.ColIdx[a.RowPtr[i]:a.RowPtr[i+1]])
		}
		for i := lo; i < hi; i++ {
			if ahead := i + spgemmLookahead; ahead < hi {
				prefetchRows(b.RowPtr, b.ColIdx, bVals, valSize, a.ColIdx[a.RowPtr[ahead]:a.RowPtr[ahead+1]])
			}
			// A row has at most as many entries as products: make room for
			// them so that the accumulator writes without append.
			n, rowWork := len(part.cols), int(products[i+1]-products[i])
			part.cols, part.vals = slices.Grow(part.cols, rowWork), slices.Grow(part.vals, rowWork)
			c := acc.row(a, b, i, part.cols[n:n+rowWork], part.vals[n:n+rowWork])
			part.cols, part.vals = part.cols[:n+c], part.vals[:n+c]
			counts[i-lo] = int64(c)
		}
		return part
	}
	var acc sortingAccumulator[T]
	for i := lo; i < hi; i++ {
		n := len(part.cols)
		part = acc.row(a, b, i, part)
		counts[i-lo] = int64(len(part.cols) - n)
	}
	return part
}

// denseAccumulator sums one output row at a time in an array indexed by
// column, with a bitmap flagging the columns the row has reached and a
// second-level bitmap flagging the nonzero words of the first. Both fit in
// the L1 cache, and reading them back in order emits the columns already
// sorted at a cost of about one step per column; every bit is cleared on
// the way out, so nothing needs clearing between rows.
type denseAccumulator[T Number] struct {
	sums  []T
	seen  []uint64 // bit j: column j reached
	words []uint64 // bit w: seen[w] != 0
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

// row writes row i of a·b to cols and vals, columns ascending, and
// returns its entry count. Both slices must have room for the row's
// products.
func (acc *denseAccumulator[T]) row(a, b *CSR[T], i int, cols []int64, vals []T) int {
	// Read the columns in order from the bitmaps when the second level has
	// few words per product (wide, very sparse results may not); else list
	// the columns reached and sort them.
	if len(acc.words) <= 8*len(cols) {
		acc.scatter(a, b, i, nil)
		return acc.gather(cols, vals)
	}
	n := acc.scatter(a, b, i, cols)
	cols, vals = cols[:n], vals[:n]
	slices.Sort(cols)
	for x, j := range cols {
		vals[x] = acc.sums[j]
		acc.seen[j>>6] = 0
		acc.words[j>>12] = 0
	}
	return n
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

package sparse

import (
	"slices"
	"sync"
	"unsafe"
)

// spgemmPlaced computes a·b with dense accumulators that write each row
// straight to its final place in the result, which is allocated once and
// never cleared, and for two threads hardly moved: the result is the
// largest array SpGEMM touches, often several times the inputs, and every
// extra pass over it costs about as much as computing it.
//
// The arrays have room for every product, which bounds the entries: row
// i may take the positions [products[i], products[i+1]). The chunks of
// rows go in pairs (a placedPair) that meet at the product bound between
// them, so that the pair's entries end up contiguous; only the gaps
// between pairs, for three threads or more, need closing. bounds are the
// chunks' first rows, then a.Rows.
func spgemmPlaced[T Number](a, b *CSR[T], products []int64, bounds []int) *CSR[T] {
	m := a.Rows
	chunks := len(bounds) - 1
	p := &placer[T]{a: a, b: b, products: products, at: make([]int64, m+1)}
	p.cols, p.vals = uninitialized[int64](int(products[m])), uninitialized[T](int(products[m]))
	pairs := make([]placedPair, (chunks+1)/2)
	for s := range pairs {
		// A lone last chunk is a pair with an empty upper half.
		lo, mid, hi := bounds[2*s], bounds[min(2*s+1, chunks)], bounds[min(2*s+2, chunks)]
		pairs[s].init(lo, mid, hi, products)
	}
	placeSchedule(bounds, func(t, _, _ int) { p.run(&pairs[t/2], t%2) })
	for s := range pairs {
		p.join(&pairs[s])
	}
	// Close the gaps between pairs, moving each left onto the end of the
	// one before.
	base := pairs[0].start
	dest := base
	for s := range pairs {
		pr := &pairs[s]
		n := pr.end - pr.start
		shiftLeft(p.cols, pr.start, dest, n, chunks)
		shiftLeft(p.vals, pr.start, dest, n, chunks)
		p.moved(pr.halves[0].first, pr.halves[1].last, dest-pr.start)
		dest += n
	}
	rowPtr := p.at
	for i := range rowPtr[:m] {
		rowPtr[i] -= base
	}
	nnz := dest - base
	rowPtr[m] = nnz
	return &CSR[T]{Rows: m, Cols: b.Cols, RowPtr: rowPtr, Sorted: true,
		ColIdx: p.cols[base : base+nnz : base+nnz], Values: p.vals[base : base+nnz : base+nnz]}
}

// placeSchedule runs the chunks of spgemmPlaced: runChunks, or for tests
// an order that makes threads help each other.
var placeSchedule = runChunks

// placer holds what the threads of spgemmPlaced share: the operands, the
// product counts, the result's arrays and at[i], where row i starts in
// them.
type placer[T Number] struct {
	a, b     *CSR[T]
	products []int64
	cols     []int64
	vals     []T
	at       []int64
}

// placedPair is two chunks of rows, the halves, each computed by one
// thread, whose entries meet at products[mid] (mid the first row of the
// upper half): the lower half's thread computes its rows last to first,
// storing them downwards from there, the upper half's thread first to
// last, upwards. A scatter tells a row's entry count before its entries
// are written, so rows stored downwards land in place too.
//
// A thread that finishes its half early helps with the other from its far
// end, storing from that end's product bound towards the middle; its rows
// are then moved next to the rest of the half, which costs little as only
// the imbalance is moved. Threads can be slowed unevenly (the machine may
// be shared), so the split alone cannot balance them.
type placedPair struct {
	halves [2]rowRange
	// written[h][0] is the span of positions the half's own thread wrote,
	// written[h][1] the helper's.
	written    [2][2]span
	start, end int64 // positions of the pair's entries once contiguous
}

// span is the positions [from, to) of consecutive rows' entries.
type span struct{ from, to int64 }

// rowRange hands out rows [lo, hi) in blocks from either end. first and
// last keep the original range.
type rowRange struct {
	mu          sync.Mutex
	lo, hi      int
	first, last int
}

// placeBlock is the number of rows a thread takes at a time: enough for
// the locking to vanish in the work, few enough to balance the threads. A
// variable so that tests can take single rows.
var placeBlock = 32

// take returns the next block of rows from the top of the range (top) or
// from its bottom, empty when none are left.
func (r *rowRange) take(top bool) (lo, hi int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := min(placeBlock, r.hi-r.lo)
	if top {
		r.hi -= n
		return r.hi, r.hi + n
	}
	r.lo += n
	return r.lo - n, r.lo
}

// run computes side's half of pr (0 the lower, 1 the upper), then helps
// with the other half; the thread of the other side calls it too.
func (p *placer[T]) run(pr *placedPair, side int) {
	acc := getDenseAccumulator[T](p.b.Cols)
	defer denseAccumulators.Put(acc)
	lower, upper := &pr.halves[0], &pr.halves[1]
	if side == 0 {
		mid, end := pr.written[0][0].to, pr.written[1][1].to
		pr.written[0][0].from = p.down(acc, lower, mid)
		pr.written[1][1].from = p.down(acc, upper, end)
		return
	}
	mid, start := pr.written[1][0].from, pr.written[0][1].from
	pr.written[1][0].to = p.up(acc, upper, mid)
	pr.written[0][1].to = p.up(acc, lower, start)
}

// init sets pr up for the lower half rows [lo, mid) and the upper half
// rows [mid, hi), with every span empty at the bound it grows from.
func (pr *placedPair) init(lo, mid, hi int, products []int64) {
	pr.halves[0] = rowRange{lo: lo, hi: mid, first: lo, last: mid}
	pr.halves[1] = rowRange{lo: mid, hi: hi, first: mid, last: hi}
	at := func(i int) span { return span{products[i], products[i]} }
	pr.written = [2][2]span{{at(mid), at(lo)}, {at(mid), at(hi)}}
}

// up computes the rows it takes from the bottom of r, first to last,
// storing them upwards from position pos, and returns the position after
// them.
func (p *placer[T]) up(acc *denseAccumulator[T], r *rowRange, pos int64) int64 {
	for {
		lo, hi := r.take(false)
		if lo == hi {
			return pos
		}
		pos = p.rowsUp(acc, lo, hi, pos)
	}
}

// down computes the rows it takes from the top of r, last to first,
// storing them downwards so that they end at position end, and returns
// the position of the first.
func (p *placer[T]) down(acc *denseAccumulator[T], r *rowRange, end int64) int64 {
	for {
		lo, hi := r.take(true)
		if lo == hi {
			return end
		}
		end = p.rowsDown(acc, lo, hi, end)
	}
}

// join moves the rows of pr that its helping threads computed next to the
// rest of their half and sets pr.start and pr.end.
func (p *placer[T]) join(pr *placedPair) {
	// The lower half: the helper's rows [first, split) go up to end where
	// the own thread's rows start.
	lower, own, help := &pr.halves[0], pr.written[0][0], pr.written[0][1]
	pr.start = own.from - (help.to - help.from)
	p.move(help, pr.start, lower.first, lower.lo)
	// The upper half: the helper's rows [split, last) go down to start
	// where the own thread's rows end.
	upper, own, help := &pr.halves[1], pr.written[1][0], pr.written[1][1]
	p.move(help, own.to, upper.hi, upper.last)
	pr.end = own.to + (help.to - help.from)
}

// move moves the entries at positions sp, those of rows [lo, hi), to
// start at dest.
func (p *placer[T]) move(sp span, dest int64, lo, hi int) {
	if sp.from == dest {
		return
	}
	copy(p.cols[dest:], p.cols[sp.from:sp.to])
	copy(p.vals[dest:], p.vals[sp.from:sp.to])
	p.moved(lo, hi, dest-sp.from)
}

// moved records that rows [lo, hi) moved by delta positions.
func (p *placer[T]) moved(lo, hi int, delta int64) {
	if delta == 0 {
		return
	}
	for i := lo; i < hi; i++ {
		p.at[i] += delta
	}
}

// rowsUp computes rows [lo, hi) of a·b into the result from position pos
// upwards, records where each starts and returns the position after them.
func (p *placer[T]) rowsUp(acc *denseAccumulator[T], lo, hi int, pos int64) int64 {
	a, b := p.a, p.b
	pre := newRowPrefetcher(a, b)
	pre.rows(lo, min(lo+spgemmLookahead, hi))
	for i := lo; i < hi; i++ {
		if ahead := i + spgemmLookahead; ahead < hi {
			pre.rows(ahead, ahead+1)
		}
		n := int64(acc.add(a, b, i, p.products[i+1]-p.products[i]))
		acc.emit(p.cols[pos:pos+n], p.vals[pos:pos+n])
		p.at[i] = pos
		pos += n
	}
	return pos
}

// rowsDown computes rows [lo, hi) of a·b into the result, last row first,
// so that they end at position end, records where each starts and returns
// the position of the first.
func (p *placer[T]) rowsDown(acc *denseAccumulator[T], lo, hi int, end int64) int64 {
	a, b := p.a, p.b
	pre := newRowPrefetcher(a, b)
	pre.rows(max(hi-spgemmLookahead, lo), hi)
	pos := end
	for i := hi - 1; i >= lo; i-- {
		if ahead := i - spgemmLookahead; ahead >= lo {
			pre.rows(ahead, ahead+1)
		}
		n := int64(acc.add(a, b, i, p.products[i+1]-p.products[i]))
		pos -= n
		acc.emit(p.cols[pos:pos+n], p.vals[pos:pos+n])
		p.at[i] = pos
	}
	return pos
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
	if d == 0 {
		return // copy would still read and write every element
	}
	pieces := max(1, min(int64(threads), n/minShiftPiece))
	if pieces == 1 || n/pieces < d {
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

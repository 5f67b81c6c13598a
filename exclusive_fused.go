package tensor

import (
	"unsafe"

	"github.com/tensor-go/tensor/internal/ewise"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/kernels"
	"github.com/tensor-go/tensor/internal/scratch"
	"github.com/tensor-go/tensor/internal/vec"
)

// The fused exclusive products of real tensors: both passes over each
// group in one plain loop each, the running product in float64, rounding
// to T exactly where exclusiveRuns does (the prefix when stored, the
// product of prefix and suffix when stored), and, when scale is given,
// multiplying each result by its group's factor in the same pass (Mul's
// rounding: one product in T). Only products, no sums, so fused
// multiply-add cannot change any bit; the bits equal exclusiveInto's.

// exclusiveFused computes into out the exclusive products of the
// contiguous src, laid out in groups g, each times scale's element for its
// group (scale nil: times nothing; else outer·inner elements in Prod's
// result order). cold says that out is a new result's cold memory
// (Tensor.cold): the paths that stream their output then map its absent
// pages first (mapStreamed).
func exclusiveFused[T float32 | float64](x, out, scale []T, g groups, cold bool) {
	if g.inner == 1 {
		exclusiveFusedRows(x, out, scale, g, cold)
		return
	}
	exclusiveFusedColumns(x, out, scale, g, cold)
}

// mapStreamed maps the absent pages of out (storage.MapForStreaming) when
// out is cold and about to be written with streaming stores, rows of row
// elements, each a whole number of units: there a fault per page costs
// more CPU than one madvise over them all, where ordinary stores are
// better left to fault (see MapForStreaming). The kernels stream only in
// the AVX-512 and AVX2 sets and only rows of whole aligned lines
// (vec.ExclusiveStreams, vec.Columns): unit is 16 for the transposed rows,
// a strip's vec.ColumnsWidth for the strips.
//
// The pages are mapped by ewise.MapCold, in pieces shared between the
// call's goroutines.
func mapStreamed(out []float32, row, unit int, cold, stream bool) {
	if !cold || !stream || len(out) == 0 || row%unit != 0 || !vec.ExclusiveStreams() ||
		uintptr(unsafe.Pointer(&out[0]))%64 != 0 {
		return
	}
	ewise.MapCold(unsafe.Pointer(&out[0]), len(out)*4, iter.Workers(len(out)))
}

// fusedRowGroup is how many rows of a last-axis reduction run side by side:
// four independent running products hide the multiply's latency, and their
// eight streams (x and out) stay within the L1 cache's ways.
const fusedRowGroup = 4

// exclusiveFusedRows handles groups of one run each (g.inner == 1): each
// group is a contiguous row of g.n elements. Rows are shared between
// goroutines in blocks of fusedRowGroup.
func exclusiveFusedRows[T float32 | float64](x, out, scale []T, g groups, cold bool) {
	// Sets that prefer the four-row passes in place (vec.ExclusiveRows4F32)
	// take no transposed strips, and split only rows too few for the
	// goroutines to share by groups of four.
	inPlace := rowsInPlace()
	if x32, ok := any(x).([]float32); ok && !inPlace && g.n >= transposedMinRow && tallStripRows() > 0 && g.outer >= vec.ColumnsWidth {
		done := exclusiveRowsTransposed(x32, any(out).([]float32), any(scale).([]float32), g, cold)
		x, out = x[done*g.n:], out[done*g.n:]
		if scale != nil {
			scale = scale[done:]
		}
		g.outer -= done
	}
	if x32, ok := any(x).([]float32); ok && g.outer > 0 && g.n >= max(rowSplitFrom, vec.ColumnsWidth) && rowSplitPart() >= 1 && (!inPlace || g.outer < 2*fusedRowGroup) {
		exclusiveRowsSplit(x32, any(out).([]float32), any(scale).([]float32), g, cold)
		return
	}
	n := g.n
	rows4 := exclusiveRows4For[T]()
	rows := func(lo, hi int) {
		r := lo
		for ; r+fusedRowGroup <= hi; r += fusedRowGroup {
			rows4(x[r*n:(r+4)*n], out[r*n:(r+4)*n], n, n, scaleAt(scale, r, 4))
		}
		for ; r < hi; r++ {
			exclusiveRow1(x[r*n:(r+1)*n], out[r*n:(r+1)*n], scaleAt(scale, r, 1))
		}
	}
	blocks := (g.outer + fusedRowGroup - 1) / fusedRowGroup
	iter.Parallel(blocks, iter.Workers(len(x)), func(lo, hi int) {
		rows(lo*fusedRowGroup, min(hi*fusedRowGroup, g.outer))
	})
}

// rowsInPlace says whether float32 rows skip the transposed strips for
// vec's four-row passes in place: where the kernel set prefers them. A
// variable so that tests can run the strips and the split rows on any
// set, and the passes on a set that does not prefer them.
var rowsInPlace = vec.ExclusiveRowsPreferred

// exclusiveRows4For returns vec's four-row passes for T.
func exclusiveRows4For[T float32 | float64]() func(x, o []T, stride, n int, s []T) {
	if f, ok := any(vec.ExclusiveRows4F32).(func(x, o []T, stride, n int, s []T)); ok {
		return f
	}
	return any(vec.ExclusiveRows4F64).(func(x, o []T, stride, n int, s []T))
}

// transposedMaxRow is the longest row the transposed strips take: the
// strip of vec.ColumnsWidth rows and its prefix products
// (vec.ColumnsInPlaceScratch) in half the L2 cache (4096 on a 2 MiB L2).
// Zero (no transposed strips) where tests turn the tall strips off.
func transposedMaxRow() int {
	if tallStripRows() == 0 {
		return 0
	}
	return kernels.CacheSizes().L2 / 2 / (4 * (vec.ColumnsWidth + vec.ColumnsInPlaceScratch(1)))
}

// transposedMaxBandedRow is the longest row whose whole strip the
// transposed strips hold at once: rows longer than transposedMaxRow are
// computed in bands of the strip's rows (exclusiveStripBands), whose
// scratch is a band's prefix products only, so that the strip itself may
// fill three quarters of the L2 cache (6144 on a 1 MiB L2, where
// transposedMaxRow is 2048 and rows of 4096 went through the four-row Go
// loops); longer rows go in segments (exclusiveRowSegments).
func transposedMaxBandedRow() int {
	if tallStripRows() == 0 {
		return 0
	}
	return kernels.CacheSizes().L2 * 3 / 4 / (4 * vec.ColumnsWidth)
}

// transposedBandsAbove is the longest row computed in one strip kernel
// call (transposedWholeRow); longer ones go in bands. A variable so that
// tests can make short rows take the bands.
var transposedBandsAbove = transposedWholeRow

// transposedWholeRow is the longest row whose strip one kernel call
// computes: transposedMaxRow, or on the processors of wholeStripOn every
// row whose whole strip is transposed at once (transposedMaxBandedRow).
func transposedWholeRow() int {
	if kernels.ForProcessor(kernels.ProcessorID(), wholeStripOn, false) {
		return transposedMaxBandedRow()
	}
	return transposedMaxRow()
}

// wholeStripOn lists the processors on which one strip kernel call over a
// whole strip, its prefix products spilling from L2, took less CPU than
// the bands, whose marks are one more pass over the strip. Zen 4 (EPYC
// Genoa, family 25 model 17, 1 MiB L2 and a 32 MiB L3; session 20),
// BenchmarkExclusiveRowStrips, bands against whole: 4096² 15.1-15.8
// against 13.8-14.6 ms, 2048×6144 11.5-11.8 against 10.5-11.1, 4096×3072
// 11.1-12.0 against 10.4-12.1, 8192×2560 16.6-27.3 against 15.1-15.9.
// Zen 3 is covered by extension only, and its AVX2 set takes the four-row
// passes in place instead of the strips.
var wholeStripOn = []kernels.Measured[bool]{
	{Vendor: "AuthenticAMD", Family: 25, Value: true},
}

// transposedSegmentsAbove is the longest row whose whole strip is
// transposed at once (transposedMaxBandedRow); longer ones go in segments
// (exclusiveRowSegments). A variable so that tests can make short rows
// take the segments.
var transposedSegmentsAbove = transposedMaxBandedRow

// transposedBandRows is how many rows of a transposed strip one band
// covers where the strip is computed in bands. A variable so that tests
// can make bands of a few rows.
var transposedBandRows = 1024

// rowSplitFrom is the shortest row that exclusiveRowsSplit takes where
// there are too few rows for a block of transposed strips: a row of 32768
// is about 0.3 ms of one goroutine's chain of products in the Go loops. A
// variable so that tests can split short rows.
var rowSplitFrom = 1 << 15

// rowSplitPart is the longest part exclusiveRowsSplit cuts a row into
// (0: no splitting): a part in one strip kernel call (transposedMaxRow).
// A variable so that tests can make short parts.
var rowSplitPart = transposedMaxRow

// exclusiveRowsSplit is exclusiveFusedRows for float32 rows of at least
// rowSplitFrom elements, fewer than a block of transposed strips (a
// reduction to one element, or to a few): one row's products are a
// single chain, which one goroutine would multiply one element at a time.
// Each row is cut into P parts of m elements (P a multiple of
// vec.ColumnsWidth, m at most rowSplitPart) and a tail of fewer than P,
// and its exclusive products are taken in this fixed order, not the
// sequential one: T_i, the product of part i from its last element to its
// first, is computed for every part (its strip transposed, vec.MulRowsUpF32F64);
// part i's prefix pass starts from T_0·T_1·…·T_{i-1}, the tail's from the
// product of all of them; the tail's suffix pass starts from 1, part i's
// from the tail's product (last element first) times T_{P-1}·…·T_{i+1}.
// Within a part (or the tail) both passes are the sequential ones; the
// parts then go through the transposed strips side by side. Only
// products, so zeros, signed zeros, infinities and NaN give the exact
// results; the rounding of the float64 running products may differ from
// the sequential order's in the last bits before each result's rounding
// to float32.
func exclusiveRowsSplit(x, out, scale []float32, g groups, cold bool) {
	const lanes = vec.ColumnsWidth
	n, mt := g.n, rowSplitPart()
	parts := lanes * ((n + lanes*mt - 1) / (lanes * mt))
	m := n / parts
	body := parts * m
	stream := len(out)*4 >= ewise.StreamOutputBytes
	tot, pre, suf := make([]float64, parts), make([]float64, parts), make([]float64, parts)
	var factors []float32
	if scale != nil {
		factors = make([]float32, parts)
	}
	for r := range g.outer {
		xr, or := x[r*n:(r+1)*n], out[r*n:(r+1)*n]
		partTotals(xr[:body], m, tot)
		p := 1.0
		for i, t := range tot {
			pre[i] = p
			p *= t
		}
		var f []float32
		if scale != nil {
			f = scale[r : r+1]
			for i := range factors {
				factors[i] = f[0]
			}
		}
		q := exclusiveTail(xr[body:], or[body:], f, p)
		for i := parts - 1; i >= 0; i-- {
			suf[i] = q
			q *= tot[i]
		}
		exclusiveRowsTransposedFrom(xr[:body], or[:body], factors, groups{parts, m, 1}, cold, stream, rowStarts{pre, suf})
	}
}

// partTotals sets tot[i] to the product of x's i-th run of m elements, from
// its last element to its first, in float64; len(tot) is a multiple of
// vec.ColumnsWidth. Blocks of vec.ColumnsWidth runs are transposed into a
// strip and multiplied up it row by row, the runs side by side.
func partTotals(x []float32, m int, tot []float64) {
	const lanes = vec.ColumnsWidth
	blocks := len(tot) / lanes
	iter.Parallel(blocks, iter.Workers(len(x)), func(lo, hi int) {
		sc := tallScratches.Get()
		defer tallScratches.Put(sc)
		if len(*sc) < m*lanes {
			*sc = make([]float32, m*lanes)
		}
		strip := (*sc)[:m*lanes]
		for b := lo; b < hi; b++ {
			transposeRows(strip, x[b*lanes*m:(b+1)*lanes*m], m, m, true, false)
			acc := tot[b*lanes : (b+1)*lanes]
			startRuns(acc, nil)
			vec.MulRowsUpF32F64(acc, strip, m, lanes)
		}
	})
}

// exclusiveTail is both passes over the tail of a split row, the prefix
// pass starting from p (the product of the parts before it), times f[0]
// when f is given; it returns the tail's product from its last element
// to its first, where the parts' suffix passes start.
func exclusiveTail(x, o, f []float32, p float64) float64 {
	o = o[:len(x)]
	for i, v := range x {
		o[i] = float32(p)
		p *= float64(v)
	}
	q := 1.0
	for i := len(x) - 1; i >= 0; i-- {
		e := float32(float64(o[i]) * q)
		if f != nil {
			e = f[0] * e
		}
		o[i] = e
		q *= float64(x[i])
	}
	return q
}

// transposedMinRow is the shortest row the transposed strips take: a
// row shorter than a 16×16 block would be transposed one element at a
// time.
const transposedMinRow = 16

// exclusiveRowsTransposed is exclusiveFusedRows for float32 rows of at
// least transposedMinRow elements, as many whole blocks of vec.ColumnsWidth rows as
// there are (it returns how many rows it did): each block's rows are
// transposed into the columns of a strip in the scratch, the strip kernel
// computes both passes there in place (the running products of the rows
// side by side in vector lanes: one row's products are a chain that no
// vector can shorten), and the strip is transposed back into the output
// rows. The products are those of exclusiveRow1, in the same order.
func exclusiveRowsTransposed(x, out, scale []float32, g groups, cold bool) int {
	return exclusiveRowsTransposedFrom(x, out, scale, g, cold, len(out)*4 >= ewise.StreamOutputBytes, rowStarts{})
}

// rowStarts are, for rows that are parts of longer ones
// (exclusiveRowsSplit), the running products each row's prefix pass and
// suffix pass start from; nil slices start them from 1.
type rowStarts struct{ pre, suf []float64 }

// at is the starts of the vec.ColumnsWidth rows from row r.
func (st rowStarts) at(r int) rowStarts {
	const lanes = vec.ColumnsWidth
	if st.pre != nil {
		st.pre = st.pre[r : r+lanes]
	}
	if st.suf != nil {
		st.suf = st.suf[r : r+lanes]
	}
	return st
}

// startRuns sets run to from, or to ones without it.
func startRuns(run, from []float64) {
	for j := range run {
		run[j] = 1
	}
	if from != nil {
		copy(run, from)
	}
}

// exclusiveRowsTransposedFrom is exclusiveRowsTransposed with the rows'
// passes starting from st, streaming the output when stream is set (out
// may be part of a larger one).
func exclusiveRowsTransposedFrom(x, out, scale []float32, g groups, cold, stream bool, st rowStarts) int {
	const lanes = vec.ColumnsWidth
	n, blocks := g.n, g.outer/lanes
	mapStreamed(out[:blocks*lanes*n], n, 16, cold, stream)
	band := n
	if n > transposedBandsAbove() {
		band = min(n, transposedBandRows)
	}
	if n > transposedSegmentsAbove() {
		exclusiveRowSegments(x, out, scale, blocks, n, band, stream, st)
		return blocks * lanes
	}
	iter.Parallel(blocks, iter.Workers(blocks*lanes*n), func(lo, hi int) {
		sc := tallScratches.Get()
		defer tallScratches.Put(sc)
		if need := n*lanes + vec.ColumnsInPlaceScratch(band); len(*sc) < need {
			*sc = make([]float32, need)
		}
		strip := (*sc)[:n*lanes]
		c := vec.Columns{O: strip, X: strip, Scratch: (*sc)[n*lanes:], OStride: lanes, XStride: lanes, N: n, W: lanes}
		var pre [lanes]float64
		for b := lo; b < hi; b++ {
			rows := b * lanes * n
			transposeRows(strip, x[rows:rows+lanes*n], n, n, true, false)
			if scale != nil {
				c.S = scale[b*lanes : (b+1)*lanes]
			}
			bs := st.at(b * lanes)
			if band == n {
				// The strip kernel's second pass reads only the cache:
				// it prefetches the next block's rows (contiguous, so n
				// rows of lanes), which the next transposition then
				// reads from L2 (autograd's BenchmarkProd4096/axis1:
				// 3-5% less CPU on a Xeon with AVX-512 and a 2 MiB L2).
				c.Ahead = nil
				if b+1 < hi {
					c.Ahead, c.AheadStride = x[rows+lanes*n:rows+2*lanes*n], lanes
				}
				if bs.pre != nil {
					copy(pre[:], bs.pre)
					c.Pre = pre[:]
				}
				c.Suf = bs.suf
				vec.ExclusiveColumnsF32(&c)
			} else {
				exclusiveStripBands(strip, &c, n, band, bs.pre, bs.suf)
			}
			transposeRows(strip, out[rows:rows+lanes*n], n, n, false, stream)
		}
	})
	return blocks * lanes
}

// exclusiveRowSegments is exclusiveRowsTransposed for rows too long for
// their strip to stay in the L2 cache (transposedSegmentsAbove): each
// block of vec.ColumnsWidth rows goes in segments of seg elements of its
// rows, as exclusiveBands takes a tall group's columns. A first pass from
// the rows' ends transposes segment after segment into the strip and
// multiplies it into the running products, keeping the product after each
// segment (a mark); then, segment by segment from the rows' starts, each
// is transposed into the strip again, the strip kernel runs there in place
// from the running products the segment before reached and from its mark,
// and the strip goes back into the output rows. The input is read twice,
// the output written once; the products are exclusiveRow1's in its order.
func exclusiveRowSegments(x, out, scale []float32, blocks, n, seg int, stream bool, st rowStarts) {
	const lanes = vec.ColumnsWidth
	segs := (n + seg - 1) / seg
	iter.Parallel(blocks, iter.Workers(blocks*lanes*n), func(lo, hi int) {
		sc := tallScratches.Get()
		defer tallScratches.Put(sc)
		if need := seg*lanes + vec.ColumnsInPlaceScratch(seg); len(*sc) < need {
			*sc = make([]float32, need)
		}
		mp := markScratches.Get()
		defer markScratches.Put(mp)
		if cap(*mp) < segs*lanes {
			*mp = make([]float64, segs*lanes)
		}
		marks := (*mp)[:segs*lanes]
		strip := (*sc)[:seg*lanes]
		var pre [lanes]float64
		c := vec.Columns{O: strip, X: strip, Scratch: (*sc)[seg*lanes:], OStride: lanes, XStride: lanes, W: lanes, Pre: pre[:]}
		for b := lo; b < hi; b++ {
			xb, ob := x[b*lanes*n:(b+1)*lanes*n], out[b*lanes*n:(b+1)*lanes*n]
			bs := st.at(b * lanes)
			startRuns(marks[(segs-1)*lanes:], bs.suf)
			for k := segs - 1; k > 0; k-- {
				i0 := k * seg
				m := min(n, i0+seg) - i0
				transposeRows(strip, xb[i0:], n, m, true, false)
				next := marks[(k-1)*lanes : k*lanes]
				copy(next, marks[k*lanes:(k+1)*lanes])
				vec.MulRowsUpF32F64(next, strip, m, lanes)
			}
			startRuns(pre[:], bs.pre)
			if scale != nil {
				c.S = scale[b*lanes : (b+1)*lanes]
			}
			for k := range segs {
				i0 := k * seg
				c.N = min(n, i0+seg) - i0
				transposeRows(strip, xb[i0:], n, c.N, true, false)
				c.Suf = marks[k*lanes : (k+1)*lanes]
				vec.ExclusiveColumnsF32(&c)
				transposeRows(strip, ob[i0:], n, c.N, false, stream)
			}
		}
	})
}

// exclusiveStripBands computes the transposed strip (n rows of
// vec.ColumnsWidth, in place) in bands of band rows, as exclusiveBands
// does a tall group's columns: the marks (the product of the rows below
// each band, from the last row up) first, then band by band from the top
// the strip kernel from the running products the band above reached and
// from the band's mark. c is the strip's description (its O, X and S);
// the products are those of one call over the whole strip, in its order.
func exclusiveStripBands(strip []float32, c *vec.Columns, n, band int, pre0, suf0 []float64) {
	const lanes = vec.ColumnsWidth
	mp := bandMarks(strip, n, lanes, band, 1, suf0)
	defer markScratches.Put(mp)
	marks := *mp
	var pre [lanes]float64
	startRuns(pre[:], pre0)
	b := *c
	b.Pre = pre[:]
	for k, r0 := 0, 0; r0 < n; k, r0 = k+1, r0+band {
		b.X, b.O, b.N = strip[r0*lanes:], strip[r0*lanes:], min(n, r0+band)-r0
		b.Suf = marks[k*lanes : (k+1)*lanes]
		vec.ExclusiveColumnsF32(&b)
	}
}

// transposeRows moves n elements of each of vec.ColumnsWidth rows, stride
// apart, into the strip (strip[i*ColumnsWidth+r] = rows[r*stride+i]) or,
// when in is false, back, streaming the rows when stream is set.
func transposeRows(strip, rows []float32, stride, n int, in, stream bool) {
	const lanes = vec.ColumnsWidth
	whole := n / 16 * 16
	if whole > 0 {
		for h := 0; h < lanes; h += 16 {
			t := vec.Transpose16{Dst: strip[h:], DstRow: lanes, DstStep: 16 * lanes, Src: rows[h*stride:], SrcRow: stride, SrcStep: 16, Blocks: n / 16}
			if !in {
				t = vec.Transpose16{Dst: rows[h*stride:], DstRow: stride, DstStep: 16, Src: strip[h:], SrcRow: lanes, SrcStep: 16 * lanes, Blocks: n / 16, Stream: stream}
			}
			vec.Transpose16F32(&t)
		}
	}
	for r := range lanes {
		for i := whole; i < n; i++ {
			if in {
				strip[i*lanes+r] = rows[r*stride+i]
			} else {
				rows[r*stride+i] = strip[i*lanes+r]
			}
		}
	}
}

// scaleAt is scale[r:r+k], or nil without a scale.
func scaleAt[T any](scale []T, r, k int) []T {
	if scale == nil {
		return nil
	}
	return scale[r : r+k]
}

// exclusiveRow1 is both passes over one row.
func exclusiveRow1[T float32 | float64](x, o, s []T) {
	o = o[:len(x)]
	p := 1.0
	for i, v := range x {
		o[i] = T(p)
		p *= float64(v)
	}
	p = 1
	if s == nil {
		for i := len(x) - 1; i >= 0; i-- {
			o[i] = T(float64(o[i]) * p)
			p *= float64(x[i])
		}
		return
	}
	f := s[0]
	for i := len(x) - 1; i >= 0; i-- {
		e := T(float64(o[i]) * p)
		o[i] = T(f * e)
		p *= float64(x[i])
	}
}

// exclusiveFusedColumns handles groups whose elements are runs of g.inner
// > 1 positions: each group is g.n rows of g.inner, the passes go row by
// row over a strip of columns. The work items, one strip of one group
// each, are shared between goroutines. float32 groups take the strip
// kernel (exclusiveTallStrips, or exclusiveBands for tall groups; tests
// turn this off with a tallStripRows of 0); float64 strips of at least
// blockedMinWidth columns take the blocked passes (exclusiveStripBlocked)
// with the vector kernels, narrower ones the plain loops of exclusiveStrip.
func exclusiveFusedColumns[T float32 | float64](x, out, scale []T, g groups, cold bool) {
	if x32, ok := any(x).([]float32); ok && tallStripRows() > 0 {
		o32 := any(out).([]float32)
		mapStreamed(o32, g.inner, vec.ColumnsWidth, cold, len(o32)*4 >= ewise.StreamOutputBytes)
		if g.n <= min(tallStripRows(), tallColumnRows) {
			exclusiveTallStrips(x32, o32, any(scale).([]float32), g)
		} else if rowBandsFor(g, iter.Workers(len(x))) {
			exclusiveRowBands(x32, o32, any(scale).([]float32), g)
		} else {
			exclusiveBands(x32, o32, any(scale).([]float32), g)
		}
		return
	}
	w := iter.Workers(len(x))
	strip := g.inner
	blocked := g.inner >= blockedMinWidth
	if blocked {
		strip = min(g.inner, blockedWidth)
		if per := (g.inner + strip - 1) / strip; g.outer*per < w {
			// Too few strips for the goroutines: narrower ones, in
			// whole cache lines.
			strip = max(blockedMinWidth, (g.inner*g.outer/w+15)/16*16)
		}
	} else if g.outer < w {
		// Strips as wide as the goroutines allow: each pass then streams
		// long runs of every row, which the hardware prefetches, where
		// narrow strips hop a page per row.
		per := (w + g.outer - 1) / g.outer
		strip = min(g.inner, ((g.inner+per-1)/per+15)/16*16)
	}
	per := (g.inner + strip - 1) / strip
	block := g.n * g.inner
	rows := blockedRows(strip, int(unsafe.Sizeof(x[0])))
	iter.Parallel(g.outer*per, w, func(lo, hi int) {
		var sc *stripScratch
		var run []float64
		if blocked {
			sc = stripScratches.Get()
			defer putStripScratch(sc)
		} else {
			run = make([]float64, strip)
		}
		for item := lo; item < hi; item++ {
			o, k := item/per, item%per
			j0, j1 := k*strip, min((k+1)*strip, g.inner)
			var s []T
			if scale != nil {
				s = scale[o*g.inner+j0 : o*g.inner+j1]
			}
			xb, ob := x[o*block:(o+1)*block], out[o*block:(o+1)*block]
			if blocked {
				exclusiveStripBlocked(xb, ob, s, stripShape{g.n, g.inner, j0, j1, rows}, sc)
			} else {
				exclusiveStrip(xb, ob, s, g.n, g.inner, j0, j1, run[:j1-j0])
			}
		}
	})
}

// tallStripRows is the most rows a group of float32 columns may have for
// the tall strips (exclusiveTallStrips): a strip of vec.ColumnsWidth
// columns then keeps its input and prefix products (vec.ColumnsScratch) in
// half the L2 cache, so the input crosses memory once and the output once.
// Taller groups go in bands (exclusiveBands), which read the input twice. A
// variable so that tests can make short groups take either way.
var tallStripRows = func() int { return kernels.CacheSizes().L2 / 2 / (4 * vec.ColumnsScratch(1)) }

// tallColumnRows bounds the tall strips down columns further: each row of
// a strip lies in a page of its own (of x and of the output), and a strip
// of more than 1024 rows touches more pages than the 2048 entries of the
// second-level TLB hold, so that every row costs two page walks (under a
// hypervisor, nested ones): at 4096 rows a strip ran at a quarter of the
// speed per element it had at 512 (Sapphire Rapids under KVM), no faster
// than the blocked passes. A variable so that tests can make short bands.
var tallColumnRows = 1024

// exclusiveTallStrips is exclusiveFusedColumns for float32 groups of at
// most tallStripRows and tallColumnRows rows: each work item is a strip of up to
// vec.ColumnsWidth columns of one group, both passes over its whole height
// in one vector kernel call (the same products in the same order as
// exclusiveStrip, so the same bits). An output larger than the caches is
// stored around them (ewise.StreamOutputBytes): it would be evicted before
// anything reads it, and streaming saves reading each of its lines first.
func exclusiveTallStrips(x, out, scale []float32, g groups) {
	const width = vec.ColumnsWidth
	per := (g.inner + width - 1) / width
	block := g.n * g.inner
	stream := len(out)*4 >= ewise.StreamOutputBytes
	iter.Parallel(g.outer*per, iter.Workers(len(x)), func(lo, hi int) {
		sc := tallScratches.Get()
		defer tallScratches.Put(sc)
		if need := vec.ColumnsScratch(g.n); len(*sc) < need {
			*sc = make([]float32, need)
		}
		c := vec.Columns{Scratch: *sc, OStride: g.inner, XStride: g.inner, AheadStride: g.inner, N: g.n, Stream: stream}
		for item := lo; item < hi; item++ {
			o, k := item/per, item%per
			j0, j1 := k*width, min((k+1)*width, g.inner)
			c.X, c.O, c.W = x[o*block+j0:(o+1)*block], out[o*block+j0:(o+1)*block], j1-j0
			if scale != nil {
				c.S = scale[o*g.inner+j0 : o*g.inner+j1]
			}
			// The strip computed next, prefetched during this one's
			// second pass.
			c.Ahead = nil
			if next := item + 1; next < hi {
				c.Ahead = x[next/per*block+next%per*width:]
			}
			vec.ExclusiveColumnsF32(&c)
		}
	})
}

// bandRows is how many rows of a taller group one band of the strips
// covers (exclusiveBands): half of tallColumnRows, where a strip ran
// fastest per element, the pages of its rows well within the TLB.
func bandRows() int { return max(1, tallColumnRows/2) }

// exclusiveBands is exclusiveTallStrips for groups of more than
// tallColumnRows rows, cut into bands of bandRows. A first pass from the
// last row up multiplies whole rows into running products and keeps, at
// each band's lower edge, the product of the rows below it (a mark, as in
// exclusiveStripBlocked, here one row of float64 per band). Then, band by
// band from the top, each strip of the band takes the strip kernel from
// the running products its prefix pass reached in the band above and from
// its band's mark: within a band, consecutive strips reuse the same pages,
// which stay in the TLB. The input crosses memory twice, the output once,
// streamed when large; the products are exclusiveStrip's in its order.
func exclusiveBands(x, out, scale []float32, g groups) {
	const width = vec.ColumnsWidth
	rows := min(bandRows(), tallStripRows())
	bands := (g.n + rows - 1) / rows
	per := (g.inner + width - 1) / width
	block := g.n * g.inner
	stream := len(out)*4 >= ewise.StreamOutputBytes
	w := iter.Workers(len(x))
	for o := range g.outer {
		xb, ob := x[o*block:(o+1)*block], out[o*block:(o+1)*block]
		mp := bandMarks(xb, g.n, g.inner, rows, w, nil)
		marks := *mp
		iter.Parallel(per, w, func(lo, hi int) {
			sc := tallScratches.Get()
			defer tallScratches.Put(sc)
			if need := vec.ColumnsScratch(rows); len(*sc) < need {
				*sc = make([]float32, need)
			}
			pre := make([]float64, (hi-lo)*width)
			for j := range pre {
				pre[j] = 1
			}
			c := vec.Columns{Scratch: *sc, OStride: g.inner, XStride: g.inner, Stream: stream}
			for b := range bands {
				r0 := b * rows
				c.N = min(g.n, r0+rows) - r0
				for k := lo; k < hi; k++ {
					j0, j1 := k*width, min((k+1)*width, g.inner)
					c.X, c.O, c.W = xb[r0*g.inner+j0:], ob[r0*g.inner+j0:], j1-j0
					c.Pre, c.Suf = pre[(k-lo)*width:][:c.W], marks[b*g.inner+j0:b*g.inner+j1]
					// The strip computed next, prefetched during this
					// one's second pass.
					switch c.Ahead = nil; {
					case k+1 < hi:
						c.Ahead, c.AheadStride = xb[r0*g.inner+j1:], g.inner
					case b+1 < bands:
						c.Ahead, c.AheadStride = xb[(r0+rows)*g.inner+lo*width:], g.inner
					}
					if scale != nil {
						c.S = scale[o*g.inner+j0 : o*g.inner+j1]
					}
					vec.ExclusiveColumnsF32(&c)
				}
			}
		})
		markScratches.Put(mp)
	}
}

// markScratches keeps the bands' marks between calls (bands·inner
// float64: 256 KiB for 4096² float32), which would otherwise be fresh
// memory each call.
var markScratches = scratch.List[[]float64]{New: func() *[]float64 { return new([]float64) }}

// bandMarks returns, for each band of rows rows of a group of n rows of
// inner, the product of the rows below it (ones for the last band),
// multiplied from the last row up one element at a time, as the suffix
// pass does (four rows a kernel call, vec.MulRowsUpF32F64, so that each
// running product is loaded and stored once per four rows): a row of
// inner float64 per band, the columns shared between goroutines in whole
// cache lines. The caller puts the result back in
// markScratches.
func bandMarks(x []float32, n, inner, rows, w int, from []float64) *[]float64 {
	bands := (n + rows - 1) / rows
	mp := markScratches.Get()
	if cap(*mp) < bands*inner {
		*mp = make([]float64, bands*inner)
	}
	marks := (*mp)[:bands*inner]
	const line = 16
	piece := ((inner+w-1)/w + line - 1) / line * line
	iter.Parallel((inner+piece-1)/piece, w, func(lo, hi int) {
		j0, j1 := lo*piece, min(hi*piece, inner)
		last := marks[(bands-1)*inner+j0 : (bands-1)*inner+j1]
		for j := range last {
			last[j] = 1
		}
		if from != nil {
			copy(last, from[j0:j1])
		}
		for b := bands - 1; b > 0; b-- {
			next := marks[(b-1)*inner+j0 : (b-1)*inner+j1]
			copy(next, marks[b*inner+j0:b*inner+j1])
			vec.MulRowsUpF32F64(next, x[b*rows*inner+j0:], min(n, (b+1)*rows)-b*rows, inner)
		}
	})
	return mp
}

// tallScratches keeps each goroutine's scratch of the tall strips between
// calls (at most 1 MiB each on a 2 MiB L2).
var tallScratches = scratch.List[[]float32]{New: func() *[]float32 { return new([]float32) }}

// blockedMinWidth is the narrowest strip the blocked passes take: below
// it a row of the strip is too short for the vector kernels' calls to pay.
const blockedMinWidth = 64

// blockedWidth is the widest strip of the blocked passes: a row of it is
// a whole 4 KiB page of float32, which the hardware prefetches as one run
// (512 took 20% more CPU time on the 4096² reduction), its running
// products (24 KiB) stay near the L1 cache, and a 4096-wide reduction
// still gives four strips to share between goroutines.
const blockedWidth = 1024

// blockedRows is how many rows of a strip of width columns of size-byte
// elements one block of the blocked passes covers: the block's input and
// output rows together fill blockedPanel bytes, so that the suffix pass
// finds both in cache after the prefix pass.
func blockedRows(width, size int) int {
	return max(8, blockedPanel/(2*width*size))
}

// blockedPanel is a quarter of the L2 cache, leaving the rest to the
// running products, the marks and what else the core runs. A variable so
// that tests can make blocks of a few rows.
var blockedPanel = kernels.CacheSizes().L2 / 4

// stripShape is where a strip lies in its group: n rows of inner, columns
// [j0, j1), passed over in blocks of rows rows.
type stripShape struct{ n, inner, j0, j1, rows int }

// stripScratch holds one goroutine's running products for the blocked
// passes; it is kept between calls (package scratch), as it grows with
// the number of blocks.
type stripScratch struct {
	pre, marks []float64
	block      []float32 // a block's prefix products, for float32
}

var stripScratches = scratch.List[stripScratch]{New: func() *stripScratch { return new(stripScratch) }}

// maxKeptMarks bounds the marks kept between calls (1 MiB): a reduction
// over millions of rows needs more, which it allocates for itself rather
// than leave the program holding them.
const maxKeptMarks = 1 << 17

func putStripScratch(sc *stripScratch) {
	if cap(sc.marks) > maxKeptMarks {
		sc.marks = nil
	}
	stripScratches.Put(sc)
}

// exclusiveStripBlocked is exclusiveStrip's two passes over a strip,
// blocked so that the input and the output each cross memory once more
// than the forward Prod reads its input: a first pass from the last row up
// only multiplies the input in, keeping the suffix product reached at the
// end of each block of rows (a mark); then, block by block from the top,
// the prefix products go into the block's output rows, and the suffix pass
// over the same block, starting from its mark, multiplies them in while
// the block's input and output are still in the L2 cache, and with them
// s; for float32 each pass over a row is one vector kernel (package vec's
// exclusive row passes). Every product is the one exclusiveStrip forms, in the same order,
// so the bits are the same.
func exclusiveStripBlocked[T float32 | float64](x, o, s []T, sh stripShape, sc *stripScratch) {
	w := sh.j1 - sh.j0
	blocks := (sh.n + sh.rows - 1) / sh.rows
	sc.pre, sc.marks = scratch.Grow(sc.pre, w), scratch.Grow(sc.marks, blocks*w)
	pre := sc.pre
	row := func(a []T, i int) []T { return a[i*sh.inner+sh.j0 : i*sh.inner+sh.j1] }
	mark := func(b int) []float64 { return sc.marks[b*w : (b+1)*w] }

	suf := mark(blocks - 1)
	for j := range suf {
		suf[j] = 1
	}
	for b := blocks - 1; b > 0; b-- {
		next := mark(b - 1)
		copy(next, mark(b))
		for i := min(sh.n, (b+1)*sh.rows) - 1; i >= b*sh.rows; i-- {
			timesRow(next, row(x, i))
		}
	}
	for j := range pre {
		pre[j] = 1
	}
	if x32, ok := any(x).([]float32); ok {
		blockedPassesF32(x32, any(o).([]float32), any(s).([]float32), sh, sc)
		return
	}
	for b := range blocks {
		r0, r1 := b*sh.rows, min(sh.n, (b+1)*sh.rows)
		for i := r0; i < r1; i++ {
			prefixRow(row(o, i), pre, row(x, i))
		}
		suf := mark(b)
		for i := r1 - 1; i >= r0; i-- {
			suffixRow(row(o, i), suf, row(x, i), s)
		}
	}
}

// blockedPassesF32 is the blocks' two passes for float32: the prefix
// products go into the scratch (sc.block, the block's rows of the strip),
// and the suffix pass writes each output row once from there, streamed
// around the cache when the output is larger than the caches
// (ewise.StreamOutputBytes), so that its lines are not read first.
func blockedPassesF32(x, o, s []float32, sh stripShape, sc *stripScratch) {
	w := sh.j1 - sh.j0
	if need := sh.rows * w; cap(sc.block) < need {
		sc.block = make([]float32, need)
	}
	stream := len(o) >= ewise.StreamOutputBytes/4
	row := func(a []float32, i int) []float32 { return a[i*sh.inner+sh.j0 : i*sh.inner+sh.j1] }
	for b := range (sh.n + sh.rows - 1) / sh.rows {
		r0, r1 := b*sh.rows, min(sh.n, (b+1)*sh.rows)
		for i := r0; i < r1; i++ {
			vec.ExclusivePrefixF32(sc.block[(i-r0)*w:(i-r0+1)*w], sc.pre, row(x, i))
		}
		suf := sc.marks[b*w : (b+1)*w]
		for i := r1 - 1; i >= r0; i-- {
			vec.ExclusiveSuffixIntoF32(row(o, i), sc.block[(i-r0)*w:(i-r0+1)*w], suf, row(x, i), s, stream)
		}
	}
}

// prefixRow stores the running products into o and multiplies x in (the
// product after a group's last row is never used).
func prefixRow[T float32 | float64](o []T, run []float64, x []T) {
	switch o := any(o).(type) {
	case []float32:
		vec.ExclusivePrefixF32(o, run, any(x).([]float32))
	case []float64:
		copy(o, run)
		vec.MulF64(run, run, any(x).([]float64))
	}
}

// suffixRow sets o = T(o·run), times s when given (Mul's rounding: one
// product in T), and multiplies x into run.
func suffixRow[T float32 | float64](o []T, run []float64, x, s []T) {
	switch o := any(o).(type) {
	case []float32:
		if s == nil {
			vec.ExclusiveSuffixF32(o, run, any(x).([]float32))
		} else {
			vec.ExclusiveSuffixScaledF32(o, run, any(x).([]float32), any(s).([]float32))
		}
	case []float64:
		vec.MulF64(o, o, run)
		if s != nil {
			vec.MulF64(o, any(s).([]float64), o)
		}
		vec.MulF64(run, run, any(x).([]float64))
	}
}

// timesRow multiplies run by x, element by element, in float64.
func timesRow[T float32 | float64](run []float64, x []T) {
	switch x := any(x).(type) {
	case []float32:
		vec.MulF64F32(run, run, x)
	case []float64:
		vec.MulF64(run, run, x)
	}
}

// exclusiveStrip is both passes over columns [j0, j1) of one group of n
// rows of inner, with run (j1-j0 long) as the running products.
func exclusiveStrip[T float32 | float64](x, o, s []T, n, inner, j0, j1 int, run []float64) {
	for j := range run {
		run[j] = 1
	}
	for i := 0; i < n; i++ {
		xr, or := x[i*inner+j0:i*inner+j1], o[i*inner+j0:i*inner+j1]
		xr, or = xr[:len(run)], or[:len(run)]
		for j, v := range xr {
			or[j] = T(run[j])
			run[j] *= float64(v)
		}
	}
	for j := range run {
		run[j] = 1
	}
	if s != nil {
		s = s[:len(run)]
	}
	for i := n - 1; i >= 0; i-- {
		xr, or := x[i*inner+j0:i*inner+j1], o[i*inner+j0:i*inner+j1]
		xr, or = xr[:len(run)], or[:len(run)]
		if s == nil {
			for j, v := range xr {
				or[j] = T(float64(or[j]) * run[j])
				run[j] *= float64(v)
			}
			continue
		}
		for j, v := range xr {
			e := T(float64(or[j]) * run[j])
			or[j] = T(s[j] * e)
			run[j] *= float64(v)
		}
	}
}

// exclusiveFusedInto runs exclusiveFused on the contiguous float32 or
// float64 src into a new tensor of its shape; scale is nil or a
// contiguous tensor of src's dtype.
func exclusiveFusedInto(src, scale *Tensor, g groups) (*Tensor, error) {
	out, err := newProductTensor(src.dtype, src.shape)
	if err != nil || out.n == 0 {
		return out, err
	}
	if src.dtype == Float32 {
		var s []float32
		if scale != nil {
			s = contiguousData[float32](scale)
		}
		exclusiveFused(contiguousData[float32](src), contiguousData[float32](out), s, g, out.cold)
	} else {
		var s []float64
		if scale != nil {
			s = contiguousData[float64](scale)
		}
		exclusiveFused(contiguousData[float64](src), contiguousData[float64](out), s, g, out.cold)
	}
	return out, nil
}

package gemm

import (
	"unsafe"

	"github.com/tensor-go/tensor/internal/kernels"
	"github.com/tensor-go/tensor/internal/storage"
)

// job is one product C = A·B being computed by the blocked loops.
type job[T Elem] struct {
	kern    *kernel[T]
	m, n, k int
	a, b, c Matrix[T]
	// half, when set, supplies A and B instead of a and b: half-precision
	// bits converted to float32 (T is then float32) while they are packed.
	half *halfSource
	// wide, when set, supplies B instead of b: the 2k×2n real matrix of a
	// complex product (see mulInterleaved), packed from the complex k×n B.
	wide *parts[T]
	// strip, when not 0, is how many of the last columns of C the small
	// kernel stripKern computes (over the whole of K) instead of tiles
	// padded with zero columns: fewer than a tile's nr, and few enough for
	// one vector, which costs half a tile's or less. The column ranges of
	// a split are whole tiles from column 0, so the strip falls in the
	// last range, whose goroutine computes it with its rows.
	strip     int
	stripKern smallKernel[T]
	// mapC says that each rectangle maps the absent pages of its share of
	// C before computing it (see mapShare).
	mapC bool
}

// newJob describes C = A·B for plain strided operands of type T.
func newJob[T Elem](kern *kernel[T], m, n, k int, a, b, c Matrix[T]) job[T] {
	return job[T]{kern: kern, m: m, n: n, k: k, a: a, b: b, c: c}
}

// packA packs rows [i0, i0+mc) and columns [p0, p0+kc) of A into dst.
func (j *job[T]) packA(ws *workspace[T], dst []T, i0, mc, p0, kc int) {
	if j.half != nil {
		stage := ws.staging(len(dst))
		packA(stage, j.half.a, i0, mc, p0, kc, j.kern.mr)
		j.half.convert(any(dst).([]float32), stage)
		return
	}
	packA(dst, j.a, i0, mc, p0, kc, j.kern.mr)
}

// packB packs rows [p0, p0+kc) and columns [j0, j0+nc) of B into dst.
func (j *job[T]) packB(ws *workspace[T], dst []T, p0, kc, j0, nc int) {
	if j.half != nil {
		stage := ws.staging(len(dst))
		packB(stage, j.half.b, p0, kc, j0, nc, j.kern.nr)
		j.half.convert(any(dst).([]float32), stage)
		return
	}
	if j.wide != nil {
		packWide(dst, *j.wide, p0, kc, j0, nc, j.kern.nr)
		return
	}
	packB(dst, j.b, p0, kc, j0, nc, j.kern.nr)
}

// avx512MinFlopsPerThread is the work below which another goroutine costs
// more (start-up, a second set of packed blocks, a helper that has to
// wake) than it saves, for the AVX-512 kernels: a 96³ product, about 8 µs
// of one core. Products of twice that get two goroutines. Medians of the five timed calls after six
// warm-up calls in a fresh process, float32, one goroutine against two:
// 100³ 16 against 20–30 µs, 128³ 27–29 against 20–32, 160³ 47–49
// against 48–65, 200³ 93–95 against 60–103. In a long loop two help from
// about 96³ (9.1 -> 7.9 µs) and not below it (80³ 6.0 -> 5.9); at 64³,
// the limit this had, they did not help either way.
// Each kernel set has its own (kernelSet.minFlopsPerThread): the same
// 8 µs is less work for slower kernels (the Zen 4 figures behind that:
// docs/kernels.md, session 23).
const avx512MinFlopsPerThread = 96 * 96 * 96

// threadsFor is how many goroutines, at most threads, a product of work
// multiply-adds of T gets: one per minFlopsPerThread of float32 work.
func threadsFor[T any](threads, work int) int {
	return threadsForSize(threads, work, int(unsafe.Sizeof(*new(T))))
}

// threadsForSize is threadsFor for multiply-adds of size-byte reals: one
// of 8 bytes counts twice, since a vector holds half as many and it takes
// about twice the time (BenchmarkSweep's float64 100³ on Zen 4; figures in
// docs/kernels.md, session 23).
func threadsForSize(threads, work, size int) int {
	if size == 8 {
		work *= 2
	}
	return max(1, min(threads, work/active.minFlopsPerThread))
}

// mul runs the product on up to opt.threads() goroutines.
func mul[T Elem](kern *kernel[T], m, n, k int, a, b, c Matrix[T], opt Options) {
	if j, blocked := plan(kern, m, n, k, a, b, c, opt); blocked {
		j.mapC = opt.Cold && mapColdC && j.k > kern.kc && j.c.CS == 1 && j.c.RS == j.n && j.m*j.n*int(unsafe.Sizeof(*new(T))) >= mapCMinBytes
		j.parallel(opt.threads())
	}
}

// mapColdC has a blocked product of more than one K block map the absent
// pages of a cold, contiguous C of at least mapCMinBytes ahead of writing
// it, each rectangle of the split its share (storage.MapForStreaming, one
// madvise a run of absent pages), instead of faulting them in one at a time
// during its first K block. A fault costs about 1.0 µs a 4 KiB page under
// KVM here, mapping ahead 0.55 µs with the clearing: writing a fresh 4 MiB
// in 12×32 tiles took 1.8-2.1 ms of CPU faulting and 1.4-1.6 mapped ahead
// (Sapphire Rapids under KVM); 1024³ float32 on two goroutines into a
// fresh C each call, 5-8% less CPU. Element-wise results written with
// ordinary stores are left to fault (storage.MapForStreaming), since the
// kernel's clearing at the fault leaves the page in cache for the store
// that follows, and so is the C of a product with one K block, written
// once as they are; a C of at least L2 written K/kc times does not stay in
// cache between its K blocks anyway. A variable so that tests and
// benchmarks can switch it off.
var mapColdC = true

// mapCMinBytes is the least C the product maps ahead: the L2, below which
// C can stay in cache from the fault's clearing to its last K block.
var mapCMinBytes = kernels.CacheSizes().L2

// mapShare maps the absent pages of rectangle (i0, i1, j0, j1)'s share of
// a contiguous C: of the bytes of rows i0 to i1, the same fraction as its
// columns are of a row. The rectangles of a split then share the mapping
// out between them (whole rows for a split of the rows, the halves of the
// C's bytes for a split of the columns); a page written by another
// rectangle before its share maps it just faults as it would have, and so
// does a share below storage's least (64 KiB).
func (j *job[T]) mapShare(i0, i1, j0, j1 int) {
	size := int(unsafe.Sizeof(*new(T)))
	rows := (i1 - i0) * j.n * size
	from, to := rows*j0/j.n, rows*j1/j.n
	storage.MapForStreaming(unsafe.Add(unsafe.Pointer(elementAt(j.c.shift(i0, 0))), from), to-from)
}

// mulWith is mul on one goroutine with the workspace ws, for a goroutine
// that computes many products in a row (MulBatch): taking a workspace from
// the kernel's list for each of them made the goroutines contend for it.
func mulWith[T Elem](kern *kernel[T], ws *workspace[T], m, n, k int, a, b, c Matrix[T]) {
	if j, blocked := plan(kern, m, n, k, a, b, c, Options{Threads: 1}); blocked {
		j.run(ws, 0, j.m, 0, j.n)
	}
}

// plan computes the product at once when a path without blocking takes it
// (a matrix-vector or small kernel) and reports false; otherwise it returns
// the job for the blocked loops.
func plan[T Elem](kern *kernel[T], m, n, k int, a, b, c Matrix[T], opt Options) (job[T], bool) {
	if c.CS != 1 && c.RS == 1 {
		// Column-major C: compute Cᵀ = Bᵀ·Aᵀ instead, so the kernels can
		// store whole rows of the (transposed) C directly. Each element is
		// the same sum in the same order, so the result is identical.
		m, n, a, b, c = n, m, b.transpose(), a.transpose(), c.transpose()
	}
	if kern.round == nil && special(m, n, k, a, b, c, opt) {
		return job[T]{}, false
	}
	if small := smallPlan(m, n, k, b, c); small.kern != nil && kern.round == nil {
		mulSmall(small.streamed(1, m, n, b, c, m*n, opt.Cold), m, n, k, a, b, c, opt.threads())
		return job[T]{}, false
	}
	j := newJob(kern, m, n, k, a, b, c)
	// The strip sums over the whole of K in one pass, the tiles over kc
	// blocks rounded into C in turn: only with one K block are the strip's
	// bits the tiles' (and TF32's, whose blocked path has no strip; the
	// NEON kernels' kc of 192 made TestMulTF32 differ at k = 500).
	if strip := n % kern.nr; smallStrips && strip > 0 && n > kern.nr && k <= kern.kc && kern.round == nil {
		if small := smallFor(m, strip, k, b, c); small != nil {
			j.strip, j.stripKern = strip, small
		}
	}
	return j, true
}

// smallStrips sends the last columns of C, when they are fewer than a tile
// is wide and fit one vector of the small kernel, through that kernel (see
// job.strip). Against padded tiles, one goroutine: float32 100³ 14.5 ->
// 11.7 µs, 200³ 88.1 -> 78.5; float64 40³ 2.41 -> 1.68, 100³ 25.0 -> 21.2,
// 200³ 160 -> 156; two goroutines: float32 100³ 14.1 -> 11.2, float64 56³
// 5.6 -> 4.5 (computed apart before the split, the strip had cost two
// goroutines more than it saved: float64 200³ 88 -> 119 µs). A variable so
// that the tuning benchmark can switch it off.
var smallStrips = true

// zeroOffset is the offsets of a batch of one matrix that starts at its
// view's Off. The kernels only read it; sharing one saves an allocation per
// small product.
var zeroOffset = []int{0}

// mulSmall runs a small kernel over rows of C split between goroutines.
// One goroutine calls the kernel directly: a closure handed to split would
// escape, and its allocation costs as much as an 8×8 product.
func mulSmall[T Elem](small smallCall[T], m, n, k int, a, b, c Matrix[T], threads int) {
	threads = threadsFor[T](threads, m*n*k)
	if threads == 1 {
		small.run(m, n, k, a, b, c, zeroOffset, zeroOffset, zeroOffset)
		return
	}
	split(m, 1, threads, func(i0, i1 int) {
		small.run(i1-i0, n, k, a.shift(i0, 0), b, c.shift(i0, 0), zeroOffset, zeroOffset, zeroOffset)
	})
}

// parallel splits C into up to threads rectangles along its longer side (in
// whole tiles) and computes them concurrently. K is never split, so the
// result does not depend on the number of goroutines.
func (j *job[T]) parallel(threads int) {
	threads = threadsFor[T](threads, j.m*j.n*j.k)
	if threads == 1 {
		j.runPooled(0, j.m, 0, j.n)
		return
	}
	j.split(threads)
}

// split computes C's rectangles on threads goroutines. The closures capture
// a copy of the job, so that only this (multi-goroutine) path moves a job
// to the heap and a one-goroutine product allocates nothing.
//
// A wide C is cut into one column range per goroutine: each range packs its
// own part of B, but every range reads all of A again, and narrower ranges
// reuse each A sliver on fewer tiles (measured at 256³ float32 on two
// threads: 133 µs with one range per goroutine, 143 µs with two or four).
// A tall C is cut into up to partsPerThread row ranges per goroutine, which
// repeat the packing of B (split.go has both cuts). Ranges are claimed
// dynamically either way, so one a helper is late for goes to the caller.
func (j *job[T]) split(threads int) {
	if j.n >= j.m {
		j.splitWide(threads)
		return
	}
	j.splitTall(threads)
}

// runPooled computes rows [i0, i1) and columns [j0, j1) of C with an idle
// workspace of the kernel.
func (j *job[T]) runPooled(i0, i1, j0, j1 int) {
	if j.mapC {
		j.mapShare(i0, i1, j0, j1)
	}
	ws := j.kern.spare.Get()
	j.run(ws, i0, i1, j0, j1)
	j.kern.spare.Put(ws)
}

// run is the BLIS loop nest over one rectangle of C: N in NC blocks, K in KC
// blocks (packing a KC×NC panel of B), M in MC blocks (packing an MC×KC
// block of A, unless a row-major A is read in place), then the macro-kernel
// over the tiles. The block lengths are
// balanced (a 700-wide N with NC 640 becomes two 352-wide blocks rather than
// 640 + 60) so that no block is a sliver that wastes a packing pass.
func (j *job[T]) run(ws *workspace[T], i0, i1, j0, j1 int) {
	if s0 := j.n - j.strip; j.strip > 0 && j1 > s0 {
		j.stripKern(i1-i0, j.strip, j.k, j.a.shift(i0, 0), j.b.shift(0, s0), j.c.shift(i0, s0), zeroOffset, zeroOffset, zeroOffset)
		j1 = s0
	}
	kern := j.kern
	kcb := balanced(j.k, kern.kc, 1)
	ncb := balanced(j1-j0, kern.nc, kern.nr)
	mcb := balanced(i1-i0, kern.mc, kern.mr)
	direct := j.readAInPlace()
	widen := !direct && j.widensAInPlace()
	for jc := j0; jc < j1; jc += ncb {
		nc := min(ncb, j1-jc)
		for pc := 0; pc < j.k; pc += kcb {
			kc := min(kcb, j.k-pc)
			bp := ws.b[:roundUp(nc, kern.nr)*kc]
			j.packB(ws, bp, pc, kc, jc, nc)
			if kern.round != nil {
				kern.round(bp)
			}
			for ic := i0; ic < i1; ic += mcb {
				mc := min(mcb, i1-ic)
				if direct {
					j.macroRowA(ws, bp, ic, mc, jc, nc, pc, kc)
					continue
				}
				if widen {
					w := j.widenedA(ws, ic, mc, pc, kc)
					w.macroRowA(ws, bp, ic, mc, jc, nc, pc, kc)
					continue
				}
				ap := ws.a[:roundUp(mc, kern.mr)*kc]
				j.packA(ws, ap, ic, mc, pc, kc)
				if kern.round != nil {
					kern.round(ap)
				}
				j.macro(ws, ap, bp, ic, mc, jc, nc, kc, pc > 0)
			}
		}
	}
}

// macro runs the micro-kernel over every tile of the mc×nc block of C at
// (ic, jc). Full tiles of a row-contiguous C are written in place; edge
// tiles and other layouts go through the tile buffer and are merged in Go.
func (j *job[T]) macro(ws *workspace[T], ap, bp []T, ic, mc, jc, nc, kc int, accumulate bool) {
	kern, c := j.kern, j.c
	mr, nr := kern.mr, kern.nr
	for ir := 0; ir < mc; ir += mr {
		a := &ap[ir*kc]
		rows := min(mr, mc-ir)
		for jr := 0; jr < nc; jr += nr {
			b := &bp[jr*kc]
			cols := min(nr, nc-jr)
			if rows == mr && cols == nr && c.CS == 1 {
				kern.micro(kc, a, b, &c.Data[c.Off+(ic+ir)*c.RS+jc+jr], c.RS, accumulate)
				continue
			}
			kern.micro(kc, a, b, &ws.tile[0], nr, false)
			mergeTile(c.shift(ic+ir, jc+jr), rows, cols, ws.tile, nr, accumulate)
		}
	}
}

// readAInPlace reports whether the macro-kernel should read A in place
// rather than pack it: whenever A's rows are contiguous and the kernel has
// an in-place variant. Packing a row-major A is a transpose costing about a
// nanosecond per element, repeated for every N block; the in-place kernel
// reads the same 12 rows the packed sliver would hold, and they stay in L1
// just as well (measured faster at 1024³ and 2048³ too, despite the
// power-of-two strides mapping the rows to the same cache sets).
func (j *job[T]) readAInPlace() bool {
	return j.half == nil && j.kern.microRowA != nil && j.kern.round == nil && j.a.CS == 1
}

// widensAInPlace reports whether the macro-kernel should read a
// half-precision A with contiguous rows in place after widening each block
// of it to float32 rows (widenedA), rather than pack it: the widening is
// one vector conversion a row, where packing the half bits is a transpose
// element by element followed by the conversion (a quarter of a 256³
// bfloat16 product's CPU went there, Zen 5 with AVX-512). The in-place
// kernels sum in the packed kernels' order, so the bits are the same.
func (j *job[T]) widensAInPlace() bool {
	return j.half != nil && j.kern.microRowA != nil && j.kern.round == nil && j.half.a.CS == 1
}

// widenedA returns the job with A replaced by rows [ic, ic+mc) and columns
// [pc, pc+kc) of the half-precision A widened to float32 in the workspace,
// rows kc apart, and addressed as A's own elements are (element (i, p) at
// (i-ic)·kc + p-pc), so that macroRowA reads them in place. The job is a
// copy: goroutines of a split share j.
func (j *job[T]) widenedA(ws *workspace[T], ic, mc, pc, kc int) job[T] {
	src := j.half.a
	dst := ws.widened(mc * kc)
	wide := any(dst).([]float32)
	for r := range mc {
		at := src.Off + (ic+r)*src.RS + pc
		j.half.convert(wide[r*kc:(r+1)*kc], src.Data[at:at+kc])
	}
	w := *j
	w.half = nil
	w.a = Matrix[T]{Data: dst, Off: -(ic*kc + pc), RS: kc, CS: 1}
	return w
}

// macroRowA is macro with A read in place. Full slivers use microRowA; the
// rows left below the last one go four at a time through microRowA4 when
// the kernel has it, and the last one to three are packed (padded) and go
// through micro.
func (j *job[T]) macroRowA(ws *workspace[T], bp []T, ic, mc, jc, nc, pc, kc int) {
	kern := j.kern
	for ir := 0; ir < mc; {
		rows := min(kern.mr, mc-ir)
		switch {
		case rows == kern.mr:
			j.rowsInPlace(ws, kern.microRowA, kern.mr, bp, ic+ir, jc, nc, pc, kc)
		case rows >= 4 && kern.microRowA4 != nil:
			rows = 4
			j.rowsInPlace(ws, kern.microRowA4, 4, bp, ic+ir, jc, nc, pc, kc)
		default:
			ap := ws.a[:kern.mr*kc]
			j.packA(ws, ap, ic+ir, rows, pc, kc)
			j.macro(ws, ap, bp, ic+ir, rows, jc, nc, kc, pc > 0)
		}
		ir += rows
	}
}

// rowsInPlace computes the mr rows of C from row i across the nc columns
// at jc, reading those rows of A in place with micro (an mr-row kernel).
func (j *job[T]) rowsInPlace(ws *workspace[T], micro microKernelRowA[T], mr int, bp []T, i, jc, nc, pc, kc int) {
	a, c, nr := j.a, j.c, j.kern.nr
	accumulate := pc > 0
	ar := &a.Data[a.Off+i*a.RS+pc]
	for jr := 0; jr < nc; jr += nr {
		b := &bp[jr*kc]
		cols := min(nr, nc-jr)
		if cols == nr && c.CS == 1 {
			micro(kc, ar, b, &c.Data[c.Off+i*c.RS+jc+jr], c.RS, a.RS, accumulate)
			continue
		}
		micro(kc, ar, b, &ws.tile[0], nr, a.RS, false)
		mergeTile(c.shift(i, jc+jr), mr, cols, ws.tile, nr, accumulate)
	}
}

// mergeTile stores (or, when accumulate, adds) the top-left rows×cols of a
// tile buffer with row length nr into the view c.
func mergeTile[T Elem](c Matrix[T], rows, cols int, tile []T, nr int, accumulate bool) {
	for i := 0; i < rows; i++ {
		t := tile[i*nr : i*nr+cols]
		at := c.Off + i*c.RS
		for _, v := range t {
			if accumulate {
				c.Data[at] += v
			} else {
				c.Data[at] = v
			}
			at += c.CS
		}
	}
}

// balanced returns the block length that splits n into the fewest blocks of
// at most limit, made equal and rounded up to a multiple of unit.
func balanced(n, limit, unit int) int {
	if n <= 0 {
		return unit
	}
	blocks := ceilDiv(n, limit)
	return min(roundUp(ceilDiv(n, blocks), unit), max(limit, unit))
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
func roundUp(a, b int) int { return ceilDiv(a, b) * b }

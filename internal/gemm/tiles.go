package gemm

import (
	"sync/atomic"
	"unsafe"

	"github.com/tensor-go/tensor/bfloat16"
	"github.com/tensor-go/tensor/internal/scratch"
)

// Tile kernels multiply bfloat16 matrices without widening them: a tile
// dot product (AMX's TDPBF16PS, or VDPBF16PS four 8×32 strips at a time:
// dpbf16.go, with the float32 path's bits) takes 32×32 blocks of bfloat16 operands
// and accumulates their products into float32 tiles. A product taken this
// way is not the float32 path's bits: the instruction sums each pair of
// products in its own order and flushes subnormal inputs and results to
// zero (docs/kernels.md, "bfloat16 products on AMX tiles"). The driver
// therefore
//
//   - packs A and B into the tiles' layouts, zero-padding K to whole
//     32-element steps and M and N to whole 32-element blocks (a padded
//     row or column meets only padding or lands outside C);
//   - watches for subnormal bfloat16 inputs while it packs, and when one
//     appears hands the whole product to the exact (widening) path, so
//     that no input is ever flushed; the decision depends on the operands
//     alone, never on the thread count;
//   - keeps the float32 sums in a float32 C between K blocks (each K block
//     loads the float32 accumulators, adds its steps and stores them); the
//     last K block either stores them there too (MulHalf, whose caller
//     rounds) or rounds each 32×32 block once to bfloat16 straight into a
//     bfloat16 C while it is in L1 (MulBF16Tiles), so that a product with
//     one K block has no float32 result at all.
//
// Every element of C takes the same instructions whatever its place (an
// edge block is computed in a buffer loaded from C, exactly as in place),
// and K is never split between goroutines, so the result does not depend
// on Options.Threads.

// tileBlock is the side of the C block one kernel step computes (2×2 tiles
// of 16×16) and the K length of one step (32 bfloat16 per tile row).
const tileBlock = 32

// tileStepElems is the bfloat16 elements one K step of a 32-row A sliver
// (or a 32-column B panel) holds: two tiles of 16 rows of 32.
const tileStepElems = tileBlock * tileBlock

// tileKernelFunc computes slivers×blocks 32×32 blocks of C (rows 32·r to
// 32·r+31 for r < slivers, columns 32·t to 32·t+31 for t < blocks) from
// packed A slivers (packTilesA, one after the other) and the packed B
// panels (packTilesB), steps K steps of 32 each:
//
//	C[i][32t+j] (+)= Σ over s < steps, p < 16 of
//	    A[i][32s+2p]·B[32s+2p][32t+j] + A[i][32s+2p+1]·B[32s+2p+1][32t+j]
//
// in float32, loading C first when accumulate and starting from zero
// otherwise (the dot-product kernels, dpbf16.go, start from zero and add
// C to the block's sums afterwards, as the float32 kernels do). With out nil the sums are stored to C; with out set they are
// rounded once to bfloat16 (to nearest even, a NaN kept quiet with its sign
// and top payload: bfloat16.FromFloat32) into out instead, row stride ldo,
// through scratch (a 32×32 float32 block), and C is read only when
// accumulate. ldc and ldo are row strides in elements (positive); steps,
// blocks and slivers are at least 1. One call covers a whole block of C so
// that the tile configuration is loaded once for all of it.
type tileKernelFunc func(a, b *uint16, c *float32, ldc int, out *uint16, ldo int, scratch *float32, steps, blocks, slivers int, accumulate bool)

// tileCopyFunc copies chunks runs of 32 bfloat16 from src (contiguous) to
// dst, run c to dst + c·tileStepElems (the same row of the next K step's A
// tile), and reports whether one of them is subnormal.
type tileCopyFunc func(dst, src *uint16, chunks int) bool

// tilePairsFunc packs pairs (at most 16) pairs of B rows of 32 columns: pair
// p is rows src + 2p·rs and src + (2p+1)·rs, written as the pairs of row p
// of the two B tiles at dst (columns 0-15) and dst + tileStepElems/2
// (16-31). It reports whether one of the elements is subnormal.
type tilePairsFunc func(dst, src *uint16, rs, pairs int) bool

// tilePairsTFunc packs one whole K step of a 32-column panel of a B whose
// columns are contiguous (B[k][j] at src + k + j·cs): column j's 32
// elements from src + j·cs are its 16 pairs, written as column j%16 of the
// rows of tile j/16 at dst (a 16×16 transpose of pairs per tile). It
// reports whether one of the elements is subnormal.
type tilePairsTFunc func(dst, src *uint16, cs int) bool

// tileCopyTFunc packs one whole K step of a 32-row A sliver of an A whose
// columns are contiguous (A[i][k] at src + i + k·cs) into the step's two
// tiles at dst (row i at dst + 32i: a 32×32 transpose). It reports whether
// one of the elements is subnormal.
type tileCopyTFunc func(dst, src *uint16, cs int) bool

// tilePackers are the packing kernels of a tile kernel set.
type tilePackers struct {
	copyRows tileCopyFunc
	pairs    tilePairsFunc
	pairsT   tilePairsTFunc
	copyT    tileCopyTFunc
}

// tileKernel is a tile kernel with its blocking and packing kernels. kc,
// mc and nc are multiples of 32.
type tileKernel struct {
	name       string
	kc, mc, nc int
	tiles      tileKernelFunc
	pack       tilePackers
	// minFlopsPerThread is the work (multiply-adds) from which a product
	// gets another goroutine.
	minFlopsPerThread int
	// permitted, when set, reports whether the operating system lets the
	// process run the kernel, asking it the first time: the products that
	// would use the tiles call it (usable), so that importing the library
	// asks nothing.
	permitted func() bool
	// kUnit is what K blocks are whole multiples of (balanced(k, kc,
	// kUnit)); newTileKernel sets tileBlock, a kernel whose sums must fall
	// into the float32 path's K blocks sets 1 (a block then ends with a
	// partly padded step).
	kUnit int
	// prepare, when set, runs over every packed A and B block before the
	// kernel reads it, and reports an operand the kernel would not take
	// (as the packers report a subnormal): the product then goes to the
	// widening path.
	prepare func(p []uint16) bool
	// minSide, when set, replaces tileMinSide as the shortest M or N the
	// kernel takes.
	minSide int
	spare   *scratch.List[tileWorkspace]
}

// usable reports whether the kernel may run in this process.
func (k *tileKernel) usable() bool { return k.permitted == nil || k.permitted() }

// tileWorkspace holds one goroutine's packed blocks, the C buffer of edge
// blocks and the kernel's rounding scratch.
type tileWorkspace struct {
	a, b    []uint16
	c       [tileBlock * tileBlock]float32
	scratch [tileBlock * tileBlock]float32
}

// newTileKernel fills in a tile kernel description and its workspaces.
func newTileKernel(name string, kc, mc, nc int, tiles tileKernelFunc, pack tilePackers, minFlopsPerThread int) *tileKernel {
	k := &tileKernel{name: name, kc: kc, mc: mc, nc: nc, tiles: tiles, pack: pack, minFlopsPerThread: minFlopsPerThread, kUnit: tileBlock}
	k.spare = &scratch.List[tileWorkspace]{New: func() *tileWorkspace {
		kp := roundUp(kc, tileBlock) // a block of kc is padded to whole steps
		return &tileWorkspace{a: make([]uint16, roundUp(mc, tileBlock)*kp), b: make([]uint16, kp*roundUp(nc, tileBlock))}
	}}
	return k
}

// tileMinSide is the shortest M or N that goes to the tiles, and
// tileMinWork the fewest multiply-adds: below them a 32×32 block is mostly
// padding and the widening path costs less. One goroutine, per CPU-second
// against widening: 16³ 6.0 against 8.4 GFLOP/s, 20³ 10.3 against 11.2,
// 24³ 16.1 against 16.4, 32³ 158 against 32 (Sapphire Rapids under KVM).
const (
	tileMinSide = 16
	tileMinWork = 24 * 24 * 24
)

// useTiles reports whether an m×n×k bfloat16 product goes to the tiles of
// kern (nil: the set has none), asking for their permission the first
// time one would.
func useTiles(kern *tileKernel, m, n, k int) bool {
	side := tileMinSide
	if kern != nil && kern.minSide > 0 {
		side = kern.minSide
	}
	return kern != nil && m >= side && n >= side && k > 0 && m*n*k >= tileMinWork && kern.usable()
}

// tileJob is one product C = A·B on a tile kernel.
type tileJob struct {
	kern    *tileKernel
	m, n, k int
	a, b    Matrix[uint16]
	// c holds the float32 sums between K blocks, and the result unless out
	// is set (out.Data not nil): then the last K block rounds its sums into
	// out, and c is needed (and set) only when K has more than one block.
	c   Matrix[float32]
	out Matrix[uint16]
	// subnormal is set by the first goroutine whose packing meets a
	// subnormal input; the others stop at their next block.
	subnormal atomic.Bool
}

// mulTiles computes C = A·B (bfloat16 A and B, float32 C) with the tile
// kernel and reports true, or reports false when A or B holds a subnormal,
// leaving C's contents undefined for the caller to overwrite.
func mulTiles(kern *tileKernel, m, n, k int, a, b Matrix[uint16], c Matrix[float32], threads int) bool {
	return mulTilesTo(kern, m, n, k, a, b, c, Matrix[uint16]{}, threads)
}

// mulTilesTo is mulTiles, rounding the result into out when out.Data is
// not nil (see tileJob).
func mulTilesTo(kern *tileKernel, m, n, k int, a, b Matrix[uint16], c Matrix[float32], out Matrix[uint16], threads int) bool {
	threads = max(1, min(threads, m*n*k/kern.minFlopsPerThread))
	if threads > 1 {
		j := &tileJob{kern: kern, m: m, n: n, k: k, a: a, b: b, c: c, out: out}
		return j.split(threads)
	}
	// A job of its own, which stays on the stack: one goroutine allocates
	// nothing.
	j := tileJob{kern: kern, m: m, n: n, k: k, a: a, b: b, c: c, out: out}
	j.runPooled(0, m, 0, n)
	return !j.subnormal.Load()
}

// tileKBlocks is the number of K blocks a product of depth k takes on
// kern: more than one needs float32 sums between them.
func (kern *tileKernel) kBlocks(k int) int {
	return ceilDiv(k, balanced(k, kern.kc, kern.kUnit))
}

// split computes C in rectangles on threads goroutines, as job.split
// does (the closures capture j, which is on the heap).
func (j *tileJob) split(threads int) bool {
	if j.n >= j.m {
		splitParts(j.n, tileBlock, threads, threads, func(j0, j1 int) { j.runPooled(0, j.m, j0, j1) })
	} else {
		split(j.m, tileBlock, threads, func(i0, i1 int) { j.runPooled(i0, i1, 0, j.n) })
	}
	return !j.subnormal.Load()
}

// runPooled computes rows [i0, i1) and columns [j0, j1) of C with an idle
// workspace.
func (j *tileJob) runPooled(i0, i1, j0, j1 int) {
	ws := j.kern.spare.Get()
	j.run(ws, i0, i1, j0, j1)
	j.kern.spare.Put(ws)
}

// run is the loop nest of job.run (N in nc blocks, K in kc blocks packing
// B, M in mc blocks packing A) over one rectangle of C, stopping as soon
// as any goroutine has met a subnormal input.
func (j *tileJob) run(ws *tileWorkspace, i0, i1, j0, j1 int) {
	kern := j.kern
	kcb := balanced(j.k, kern.kc, kern.kUnit)
	ncb := balanced(j1-j0, kern.nc, tileBlock)
	mcb := balanced(i1-i0, kern.mc, tileBlock)
	for jc := j0; jc < j1; jc += ncb {
		nc := min(ncb, j1-jc)
		for pc := 0; pc < j.k; pc += kcb {
			kc := min(kcb, j.k-pc)
			steps := ceilDiv(kc, tileBlock)
			bp := ws.b[:roundUp(nc, tileBlock)*steps*tileBlock]
			if packTilesB(kern.pack, bp, j.b, pc, kc, jc, nc, steps) || (kern.prepare != nil && kern.prepare(bp)) || j.subnormal.Load() {
				j.subnormal.Store(true)
				return
			}
			for ic := i0; ic < i1; ic += mcb {
				mc := min(mcb, i1-ic)
				ap := ws.a[:roundUp(mc, tileBlock)*steps*tileBlock]
				if packTilesA(kern.pack, ap, j.a, ic, mc, pc, kc, steps) || (kern.prepare != nil && kern.prepare(ap)) {
					j.subnormal.Store(true)
					return
				}
				j.macro(ws, ap, bp, ic, mc, jc, nc, steps, pc > 0, pc+kc == j.k)
			}
		}
	}
}

// macro runs the kernel over the mc×nc block of C at (ic, jc): the whole
// 32×32 blocks in one call writing C (or, in the last K block of a
// rounded product, out) in place when its rows are contiguous, the rest
// one block at a time through the workspace's buffer, which is loaded from
// C first when accumulating so that an edge element is summed exactly as
// an inner one, and rounded as the kernel rounds.
func (j *tileJob) macro(ws *tileWorkspace, ap, bp []uint16, ic, mc, jc, nc, steps int, accumulate, last bool) {
	c, kern := j.c, j.kern
	rounded := last && j.out.Data != nil
	sliver := steps * tileStepElems
	slivers, blocks := mc/tileBlock, nc/tileBlock
	readsC := accumulate || !rounded
	if (readsC && (c.CS != 1 || c.RS < j.n)) || (rounded && (j.out.CS != 1 || j.out.RS < j.n)) {
		slivers, blocks = 0, 0 // no block in place
	}
	if slivers > 0 && blocks > 0 {
		var cp *float32
		if readsC {
			cp = &c.Data[c.Off+ic*c.RS+jc]
		}
		var op *uint16
		if rounded {
			op = &j.out.Data[j.out.Off+ic*j.out.RS+jc]
		}
		kern.tiles(&ap[0], &bp[0], cp, c.RS, op, j.out.RS, &ws.scratch[0], steps, blocks, slivers, accumulate)
	}
	for ir := 0; ir < mc; ir += tileBlock {
		jr0 := 0
		if ir < slivers*tileBlock {
			jr0 = blocks * tileBlock // the whole blocks of this sliver are done
		}
		rows := min(tileBlock, mc-ir)
		for jr := jr0; jr < nc; jr += tileBlock {
			cols := min(tileBlock, nc-jr)
			if accumulate {
				copyBlock(ws.c[:], tileBlock, c.shift(ic+ir, jc+jr), rows, cols, false)
			}
			kern.tiles(&ap[ir/tileBlock*sliver], &bp[jr/tileBlock*sliver], &ws.c[0], tileBlock, nil, 0, nil, steps, 1, 1, accumulate)
			if rounded {
				roundBlock(ws.c[:], tileBlock, j.out.shift(ic+ir, jc+jr), rows, cols)
			} else {
				copyBlock(ws.c[:], tileBlock, c.shift(ic+ir, jc+jr), rows, cols, true)
			}
		}
	}
}

// copyBlock copies the rows×cols top-left corner of the buffer buf (row
// length ld) to the view c (toC) or from it.
func copyBlock(buf []float32, ld int, c Matrix[float32], rows, cols int, toC bool) {
	if c.CS == 1 {
		for i := range rows {
			row, at := buf[i*ld:i*ld+cols], c.Off+i*c.RS
			if toC {
				copy(c.Data[at:at+cols], row)
			} else {
				copy(row, c.Data[at:at+cols])
			}
		}
		return
	}
	for i := 0; i < rows; i++ {
		row := buf[i*ld : i*ld+cols]
		at := c.Off + i*c.RS
		for jj := range row {
			if toC {
				c.Data[at] = row[jj]
			} else {
				row[jj] = c.Data[at]
			}
			at += c.CS
		}
	}
}

// roundBlock rounds the rows×cols top-left corner of the buffer buf (row
// length ld) to bfloat16 into the view out, as the kernels round.
func roundBlock(buf []float32, ld int, out Matrix[uint16], rows, cols int) {
	for i := range rows {
		row, at := buf[i*ld:i*ld+cols], out.Off+i*out.RS
		for _, v := range row {
			out.Data[at] = bfloat16.FromFloat32(v).Bits()
			at += out.CS
		}
	}
}

// packTilesA packs rows [i0, i0+mc) and columns [p0, p0+kc) of A into dst
// as 32-row slivers, each a run of steps K steps, each step the two A tiles
// (rows 0-15, then 16-31) of 32 bfloat16 per row; rows and columns past
// the block are zeros. It reports whether the block holds a subnormal.
func packTilesA(pk tilePackers, dst []uint16, a Matrix[uint16], i0, mc, p0, kc, steps int) (subnormal bool) {
	sliver := steps * tileStepElems
	full := kc / tileBlock // whole K steps
	var bad uint64
	for ir := 0; ir < mc; ir += tileBlock {
		s := dst[ir/tileBlock*sliver : (ir/tileBlock+1)*sliver]
		first := 0 // the first step packed row by row below
		if a.RS == 1 && a.CS != 1 && ir+tileBlock <= mc {
			// A transposed view: whole steps of a whole sliver at once.
			for ; first < full; first++ {
				at := a.Off + (i0+ir)*a.RS + (p0+first*tileBlock)*a.CS
				subnormal = pk.copyT(&s[first*tileStepElems], &a.Data[at], a.CS) || subnormal
			}
			if first == steps {
				continue
			}
		}
		for r := range tileBlock {
			if ir+r >= mc {
				for st := range steps {
					clear(s[st*tileStepElems+r*tileBlock : st*tileStepElems+(r+1)*tileBlock])
				}
				continue
			}
			at := a.Off + (i0+ir+r)*a.RS + (p0+first*tileBlock)*a.CS
			st := first
			if a.CS == 1 && full > 0 {
				subnormal = pk.copyRows(&s[r*tileBlock], &a.Data[at], full) || subnormal
				st, at = full, at+full*tileBlock
			}
			for ; st < steps; st++ {
				d := s[st*tileStepElems+r*tileBlock : st*tileStepElems+(r+1)*tileBlock]
				n := min(tileBlock, kc-st*tileBlock)
				for p := range n {
					d[p] = a.Data[at+p*a.CS]
				}
				at += n * a.CS
				clear(d[n:])
				bad |= subnormalLanes32((*[tileBlock]uint16)(d))
			}
		}
	}
	return subnormal || bad != 0
}

// packTilesB packs rows [p0, p0+kc) and columns [j0, j0+nc) of B into dst
// as 32-column panels, each a run of steps K steps, each step the two B
// tiles (columns 0-15, then 16-31) of 16 rows; tile row p holds, for each
// of its 16 columns, the pair B[2p][j], B[2p+1][j] of the step (the VNNI
// layout TDPBF16PS reads). Rows and columns past the block are zeros. It
// reports whether the block holds a subnormal.
func packTilesB(pk tilePackers, dst []uint16, b Matrix[uint16], p0, kc, j0, nc, steps int) (subnormal bool) {
	sliver := steps * tileStepElems
	var bad uint64
	for jr := 0; jr < nc; jr += tileBlock {
		panel := dst[jr/tileBlock*sliver : (jr/tileBlock+1)*sliver]
		cols := min(tileBlock, nc-jr)
		for st := range steps {
			step := panel[st*tileStepElems : (st+1)*tileStepElems]
			p := 0
			o0 := b.Off + (p0+st*tileBlock)*b.RS + (j0+jr)*b.CS
			switch {
			case cols == tileBlock && b.CS == 1:
				// The pairs whose two rows are both in the block.
				p = min(tileBlock/2, (kc-st*tileBlock)/2)
				if p > 0 {
					subnormal = pk.pairs(&step[0], &b.Data[o0], b.RS, p) || subnormal
				}
			case cols == tileBlock && b.RS == 1 && kc-st*tileBlock >= tileBlock:
				// A whole step of a transposed B: each pair is one dword.
				subnormal = pk.pairsT(&step[0], &b.Data[o0], b.CS) || subnormal
				p = tileBlock / 2
			}
			for ; p < tileBlock/2; p++ {
				k0 := st*tileBlock + 2*p
				lo := (*[tileBlock]uint16)(step[p*tileBlock:])
				hi := (*[tileBlock]uint16)(step[tileStepElems/2+p*tileBlock:])
				if k0 >= kc {
					*lo, *hi = [tileBlock]uint16{}, [tileBlock]uint16{}
					continue
				}
				o0 := b.Off + (p0+k0)*b.RS + (j0+jr)*b.CS
				if b.CS != 1 {
					packPairsStrided(lo, hi, b, o0, k0+1 < kc, cols)
					bad |= subnormalLanes32(lo) | subnormalLanes32(hi)
					continue
				}
				// Contiguous rows cut short by the block's edge or K's end:
				// padded copies, then paired like whole ones.
				var r0, r1 [tileBlock]uint16
				copy(r0[:cols], b.Data[o0:o0+cols])
				if k0+1 < kc {
					copy(r1[:cols], b.Data[o0+b.RS:o0+b.RS+cols])
				}
				bad |= packPairRows(lo, hi, &r0, &r1)
			}
		}
	}
	return subnormal || bad != 0
}

// tilePackersGo are the Go twins of the packing kernels.
var tilePackersGo = tilePackers{copyRows: tileCopyGo, pairs: tilePairsGo, pairsT: tilePairsTGo, copyT: tileCopyTGo}

// tileCopyGo is the Go twin of the tileCopyFunc kernels.
func tileCopyGo(dst, src *uint16, chunks int) bool {
	d := unsafe.Slice(dst, (chunks-1)*tileStepElems+tileBlock)
	s := unsafe.Slice(src, chunks*tileBlock)
	var bad uint64
	for c := range chunks {
		run := (*[tileBlock]uint16)(d[c*tileStepElems:])
		*run = *(*[tileBlock]uint16)(s[c*tileBlock:])
		bad |= subnormalLanes32(run)
	}
	return bad != 0
}

// tilePairsGo is the Go twin of the tilePairsFunc kernels.
func tilePairsGo(dst, src *uint16, rs, pairs int) bool {
	d := unsafe.Slice(dst, tileStepElems)
	var bad uint64
	for p := range pairs {
		r0 := (*[tileBlock]uint16)(unsafe.Add(unsafe.Pointer(src), 2*p*rs*2))
		r1 := (*[tileBlock]uint16)(unsafe.Add(unsafe.Pointer(src), (2*p+1)*rs*2))
		bad |= packPairRows((*[tileBlock]uint16)(d[p*tileBlock:]), (*[tileBlock]uint16)(d[tileStepElems/2+p*tileBlock:]), r0, r1)
	}
	return bad != 0
}

// tileCopyTGo is the Go twin of the tileCopyTFunc kernels.
func tileCopyTGo(dst, src *uint16, cs int) bool {
	d := unsafe.Slice(dst, tileStepElems)
	var bad uint64
	for p := range tileBlock {
		run := (*[tileBlock]uint16)(unsafe.Add(unsafe.Pointer(src), p*cs*2)) // column p of the step
		for i, v := range run {
			d[i*tileBlock+p] = v
		}
		bad |= subnormalLanes32(run)
	}
	return bad != 0
}

// tilePairsTGo is the Go twin of the tilePairsTFunc kernels.
func tilePairsTGo(dst, src *uint16, cs int) bool {
	d := unsafe.Slice(dst, tileStepElems)
	var bad uint64
	for j := range tileBlock {
		col := (*[tileBlock / 2]uint32)(unsafe.Add(unsafe.Pointer(src), j*cs*2))
		tile := d[j/16*(tileStepElems/2):]
		for p, pair := range col {
			*(*uint32)(unsafe.Pointer(&tile[p*tileBlock+j%16*2])) = pair
		}
		bad |= subnormalLanes32((*[tileBlock]uint16)(unsafe.Pointer(col)))
	}
	return bad != 0
}

// packPairRows interleaves 32 columns of two contiguous B rows into the
// pairs of the two tiles' rows lo (columns 0-15) and hi (16-31).
func packPairRows(lo, hi, r0, r1 *[tileBlock]uint16) (bad uint64) {
	lo2 := (*[tileBlock / 4]uint64)(unsafe.Pointer(lo))
	hi2 := (*[tileBlock / 4]uint64)(unsafe.Pointer(hi))
	for j := range tileBlock / 4 {
		// Two pairs per word: columns 2j and 2j+1 of the tile.
		l := uint64(r0[2*j]) | uint64(r1[2*j])<<16 | uint64(r0[2*j+1])<<32 | uint64(r1[2*j+1])<<48
		h := uint64(r0[16+2*j]) | uint64(r1[16+2*j])<<16 | uint64(r0[16+2*j+1])<<32 | uint64(r1[16+2*j+1])<<48
		lo2[j], hi2[j] = l, h
		bad |= subnormalLanes(l) | subnormalLanes(h)
	}
	return bad
}

// packPairsStrided is packPairRows for any strides: cols columns of the
// rows at o0 and o0+RS (only the first when second is false; zeros for the
// other), zeros for the columns past cols.
func packPairsStrided(lo, hi *[tileBlock]uint16, b Matrix[uint16], o0 int, second bool, cols int) {
	*lo, *hi = [tileBlock]uint16{}, [tileBlock]uint16{}
	for c := range cols {
		d := lo
		if c >= tileBlock/2 {
			d = hi
		}
		at := o0 + c*b.CS
		d[2*(c%(tileBlock/2))] = b.Data[at]
		if second {
			d[2*(c%(tileBlock/2))+1] = b.Data[at+b.RS]
		}
	}
}

// subnormalLanes is not zero when one of the four bfloat16 lanes of w is
// subnormal: its exponent bits all zero and its mantissa bits not. Adding
// 0x7f80 to a lane's exponent bits (at most 0x7f80) and 0x7fff to its
// mantissa bits (at most 0x7f) sets the lane's top bit exactly when they
// are not zero, and neither sum carries into the next lane.
func subnormalLanes(w uint64) uint64 {
	const (
		expMask  = 0x7f80_7f80_7f80_7f80
		mantMask = 0x007f_007f_007f_007f
		mantAdd  = 0x7fff_7fff_7fff_7fff
		tops     = 0x8000_8000_8000_8000
	)
	exp := (w&expMask + expMask) & tops
	mant := (w&mantMask + mantAdd) & tops
	return mant &^ exp
}

// tilesBF16Go is the Go twin of the tile kernels: the loop of
// tileKernelFunc's comment, each product rounded before it is added (the
// products of two bfloat16 are exact in float32 apart from overflow and
// underflow, so this is the sum a fused kernel would make), pairs in
// order. Unlike TDPBF16PS it keeps subnormal sums.
func tilesBF16Go(a, b *uint16, c *float32, ldc int, out *uint16, ldo int, _ *float32, steps, blocks, slivers int, accumulate bool) {
	for r := range slivers {
		var cr *float32
		if c != nil {
			cr = (*float32)(unsafe.Add(unsafe.Pointer(c), r*tileBlock*ldc*4))
		}
		var or *uint16
		if out != nil {
			or = (*uint16)(unsafe.Add(unsafe.Pointer(out), r*tileBlock*ldo*2))
		}
		tilesBF16GoSliver((*uint16)(unsafe.Add(unsafe.Pointer(a), r*steps*tileStepElems*2)), b, cr, ldc, or, ldo, steps, blocks, accumulate)
	}
}

// tilesBF16GoSliver is tilesBF16Go for one sliver of A.
func tilesBF16GoSliver(a, b *uint16, c *float32, ldc int, out *uint16, ldo int, steps, blocks int, accumulate bool) {
	as := unsafe.Slice(a, steps*tileStepElems)
	bs := unsafe.Slice(b, blocks*steps*tileStepElems)
	var cs []float32
	if c != nil {
		cs = unsafe.Slice(c, (tileBlock-1)*ldc+blocks*tileBlock)
	}
	var outs []uint16
	if out != nil {
		outs = unsafe.Slice(out, (tileBlock-1)*ldo+blocks*tileBlock)
	}
	for t := range blocks {
		panel := bs[t*steps*tileStepElems : (t+1)*steps*tileStepElems]
		for i := range tileBlock {
			var acc [tileBlock]float32
			if accumulate {
				acc = *(*[tileBlock]float32)(cs[i*ldc+t*tileBlock:])
			}
			for st := range steps {
				ar := as[st*tileStepElems+i*tileBlock : st*tileStepElems+(i+1)*tileBlock]
				step := panel[st*tileStepElems : (st+1)*tileStepElems]
				for p := range tileBlock / 2 {
					a0, a1 := widenBF16(ar[2*p]), widenBF16(ar[2*p+1])
					lo := (*[tileBlock]uint16)(step[p*tileBlock:])
					hi := (*[tileBlock]uint16)(step[tileStepElems/2+p*tileBlock:])
					for jj := range tileBlock / 2 {
						acc[jj] += float32(a0 * widenBF16(lo[2*jj]))
						acc[jj] += float32(a1 * widenBF16(lo[2*jj+1]))
						acc[16+jj] += float32(a0 * widenBF16(hi[2*jj]))
						acc[16+jj] += float32(a1 * widenBF16(hi[2*jj+1]))
					}
				}
			}
			if out == nil {
				*(*[tileBlock]float32)(cs[i*ldc+t*tileBlock:]) = acc
				continue
			}
			row := (*[tileBlock]uint16)(outs[i*ldo+t*tileBlock:])
			for jj, v := range acc {
				row[jj] = bfloat16.FromFloat32(v).Bits()
			}
		}
	}
}

// widenBF16 is the float32 value of bfloat16 bits.
func widenBF16(x uint16) float32 {
	return *(*float32)(unsafe.Pointer(&[1]uint32{uint32(x) << 16}))
}

// tileConfigBF16 is the tile configuration of every tile kernel, loaded by
// LDTILECFG: palette 1, tiles 0 to 7 each 16 rows of 64 bytes.
var tileConfigBF16 = func() (cfg [64]byte) {
	cfg[0] = 1 // palette
	for t := range 8 {
		cfg[16+2*t] = 64 // bytes per row (colsb), little endian
		cfg[48+t] = 16   // rows
	}
	return cfg
}()

// subnormalLanes32 is not zero when one of the 32 bfloat16 of s is
// subnormal.
func subnormalLanes32(s *[tileBlock]uint16) (bad uint64) {
	for _, w := range (*[tileBlock / 4]uint64)(unsafe.Pointer(s)) {
		bad |= subnormalLanes(w)
	}
	return bad
}

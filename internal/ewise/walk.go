package ewise

import (
	"sync"
	"unsafe"

	"github.com/tensor-go/tensor/internal/iter"
)

// maxOperands is the most operands a walk carries: out and two inputs.
const maxOperands = 3

// Args holds the argument slices of kernel calls. A kernel is called
// through a function value, so slices made for the call would escape to
// the heap on every run; an Args lives as long as the walk instead.
type Args struct {
	ptrs    [maxOperands]unsafe.Pointer
	strides [maxOperands]int
}

// Call calls k on one run of n elements whose operands start at ptrs and
// advance by strides bytes.
func (a *Args) Call(k iter.Kernel, ptrs []unsafe.Pointer, strides []int, n int) {
	copy(a.ptrs[:], ptrs)
	copy(a.strides[:], strides)
	k(a.ptrs[:len(ptrs)], a.strides[:len(ptrs)], n)
}

// Walk calls k on the runs numbered [first, last) of p, in p's order,
// with operand k's run starting bases[k] plus its byte offset. Unlike
// iter.Plan.RunRange it keeps the offsets as integers, so no pointer is
// ever formed outside an operand's elements (a stepping pointer would
// pass the last element at every carry, and the garbage collector may see
// it there).
func Walk(p *iter.Plan, bases []unsafe.Pointer, first, last int, k iter.Kernel, args *Args) {
	if p.Empty() || first >= last {
		return
	}
	shp := p.Shape()
	outer := len(shp) - 1
	nops := len(bases)
	var index [64]int // shape.MaxRank dimensions at most
	var off [maxOperands]int
	rest := first
	for d := outer - 1; d >= 0; d-- {
		index[d] = rest % shp[d]
		rest /= shp[d]
		for op := range nops {
			off[op] += index[d] * p.Strides(op)[d]
		}
	}
	for op := range nops {
		args.strides[op] = p.Strides(op)[outer]
	}
	n := shp[outer]
	for run := first; run < last; run++ {
		for op := range nops {
			args.ptrs[op] = unsafe.Add(bases[op], off[op])
		}
		k(args.ptrs[:nops], args.strides[:nops], n)
		for d := outer - 1; d >= 0; d-- {
			index[d]++
			if index[d] < shp[d] {
				for op := range nops {
					off[op] += p.Strides(op)[d]
				}
				break
			}
			for op := range nops {
				off[op] -= (shp[d] - 1) * p.Strides(op)[d]
			}
			index[d] = 0
		}
	}
}

// Execute runs all of p, whose operands have elements of the given
// sizes, tiling it when its operands disagree about the order of the two
// innermost dimensions (see tiling), sharing the work among w goroutines when w > 1:
// a plan of several runs is split by runs, a plan of one run into parts of
// that run aligned to 64 elements. newKernel is called once per goroutine,
// so kernels with buffers are never shared. Every element is computed by
// the same kernel code whatever w is, so the results do not depend on it.
func Execute(p *iter.Plan, bases []unsafe.Pointer, sizes []int, w int, newKernel func() iter.Kernel) {
	runs := p.Runs()
	if runs == 0 {
		return
	}
	if t, ok := newTiling(p, sizes); ok {
		Parallel(t.units, w, func(lo, hi int) {
			var args Args
			t.walk(bases, lo, hi, newKernel(), &args)
		})
		return
	}
	if w <= 1 {
		var args Args
		Walk(p, bases, 0, runs, newKernel(), &args)
		return
	}
	if runs > 1 {
		Parallel(runs, w, func(lo, hi int) {
			var args Args
			Walk(p, bases, lo, hi, newKernel(), &args)
		})
		return
	}
	const align = 64
	n := p.Inner()
	Parallel((n+align-1)/align, w, func(lo, hi int) {
		first, last := lo*align, min(hi*align, n)
		var args Args
		for op := range bases {
			s := p.Strides(op)[0]
			args.ptrs[op] = unsafe.Add(bases[op], first*s)
			args.strides[op] = s
		}
		nops := len(bases)
		newKernel()(args.ptrs[:nops], args.strides[:nops], last-first)
	})
}

// Chunks returns how many chunks of about size elements WalkChunk divides
// p's elements into: runs of at least size elements are cut into segments
// of size, shorter runs are grouped size/inner at a time. The division
// depends only on the plan, never on the number of goroutines, which is
// what makes a float reduction computed chunk by chunk reproducible.
func Chunks(p *iter.Plan, size int) int {
	runs, inner := p.Runs(), p.Inner()
	if runs == 0 {
		return 0
	}
	if inner >= size {
		return runs * ((inner + size - 1) / size)
	}
	per := size / inner
	return (runs + per - 1) / per
}

// WalkChunk calls k on the runs or run segments of chunk c of p (see
// Chunks), in p's order.
func WalkChunk(p *iter.Plan, bases []unsafe.Pointer, c, size int, k iter.Kernel, args *Args) {
	runs, inner := p.Runs(), p.Inner()
	if inner < size {
		per := size / inner
		Walk(p, bases, c*per, min((c+1)*per, runs), k, args)
		return
	}
	segs := (inner + size - 1) / size
	run, seg := c/segs, c%segs
	first, n := seg*size, min(size, inner-seg*size)
	// Walk the one run with a kernel that narrows it to the segment.
	Walk(p, bases, run, run+1, func(ptrs []unsafe.Pointer, strides []int, _ int) {
		for op := range ptrs {
			ptrs[op] = unsafe.Add(ptrs[op], first*strides[op])
		}
		k(ptrs, strides, n)
	}, args)
}

// The tile of a tiled walk: at most tileBytes/size runs (512 for float32)
// of at most tileCols elements, where size is the largest element size of
// the gathered operands, so that a gather buffer holds about 1 MiB: half
// an L2. Measured on 4096×4096 float32, 512×512 tiles beat square tiles of
// 128 and 256, flatter ones (32×512, 64×1024) and taller ones (256×64,
// 1024×512): every operand is then read in pieces of 2 KiB, a gathered
// one down its columns. Variables so that tests can shrink them.
var (
	tileBytes = 2048
	tileCols  = 512
)

// minTiled is the least length of the two innermost dimensions for which
// tiling pays.
const minTiled = 32

// tiling walks the two innermost dimensions of a plan in 2-D tiles. The
// plan orders dimensions by its first operand (the output), so the
// innermost dimension is the output's fastest; a transposed input then
// strides through memory along every run, touching a new cache line per
// element, and with a power-of-two row length all those lines fall into
// the same few cache sets. Instead, each tile of such an operand is first
// gathered into a contiguous buffer, reading it along its own memory
// order, and the runs of the tile then see contiguous operands.
type tiling struct {
	p          *iter.Plan
	sizes      []int // element size of each operand
	against    []bool
	rows, cols int // sizes of the two innermost dimensions
	tr, tc     int // tile size: tr runs of tc elements
	pitch      int // elements between the rows of a gather buffer
	blocks     int // row blocks per index of the outer dimensions
	units      int // row blocks in all: outer indices × blocks
}

// newTiling returns the tiling of p, if p is worth tiling: some input
// moves less along the second-innermost dimension than along the
// innermost, and the dimensions are long enough to cut into tiles.
func newTiling(p *iter.Plan, sizes []int) (tiling, bool) {
	shp := p.Shape()
	nd := len(shp)
	if nd < 2 || shp[nd-1] < minTiled || shp[nd-2] < minTiled {
		return tiling{}, false
	}
	t := tiling{p: p, sizes: sizes, against: make([]bool, len(sizes)), rows: shp[nd-2], cols: shp[nd-1]}
	widest := 0
	for op := 1; op < len(sizes); op++ {
		st := p.Strides(op)
		outer, inner := absInt(st[nd-2]), absInt(st[nd-1])
		if outer != 0 && outer < inner {
			t.against[op] = true
			widest = max(widest, sizes[op])
		}
	}
	if widest == 0 {
		return tiling{}, false
	}
	t.tr = min(t.rows, max(1, tileBytes/widest))
	t.tc = min(t.cols, tileCols)
	// A pitch that is not a multiple of a large power of two: with one,
	// the column-wise writes of a gather would all land in the same few
	// L1 sets and evict each other.
	t.pitch = t.tc + 16
	t.blocks = (t.rows + t.tr - 1) / t.tr
	t.units = p.Runs() / t.rows * t.blocks
	return t, true
}

// walk does the row blocks numbered [first, last): unit u is row block
// u % blocks of outer index u / blocks, done tile by tile.
func (t tiling) walk(bases []unsafe.Pointer, first, last int, k iter.Kernel, args *Args) {
	shp := t.p.Shape()
	nd := len(shp)
	nops := len(bases)
	var bufs [maxOperands][]byte
	for op, a := range t.against {
		if a {
			bp := getBuffer(t.tr * t.pitch * t.sizes[op])
			defer gatherBuffers.Put(bp)
			bufs[op] = *bp
		}
	}
	for u := first; u < last; u++ {
		var off [maxOperands]int
		rest := u / t.blocks
		for d := nd - 3; d >= 0; d-- {
			i := rest % shp[d]
			rest /= shp[d]
			for op := range nops {
				off[op] += i * t.p.Strides(op)[d]
			}
		}
		r0 := u % t.blocks * t.tr
		r1 := min(r0+t.tr, t.rows)
		for c0 := 0; c0 < t.cols; c0 += t.tc {
			n := min(t.tc, t.cols-c0)
			for op := range nops {
				st := t.p.Strides(op)
				corner := unsafe.Add(bases[op], off[op]+r0*st[nd-2]+c0*st[nd-1])
				if t.against[op] {
					gather(unsafe.Pointer(&bufs[op][0]), corner, st[nd-2], st[nd-1], r1-r0, n, t.pitch, t.sizes[op])
				}
			}
			for r := r0; r < r1; r++ {
				for op := range nops {
					st := t.p.Strides(op)
					if t.against[op] {
						args.ptrs[op] = unsafe.Pointer(&bufs[op][(r-r0)*t.pitch*t.sizes[op]])
						args.strides[op] = t.sizes[op]
					} else {
						args.ptrs[op] = unsafe.Add(bases[op], off[op]+r*st[nd-2]+c0*st[nd-1])
						args.strides[op] = st[nd-1]
					}
				}
				k(args.ptrs[:nops], args.strides[:nops], n)
			}
		}
	}
}

// gatherBuffers recycles the gather buffers of tiled walks, up to a MiB
// each, so that a tiled product allocates nothing beyond its result.
var gatherBuffers sync.Pool

// getBuffer returns a pooled buffer of n bytes.
func getBuffer(n int) *[]byte {
	if bp, ok := gatherBuffers.Get().(*[]byte); ok && cap(*bp) >= n {
		*bp = (*bp)[:n]
		return bp
	}
	b := make([]byte, n)
	return &b
}

// gather copies a rows × cols block of elements of the given size, whose
// element (r, c) is at src + r·rs + c·cs, into dst as rows pitch elements
// apart, reading down the columns: the order in which the source lies in
// memory.
func gather(dst, src unsafe.Pointer, rs, cs, rows, cols, pitch, size int) {
	switch size {
	case 1:
		gatherOf[uint8](dst, src, rs, cs, rows, cols, pitch)
	case 2:
		gatherOf[uint16](dst, src, rs, cs, rows, cols, pitch)
	case 4:
		gatherOf[uint32](dst, src, rs, cs, rows, cols, pitch)
	case 8:
		gatherOf[uint64](dst, src, rs, cs, rows, cols, pitch)
	default:
		gatherOf[[2]uint64](dst, src, rs, cs, rows, cols, pitch)
	}
}

// gatherOf reads eight columns at a time: eight independent streams of
// loads keep more cache misses in flight than one (measured 2-3× faster on
// a transposed float32 matrix), and each row of the buffer is written
// eight elements at a time.
func gatherOf[T any](dst, src unsafe.Pointer, rs, cs, rows, cols, pitch int) {
	size := int(unsafe.Sizeof(*new(T)))
	c := 0
	for ; c+8 <= cols; c += 8 {
		from, to := unsafe.Add(src, c*cs), unsafe.Add(dst, c*size)
		for r := range rows {
			row := (*[8]T)(unsafe.Add(to, r*pitch*size))
			f := unsafe.Add(from, r*rs)
			row[0] = *at[T](f, 0, cs)
			row[1] = *at[T](f, 1, cs)
			row[2] = *at[T](f, 2, cs)
			row[3] = *at[T](f, 3, cs)
			row[4] = *at[T](f, 4, cs)
			row[5] = *at[T](f, 5, cs)
			row[6] = *at[T](f, 6, cs)
			row[7] = *at[T](f, 7, cs)
		}
	}
	for ; c < cols; c++ {
		from, to := unsafe.Add(src, c*cs), unsafe.Add(dst, c*size)
		for r := range rows {
			*at[T](to, r, pitch*size) = *at[T](from, r, rs)
		}
	}
}

func absInt(x int) int { return max(x, -x) }

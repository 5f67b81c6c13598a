package iter

import (
	"sync"
	"unsafe"
)

// The tile of a tiled walk: tileBytes/size runs (16 for float32, 8 for
// float64) of at most tileCols elements, where size is the largest element
// size of the gathered operands. A gathered operand's tile is then one
// cache line down each of its columns, every line read whole, and its
// buffer (32 KiB) stays in L1 between the gather and the kernel calls that
// read it; BenchmarkTiledWalk compares the walk with a contiguous one
// (512×512 tiles of 1 MiB, whose buffers went through L2, took 1.6× the
// time of these). Variables so that tests can shrink them.
var (
	tileBytes = 64
	tileCols  = 512
	// minTiled is the least length of the two innermost dimensions for
	// which tiling pays.
	minTiled = 32
)

// tiling walks the two innermost dimensions of a plan in 2-D tiles. The
// plan orders dimensions by its first operand (the output), so the
// innermost dimension is the output's fastest; a transposed input then
// strides through memory along every run, touching a new cache line per
// element, and with a power-of-two row length all those lines fall into
// the same few cache sets. Instead, each tile of such an operand is first
// gathered into a contiguous buffer, reading it along its own memory
// order, and the runs of the tile then see contiguous operands.
type tiling struct {
	p          *Plan
	sizes      []int // element size of each operand
	against    [MaxOperands]bool
	rows, cols int // sizes of the two innermost dimensions
	tr, tc     int // tile size: tr runs of tc elements
	// merged says that a tile's runs are one run: its rows are whole
	// rows of the plan, every operand not in a buffer steps over them as
	// one run, and the buffers have no padding, so the kernel is called
	// once per tile (a 64×64 tile was 16 calls of 64 elements).
	merged bool
	pitch  int // elements between the rows of a gather buffer
	blocks int // row blocks per index of the outer dimensions
	units  int // row blocks in all: outer indices × blocks
}

// tiling returns the tiling of p for operands of the given element sizes
// shared by w goroutines, if p is worth tiling: some input moves less
// along the second-innermost dimension than along the innermost, and both
// are long enough to cut into tiles. An input that moves least along an
// outer dimension (a reversed 3-D operand) is tiled over that dimension
// and the innermost instead: the plan is walked with that dimension moved
// next to the innermost.
func (p *Plan) tiling(sizes []int, w int) (tiling, bool) {
	nd := len(p.shape)
	if nd < 2 || p.empty {
		return tiling{}, false
	}
	if f := p.againstDim(); f >= 0 && f < nd-2 && p.shape[f] >= minTiled {
		p = p.moved(f)
	}
	if p.shape[nd-1] < minTiled || p.shape[nd-2] < minTiled {
		return tiling{}, false
	}
	t := tiling{p: p, sizes: sizes, rows: p.shape[nd-2], cols: p.shape[nd-1]}
	widest := 0
	for k := 1; k < len(p.strides); k++ {
		st := p.strides[k]
		if outer, inner := abs(st[nd-2]), abs(st[nd-1]); outer != 0 && outer < inner {
			t.against[k] = true
			widest = max(widest, sizes[k])
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
	if t.merged = t.tc == t.cols && t.cols*widest <= maxMergedRow && t.rowsMerge(); t.merged {
		// Rows this short spread a gather's column-wise writes over
		// enough L1 sets without padding.
		t.pitch = t.tc
	}
	t.blocks = (t.rows + t.tr - 1) / t.tr
	// With fewer row blocks than goroutines (a matrix of one tile), cut
	// shorter blocks, so that every goroutine gets one.
	outer := t.p.Runs() / t.rows
	if want := (w + outer - 1) / outer; t.blocks < want {
		t.tr = (t.rows + want - 1) / want
		t.blocks = (t.rows + t.tr - 1) / t.tr
	}
	t.units = outer * t.blocks
	return t, true
}

// maxMergedRow is the longest row, in bytes of the widest gathered
// operand, whose tiles are merged into one run: a longer one's kernel
// calls cost little beside their elements.
const maxMergedRow = 1024

// rowsMerge reports whether every operand that the walk does not gather
// steps over the tile's rows as one run.
func (t *tiling) rowsMerge() bool {
	nd := len(t.p.shape)
	for k, st := range t.p.strides {
		if !t.against[k] && st[nd-2] != t.cols*st[nd-1] {
			return false
		}
	}
	return true
}

// againstDim returns the outer dimension along which the first input that
// moves less there than along the innermost dimension moves least, or -1.
func (p *Plan) againstDim() int {
	nd := len(p.shape)
	for k := 1; k < len(p.strides); k++ {
		st := p.strides[k]
		f := -1
		for d := range nd - 1 {
			if s := abs(st[d]); s != 0 && (f < 0 || s < abs(st[f])) {
				f = d
			}
		}
		if f >= 0 && abs(st[f]) < abs(st[nd-1]) {
			return f
		}
	}
	return -1
}

// moved returns a copy of p with dimension f moved to second-innermost,
// the others in their order.
func (p *Plan) moved(f int) *Plan {
	nd := len(p.shape)
	q := &Plan{empty: p.empty}
	q.strides = q.rows[:len(p.strides)]
	all := make([]int, nd*(1+len(p.strides)))
	order := func(dst, src []int) {
		i := 0
		for d := range nd - 1 {
			if d != f {
				dst[i] = src[d]
				i++
			}
		}
		dst[nd-2], dst[nd-1] = src[f], src[nd-1]
	}
	q.shape = all[:nd]
	order(q.shape, p.shape)
	for k, st := range p.strides {
		q.strides[k] = all[(1+k)*nd : (2+k)*nd]
		order(q.strides[k], st)
	}
	return q
}

// Tiled reports whether Execute walks p in tiles when its operands have
// elements of the given sizes.
func (p *Plan) Tiled(sizes []int) bool {
	_, ok := p.tiling(sizes, 1)
	return ok
}

// walk does the row blocks numbered [first, last): unit u is row block
// u % blocks of outer index u / blocks, done tile by tile.
func (t *tiling) walk(bases []unsafe.Pointer, first, last int, kernel Kernel) {
	p := t.p
	nd := len(p.shape)
	nops := len(p.strides)
	var pooled [MaxOperands]*[]byte
	var bufs [MaxOperands]unsafe.Pointer
	for k := range nops {
		if t.against[k] {
			pooled[k] = getBuffer(t.tr * t.pitch * t.sizes[k])
			bufs[k] = unsafe.Pointer(unsafe.SliceData(*pooled[k]))
		}
	}
	defer func() {
		for _, b := range pooled {
			if b != nil {
				gatherBuffers.Put(b)
			}
		}
	}()
	args := getArgs()
	defer putArgs(args)
	ptrs, strides := args.ptrs[:nops], args.strides[:nops]
	for u := first; u < last; u++ {
		var offs [MaxOperands]int
		rest := u / t.blocks
		for d := nd - 3; d >= 0; d-- {
			i := rest % p.shape[d]
			rest /= p.shape[d]
			for k := range nops {
				offs[k] += i * p.strides[k][d]
			}
		}
		r0 := u % t.blocks * t.tr
		r1 := min(r0+t.tr, t.rows)
		for c0 := 0; c0 < t.cols; c0 += t.tc {
			n := min(t.tc, t.cols-c0)
			for k := range nops {
				if st := p.strides[k]; t.against[k] {
					corner := unsafe.Add(bases[k], offs[k]+r0*st[nd-2]+c0*st[nd-1])
					gather(bufs[k], corner, st[nd-2], st[nd-1], r1-r0, n, t.pitch, t.sizes[k])
				}
			}
			runs, m := r1-r0, n
			if t.merged {
				runs, m = 1, (r1-r0)*n
			}
			for r := r0; r < r0+runs; r++ {
				for k := range nops {
					if st := p.strides[k]; t.against[k] {
						ptrs[k] = unsafe.Add(bufs[k], (r-r0)*t.pitch*t.sizes[k])
						strides[k] = t.sizes[k]
					} else {
						ptrs[k] = unsafe.Add(bases[k], offs[k]+r*st[nd-2]+c0*st[nd-1])
						strides[k] = st[nd-1]
					}
				}
				kernel(ptrs, strides, m)
			}
		}
	}
}

// gatherBuffers recycles the gather buffers of tiled walks, up to a MiB
// each, so that a tiled walk allocates nothing.
var gatherBuffers sync.Pool

// getBuffer returns a pooled buffer of n bytes.
func getBuffer(n int) *[]byte {
	if b, ok := gatherBuffers.Get().(*[]byte); ok && cap(*b) >= n {
		*b = (*b)[:n]
		return b
	}
	b := make([]byte, n)
	return &b
}

// gather copies a rows × cols block of elements of the given size, whose
// element (r, c) is at src + r·rs + c·cs, into dst as rows pitch elements
// apart, reading down the columns: the order in which the source lies in
// memory. Only the element size matters, so a copy of one unsigned type of
// that size serves every dtype.
func gather(dst, src unsafe.Pointer, rs, cs, rows, cols, pitch, size int) {
	if rs == size && gatherColumns(dst, src, cs, rows, cols, pitch, size) {
		return
	}
	gatherElems(dst, src, rs, cs, rows, cols, pitch, size)
}

// gatherElems is gather element by element.
func gatherElems(dst, src unsafe.Pointer, rs, cs, rows, cols, pitch, size int) {
	switch size {
	case 1:
		gatherOf[uint8](dst, src, rs, cs, rows, cols, pitch)
	case 2:
		gatherOf[uint16](dst, src, rs, cs, rows, cols, pitch)
	case 4:
		gatherOf[uint32](dst, src, rs, cs, rows, cols, pitch)
	case 8:
		gatherOf[uint64](dst, src, rs, cs, rows, cols, pitch)
	case 16:
		gatherOf[[2]uint64](dst, src, rs, cs, rows, cols, pitch)
	default:
		gatherBytes(dst, src, rs, cs, rows, cols, pitch, size)
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

// gatherBytes is gather for an element size no unsigned type has.
func gatherBytes(dst, src unsafe.Pointer, rs, cs, rows, cols, pitch, size int) {
	for c := range cols {
		for r := range rows {
			to := unsafe.Slice((*byte)(unsafe.Add(dst, (r*pitch+c)*size)), size)
			copy(to, unsafe.Slice((*byte)(unsafe.Add(src, r*rs+c*cs)), size))
		}
	}
}

// at returns the address of element i of a run at p with byte stride s.
// Indexing from the run's start, rather than advancing a pointer, keeps
// every pointer formed inside the operand.
func at[T any](p unsafe.Pointer, i, s int) *T { return (*T)(unsafe.Add(p, i*s)) }

package iter

import "unsafe"

// Short runs. A plan whose innermost dimension is short (a [n, 3] × [3]
// row broadcast) calls its kernel once per few elements, and then the
// call, not the arithmetic, is the cost: 10⁶ runs of 3 float32 took 9 ms,
// NumPy 5 ms. When the output steps over its two innermost dimensions as
// one run, the walk hands the kernel blocks of many rows as one run
// instead: an input that steps the same way is passed as it is, an input
// broadcast along the rows (stride 0 there) is replaced by a buffer of its
// row repeated, built once per outer index, and any other input (a column
// broadcast, a transposed one) is gathered into a buffer block by block.
// Each element is still computed once, by the same kernel code.
var (
	// shortRun is the longest innermost dimension that is blocked when an
	// input is spread or gathered block by block: from about 64 elements
	// on, a run's vector loop outweighs its call. Plans whose inputs step
	// as the output does or repeat one row (built once per walk) are
	// blocked up to half a block: a [100, 100] × [100] row broadcast is
	// then ten calls, not a hundred.
	shortRun = 64
	// shortGatherRun is the longest innermost dimension that is blocked
	// when some input must be gathered: the gather copies each of its
	// elements once, which pays only while a call is spread over fewer
	// elements than that. An input with one value per row (a column
	// broadcast) is spread along its rows up to shortRun: a store per
	// element, no load.
	shortGatherRun = 8
	// blockElems is the number of elements of a block (a few KiB per
	// buffer, which stay in L1 between the gather and the kernel).
	blockElems = 1024
	// minBlockRows is the fewest rows worth blocking: below it, the
	// buffers cost more than the calls they save.
	minBlockRows = 8
)

// The ways a blocked walk passes an operand to the kernel.
const (
	asIs     = iota // it steps over rows and elements as one run
	repeated        // broadcast along the rows: its row repeated in a buffer
	gathered        // anything else: gathered block by block
)

// blocking is a blocked walk of a plan's two innermost dimensions.
type blocking struct {
	p          *Plan
	sizes      []int
	how        [MaxOperands]int
	rows, cols int // sizes of the two innermost dimensions
	reps       int // rows per block
	blocks     int // blocks per index of the outer dimensions
	units      int // blocks in all
}

// blocking returns the blocked walk of p for operands of the given element
// sizes shared by w goroutines, if p's runs are short enough to block and
// its output, operand 0, steps over its two innermost dimensions as one
// run.
func (p *Plan) blocking(sizes []int, w int) (blocking, bool) {
	nd := len(p.shape)
	if nd < 2 || p.empty || p.shape[nd-1] > blockElems/2 || p.shape[nd-2] < minBlockRows {
		return blocking{}, false
	}
	b := blocking{p: p, sizes: sizes, rows: p.shape[nd-2], cols: p.shape[nd-1]}
	for k, st := range p.strides {
		switch {
		case st[nd-2] == st[nd-1]*b.cols:
			b.how[k] = asIs
		case k == 0:
			return blocking{}, false // the output: written where it lies
		case st[nd-2] == 0:
			b.how[k] = repeated // built once: rows up to half a block pay
		case b.cols <= shortGatherRun || st[nd-1] == 0 && b.cols <= shortRun:
			b.how[k] = gathered // a value per row costs a store per element
		default:
			return blocking{}, false
		}
	}
	b.reps = min(b.rows, max(1, blockElems/b.cols))
	b.blocks = (b.rows + b.reps - 1) / b.reps
	outer := p.Runs() / b.rows
	if want := (w + outer - 1) / outer; b.blocks < want {
		b.reps = (b.rows + want - 1) / want
		b.blocks = (b.rows + b.reps - 1) / b.reps
	}
	b.units = outer * b.blocks
	return b, true
}

// walk does the blocks numbered [first, last): unit u is block u % blocks
// of outer index u / blocks.
func (b *blocking) walk(bases []unsafe.Pointer, first, last int, kernel Kernel) {
	p := b.p
	nd := len(p.shape)
	nops := len(p.strides)
	var pooled [MaxOperands]*[]byte
	var bufs [MaxOperands]unsafe.Pointer
	for k := range nops {
		if b.how[k] != asIs {
			pooled[k] = getBuffer(b.reps * b.cols * b.sizes[k])
			bufs[k] = unsafe.Pointer(unsafe.SliceData(*pooled[k]))
		}
	}
	defer func() {
		for _, buf := range pooled {
			if buf != nil {
				gatherBuffers.Put(buf)
			}
		}
	}()
	args := getArgs()
	defer putArgs(args)
	ptrs, strides := args.ptrs[:nops], args.strides[:nops]
	filled := -1 // the outer index whose rows the repeated buffers hold
	for u := first; u < last; u++ {
		o := u / b.blocks
		var offs [MaxOperands]int
		rest := o
		for d := nd - 3; d >= 0; d-- {
			i := rest % p.shape[d]
			rest /= p.shape[d]
			for k := range nops {
				offs[k] += i * p.strides[k][d]
			}
		}
		r0 := u % b.blocks * b.reps
		r1 := min(r0+b.reps, b.rows)
		for k := range nops {
			st, size := p.strides[k], b.sizes[k]
			switch b.how[k] {
			case asIs:
				ptrs[k], strides[k] = unsafe.Add(bases[k], offs[k]+r0*st[nd-2]), st[nd-1]
				continue
			case repeated:
				if o != filled {
					repeat(bufs[k], unsafe.Add(bases[k], offs[k]), st[nd-1], b.reps, b.cols, size)
				}
			case gathered:
				gather(bufs[k], unsafe.Add(bases[k], offs[k]+r0*st[nd-2]), st[nd-2], st[nd-1], r1-r0, b.cols, b.cols, size)
			}
			ptrs[k], strides[k] = bufs[k], size
		}
		filled = o
		kernel(ptrs, strides, (r1-r0)*b.cols)
	}
}

// repeat fills dst with reps copies of the row of cols elements of the
// given size at src, element c at src + c·cs: the row is gathered once and
// then doubled with copy, a memmove of whole vectors, where gathering it
// reps times was a load and a store per element (a 64×64 by a row of 64
// spent more on its buffer than on its additions).
func repeat(dst, src unsafe.Pointer, cs, reps, cols, size int) {
	gather(dst, src, 0, cs, 1, cols, cols, size)
	buf := unsafe.Slice((*byte)(dst), reps*cols*size)
	for done := cols * size; done < len(buf); {
		done += copy(buf[done:], buf[:done])
	}
}

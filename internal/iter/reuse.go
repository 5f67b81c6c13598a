package iter

import "unsafe"

// Reused runs. A plan whose input is broadcast along the second-innermost
// dimension but not along the innermost (a batch of matrices times one
// matrix, [8, 384·384] × [384·384] once simplified) reads that input's
// run once per row, and when the run is longer than the caches hold
// beside the other operands' rows, every row reads it from memory again.
// The reusing walk cuts the runs into chunks and does one chunk of every
// row before the next chunk: the broadcast input's chunk is read from
// memory once and then from cache, while the other operands stream as
// before. Every element is still computed once, by the same kernel code.
var (
	// reuseBytes is the size of a broadcast input's chunk: it stays in L2
	// while the rows' chunks of the other operands pass through (a quarter
	// of the smallest L2 of current x86 and arm64 cores, 256 KiB, so one
	// constant serves every machine; the chunking changes no bit), and those
	// are long runs (16 KiB chunks, in L1, were as fast into a warm output
	// but slower into a fresh one, whose lines the hardware prefetches
	// only along a run).
	reuseBytes = 64 << 10
)

// reusing is a chunked walk of a plan's two innermost dimensions.
type reusing struct {
	p          *Plan
	rows, cols int // sizes of the two innermost dimensions
	chunk      int // elements per chunk
	chunks     int // chunks per row
	blocks     int // row blocks: rows/blocks rows per unit (rounded up)
	units      int // outer indices × chunks × blocks
}

// reusing returns the reusing walk of p for operands of the given element
// sizes shared by w goroutines, if some input is broadcast along the
// second-innermost dimension and its runs are longer than two chunks.
func (p *Plan) reusing(sizes []int, w int) (reusing, bool) {
	nd := len(p.shape)
	if nd < 2 || p.empty {
		return reusing{}, false
	}
	widest := 0
	for k := 1; k < len(p.strides); k++ {
		if st := p.strides[k]; st[nd-2] == 0 && st[nd-1] != 0 {
			widest = max(widest, sizes[k])
		}
	}
	if widest == 0 {
		return reusing{}, false
	}
	r := reusing{p: p, rows: p.shape[nd-2], cols: p.shape[nd-1], chunk: reuseBytes / widest}
	if r.cols < 2*r.chunk {
		return reusing{}, false // the whole run stays in cache between rows
	}
	r.chunks = (r.cols + r.chunk - 1) / r.chunk
	r.blocks = 1
	// With few chunks, cut the rows too, so that goroutines get shares
	// of about the same size (Parallel hands out about 8 pieces each).
	outer := p.Runs() / r.rows
	if want := 8 * w; w > 1 && outer*r.chunks < want {
		r.blocks = min(r.rows, (want+outer*r.chunks-1)/(outer*r.chunks))
	}
	r.units = outer * r.chunks * r.blocks
	return r, true
}

// walk does the units numbered [first, last): unit u is row block
// u % blocks of chunk u / blocks % chunks of outer index u / (blocks·chunks).
func (r *reusing) walk(bases []unsafe.Pointer, first, last int, kernel Kernel) {
	p := r.p
	nd := len(p.shape)
	nops := len(p.strides)
	args := getArgs()
	defer putArgs(args)
	ptrs, strides := args.ptrs[:nops], args.strides[:nops]
	for k := range nops {
		strides[k] = p.strides[k][nd-1]
	}
	for u := first; u < last; u++ {
		var offs [MaxOperands]int
		rest := u / (r.blocks * r.chunks)
		for d := nd - 3; d >= 0; d-- {
			i := rest % p.shape[d]
			rest /= p.shape[d]
			for k := range nops {
				offs[k] += i * p.strides[k][d]
			}
		}
		c0 := u / r.blocks % r.chunks * r.chunk
		n := min(r.chunk, r.cols-c0)
		for k := range nops {
			offs[k] += c0 * p.strides[k][nd-1]
		}
		per := (r.rows + r.blocks - 1) / r.blocks
		r0 := u % r.blocks * per
		for row := r0; row < min(r0+per, r.rows); row++ {
			for k := range nops {
				ptrs[k] = unsafe.Add(bases[k], offs[k]+row*p.strides[k][nd-2])
			}
			kernel(ptrs, strides, n)
		}
	}
}

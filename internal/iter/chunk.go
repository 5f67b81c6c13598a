package iter

import "unsafe"

// Chunks returns how many chunks of at most size elements RunChunk divides
// p's elements into: runs of at least size elements are cut into segments
// of size (the last one shorter), shorter runs are grouped size/Inner() at
// a time. The division depends only on the plan, never on the number of
// goroutines, which is what makes a float reduction computed chunk by
// chunk, and the chunks' results then combined in chunk order,
// reproducible.
func (p *Plan) Chunks(size int) int {
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

// RunChunk calls kernel on the runs or run segments of chunk c of p (see
// Chunks), in Run's order: the chunks in order visit what Run visits.
func (p *Plan) RunChunk(bases []unsafe.Pointer, c, size int, kernel Kernel) {
	runs, inner := p.Runs(), p.Inner()
	if inner < size {
		per := size / inner
		p.walk(bases, c*per, min((c+1)*per, runs), 0, inner, kernel)
		return
	}
	segs := (inner + size - 1) / size
	run, seg := c/segs, c%segs
	p.walk(bases, run, run+1, seg*size, min((seg+1)*size, inner), kernel)
}

package iter

import "unsafe"

// Execute runs all of p, an element-wise operation whose operands have
// elements of sizes[k] bytes, on up to w goroutines. Operand 0 is the
// output: its elements must not overlap (no stride-0 dimension), since
// they are written from several goroutines.
//
// A plan whose inputs are read against the output's memory order is
// walked in tiles (see tiling), one of short runs in blocks of many runs
// (see blocking), one whose input is broadcast over long rows in chunks of
// every row (see reusing). Otherwise a plan of several runs is split
// by runs, and a plan of one run into parts of it aligned to 64 elements
// (whole cache lines for every element size).
//
// newKernel is called once per goroutine, so kernels with buffers are
// never shared. Every element is computed by the same kernel code whatever
// w is, so the results do not depend on it.
func (p *Plan) Execute(bases []unsafe.Pointer, sizes []int, w int, newKernel func() Kernel) {
	p.ExecuteThen(bases, sizes, w, newKernel, nil)
}

// ExecuteThen is Execute that also calls then, if not nil, on each
// goroutine after its last kernel call of each share it walks: kernels
// whose streaming stores are not fenced (a fence per run of a few KiB
// waits for each run to reach memory before the next is computed) are
// fenced there, once a share, before the goroutine reports its work done.
func (p *Plan) ExecuteThen(bases []unsafe.Pointer, sizes []int, w int, newKernel func() Kernel, then func()) {
	runs := p.Runs()
	if runs == 0 {
		return
	}
	// The walks the closures below capture are copied inside the branches,
	// so that a plan that takes neither allocates neither, and one
	// goroutine walks directly, without a closure (a small call pays for
	// each allocation as much as for its elements).
	if t, ok := p.tiling(sizes, w); ok {
		if w <= 1 {
			t.walk(bases, 0, t.units, newKernel())
			done(then)
			return
		}
		t := t
		Parallel(t.units, w, func(lo, hi int) { t.walk(bases, lo, hi, newKernel()); done(then) })
		return
	}
	if b, ok := p.blocking(sizes, w); ok {
		if w <= 1 {
			b.walk(bases, 0, b.units, newKernel())
			done(then)
			return
		}
		b := b
		Parallel(b.units, w, func(lo, hi int) { b.walk(bases, lo, hi, newKernel()); done(then) })
		return
	}
	if r, ok := p.reusing(sizes, w); ok {
		if w <= 1 {
			r.walk(bases, 0, r.units, newKernel())
			done(then)
			return
		}
		r := r
		Parallel(r.units, w, func(lo, hi int) { r.walk(bases, lo, hi, newKernel()); done(then) })
		return
	}
	if w <= 1 {
		p.RunRange(bases, 0, runs, newKernel())
		done(then)
		return
	}
	if runs > 1 {
		Parallel(runs, w, func(lo, hi int) { p.RunRange(bases, lo, hi, newKernel()); done(then) })
		return
	}
	const align = 64
	n := p.Inner()
	Parallel((n+align-1)/align, w, func(lo, hi int) {
		p.walk(bases, 0, 1, lo*align, min(hi*align, n), newKernel())
		done(then)
	})
}

// done calls then unless it is nil.
func done(then func()) {
	if then != nil {
		then()
	}
}

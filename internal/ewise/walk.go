package ewise

import (
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

// Execute runs all of p, sharing the work among w goroutines when w > 1:
// a plan of several runs is split by runs, a plan of one run into parts of
// that run aligned to 64 elements. newKernel is called once per goroutine,
// so kernels with buffers are never shared. Every element is computed by
// the same kernel code whatever w is, so the results do not depend on it.
func Execute(p *iter.Plan, bases []unsafe.Pointer, w int, newKernel func() iter.Kernel) {
	runs := p.Runs()
	if runs == 0 {
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

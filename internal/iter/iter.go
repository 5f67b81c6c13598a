// Package iter is the library's one iteration engine. It walks several
// strided operands of a common shape in lockstep and hands a kernel nothing
// but 1-D runs, the way NumPy's iterator does:
//
//   - dimensions of size 1 are dropped (their strides never matter);
//   - the remaining dimensions are ordered so that the innermost is the one
//     that moves fastest in memory (by the first operand whose strides tell
//     two dimensions apart; broadcast strides of 0 tell nothing);
//   - adjacent dimensions that every operand walks as one are merged, so a
//     contiguous tensor, whatever its shape, is a single run.
//
// Broadcast operands simply carry stride 0; a reduction is an operation
// whose output operand has stride 0 along the reduced dimensions.
// Element-wise operations, reductions, casts and copies all run on this
// engine.
//
// A plan is walked in one of three ways:
//
//   - Run and RunRange visit runs in order (disjoint ranges may run on
//     different goroutines), allocating nothing;
//   - RunChunk visits chunks of a size fixed by the plan alone, whatever
//     the number of goroutines, so reductions can combine per-chunk
//     results in a reproducible order; it allocates nothing either;
//   - Execute shares an element-wise operation between goroutines, and
//     walks inputs that are read against the output's memory order (a
//     transposed operand) in 2-D tiles gathered into contiguous buffers,
//     plans of short runs (a [n, 3] × [3] broadcast) in blocks of many
//     runs, each one kernel call (see blocking), and plans with an input
//     broadcast over rows longer than the caches (a batch of matrices
//     times one matrix) a chunk of every row at a time (see reusing).
//
// Strides here are in bytes, so operands of different dtypes mix freely.
package iter

import (
	"sync"
	"unsafe"
)

// MaxOperands is the most operands a plan may have: an output and up to
// three inputs. Walks keep per-operand state in arrays of this size, so
// that they allocate nothing.
const MaxOperands = 4

// maxRank bounds the dimensions of a plan (a tensor's, 64 as in NumPy).
const maxRank = 64

// Kernel processes one 1-D run: n elements per operand, operand k starting
// at ptrs[k] and advancing strides[k] bytes per element. Kernels must not
// keep ptrs or strides after returning.
type Kernel func(ptrs []unsafe.Pointer, strides []int, n int)

// Plan is a simplified iteration over a shape for a fixed set of operands.
type Plan struct {
	shape   []int   // simplified dimensions, outermost first; never empty
	strides [][]int // strides[k][d]: bytes operand k moves along dimension d
	empty   bool    // the shape has a zero-size dimension: nothing to do

	// rows backs strides, and inline the shape and strides of a plan of
	// up to inlineRank dimensions, so that such a plan is one allocation
	// (none when it is part of another value, see Init): a small
	// operation's plan was seven, and a loop of small broadcasts spent
	// more on them than on its arithmetic.
	rows   [MaxOperands][]int
	inline [inlineRank * (1 + MaxOperands)]int
}

// inlineRank is the most dimensions a plan keeps inside itself.
const inlineRank = 4

// NewPlan simplifies the iteration of len(strides) operands over shape.
// strides[k] holds operand k's byte strides, one per dimension of shape.
// There are at most MaxOperands operands and maxRank dimensions.
func NewPlan(shape []int, strides ...[]int) *Plan {
	p := &Plan{}
	p.Init(shape, strides...)
	return p
}

// Init makes p, a zero Plan, NewPlan(shape, strides...), so that a plan
// can live inside a value that holds the rest of an operation's state, in
// one allocation with it.
func (p *Plan) Init(shape []int, strides ...[]int) {
	if len(strides) > MaxOperands || len(shape) > maxRank {
		panic("iter: too many operands or dimensions")
	}
	p.strides = p.rows[:len(strides)]
	var kept [maxRank]int
	dims := kept[:0]
	for d, n := range shape {
		if n == 0 {
			p.empty = true
		}
		if n != 1 {
			dims = append(dims, d)
		}
	}
	sortDims(dims, strides)
	rank := max(len(dims), 1) // a single element is one run of length 1
	var all []int
	if need := rank * (1 + len(strides)); need <= len(p.inline) {
		all = p.inline[:need]
	} else {
		all = make([]int, need)
	}
	p.shape = all[:0:rank]
	for _, d := range dims {
		p.shape = append(p.shape, shape[d])
	}
	for k := range strides {
		row := all[(1+k)*rank : (1+k)*rank+len(dims) : (2+k)*rank]
		for i, d := range dims {
			row[i] = strides[k][d]
		}
		p.strides[k] = row
	}
	p.merge()
	if len(p.shape) == 0 {
		p.shape = append(p.shape, 1)
		for k := range p.strides {
			p.strides[k] = append(p.strides[k], 0)
		}
	}
}

// sortDims orders dimension indices outermost first: a dimension goes
// inside another when the first operand that distinguishes them moves less
// in it. Insertion sort keeps the original order among ties, which matters
// for operands that are all broadcast along both dimensions.
func sortDims(dims []int, strides [][]int) {
	for i := 1; i < len(dims); i++ {
		for j := i; j > 0 && movesLess(dims[j-1], dims[j], strides); j-- {
			dims[j-1], dims[j] = dims[j], dims[j-1]
		}
	}
}

// movesLess reports whether dimension a should be iterated inside
// dimension b, that is after it in the outermost-first order.
func movesLess(a, b int, strides [][]int) bool {
	for _, st := range strides {
		sa, sb := abs(st[a]), abs(st[b])
		if sa == 0 || sb == 0 || sa == sb {
			continue
		}
		return sa < sb
	}
	return false
}

// merge joins each dimension with the one inside it when every operand
// steps over the inner dimension exactly into the next outer element.
func (p *Plan) merge() {
	for d := len(p.shape) - 2; d >= 0; d-- {
		if !p.mergeable(d) {
			continue
		}
		inner := p.shape[d+1]
		p.shape[d] *= inner
		p.shape = append(p.shape[:d+1], p.shape[d+2:]...)
		for k, st := range p.strides {
			st[d] = st[d+1]
			p.strides[k] = append(st[:d+1], st[d+2:]...)
		}
	}
}

func (p *Plan) mergeable(d int) bool {
	for _, st := range p.strides {
		if st[d] != st[d+1]*p.shape[d+1] {
			return false
		}
	}
	return true
}

// Shape returns the simplified dimensions, outermost first.
func (p *Plan) Shape() []int { return p.shape }

// Strides returns operand k's byte strides along the simplified dimensions.
func (p *Plan) Strides(k int) []int { return p.strides[k] }

// Empty reports whether the iteration has no elements.
func (p *Plan) Empty() bool { return p.empty }

// Inner is the length of each 1-D run.
func (p *Plan) Inner() int { return p.shape[len(p.shape)-1] }

// Runs is the number of 1-D runs Run will make.
func (p *Plan) Runs() int {
	if p.empty {
		return 0
	}
	n := 1
	for _, d := range p.shape[:len(p.shape)-1] {
		n *= d
	}
	return n
}

// Run calls kernel once per 1-D run. bases[k] points at the element of
// operand k where the iteration starts (its element at index 0, ..., 0).
func (p *Plan) Run(bases []unsafe.Pointer, kernel Kernel) {
	p.RunRange(bases, 0, p.Runs(), kernel)
}

// RunRange calls kernel for the runs numbered [first, last) in Run's
// order. Disjoint ranges may run concurrently when the operands they write
// do not overlap. It allocates nothing.
func (p *Plan) RunRange(bases []unsafe.Pointer, first, last int, kernel Kernel) {
	p.walk(bases, first, last, 0, p.Inner(), kernel)
}

// Args holds the argument slices of kernel calls. A kernel is called
// through a function value, so the compiler cannot see that it does not
// keep its arguments: slices of a walk's local arrays would move to the
// heap on every walk. Pooled Args, already on the heap, cost nothing.
type Args struct {
	ptrs    [MaxOperands]unsafe.Pointer
	strides [MaxOperands]int
	value   [2]uint64 // CallValue's broadcast value, room for any element
}

var argsPool = sync.Pool{New: func() any { return new(Args) }}

// getArgs returns pooled kernel arguments; put them back with putArgs.
func getArgs() *Args { return argsPool.Get().(*Args) }

// putArgs returns args to the pool without the operands' addresses, so that
// an idle pooled Args does not keep a dropped tensor's memory alive.
func putArgs(args *Args) {
	args.ptrs = [MaxOperands]unsafe.Pointer{}
	argsPool.Put(args)
}

// Call calls kernel on one run of n elements of nops operands, operand k
// at ptrs[k] advancing strides[k] bytes per element, with pooled argument
// slices, so that the call allocates nothing. It is for callers that walk
// without a plan (a flat element-wise operation).
func Call(kernel Kernel, n, nops int, ptrs [MaxOperands]unsafe.Pointer, strides [MaxOperands]int) {
	args := getArgs()
	args.ptrs, args.strides = ptrs, strides
	kernel(args.ptrs[:nops], args.strides[:nops], n)
	putArgs(args)
}

// Call3 is Call for the three operands of a binary operation, passed
// one by one: a small call's path then copies no arrays of operands.
func Call3(kernel Kernel, n int, p0, p1, p2 unsafe.Pointer, s0, s1, s2 int) {
	args := getArgs()
	args.ptrs[0], args.ptrs[1], args.ptrs[2] = p0, p1, p2
	args.strides[0], args.strides[1], args.strides[2] = s0, s1, s2
	kernel(args.ptrs[:3], args.strides[:3], n)
	putArgs(args)
}

// CallValue is Call3 for a binary operation whose other input is one
// value broadcast everywhere (stride 0): v, the bits of one element, is
// copied into the pooled arguments and passed from there, as input 2, or
// as input 1 when first is set; out and a advance stride bytes per
// element. A Go number operand then needs no 0-d tensor of its own.
func CallValue(kernel Kernel, n int, out, a unsafe.Pointer, stride int, v [2]uint64, first bool) {
	args := getArgs()
	args.value = v
	args.ptrs[0], args.ptrs[1], args.ptrs[2] = out, a, unsafe.Pointer(&args.value)
	vs := 0
	if n == 1 {
		vs = stride // as Run passes a one-element call's 0-d operand
	}
	args.strides[0], args.strides[1], args.strides[2] = stride, stride, vs
	if first {
		args.ptrs[1], args.ptrs[2] = args.ptrs[2], args.ptrs[1]
		args.strides[1], args.strides[2] = vs, stride
	}
	kernel(args.ptrs[:3], args.strides[:3], n)
	putArgs(args)
}

// walk calls kernel for the runs numbered [first, last), each narrowed to
// its elements [lo, hi).
func (p *Plan) walk(bases []unsafe.Pointer, first, last, lo, hi int, kernel Kernel) {
	if p.empty || first >= last || lo >= hi {
		return
	}
	nops := len(p.strides)
	outer := len(p.shape) - 1
	args := getArgs()
	defer putArgs(args)
	// Byte offsets are kept as integers and turned into pointers only at the
	// start of each run: stepping a pointer past the end of a dimension and
	// back, even briefly, would break unsafe.Pointer's rules (and checkptr).
	var index [maxRank]int
	var offs [MaxOperands]int
	rest := first
	for d := outer - 1; d >= 0; d-- {
		index[d] = rest % p.shape[d]
		rest /= p.shape[d]
	}
	for k := range nops {
		st := p.strides[k]
		offs[k] = lo * st[outer]
		for d := range outer {
			offs[k] += index[d] * st[d]
		}
		args.strides[k] = st[outer]
	}
	ptrs, strides := args.ptrs[:nops], args.strides[:nops]
	for run := first; ; {
		for k := range nops {
			ptrs[k] = unsafe.Add(bases[k], offs[k])
		}
		kernel(ptrs, strides, hi-lo)
		if run++; run == last {
			return
		}
		// Advance the odometer: bump the innermost outer dimension and
		// carry into the ones outside it.
		for d := outer - 1; d >= 0; d-- {
			index[d]++
			for k := range nops {
				offs[k] += p.strides[k][d]
			}
			if index[d] < p.shape[d] {
				break
			}
			for k := range nops {
				offs[k] -= index[d] * p.strides[k][d]
			}
			index[d] = 0
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

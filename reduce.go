package tensor

import (
	"slices"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/cast"
	"github.com/tensor-go/tensor/internal/ewise"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/scratch"
	"github.com/tensor-go/tensor/shape"
)

// The reduction API (Prod, Sum) is written once here against an
// ewise.Reduction: options, result shape and dtype, the output and its
// checks; and so is the reduction engine, the four schedules below, whose
// kernels, accumulator dtype and starting value come from the Reduction.

// ReduceOption configures a reduction such as Prod or Sum.
type ReduceOption func(*reduceConfig)

// reduceConfig is what the options of a reduction set.
type reduceConfig struct {
	axes     []int
	axesSet  bool // false: reduce every axis
	keepDims bool
	dtype    DType // the result dtype asked for, or Invalid
}

// Axis reduces over the given axes only; negative axes count from the
// end. Without an Axis option a reduction covers every axis; Axis() with
// no axes reduces over none (the shape is unchanged; the result dtype rule
// still applies).
func Axis(axes ...int) ReduceOption {
	if len(axes) == 1 && -axisOptions <= axes[0] && axes[0] < axisOptions {
		return singleAxis[axes[0]+axisOptions]
	}
	return axisOption(slices.Clone(axes))
}

func axisOption(axes []int) ReduceOption {
	return func(c *reduceConfig) { c.axes, c.axesSet = axes, true }
}

// singleAxis holds Axis(a) for -axisOptions <= a < axisOptions, made once:
// a reduction over one axis, written Sum(x, Axis(1)) in a loop, then
// allocates no option (a closure and a copy of the axes each call). The
// options only read their axes.
var singleAxis = func() (opts [2 * axisOptions]ReduceOption) {
	for i := range opts {
		opts[i] = axisOption([]int{i - axisOptions})
	}
	return opts
}()

const axisOptions = 8

// KeepDims keeps each reduced axis in the result as a dimension of size 1,
// so that the result broadcasts against the input.
func KeepDims(keep bool) ReduceOption {
	if keep {
		return keepDims
	}
	return dropDims
}

// keepDims and dropDims are KeepDims' two options, made once.
var (
	keepDims ReduceOption = func(c *reduceConfig) { c.keepDims = true }
	dropDims ReduceOption = func(c *reduceConfig) { c.keepDims = false }
)

// WithDType makes a reduction accumulate in dt and return a result of
// dtype dt, as the Python Array API's dtype argument does:
// Prod(x, WithDType(Int64)) of an int32 x gives exact int64 factorials,
// Sum(x, WithDType(Float64)) of a float32 x a float64 sum that is not
// rounded to float32. A dtype of a lower kind than x's (float for a
// complex x, an integer for a float x, bool for an integer x) is an
// ErrDType. A dtype of x's kind but narrower (float32 for a float64 x) is
// allowed: x is converted to it first.
func WithDType(dt DType) ReduceOption {
	return func(c *reduceConfig) { c.dtype = dt }
}

// reduction returns r over x's elements on the axes the options choose
// (see Prod for the rules every reduction shares).
func reduction(r *ewise.Reduction, x *Tensor, opts []ReduceOption) (*Tensor, error) {
	if err := requireStrided(r.Name, x); err != nil {
		return nil, err
	}
	if len(opts) == 0 {
		if out := reduceAllSmall(r, x); out != nil {
			return out, nil
		}
	}
	mask, s, rd, err := reduceShape(r, x, opts)
	if err != nil {
		return nil, err
	}
	// reduceRun sets every element: it fills the accumulators with the
	// starting value before folding into them, or copies them into out.
	out, err := newProductTensor(rd, s)
	if err != nil {
		return nil, wrapErr(r.Name, err)
	}
	if err := reduceRun(r, out, x, mask, rd); err != nil {
		return nil, err
	}
	return out, nil
}

// reductionInto writes r over x's elements into out (see ProdInto).
func reductionInto(r *ewise.Reduction, out, x *Tensor, opts []ReduceOption) error {
	if err := requireStrided(r.Name, out, x); err != nil {
		return err
	}
	if out == nil {
		return opErr(r.Name, ErrValue, "nil output tensor")
	}
	if err := checkWritable(r.Name, out); err != nil {
		return err
	}
	noteWrite(out)
	mask, s, rd, err := reduceShape(r, x, opts)
	if err != nil {
		return err
	}
	if !shape.Equal(out.shape, s) {
		return opErr(r.Name, ErrShape, "output shape %s is not the result shape %s of reducing %s",
			shape.String(out.shape), shape.String(s), shape.String(x.shape))
	}
	if !dtype.CanCastInto(rd, out.dtype) {
		return opErr(r.Name, ErrDType, "cannot write the %v %s of %v into a %v output", rd, r.Name, x.dtype, out.dtype)
	}
	if sharesStorage(out, x) {
		// The output is written while x is still being read: reduce into
		// a temporary instead.
		tmp, err := empty(out.dtype, s)
		if err != nil {
			return wrapErr(r.Name, err)
		}
		if err := reduceRun(r, tmp, x, mask, rd); err != nil {
			return err
		}
		return copyInto(out, tmp)
	}
	return reduceRun(r, out, x, mask, rd)
}

// reduceAllSmall returns r over every element of x as a 0-d tensor when x
// is contiguous and fits one chunk (so one goroutine), or nil for the
// general path. It does what reduceRun does there, on a plan that is one
// run, in the same order, so with the same bits: the accumulator and the
// chunk's partial result start at the starting value, the run kernel folds
// x into the partial, the partial is combined into the accumulator, which
// is rounded once into the result. It builds no plan, mask or accumulator
// tensor: a small reduction's call costs what its result costs.
func reduceAllSmall(r *ewise.Reduction, x *Tensor) *Tensor {
	n := x.Size()
	accType, rd := r.Accumulator(x.dtype), r.Result(x.dtype)
	if n == 0 || n >= reduceChunk || r.Accumulator(rd) != accType || !x.IsContiguous() {
		return nil
	}
	out, err := newProductTensor(rd, nil)
	if err != nil {
		return nil // the general path reports it
	}
	s := reduceSmallPool.Get()
	acc, part := unsafe.Pointer(&s.acc), unsafe.Pointer(&s.part)
	if accType == rd {
		acc = out.storage
	}
	r.Fill(accType, acc, 1, false)
	r.Fill(accType, part, 1, false)
	s.ptrs, s.strides = [2]unsafe.Pointer{part, firstElement(x)}, [2]int{0, x.dtype.Size()}
	r.Kernel(x.dtype)(s.ptrs[:], s.strides[:], n)
	s.ptrs, s.strides = [2]unsafe.Pointer{acc, part}, [2]int{0, accType.Size()}
	r.Combine(accType)(s.ptrs[:], s.strides[:], 1)
	if accType != rd {
		cast.Kernel(rd, accType)(out.storage, rd.Size(), acc, accType.Size(), 1)
	}
	s.ptrs = [2]unsafe.Pointer{} // the pool must not keep x alive
	reduceSmallPool.Put(s)
	return out
}

// reduceSmall is reduceAllSmall's scratch: the kernels' argument slices
// and two accumulators of up to 16 bytes (complex128), kept between calls
// so that the kernels, called through function values, make nothing
// escape to the heap.
type reduceSmall struct {
	ptrs      [2]unsafe.Pointer
	strides   [2]int
	acc, part [2]uint64
}

var reduceSmallPool = scratch.List[reduceSmall]{New: func() *reduceSmall { return new(reduceSmall) }}

// reduceShape applies the options of reduction r to x: the mask of
// reduced dimensions, the result shape and the result dtype.
func reduceShape(r *ewise.Reduction, x *Tensor, opts []ReduceOption) (mask []bool, s []int, rd DType, err error) {
	if x == nil {
		return nil, nil, rd, opErr(r.Name, ErrValue, "nil tensor")
	}
	return reduceShapeOf(r, x.shape, x.dtype, opts)
}

// reduceShapeOf is reduceShape for elements of shape xs and dtype xd.
func reduceShapeOf(r *ewise.Reduction, xs []int, xd DType, opts []ReduceOption) (mask []bool, s []int, rd DType, err error) {
	op := r.Name
	var c reduceConfig
	for _, o := range opts {
		o(&c)
	}
	rd = r.Result(xd)
	if c.dtype != dtype.Invalid {
		if !c.dtype.Valid() {
			return nil, nil, rd, opErr(op, ErrDType, "invalid result dtype %v", c.dtype)
		}
		if !dtype.CanCastInto(xd, c.dtype) {
			return nil, nil, rd, opErr(op, ErrDType, "cannot accumulate a %v tensor in %v, a lower kind; cast it first",
				xd, c.dtype)
		}
		rd = c.dtype
	}
	mask = make([]bool, len(xs))
	if !c.axesSet {
		for i := range mask {
			mask[i] = true
		}
	}
	for _, a := range c.axes {
		n, err := shape.NormalizeAxis(a, len(xs))
		if err != nil {
			return nil, nil, rd, opErr(op, ErrAxis, "axis %d is out of range for shape %s", a, shape.String(xs))
		}
		if mask[n] {
			return nil, nil, rd, opErr(op, ErrAxis, "axis %d is repeated in %v for shape %s", a, c.axes, shape.String(xs))
		}
		mask[n] = true
	}
	return mask, shape.Reduced(xs, mask, c.keepDims), rd, nil
}

// reduceRun reduces x over the masked dimensions into out, whose shape and
// dtype have been checked and which shares no storage with x.
//
// The running results are carried in accumulators of dtype
// r.Accumulator, laid out like x with the reduced dimensions
// removed: out itself when its dtype and layout allow, else a temporary
// that is converted into out at the end (which is where float16 and
// bfloat16 results are rounded, once).
//
// The reduction goes one of four ways, each with an order of operations
// fixed by the shape and layout alone: to a single element, chunk by chunk
// (reduceAll); over the inner dimension and outer ones together, in two
// stages (reduceTwoStage); over an outer dimension, in blocks of it
// (reduceBlocked); else split along a kept dimension (reduceKept).
func reduceRun(r *ewise.Reduction, out, x *Tensor, mask []bool, rd DType) error {
	accType := r.Accumulator(x.dtype)
	if want := r.Accumulator(rd); want != accType {
		// A result dtype (WithDType) whose accumulator x's kernels do not
		// carry: x is converted to it first, and reduced in its kernels.
		cx, err := x.AsType(rd)
		if err != nil {
			return wrapErr(r.Name, err)
		}
		x, accType = cx, want
	}
	if reduceShortInto(r, out, x, mask, accType, rd) { // short inner axes, a narrower result: no accumulator tensor
		return nil
	}
	kept := shape.Reduced(x.shape, mask, true)
	acc := out
	if out.dtype != accType || accType != rd || !out.IsContiguous() {
		var err error
		if acc, err = empty(accType, out.shape); err != nil {
			return wrapErr(r.Name, err) // float32 accumulators for float16 are twice the size
		}
	}
	n := acc.Size()
	var accBase unsafe.Pointer // an empty view's offset may lie past its storage
	if n > 0 {
		accBase = firstElement(acc)
		r.Fill(accType, accBase, n, x.Size() == 0)
	}
	if x.Size() > 0 {
		// The accumulators seen from x's dimensions: contiguous over the
		// kept ones, stride 0 over the reduced ones.
		accStrides := shape.ContiguousStrides(kept)
		for i := range accStrides {
			if mask[i] {
				accStrides[i] = 0
			}
			accStrides[i] *= accType.Size()
		}
		xStrides := byteStrides(x, x.shape)
		bases := []unsafe.Pointer{accBase, firstElement(x)}
		outer, m := reduceOuterDims(x, mask, n)
		switch d, blocks := reduceBlocks(x, mask, n); {
		case n == 1:
			reduceAll(r, x, accType, bases, accStrides, xStrides)
		case reduceShort(r, x, accType, mask, bases, accStrides, xStrides): // done there when short axes are innermost
		case outer != nil:
			reduceTwoStage(r, x, accType, n, m, outer, bases, accStrides, xStrides)
		case blocks > 1:
			reduceBlocked(r, x, accType, n, d, blocks, bases, accStrides, xStrides)
		default:
			reduceKept(r, x, accType, mask, bases, accStrides, xStrides)
		}
	}
	if acc != out {
		if acc.dtype != rd && out.dtype != rd {
			// An into-form output of another dtype receives the result
			// rounded once to its dtype, then cast, as if the reduction
			// were followed by AsType.
			res, err := empty(rd, out.shape)
			if err != nil {
				return wrapErr(r.Name, err)
			}
			if err := copyInto(res, acc); err != nil {
				return err
			}
			acc = res
		}
		return copyInto(out, acc)
	}
	return nil
}

// reduceChunk is the number of elements reduced on their own before the
// partial results are combined, in a reduction to a single element.
// Fixing it (rather than dividing by the number of threads) fixes the
// order of float operations. A variable so that tests can shrink it.
var reduceChunk = iter.MinParallel

// reduceAll reduces all of x into the single accumulator at bases[0]: each
// chunk of reduceChunk elements (in the plan's order) into a partial
// result of its own, the chunks shared between goroutines, then the
// partial results in chunk order.
func reduceAll(r *ewise.Reduction, x *Tensor, accType DType, bases []unsafe.Pointer, accStrides, xStrides []int) {
	p := iter.NewPlan(x.shape, accStrides, xStrides)
	chunks := p.Chunks(reduceChunk)
	partials, _ := empty(accType, []int{chunks})
	r.Fill(accType, partials.storage, chunks, false)
	kernel := r.Kernel(x.dtype)
	size := accType.Size()
	one := func(c int) {
		cb := []unsafe.Pointer{unsafe.Add(partials.storage, c*size), bases[1]}
		p.RunChunk(cb, c, reduceChunk, kernel)
	}
	// A contiguous x (a plan of one run) has chunks that are equal runs
	// but the last: pairs of them go through the pair kernel, which reads
	// two streams at once and gives each chunk's bits.
	pair, xs := r.Pairs(x.dtype), x.dtype.Size()
	w := iter.Workers(x.Size())
	if pair == nil || len(p.Shape()) != 1 || p.Strides(1)[0] != xs {
		iter.ParallelEnds(chunks, w, one)
	} else {
		full := x.Size() / reduceChunk // chunks of reduceChunk elements
		iter.ParallelEnds((chunks+1)/2, w, func(i int) {
			c := 2 * i
			if c+1 >= full {
				one(c)
				if c+1 < chunks {
					one(c + 1)
				}
				return
			}
			pair(unsafe.Add(partials.storage, c*size), unsafe.Add(partials.storage, (c+1)*size),
				unsafe.Add(bases[1], c*reduceChunk*xs), unsafe.Add(bases[1], (c+1)*reduceChunk*xs), reduceChunk)
		})
	}
	// Combine: acc op= partial[0] op partial[1] op ..., with the
	// accumulator type's own kernel, whose order depends on the chunk count
	// alone.
	r.Combine(accType)([]unsafe.Pointer{bases[0], partials.storage}, []int{0, size}, chunks)
}

// reduceBlockElems is the number of elements of x that one block of an
// outer reduction covers (see reduceBlocks). A variable so that tests can
// shrink it.
var reduceBlockElems = 1 << 20

// reduceBlocks decides whether a reduction into n accumulators is done in
// blocks along a reduced dimension r, and into how many. It is when the
// accumulators are few enough (64K) for one set per block, and either the
// dimension x walks fastest in memory is kept (the accumulators are
// updated a row at a time, acc[i] op= x[i]; splitting the kept dimension
// between goroutines would give each a strip of every row) or r is x's
// outermost dimension (each block is then one slab of memory, read
// straight through). The blocks cover reduceBlockElems elements each, a
// number fixed by the shape alone, which keeps float results independent
// of the thread count.
func reduceBlocks(x *Tensor, mask []bool, n int) (r, blocks int) {
	if n > 1<<16 {
		return 0, 0
	}
	stride := func(i int) int { return max(x.strides[i], -x.strides[i]) }
	fastest, slowest, r := -1, -1, -1
	for i, d := range x.shape {
		if d < 2 {
			continue
		}
		if fastest < 0 || stride(i) < stride(fastest) {
			fastest = i
		}
		if slowest < 0 || stride(i) > stride(slowest) {
			slowest = i
		}
		if mask[i] && (r < 0 || stride(i) > stride(r)) {
			r = i
		}
	}
	if r < 0 || mask[fastest] && r != slowest {
		return 0, 0
	}
	if split := longestKept(x.shape, mask); split >= 0 && split != fastest &&
		stride(split) > stride(r) && x.shape[split] >= 2*iter.Workers(x.Size()) {
		// reduceKept splits a kept dimension outside r into at least two
		// indices per goroutine: each goroutine gets whole slabs, read
		// straight through, and needs no partial accumulators (a
		// reduction over the middle axis of a 256³ float32 tensor: 3.5 ->
		// 1.9 ms, PyTorch 1.5).
		return 0, 0
	}
	per := x.Size() / x.shape[r] // elements per index of r
	step := max(1, reduceBlockElems/per)
	if r == slowest && x.Size() >= reduceSlabsMin {
		step = min(step, (x.shape[r]+reduceSlabs-1)/reduceSlabs)
	}
	return r, (x.shape[r] + step - 1) / step
}

// A reduction over the outermost dimension of reduceSlabsMin elements or
// more goes in at least reduceSlabs blocks, each a slab of whole rows read
// straight through. In fewer (one block of 1000×1000), reduceKept would
// share the columns out, and each goroutine would read a few cache lines
// of every row: 0.46 -> 0.26 ms for that sum in float64 (PyTorch 0.16).
// The count is fixed by the shape, as every block count is.
const (
	reduceSlabs    = 4
	reduceSlabsMin = 4 * iter.MinParallel
)

// reduceBlocked reduces x into n accumulators in blocks along dimension d
// (see reduceInBlocks). A block that is rows of x into one contiguous row
// of accumulators goes to the dtype's ewise.RowsKernel where it has one.
func reduceBlocked(r *ewise.Reduction, x *Tensor, accType DType, n, d, blocks int, bases []unsafe.Pointer, accStrides, xStrides []int) {
	kernel, rows := r.Kernel(x.dtype), r.Rows(x.dtype)
	reduceInBlocks(r, x, accType, n, d, blocks, bases[0], iter.Workers(x.Size()), func(_ int, acc unsafe.Pointer, sub []int, xb unsafe.Pointer) {
		reduceRows(iter.NewPlan(sub, accStrides, xStrides), acc, xb, accType.Size(), x.dtype.Size(), kernel, rows)
	})
}

// reduceRows runs plan p, over operands [acc, x], with kernel, or with rows
// when it is not nil and p's two inner dimensions are rows of x into one
// row of accumulators: then the outer dimensions, if any, are walked here,
// one call of rows each. A reduction over a middle axis (of a 256³ tensor,
// say) has rows of 256 elements; one rows call per 256 of them instead of
// one kernel call per row: 4.8 -> 3.4 ms for that tensor in float32.
func reduceRows(p *iter.Plan, acc, x unsafe.Pointer, accSize, xSize int, kernel iter.Kernel, rows ewise.RowsKernel) {
	if rows == nil || !rowsOfAccumulators(p, accSize, xSize) {
		p.Run([]unsafe.Pointer{acc, x}, kernel)
		return
	}
	shape, accStrides, xStrides := p.Shape(), p.Strides(0), p.Strides(1)
	d := len(shape) - 2 // the outer dimensions are shape[:d]
	var idx [maxOuter]int
	accOff, xOff := 0, 0
	for {
		rows(unsafe.Add(acc, accOff), unsafe.Add(x, xOff), shape[d+1], shape[d], xStrides[d])
		k := d - 1
		for ; k >= 0; k-- {
			idx[k]++
			accOff += accStrides[k]
			xOff += xStrides[k]
			if idx[k] < shape[k] {
				break
			}
			accOff -= accStrides[k] * shape[k]
			xOff -= xStrides[k] * shape[k]
			idx[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

// maxOuter bounds the outer dimensions reduceRows walks itself; a plan with
// more (after merging) goes through the element kernel.
const maxOuter = 8

// reduceInBlocks reduces x into the n accumulators at acc in blocks along
// a reduced dimension d: block k folds its part of x into a set of partial
// accumulators of its own (block 0 into acc itself), the blocks shared
// between up to w goroutines; then the partial sets are combined into acc
// in block order. block is called with the goroutine's number (in [0, w)),
// the accumulators to fold into, the block's shape (x's, with d shortened)
// and its first element of x.
func reduceInBlocks(r *ewise.Reduction, x *Tensor, accType DType, n, d, blocks int, acc unsafe.Pointer, w int,
	block func(worker int, acc unsafe.Pointer, sub []int, xb unsafe.Pointer)) {
	size := accType.Size()
	partials, _ := empty(accType, []int{blocks - 1, n})
	r.Fill(accType, partials.storage, (blocks-1)*n, false)
	step := (x.shape[d] + blocks - 1) / blocks
	xr := x.strides[d] * x.dtype.Size()
	iter.ParallelWorkers(blocks, w, func(worker, lo, hi int) {
		sub := slices.Clone(x.shape)
		for k := lo; k < hi; k++ {
			first, last := k*step, min((k+1)*step, x.shape[d])
			sub[d] = last - first
			a := acc
			if k > 0 {
				a = unsafe.Add(partials.storage, (k-1)*n*size)
			}
			block(worker, a, sub, unsafe.Add(firstElement(x), first*xr))
		}
	})
	// Every accumulator combines the partials in block order; the
	// accumulators are shared out in cache-line multiples, so that many of
	// them (a two-stage reduction's) do not leave one goroutine doing it.
	combine := r.Combine(accType)
	const align = 64
	iter.Parallel((n+align-1)/align, iter.Workers((blocks-1)*n), func(lo, hi int) {
		lo, hi = lo*align, min(hi*align, n)
		for k := range blocks - 1 {
			part := unsafe.Add(partials.storage, (k*n+lo)*size)
			combine([]unsafe.Pointer{unsafe.Add(acc, lo*size), part}, []int{size, size}, hi-lo)
		}
	})
}

// reduceTwoStageMax bounds the intermediate accumulators of a two-stage
// reduction, per goroutine: 64K elements, 512 KiB of float64, stay in the
// L2 cache while they are multiplied into row after row.
const reduceTwoStageMax = 1 << 16

// reduceMids is room for one goroutine's intermediate accumulators in a
// two-stage reduction: reduceTwoStageMax elements of up to 8 bytes (complex
// reductions never take two stages).
type reduceMids [reduceTwoStageMax]uint64

// reduceMidPool keeps reduceMids between reductions. Fresh memory of that size
// on every call would cost zeroing and, once the runtime has handed it back
// to the system, page faults; the accumulators are set to 1 before use
// anyway.
var reduceMidPool = scratch.List[reduceMids]{New: func() *reduceMids { return new(reduceMids) }}

// reduceOuterDims decides whether a reduction into n > 1 accumulators is
// done in two stages (see reduceTwoStage), and returns the dimensions the first
// stage reduces and the number of intermediate accumulators m, or nil. It
// is when x's fastest-moving dimension is reduced, so that the direct walk
// would reduce many runs of it one at a time, each into one accumulator;
// some reduced dimensions lie outside every kept one in memory (these are
// the first stage's) and multiply to 4 or more (the second stage reads all
// m intermediates once per block); and m is at most reduceTwoStageMax.
// Complex reductions keep the direct walk: the product's rule for an
// accumulator of exactly 1 (see ewise.Prod) is stated per element of x,
// and complex128 accumulators do not fit the intermediate buffers.
func reduceOuterDims(x *Tensor, mask []bool, n int) (outer []bool, m int) {
	if n < 2 || x.dtype.IsComplex() {
		return nil, 0
	}
	stride := func(i int) int { return max(x.strides[i], -x.strides[i]) }
	fastest, kept := -1, -1 // kept: the largest stride of a kept dimension
	for i, d := range x.shape {
		if d < 2 {
			continue
		}
		if fastest < 0 || stride(i) < stride(fastest) {
			fastest = i
		}
		if !mask[i] {
			kept = max(kept, stride(i))
		}
	}
	if fastest < 0 || !mask[fastest] {
		return nil, 0
	}
	outer = make([]bool, len(mask))
	m = x.Size()
	for i, d := range x.shape {
		if mask[i] && d >= 2 && stride(i) > kept {
			outer[i] = true
			m /= d
		}
	}
	// The second stage reads all m intermediates once per block: worth it
	// when the outer dimensions multiply to 4 or more.
	if x.Size() < 4*m || m > reduceTwoStageMax {
		return nil, 0
	}
	return outer, m
}

// reduceTwoStage reduces x into n accumulators in two stages, in blocks
// along the outermost of the outer dimensions (see reduceInBlocks). In each
// block, stage one folds x into m intermediate accumulators, one per
// element of x with the outer dimensions removed, laid out in x's memory
// order: whole rows of x at a time into a cache-resident row, the way an
// outer reduction goes (for 256×256×256 reduced over axes 0 and 2, each
// 256×256 slab into one 256×256 row). Stage two reduces the intermediate
// accumulators over the remaining dimensions into the block's
// accumulators. The order of operations depends on the shape alone.
func reduceTwoStage(r *ewise.Reduction, x *Tensor, accType DType, n, m int, outer []bool, bases []unsafe.Pointer, accStrides, xStrides []int) {
	size := accType.Size()
	d := -1 // the outermost outer dimension: blocks are slabs of memory
	for i, o := range outer {
		if o && (d < 0 || max(x.strides[i], -x.strides[i]) > max(x.strides[d], -x.strides[d])) {
			d = i
		}
	}
	per := x.Size() / x.shape[d]
	step := max(1, reduceBlockElems/per)
	blocks := (x.shape[d] + step - 1) / step
	// The intermediate accumulators' shape and byte strides, seen from
	// x's dimensions: size 1 along the outer ones, contiguous in x's
	// memory order along the others. midStrides is the first stage's view
	// of them, stride 0 along the dimensions it reduces.
	midShape, midStrides, toMid := slices.Clone(x.shape), make([]int, len(x.shape)), make([]int, len(x.shape))
	order := make([]int, 0, len(x.shape))
	for i := range x.shape {
		if outer[i] {
			midShape[i] = 1
		}
		order = append(order, i)
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return max(x.strides[b], -x.strides[b]) - max(x.strides[a], -x.strides[a])
	})
	for j, s := len(order)-1, size; j >= 0; j-- {
		i := order[j]
		midStrides[i] = s
		if !outer[i] {
			toMid[i] = s
		}
		s *= midShape[i]
	}
	w := min(iter.Workers(x.Size()), blocks)
	mids := make([]*reduceMids, w)
	for k := range mids {
		mids[k] = reduceMidPool.Get()
		defer reduceMidPool.Put(mids[k])
	}
	kernel, rows, combine := r.Kernel(x.dtype), r.Rows(x.dtype), r.Combine(accType)
	stage2 := iter.NewPlan(midShape, accStrides, midStrides)
	reduceInBlocks(r, x, accType, n, d, blocks, bases[0], w, func(worker int, acc unsafe.Pointer, sub []int, xb unsafe.Pointer) {
		mid := unsafe.Pointer(mids[worker])
		r.Fill(accType, mid, m, false)
		reduceRows(iter.NewPlan(sub, toMid, xStrides), mid, xb, size, x.dtype.Size(), kernel, rows)
		stage2.Run([]unsafe.Pointer{acc, mid}, combine)
	})
}

// longestKept returns the longest dimension that mask keeps (the first of
// equals), or -1 when it keeps none.
func longestKept(s []int, mask []bool) int {
	split := -1
	for i, d := range s {
		if !mask[i] && (split < 0 || d > s[split]) {
			split = i
		}
	}
	return split
}

// rowsOfAccumulators reports whether the two inner dimensions of plan p,
// over operands [acc, x] of element sizes accSize and xSize, are rows of x
// folded into one contiguous row of accumulators (a reduction over x's
// outer axis, as in a block of reduceBlocked, or over a middle one), which
// an ewise.RowsKernel does several rows per pass.
func rowsOfAccumulators(p *iter.Plan, accSize, xSize int) bool {
	d := len(p.Shape()) - 2
	if d < 0 || d > maxOuter {
		return false
	}
	acc, x := p.Strides(0), p.Strides(1)
	return acc[d] == 0 && acc[d+1] == accSize && x[d+1] == xSize && x[d] > 0 && x[d]%xSize == 0
}

// reduceKept reduces x into several accumulators. With more than one
// goroutine the work is split along a kept dimension, so every
// accumulator is computed by one goroutine, in the same order as by one
// goroutine alone.
func reduceKept(r *ewise.Reduction, x *Tensor, accType DType, mask []bool, bases []unsafe.Pointer, accStrides, xStrides []int) {
	kernel, rows := r.Kernel(x.dtype), r.Rows(x.dtype)
	accSize, xSize := accType.Size(), x.dtype.Size()
	w := iter.Workers(x.Size())
	split := longestKept(x.shape, mask)
	// Each part keeps at least two indices along the split dimension, so
	// that no part's plan drops the dimension and walks the others in a
	// different order.
	w = min(w, x.shape[split]/2)
	pair := r.Pairs(x.dtype)
	if w <= 1 {
		reduceRowPairs(iter.NewPlan(x.shape, accStrides, xStrides), bases[0], bases[1], accSize, xSize, kernel, rows, pair)
		return
	}
	d := x.shape[split]
	pairs := d / 2 // units of two indices, the last one taking an odd third
	iter.Parallel(pairs, w, func(lo, hi int) {
		lo *= 2
		if hi == pairs {
			hi = d
		} else {
			hi *= 2
		}
		sub := slices.Clone(x.shape)
		sub[split] = hi - lo
		p := iter.NewPlan(sub, accStrides, xStrides)
		pb := []unsafe.Pointer{
			unsafe.Add(bases[0], lo*accStrides[split]),
			unsafe.Add(bases[1], lo*xStrides[split]),
		}
		reduceRowPairs(p, pb[0], pb[1], accSize, xSize, kernel, rows, pair)
	})
}

// reduceRowPairs runs plan p, over operands [acc, x], as reduceRows does,
// except that a plan of contiguous rows of x each reduced into its own
// accumulator (shape [rows, n], acc strides [s ≠ 0, 0], x's inner stride
// one element) goes through pair, two rows at a time, when pair is not
// nil: each accumulator gets the bits the run kernel gives it. Row i is
// paired with row i+h, h half the rows, so that each of the pair kernel's
// two streams reads h rows straight through (one long run of memory when
// the rows are packed, as a chunk of a reduction to one element is), not
// one row before both jump: the product over axis 1 of 4096×4096
// float32 (BenchmarkProdAxis1x4096Float32), two goroutines, took 0.8x the
// process CPU time of neighbours paired, as little as a reduction to one
// element of the same bytes (AMD EPYC Zen 5, alternating processes).
func reduceRowPairs(p *iter.Plan, acc, x unsafe.Pointer, accSize, xSize int, kernel iter.Kernel, rows ewise.RowsKernel, pair ewise.PairKernel) {
	sh, as, xs := p.Shape(), p.Strides(0), p.Strides(1)
	if pair == nil || len(sh) != 2 || as[1] != 0 || as[0] == 0 || xs[1] != xSize {
		reduceRows(p, acc, x, accSize, xSize, kernel, rows)
		return
	}
	h := sh[0] / 2
	for i := range h {
		j := i + h
		pair(unsafe.Add(acc, i*as[0]), unsafe.Add(acc, j*as[0]), unsafe.Add(x, i*xs[0]), unsafe.Add(x, j*xs[0]), sh[1])
	}
	if i := 2 * h; i < sh[0] {
		kernel([]unsafe.Pointer{unsafe.Add(acc, i*as[0]), unsafe.Add(x, i*xs[0])}, []int{0, xSize}, sh[1])
	}
}

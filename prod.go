package tensor

import (
	"slices"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/ewise"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/scratch"
	"github.com/tensor-go/tensor/shape"
)

// ReduceOption configures a reduction such as Prod.
type ReduceOption func(*reduceConfig)

// reduceConfig is what the options of a reduction set.
type reduceConfig struct {
	axes     []int
	axesSet  bool // false: reduce every axis
	keepDims bool
}

// Axis reduces over the given axes only; negative axes count from the
// end. Without an Axis option a reduction covers every axis; Axis() with
// no axes reduces over none (the shape is unchanged; the result dtype rule
// still applies).
func Axis(axes ...int) ReduceOption {
	axes = slices.Clone(axes)
	return func(c *reduceConfig) { c.axes, c.axesSet = axes, true }
}

// KeepDims keeps each reduced axis in the result as a dimension of size 1,
// so that the result broadcasts against the input.
func KeepDims(keep bool) ReduceOption {
	return func(c *reduceConfig) { c.keepDims = keep }
}

// Prod returns the product of x's elements over the axes chosen by the
// options (all of them by default) (semantics §6). The result dtype is
// dtype.ProdResult(x's dtype): bool, int8 and int16 give int32, uint8 and
// uint16 give uint32, the others keep their dtype. float16 and bfloat16
// are multiplied in float32 and rounded once at the end. The product of no
// elements is 1; integers wrap; NaN propagates.
//
// Float products are computed in an order fixed by x's shape and layout
// alone, so the result is the same bit for bit on every run and with any
// number of threads.
func Prod(x *Tensor, opts ...ReduceOption) (*Tensor, error) {
	if err := requireStrided("prod", x); err != nil {
		return nil, err
	}
	mask, s, err := prodShape(x, opts)
	if err != nil {
		return nil, err
	}
	// prodRun sets every element: it fills the accumulators with ones
	// before multiplying into them, or copies them into out.
	out, err := newProductTensor(dtype.ProdResult(x.dtype), s)
	if err != nil {
		return nil, wrapErr("prod", err)
	}
	if err := prodRun(out, x, mask); err != nil {
		return nil, err
	}
	return out, nil
}

// ProdInto writes the product of x's elements over the chosen axes into
// out, which must have the result's shape and a dtype the result can be
// cast into (an integer product into a float output is allowed, a float
// product into an integer output is an ErrDType).
func ProdInto(out, x *Tensor, opts ...ReduceOption) error {
	if err := requireStrided("prod", out, x); err != nil {
		return err
	}
	if out == nil {
		return opErr("prod", ErrValue, "nil output tensor")
	}
	if err := checkWritable("prod", out); err != nil {
		return err
	}
	noteWrite(out)
	mask, s, err := prodShape(x, opts)
	if err != nil {
		return err
	}
	if !shape.Equal(out.shape, s) {
		return opErr("prod", ErrShape, "output shape %s is not the result shape %s of reducing %s",
			shape.String(out.shape), shape.String(s), shape.String(x.shape))
	}
	if rd := dtype.ProdResult(x.dtype); !dtype.CanCastInto(rd, out.dtype) {
		return opErr("prod", ErrDType, "cannot write the %v product of %v into a %v output", rd, x.dtype, out.dtype)
	}
	if sharesStorage(out, x) {
		// The output is written while x is still being read: reduce into
		// a temporary instead.
		tmp, err := empty(out.dtype, s)
		if err != nil {
			return wrapErr("prod", err)
		}
		if err := prodRun(tmp, x, mask); err != nil {
			return err
		}
		return copyInto(out, tmp)
	}
	return prodRun(out, x, mask)
}

// prodShape applies the options to x: the mask of reduced dimensions and
// the result shape.
func prodShape(x *Tensor, opts []ReduceOption) (mask []bool, s []int, err error) {
	if x == nil {
		return nil, nil, opErr("prod", ErrValue, "nil tensor")
	}
	var c reduceConfig
	for _, o := range opts {
		o(&c)
	}
	mask = make([]bool, len(x.shape))
	if !c.axesSet {
		for i := range mask {
			mask[i] = true
		}
	}
	for _, a := range c.axes {
		n, err := shape.NormalizeAxis(a, len(x.shape))
		if err != nil {
			return nil, nil, opErr("prod", ErrAxis, "axis %d is out of range for shape %s", a, shape.String(x.shape))
		}
		if mask[n] {
			return nil, nil, opErr("prod", ErrAxis, "axis %d is repeated in %v for shape %s", a, c.axes, shape.String(x.shape))
		}
		mask[n] = true
	}
	return mask, shape.Reduced(x.shape, mask, c.keepDims), nil
}

// prodRun reduces x over the masked dimensions into out, whose shape and
// dtype have been checked and which shares no storage with x.
//
// The products are carried in accumulators of dtype
// ewise.ProdAccumulator, laid out like x with the reduced dimensions
// removed: out itself when its dtype and layout allow, else a temporary
// that is converted into out at the end (which is where float16 and
// bfloat16 results are rounded, once).
//
// The reduction goes one of four ways, each with an order of products fixed
// by the shape and layout alone: to a single element, chunk by chunk
// (prodAll); over the inner dimension and outer ones together, in two
// stages (prodTwoStage); over an outer dimension, in blocks of it
// (prodBlocked); else split along a kept dimension (prodKept).
func prodRun(out, x *Tensor, mask []bool) error {
	accType := ewise.ProdAccumulator(x.dtype)
	kept := shape.Reduced(x.shape, mask, true)
	acc := out
	if out.dtype != accType || !out.IsContiguous() {
		var err error
		if acc, err = empty(accType, out.shape); err != nil {
			return wrapErr("prod", err) // float32 accumulators for float16 are twice the size
		}
	}
	n := acc.Size()
	accBase := firstElement(acc)
	if n > 0 {
		ewise.FillOne(accType, accBase, n)
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
		outer, m := prodOuterDims(x, mask, n)
		switch r, blocks := prodBlocks(x, mask, n); {
		case n == 1:
			prodAll(x, accType, bases, accStrides, xStrides)
		case outer != nil:
			prodTwoStage(x, accType, n, m, outer, bases, accStrides, xStrides)
		case blocks > 1:
			prodBlocked(x, accType, n, r, blocks, bases, accStrides, xStrides)
		default:
			prodKept(x, accType, mask, bases, accStrides, xStrides)
		}
	}
	if acc != out {
		return copyInto(out, acc)
	}
	return nil
}

// prodChunk is the number of elements whose product is taken on its own
// before the partial products are combined, in a reduction to a single
// element. Fixing it (rather than dividing by the number of threads)
// fixes the order of float products. A variable so that tests can shrink
// it.
var prodChunk = iter.MinParallel

// prodAll reduces all of x into the single accumulator at bases[0]: each
// chunk of prodChunk elements (in the plan's order) into a partial product
// of its own, the chunks shared between goroutines, then the partial
// products in chunk order.
func prodAll(x *Tensor, accType DType, bases []unsafe.Pointer, accStrides, xStrides []int) {
	p := iter.NewPlan(x.shape, accStrides, xStrides)
	chunks := p.Chunks(prodChunk)
	partials, _ := empty(accType, []int{chunks})
	ewise.FillOne(accType, partials.storage, chunks)
	kernel := ewise.Prod(x.dtype)
	size := accType.Size()
	iter.Parallel(chunks, iter.Workers(x.Size()), func(lo, hi int) {
		for c := lo; c < hi; c++ {
			cb := []unsafe.Pointer{unsafe.Add(partials.storage, c*size), bases[1]}
			p.RunChunk(cb, c, prodChunk, kernel)
		}
	})
	// Combine: acc *= partial[0] * partial[1] * ..., with the accumulator
	// type's own kernel, whose order depends on the chunk count alone.
	ewise.Prod(accType)([]unsafe.Pointer{bases[0], partials.storage}, []int{0, size}, chunks)
}

// prodBlockElems is the number of elements of x that one block of an outer
// reduction covers (see prodBlocks). A variable so that tests can shrink it.
var prodBlockElems = 1 << 20

// prodBlocks decides whether a reduction into n accumulators is done in
// blocks along a reduced dimension r, and into how many. It is when the
// accumulators are few enough (64K) for one set per block, and either the
// dimension x walks fastest in memory is kept (the accumulators are
// updated a row at a time, acc[i] *= x[i]; splitting the kept dimension
// between goroutines would give each a strip of every row) or r is x's
// outermost dimension (each block is then one slab of memory, read
// straight through). The blocks cover prodBlockElems elements each, a
// number fixed by the shape alone, which keeps float results independent
// of the thread count.
func prodBlocks(x *Tensor, mask []bool, n int) (r, blocks int) {
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
		// prodKept splits a kept dimension outside r into at least two
		// indices per goroutine: each goroutine gets whole slabs, read
		// straight through, and needs no partial accumulators (a
		// reduction over the middle axis of a 256³ float32 tensor: 3.5 ->
		// 1.9 ms, PyTorch 1.5).
		return 0, 0
	}
	per := x.Size() / x.shape[r] // elements per index of r
	step := max(1, prodBlockElems/per)
	return r, (x.shape[r] + step - 1) / step
}

// prodBlocked reduces x into n accumulators in blocks along dimension r
// (see prodInBlocks). A block that is rows of x into one contiguous row of
// accumulators goes to the dtype's ewise.RowsKernel where it has one.
func prodBlocked(x *Tensor, accType DType, n, r, blocks int, bases []unsafe.Pointer, accStrides, xStrides []int) {
	kernel, rows := ewise.Prod(x.dtype), ewise.ProdRows(x.dtype)
	size := accType.Size()
	prodInBlocks(x, accType, n, r, blocks, bases[0], iter.Workers(x.Size()), func(_ int, acc unsafe.Pointer, sub []int, xb unsafe.Pointer) {
		prodRows(iter.NewPlan(sub, accStrides, xStrides), acc, xb, size, kernel, rows)
	})
}

// prodRows runs plan p, over operands [acc, x], with kernel, or with rows
// when it is not nil and p's two inner dimensions are rows of x into one
// row of accumulators: then the outer dimensions, if any, are walked here,
// one call of rows each. A reduction over a middle axis (of a 256³ tensor,
// say) has rows of 256 elements; one rows call per 256 of them instead of
// one kernel call per row: 4.8 -> 3.4 ms for that tensor in float32.
func prodRows(p *iter.Plan, acc, x unsafe.Pointer, size int, kernel iter.Kernel, rows ewise.RowsKernel) {
	if rows == nil || !rowsOfAccumulators(p, size) {
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

// maxOuter bounds the outer dimensions prodRows walks itself; a plan with
// more (after merging) goes through the element kernel.
const maxOuter = 8

// prodInBlocks reduces x into the n accumulators at acc in blocks along
// a reduced dimension r: block k multiplies its part of x into a set of
// partial accumulators of its own (block 0 into acc itself), the blocks
// shared between up to w goroutines; then the partial sets are multiplied
// into acc in block order. block is called with the goroutine's number (in
// [0, w)), the accumulators to multiply into, the block's shape (x's, with
// r shortened) and its first element of x.
func prodInBlocks(x *Tensor, accType DType, n, r, blocks int, acc unsafe.Pointer, w int,
	block func(worker int, acc unsafe.Pointer, sub []int, xb unsafe.Pointer)) {
	size := accType.Size()
	partials, _ := empty(accType, []int{blocks - 1, n})
	ewise.FillOne(accType, partials.storage, (blocks-1)*n)
	step := (x.shape[r] + blocks - 1) / blocks
	xr := x.strides[r] * x.dtype.Size()
	iter.ParallelWorkers(blocks, w, func(worker, lo, hi int) {
		sub := slices.Clone(x.shape)
		for k := lo; k < hi; k++ {
			first, last := k*step, min((k+1)*step, x.shape[r])
			sub[r] = last - first
			a := acc
			if k > 0 {
				a = unsafe.Add(partials.storage, (k-1)*n*size)
			}
			block(worker, a, sub, unsafe.Add(firstElement(x), first*xr))
		}
	})
	// Every accumulator multiplies in the partials in block order; the
	// accumulators are shared out in cache-line multiples, so that many of
	// them (a two-stage reduction's) do not leave one goroutine doing it.
	combine := ewise.Prod(accType)
	const align = 64
	iter.Parallel((n+align-1)/align, iter.Workers((blocks-1)*n), func(lo, hi int) {
		lo, hi = lo*align, min(hi*align, n)
		for k := range blocks - 1 {
			part := unsafe.Add(partials.storage, (k*n+lo)*size)
			combine([]unsafe.Pointer{unsafe.Add(acc, lo*size), part}, []int{size, size}, hi-lo)
		}
	})
}

// prodTwoStageMax bounds the intermediate accumulators of a two-stage
// reduction, per goroutine: 64K elements, 512 KiB of float64, stay in the
// L2 cache while they are multiplied into row after row.
const prodTwoStageMax = 1 << 16

// prodMids is room for one goroutine's intermediate accumulators in a
// two-stage reduction: prodTwoStageMax elements of up to 8 bytes (complex
// reductions never take two stages).
type prodMids [prodTwoStageMax]uint64

// prodMidPool keeps prodMids between reductions. Fresh memory of that size
// on every call would cost zeroing and, once the runtime has handed it back
// to the system, page faults; the accumulators are set to 1 before use
// anyway.
var prodMidPool = scratch.List[prodMids]{New: func() *prodMids { return new(prodMids) }}

// prodOuterDims decides whether a reduction into n > 1 accumulators is done
// in two stages (see prodTwoStage), and returns the dimensions the first
// stage reduces and the number of intermediate accumulators m, or nil. It
// is when x's fastest-moving dimension is reduced, so that the direct walk
// would reduce many runs of it one at a time, each into one accumulator;
// some reduced dimensions lie outside every kept one in memory (these are
// the first stage's) and multiply to 4 or more (the second stage reads all
// m intermediates once per block); and m is at most prodTwoStageMax.
// Complex products keep the direct walk, whose rule for an accumulator of
// exactly 1 (see ewise.Prod) is stated per element of x.
func prodOuterDims(x *Tensor, mask []bool, n int) (outer []bool, m int) {
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
	if x.Size() < 4*m || m > prodTwoStageMax {
		return nil, 0
	}
	return outer, m
}

// prodTwoStage reduces x into n accumulators in two stages, in blocks
// along the outermost of the outer dimensions (see prodInBlocks). In each
// block, stage one multiplies x into m intermediate accumulators, one per
// element of x with the outer dimensions removed, laid out in x's memory
// order: whole rows of x at a time into a cache-resident row, the way an
// outer reduction goes (for 256×256×256 reduced over axes 0 and 2, each
// 256×256 slab into one 256×256 row). Stage two reduces the intermediate
// accumulators over the remaining dimensions into the block's
// accumulators. The order of products depends on the shape alone.
func prodTwoStage(x *Tensor, accType DType, n, m int, outer []bool, bases []unsafe.Pointer, accStrides, xStrides []int) {
	size := accType.Size()
	r := -1 // the outermost outer dimension: blocks are slabs of memory
	for i, o := range outer {
		if o && (r < 0 || max(x.strides[i], -x.strides[i]) > max(x.strides[r], -x.strides[r])) {
			r = i
		}
	}
	per := x.Size() / x.shape[r]
	step := max(1, prodBlockElems/per)
	blocks := (x.shape[r] + step - 1) / step
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
	mids := make([]*prodMids, w)
	for k := range mids {
		mids[k] = prodMidPool.Get()
		defer prodMidPool.Put(mids[k])
	}
	kernel, rows, reduce := ewise.Prod(x.dtype), ewise.ProdRows(x.dtype), ewise.Prod(accType)
	stage2 := iter.NewPlan(midShape, accStrides, midStrides)
	prodInBlocks(x, accType, n, r, blocks, bases[0], w, func(worker int, acc unsafe.Pointer, sub []int, xb unsafe.Pointer) {
		mid := unsafe.Pointer(mids[worker])
		ewise.FillOne(accType, mid, m)
		prodRows(iter.NewPlan(sub, toMid, xStrides), mid, xb, size, kernel, rows)
		stage2.Run([]unsafe.Pointer{acc, mid}, reduce)
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
// over operands [acc, x] of element size size, are rows of x multiplied
// into one contiguous row of accumulators (a reduction over x's outer
// axis, as in a block of prodBlocked, or over a middle one), which an
// ewise.RowsKernel does several rows per pass.
func rowsOfAccumulators(p *iter.Plan, size int) bool {
	d := len(p.Shape()) - 2
	if d < 0 || d > maxOuter {
		return false
	}
	acc, x := p.Strides(0), p.Strides(1)
	return acc[d] == 0 && acc[d+1] == size && x[d+1] == size && x[d] > 0 && x[d]%size == 0
}

// prodKept reduces x into several accumulators. With more than one
// goroutine the work is split along a kept dimension, so every
// accumulator is computed by one goroutine, in the same order as by one
// goroutine alone.
func prodKept(x *Tensor, accType DType, mask []bool, bases []unsafe.Pointer, accStrides, xStrides []int) {
	kernel, rows := ewise.Prod(x.dtype), ewise.ProdRows(x.dtype)
	size := accType.Size()
	w := iter.Workers(x.Size())
	split := longestKept(x.shape, mask)
	// Each part keeps at least two indices along the split dimension, so
	// that no part's plan drops the dimension and walks the others in a
	// different order.
	w = min(w, x.shape[split]/2)
	if w <= 1 {
		prodRows(iter.NewPlan(x.shape, accStrides, xStrides), bases[0], bases[1], size, kernel, rows)
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
		prodRows(p, pb[0], pb[1], size, kernel, rows)
	})
}

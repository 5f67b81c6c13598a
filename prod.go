package tensor

import (
	"slices"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/ewise"
	"github.com/tensor-go/tensor/internal/iter"
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
	out, err := empty(dtype.ProdResult(x.dtype), s)
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
	if out.storage != nil && out.storage == x.storage {
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
		switch r, blocks := prodBlocks(x, mask, n); {
		case n == 1:
			prodAll(x, accType, bases, accStrides, xStrides)
		case blocks > 1:
			prodBlocked(x, accType, n, r, blocks, bases, accStrides, xStrides)
		default:
			prodKept(x, mask, bases, accStrides, xStrides)
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
	per := x.Size() / x.shape[r] // elements per index of r
	step := max(1, prodBlockElems/per)
	return r, (x.shape[r] + step - 1) / step
}

// prodBlocked reduces x into n accumulators in blocks along dimension r:
// block k multiplies its part of x into a set of partial accumulators of
// its own (block 0 into the result's), the blocks shared between
// goroutines; then the partial sets are multiplied into the result in
// block order. A block that is rows of x into one contiguous row of
// accumulators goes to the dtype's ewise.RowsKernel where it has one.
func prodBlocked(x *Tensor, accType DType, n, r, blocks int, bases []unsafe.Pointer, accStrides, xStrides []int) {
	size := accType.Size()
	partials, _ := empty(accType, []int{blocks - 1, n})
	ewise.FillOne(accType, partials.storage, (blocks-1)*n)
	kernel, rows := ewise.Prod(x.dtype), ewise.ProdRows(x.dtype)
	step := (x.shape[r] + blocks - 1) / blocks
	iter.Parallel(blocks, iter.Workers(x.Size()), func(lo, hi int) {
		for k := lo; k < hi; k++ {
			first, last := k*step, min((k+1)*step, x.shape[r])
			sub := slices.Clone(x.shape)
			sub[r] = last - first
			acc := bases[0]
			if k > 0 {
				acc = unsafe.Add(partials.storage, (k-1)*n*size)
			}
			p := iter.NewPlan(sub, accStrides, xStrides)
			xb := unsafe.Add(bases[1], first*xStrides[r])
			if rows != nil && rowsOfAccumulators(p, size) {
				shape, rowStride := p.Shape(), p.Strides(1)[0]
				rows(acc, xb, shape[1], shape[0], rowStride)
				continue
			}
			p.Run([]unsafe.Pointer{acc, xb}, kernel)
		}
	})
	combine := ewise.Prod(accType)
	for k := range blocks - 1 {
		part := unsafe.Add(partials.storage, k*n*size)
		combine([]unsafe.Pointer{bases[0], part}, []int{size, size}, n)
	}
}

// rowsOfAccumulators reports whether plan p, over operands [acc, x] of
// element size size, is rows of x multiplied into one contiguous row of
// accumulators (a reduction over x's outer axis, as in a block of
// prodBlocked), which an ewise.RowsKernel does several rows per pass.
func rowsOfAccumulators(p *iter.Plan, size int) bool {
	acc, x := p.Strides(0), p.Strides(1)
	return len(p.Shape()) == 2 && acc[0] == 0 && acc[1] == size &&
		x[1] == size && x[0] > 0 && x[0]%size == 0
}

// prodKept reduces x into several accumulators. With more than one
// goroutine the work is split along a kept dimension, so every
// accumulator is computed by one goroutine, in the same order as by one
// goroutine alone.
func prodKept(x *Tensor, mask []bool, bases []unsafe.Pointer, accStrides, xStrides []int) {
	kernel := ewise.Prod(x.dtype)
	w := iter.Workers(x.Size())
	split := -1 // the longest kept dimension
	for i, d := range x.shape {
		if !mask[i] && (split < 0 || d > x.shape[split]) {
			split = i
		}
	}
	// Each part keeps at least two indices along the split dimension, so
	// that no part's plan drops the dimension and walks the others in a
	// different order.
	w = min(w, x.shape[split]/2)
	if w <= 1 {
		iter.NewPlan(x.shape, accStrides, xStrides).Run(bases, kernel)
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
		p.Run(pb, kernel)
	})
}

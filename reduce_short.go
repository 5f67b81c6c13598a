package tensor

import (
	"slices"
	"unsafe"

	"github.com/tensor-go/tensor/internal/cast"
	"github.com/tensor-go/tensor/internal/ewise"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/scratch"
	"github.com/tensor-go/tensor/shape"
)

// reduceShortChunk is the number of accumulators one piece of the
// segments schedule covers: the pieces are shared between goroutines, and
// each accumulator is computed by one of them, so the split never changes
// a result.
const reduceShortChunk = 1 << 12

// reduceShortOn enables the segments schedule; tests turn it off to
// compare it with the direct walk it replaces.
var reduceShortOn = true

// reduceShort runs the segments schedule when it applies and reports
// whether it did. It applies when the reduced dimensions are the ones x
// walks fastest in memory and together form one short segment (at most
// ewise.MaxSegment elements, a constant stride apart) per accumulator: a
// product over a last axis of length 3, say. The direct walk would call
// the run kernel once per segment, 28 ns for three elements; the
// reduction's SegmentsKernel takes a whole run of the kept dimensions per
// call instead, with the same order of operations per accumulator.
func reduceShort(r *ewise.Reduction, x *Tensor, accType DType, mask []bool, bases []unsafe.Pointer, accStrides, xStrides []int) bool {
	kernel := r.Segments(x.dtype)
	seg, sseg, ok := shortSegment(x, mask)
	if kernel == nil || !ok || !reduceShortOn {
		return false
	}
	kept := slices.Clone(x.shape)
	for i := range kept {
		if mask[i] {
			kept[i] = 1
		}
	}
	p := iter.NewPlan(kept, accStrides, xStrides)
	runs := func(ptrs []unsafe.Pointer, strides []int, n int) {
		kernel(ptrs[0], ptrs[1], strides[0], strides[1], n, seg, sseg)
	}
	iter.Parallel(p.Chunks(reduceShortChunk), iter.Workers(x.Size()), func(lo, hi int) {
		for c := lo; c < hi; c++ {
			p.RunChunk(bases, c, reduceShortChunk, runs)
		}
	})
	return true
}

// shortSegment returns the length seg and byte stride sseg of the segment
// x's reduced dimensions form, and whether they form one that the segments
// schedule takes: dimensions of size 1 aside, the reduced ones have
// positive strides, each the stride of the next-smaller times that one's
// length (one evenly spaced run, as the plan would merge them), at most
// ewise.MaxSegment elements in all, and every kept dimension has a larger
// stride than all of them (the plan's direct walk has them innermost).
func shortSegment(x *Tensor, mask []bool) (seg, sseg int, ok bool) {
	var dims []int
	largestReduced := 0
	for i, d := range x.shape {
		if d >= 2 && mask[i] {
			dims = append(dims, i)
			largestReduced = max(largestReduced, x.strides[i])
		}
	}
	if len(dims) == 0 {
		return 0, 0, false
	}
	slices.SortFunc(dims, func(a, b int) int { return x.strides[a] - x.strides[b] })
	seg = 1
	for k, i := range dims {
		if x.strides[i] <= 0 || k > 0 && x.strides[i] != x.strides[dims[k-1]]*x.shape[dims[k-1]] {
			return 0, 0, false
		}
		seg *= x.shape[i]
	}
	if seg > ewise.MaxSegment {
		return 0, 0, false
	}
	for i, d := range x.shape {
		if d >= 2 && !mask[i] && max(x.strides[i], -x.strides[i]) <= largestReduced {
			return 0, 0, false
		}
	}
	return seg, x.strides[dims[0]] * x.dtype.Size(), true
}

// reduceShortBatch is the accumulators reduceShortInto carries at a time
// (up to 8 KiB of complex128 per goroutine, in L1).
const reduceShortBatch = 512

// reduceShortInto is the segments schedule for a contiguous result of
// dtype rd, and reports whether it ran. Each accumulator takes one
// segment, so the accumulators need not outlive a batch: for a result
// narrower than its accumulators (float32, float16, bfloat16 carried in
// float64, complex64 in complex128) a batch is filled, folded into and
// rounded into out, in a buffer that stays in L1, instead of a whole
// accumulator tensor filled, folded into and converted into out in passes
// over memory. The rounding is the conversion the other path ends with,
// element by element, so the bits are the same. A result that is its own
// accumulators (float64, int32) is filled and folded into a batch at a
// time in place, instead of filled whole first: a third of a product over
// a last axis of 10^6×3 float64 went to that fill's pass.
func reduceShortInto(r *ewise.Reduction, out, x *Tensor, mask []bool, accType, rd DType) bool {
	if reduceRowsInto(r, out, x, mask, accType, rd) {
		return true
	}
	kernel := r.Segments(x.dtype)
	if !reduceShortOn || kernel == nil || out.dtype != rd || !out.IsContiguous() || out.Size() < 2 || x.Size() == 0 {
		return false
	}
	seg, sseg, ok := shortSegment(x, mask)
	if !ok {
		return false
	}
	kept := slices.Clone(x.shape)
	for i := range kept {
		if mask[i] {
			kept[i] = 1
		}
	}
	outStrides := shape.ContiguousStrides(kept)
	for i := range outStrides {
		outStrides[i] *= rd.Size()
	}
	p := iter.NewPlan(kept, outStrides, byteStrides(x, x.shape))
	bases := []unsafe.Pointer{firstElement(out), firstElement(x)}
	convert, accSize := cast.Kernel(rd, accType), accType.Size()
	chunks := p.Chunks(reduceShortChunk)
	w := min(iter.Workers(x.Size()), chunks)
	buffers := reduceShortBuffers.get(w)
	defer reduceShortBuffers.put(buffers)
	iter.ParallelWorkers(chunks, w, func(worker, lo, hi int) {
		buf := unsafe.Pointer(buffers[worker])
		runs := func(ptrs []unsafe.Pointer, strides []int, n int) {
			for i := 0; i < n; i += reduceShortBatch {
				k := min(reduceShortBatch, n-i)
				dst, src := unsafe.Add(ptrs[0], i*strides[0]), unsafe.Add(ptrs[1], i*strides[1])
				if accType == rd && strides[0] == accSize {
					// out is its own accumulators: filled and folded into
					// a batch at a time, while the batch is in L1.
					r.Fill(accType, dst, k, false)
					kernel(dst, src, accSize, strides[1], k, seg, sseg)
					continue
				}
				r.Fill(accType, buf, k, false)
				kernel(buf, src, accSize, strides[1], k, seg, sseg)
				convert(dst, strides[0], buf, accSize, k)
			}
		}
		for c := lo; c < hi; c++ {
			p.RunChunk(bases, c, reduceShortChunk, runs)
		}
	})
	return true
}

// reduceRowsInto is reduceShortInto for a reduction over middle axes (a
// sum over axis 1 of 1000×3×1000 float32): the plan's two inner
// dimensions are rows of x into one contiguous row of accumulators, which
// the dtype's RowsKernel folds, as reduceKept would, and every reduced
// dimension is among those rows, so a row of accumulators is complete
// after one call. It takes the row in strips of reduceShortStrip: filled,
// folded into and rounded into out while in L1. The accumulator tensor
// it saves was two thirds of the time (filling fresh memory, converting
// it into out). Up to ewise.RowsIntoMax rows, a result of x's dtype goes
// to the dtype's RowsIntoKernel instead, which carries each accumulator
// in a register from the first row to out (the same operations, so the
// same bits), float64 results too: 1.75 -> 1.3 ms of CPU for that sum
// in float32, the rest of it the memory (one thread, Xeon Sapphire
// Rapids under KVM; NumPy 0.75).
func reduceRowsInto(r *ewise.Reduction, out, x *Tensor, mask []bool, accType, rd DType) bool {
	rows, into, n := r.Rows(x.dtype), r.RowsInto(x.dtype), out.Size()
	if rd != x.dtype {
		into = nil // the kernels write x's dtype
	}
	if !reduceShortOn || rows == nil && into == nil || accType == rd && into == nil || out.dtype != rd || !out.IsContiguous() || n < 2 || x.Size() == 0 {
		return false
	}
	if outer, _ := reduceOuterDims(x, mask, n); outer != nil {
		return false
	}
	if _, blocks := reduceBlocks(x, mask, n); blocks > 1 {
		return false
	}
	accSize, xSize, outSize := accType.Size(), x.dtype.Size(), rd.Size()
	accStrides := shape.ContiguousStrides(shape.Reduced(x.shape, mask, true))
	for i := range accStrides {
		if mask[i] {
			accStrides[i] = 0
		}
		accStrides[i] *= accSize
	}
	p := iter.NewPlan(x.shape, accStrides, byteStrides(x, x.shape))
	if !rowsOfAccumulators(p, accSize, xSize) {
		return false
	}
	sh, as, xs := p.Shape(), p.Strides(0), p.Strides(1)
	d := len(sh) - 2
	outerCount := 1
	for k := range d {
		if as[k] == 0 {
			return false // a reduced dimension outside the rows
		}
		outerCount *= sh[k]
	}
	inner, nrows, rowStride := sh[d+1], sh[d], xs[d]
	if nrows > ewise.RowsIntoMax {
		into = nil
	}
	if into == nil && (rows == nil || accType == rd) {
		return false
	}
	strips := (inner + reduceShortStrip - 1) / reduceShortStrip
	outBase, xBase := firstElement(out), firstElement(x)
	convert := cast.Kernel(rd, accType)
	w := min(iter.Workers(x.Size()), outerCount*strips)
	var buffers []*reduceShortBuffer
	if into == nil {
		buffers = reduceShortBuffers.get(w)
		defer reduceShortBuffers.put(buffers)
	}
	iter.ParallelWorkers(outerCount*strips, w, func(worker, lo, hi int) {
		for u := lo; u < hi; u++ {
			o, c := u/strips, (u%strips)*reduceShortStrip
			accOff, xOff := 0, 0
			for k, rem := d-1, o; k >= 0; k-- {
				i := rem % sh[k]
				rem /= sh[k]
				accOff, xOff = accOff+i*as[k], xOff+i*xs[k]
			}
			m := min(reduceShortStrip, inner-c)
			dst, src := unsafe.Add(outBase, (accOff/accSize+c)*outSize), unsafe.Add(xBase, xOff+c*xSize)
			if into != nil {
				into(dst, src, m, nrows, rowStride)
				continue
			}
			buf := unsafe.Pointer(buffers[worker])
			r.Fill(accType, buf, m, false)
			rows(buf, src, m, nrows, rowStride)
			convert(dst, outSize, buf, accSize, m)
		}
	})
	return true
}

// reduceShortBuffer is one goroutine's accumulators in reduceShortInto
// (reduceShortBatch of up to 16 bytes) or reduceRowsInto
// (reduceShortStrip of up to 16 bytes).
type reduceShortBuffer [2 * max(reduceShortBatch, reduceShortStrip)]uint64

// reduceShortBuffers keeps the accumulator buffers between calls: made
// and cleared on every call they were most of a small reduction's time
// (16 KiB for a 64×64 float32 product over axis 0). Their contents are
// set (Fill) before they are read.
var reduceShortBuffers = bufferList{list: scratch.List[reduceShortBuffer]{New: func() *reduceShortBuffer { return new(reduceShortBuffer) }}}

// bufferList hands out w buffers at once.
type bufferList struct {
	list scratch.List[reduceShortBuffer]
}

func (l *bufferList) get(w int) []*reduceShortBuffer {
	bs := make([]*reduceShortBuffer, w)
	for i := range bs {
		bs[i] = l.list.Get()
	}
	return bs
}

func (l *bufferList) put(bs []*reduceShortBuffer) {
	for _, b := range bs {
		l.list.Put(b)
	}
}

// reduceShortStrip is the accumulators reduceRowsInto folds rows into at a
// time: 8 KiB of float64 per goroutine, in L1 beside the rows' lines.
const reduceShortStrip = 1024

package ewise

import (
	"sync"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/kernels"
	"github.com/tensor-go/tensor/internal/vec"
)

// Operand is one operand of an element-wise operation as the engine sees
// it: its first element, its dtype, and for a flat operation the byte
// stride of its single run. A planned operation's strides are passed
// beside the operands (see RunStrided), so that the engine, which keeps
// the operands' bases, does not make the caller's strides escape too.
type Operand struct {
	Base   unsafe.Pointer
	DType  dtype.DType
	Stride int // flat operations: the element size, or 0 for one element broadcast everywhere

	// Cold, on the output, says that its memory is in no core's cache (a
	// fresh or collected buffer, storage.TakeOutput) and is the contiguous
	// n elements at Base: from ColdStreamBytes on, the output is stored
	// around the caches, its unmapped pages mapped first
	// (storage.MapForStreaming). Into-forms leave it unset, since the
	// caller's buffer may be hot.
	Cold bool
}

// ColdStreamBytes is the output size from which a cold output (Operand.Cold)
// is stored around the caches: three quarters of vec's streamThreshold
// (1.5 times the core's L2), counted over the whole output, since vec sees
// only the part one goroutine is given (a sixteenth of a flat output on two
// threads, which therefore streamed only from 64 MiB on). An output of
// 1.5 L2 no longer fits the L2 of the core that writes it beside its
// inputs, and in plain loops streaming took less CPU at every size timed
// from there (BenchmarkColdStream, separate processes alternating: 3 MiB
// 0.62-0.67x, a 1000x1000 float32 result of 3.8 MiB 0.80-0.96x, which at
// twice the L2 stored as usual). Below 2 MiB, interleaved calls were
// slower streamed (a cold buffer is in no L2 but often still in the shared
// L3), so smaller outputs keep ordinary stores. The rule held on Zen 5
// (1 MiB L2, 32 MiB L3; BenchmarkColdStreamAB, one process, alternating:
// 0.56-0.98x from 1.5 to 16 MiB): a plain loop writes far more distinct
// buffers between collections than any L3 holds (docs/memory.md).
// Into-forms and Released buffers are not cold: the caller's buffer may
// be hot. Processors measured to differ take their entry of
// coldStreamFrom instead.
var ColdStreamBytes = kernels.ForProcessor(kernels.ProcessorID(), coldStreamFrom, vec.StreamThreshold()*3/4)

// coldStreamFrom holds ColdStreamBytes where it was measured to differ
// from 1.5 L2.
var coldStreamFrom = []kernels.Measured[int]{
	// Emerald Rapids (Xeon, family 6 model 207, 2 MiB L2, under KVM):
	// plain loops of cold results took 0.27-0.78x the process CPU per
	// call streamed from 768 KiB to 1.5 MiB (float32 and int8 Mul,
	// float64 Add; the 1M int8 product 0.62-0.71x), 0.38-0.57x at
	// 512 KiB, and 0.73-0.89x when the result is read next (Sum) from
	// 768 KiB, level at 512 KiB (BenchmarkColdStreamAB, both stores
	// alternating in one process, load 15-19): 768 KiB.
	{Vendor: "GenuineIntel", Family: 6, Models: []int{207}, Value: 768 << 10},
}

// StreamOutputBytes is the output size from which a broadcast operation
// stores its output around the cache, run by run: the output is then far
// larger than the caches and would be evicted before it is read again, and
// streaming saves reading each line before writing it (MulInto of a
// 4096x4096 float32 row broadcast, 12.6 -> 6.3 ms on Sapphire Rapids,
// where eight times the core's 2 MiB L2 is the 16 MiB measured; taken
// from the detected L2 so that a core with a smaller or larger one gets
// the same margin). Results are recycled,
// uncleared memory (package storage), so the same holds for them; when Go
// zeroed every fresh result, streaming into it measured slower. The flat
// path needs no such choice: its runs are long enough for vec to see. A
// variable so that tests can shrink it.
var StreamOutputBytes = max(4<<20, 8*kernels.CacheSizes().L2)

// Run computes out = a op b in dtype c as one flat run of n elements
// (split between goroutines in whole cache lines), each operand advancing
// by its Stride. out shares no storage with a or b except element for
// element. Each element is computed the same way whatever the number of
// goroutines.
func (op *Binary) Run(c dtype.DType, n int, out, a, b Operand) {
	if n == 0 {
		return
	}
	dts := [3]dtype.DType{out.DType, a.DType, b.DType}
	bytes := n * out.DType.Size()
	cold := out.Cold && bytes >= ColdStreamBytes
	if !cold && n < iter.MinParallel && dts == [3]dtype.DType{c, c, c} {
		// A small call of one dtype is one kernel call on this goroutine,
		// the commonest case, straight from here (a tiny call's path was
		// a fifth of its instructions).
		iter.Call3(op.kernels[c], n, out.Base, a.Base, b.Base, out.Stride, a.Stride, b.Stride)
		return
	}
	if cold {
		MapCold(out.Base, bytes, iter.Workers(n))
	}
	op.runFlat(c, dts, n, [3]Operand{out, a, b}, cold)
}

// RunsSmall reports whether an operation of n elements of dtype c is small
// enough for RunValue: under the parallel threshold and the output under
// ColdStreamBytes, so that Run would make it one kernel call on the
// calling goroutine.
func (op *Binary) RunsSmall(c dtype.DType, n int) bool {
	return n < iter.MinParallel && n*c.Size() < ColdStreamBytes
}

// RunValue computes out = a op v (v op a when first is set), n elements
// of dtype c, for a small operation (RunsSmall): out and a are
// contiguous runs advancing stride bytes per element, and v is one value
// of dtype c, as the bits of its element, broadcast everywhere. It is the
// kernel call Run makes for a 0-d operand holding v, with the same bits.
func (op *Binary) RunValue(c dtype.DType, n int, out, a unsafe.Pointer, stride int, v [2]uint64, first bool) {
	iter.CallValue(op.kernels[c], n, out, a, stride, v, first)
}

// RunStrided computes out = a op b, n elements of the output's shape, in
// dtype c, operand k having byte strides strides[k] over shape (0 along
// broadcast dimensions). The operation is walked by an iter.Plan, shared
// between goroutines, tiled where an input is read against the output's
// order, streamed where the output is large. Run's other rules hold.
func (op *Binary) RunStrided(c dtype.DType, shape []int, n int, out, a, b Operand, strides [3][]int) {
	if n == 0 {
		return
	}
	dts := [3]dtype.DType{out.DType, a.DType, b.DType}
	same := dts == [3]dtype.DType{c, c, c}
	bytes := n * out.DType.Size()
	inOrder := readsInOrder(strides[1], shape) && readsInOrder(strides[2], shape)
	// A cold output streams whether or not the walk is tiled: a tiled
	// walk writes it in runs of up to a tile's 512 columns, long enough
	// (a [1000, 1000] float64 product with a transposed input, plain
	// loop: 0.70-0.83x the CPU streamed). A hot one streams only in order.
	cold := out.Cold && bytes >= ColdStreamBytes && longRows(shape, out.DType)
	if cold {
		MapCold(out.Base, bytes, iter.Workers(n))
	}
	stream := cold || bytes >= StreamOutputBytes && inOrder
	r := plans.Get().(*planned)
	defer r.release()
	r.op, r.c, r.dts = op, c, dts
	r.bases = [3]unsafe.Pointer{out.Base, a.Base, b.Base}
	r.sizes = [3]int{out.DType.Size(), a.DType.Size(), b.DType.Size()}
	r.plan.Init(shape, strides[0], strides[1], strides[2])
	// Each goroutine's kernel: the streaming one where the output is large
	// and read in order, else the kernel of c, both prebuilt (no method
	// value to allocate); only mixed dtypes make a promoter per goroutine.
	w := iter.Workers(n)
	// Streaming kernels are unfenced: each goroutine fences once a share.
	switch {
	case !same && stream:
		r.plan.ExecuteThen(r.bases[:], r.sizes[:], w, r.streamingKernel, vec.FenceStreaming)
	case !same:
		r.plan.Execute(r.bases[:], r.sizes[:], w, r.kernel)
	case stream:
		r.plan.ExecuteThen(r.bases[:], r.sizes[:], w, op.streamingOf[c], vec.FenceStreaming)
	default:
		r.plan.Execute(r.bases[:], r.sizes[:], w, op.kernelOf[c])
	}
}

// planned holds what a planned operation's walk needs, in one allocation:
// its plan, its operands' bases and element sizes, and what a promoting
// kernel needs.
type planned struct {
	plan  iter.Plan
	op    *Binary
	c     dtype.DType
	dts   [3]dtype.DType
	bases [3]unsafe.Pointer
	sizes [3]int
}

// plans recycles planned operations: the walk's closures make the plan
// escape, and a small broadcast's one allocation of it (384 bytes, with
// pointers) cost more than its walk, in the allocation and in the
// collections and write barriers that a loop of them brought.
var plans = sync.Pool{New: func() any { return new(planned) }}

// release returns r to plans cleared, so that an idle pooled plan keeps
// no operand's memory alive and the next Init starts from a zero Plan.
func (r *planned) release() {
	*r = planned{}
	plans.Put(r)
}

// kernel returns a goroutine's promoting kernel of c.
func (r *planned) kernel() iter.Kernel {
	return r.op.Promoted(r.c, r.dts)
}

// streamingKernel returns a goroutine's promoting kernel of c whose output
// is streamed out through a buffer (streamedVia).
func (r *planned) streamingKernel() iter.Kernel {
	return streamedVia(r.kernel(), r.sizes[0])
}

// longRows reports whether the output's rows (its innermost dimension)
// are 384 bytes or more, long enough to stream: the streaming kernels
// store a row's partial lines at either end as usual and only its whole
// lines around the cache, so a row need not be whole lines (a [1000, 1000]
// × [1000, 1] float32 Mul, rows of 4000 bytes, plain loop: 0.78-0.82x the
// CPU streamed, a transposed operand 0.87-0.99x; alternating processes,
// Sapphire Rapids under KVM, load 16). Rows of 400 bytes, five whole lines
// or more each, pay too, since a cold result is also mapped ahead instead
// of faulting page by page: [100, 100, 100] × [100, 1, 100] float32 Mul
// 0.5-0.98x the CPU per call on one goroutine (median 0.83), 0.69-1.0x on
// two, 58-150 page faults a call -> under 1; the 100³ Mul by a reversed operand
// (tiled) 0.7-1.05x (four alternating rounds, Emerald Rapids, load 24).
// Shorter rows keep ordinary stores: each run's streamed part would be a
// few lines.
func longRows(shape []int, c dtype.DType) bool {
	row := 0
	if len(shape) > 0 {
		row = shape[len(shape)-1] * c.Size()
	}
	return row >= 384
}

// readsInOrder reports whether an input of byte strides st over shape to
// is read in the output's memory order: its strides, over the dimensions
// it does not broadcast, do not grow from outer to inner. An input read
// against that order (a transposed one) makes the engine walk in tiles,
// whose rows a hot output, which the next operation may find in cache,
// keeps in its cache rather than streams.
func readsInOrder(st, to []int) bool {
	prev := -1
	for i, s := range st {
		s = max(s, -s)
		if s == 0 || to[i] == 1 {
			continue
		}
		if prev >= 0 && s > prev {
			return false
		}
		prev = s
	}
	return true
}

// runFlat runs a flat operation: one run of n elements, shared between
// goroutines in parts of whole cache lines (64 elements are a multiple of
// a 64-byte line for every element size), each with its own promoter and
// so its own buffers. stream streams the output (see runPart).
func (op *Binary) runFlat(c dtype.DType, dts [3]dtype.DType, n int, ops [3]Operand, stream bool) {
	var ptrs [iter.MaxOperands]unsafe.Pointer
	var strides [iter.MaxOperands]int
	for i, o := range ops {
		ptrs[i], strides[i] = o.Base, o.Stride
	}
	w := iter.Workers(n)
	if w <= 1 {
		op.runPart(c, dts, n, ptrs, strides, stream)
		return
	}
	iter.Parallel((n+align-1)/align, w, func(lo, hi int) {
		first, last := lo*align, min(hi*align, n)
		var part [iter.MaxOperands]unsafe.Pointer
		for i := range 3 {
			part[i] = unsafe.Add(ptrs[i], first*strides[i])
		}
		op.runPart(c, dts, last-first, part, strides, stream)
	})
}

// align is the flat operations' part size in elements: whole cache lines
// for every element size.
const align = 64

// runPart computes one part of a flat operation, with a pooled promoter
// when the dtypes differ; stream streams the output (the Streaming kernel,
// or the promoter's results through a buffer).
func (op *Binary) runPart(c dtype.DType, dts [3]dtype.DType, n int, ptrs [iter.MaxOperands]unsafe.Pointer, strides [iter.MaxOperands]int, stream bool) {
	if dts == [3]dtype.DType{c, c, c} {
		k := op.Kernel(c)
		if stream {
			k = op.streaming[c]
		}
		iter.Call(k, n, 3, ptrs, strides)
		if stream {
			vec.FenceStreaming()
		}
		return
	}
	p := op.GetPromoter(c, dts)
	k := p.Kernel
	if stream {
		k = streamedVia(k, dts[0].Size())
	}
	iter.Call(k, n, 3, ptrs, strides)
	if stream {
		vec.FenceStreaming()
	}
	p.Release()
}

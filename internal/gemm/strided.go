package gemm

import "sync"

// MulBatchStrided is MulBatch for a batch whose matrices lie at a uniform
// stride per operand: A_i is the view a with Off += i*aStride (likewise B_i
// and C_i), and a stride of 0 uses one matrix for the whole batch
// (broadcast). That is the shape of most batches (contiguous matrices, one
// operand broadcast), and it needs no offset slices: the views are checked
// in O(1) (the first and the last matrix bound them all) and the kernels
// compute each matrix's place from its index. Each product follows Mul's
// rules.
func MulBatchStrided[T Elem](batch, m, n, k int, a, b, c Matrix[T], aStride, bStride, cStride int, opt Options) {
	if batch <= 0 || m <= 0 || n <= 0 {
		return
	}
	s := stridedBatch[T]{batch, m, n, k, a, b, c, aStride, bStride, cStride}
	mustFitStrided("C", c, cStride, batch, m, n)
	mustFitStrided("A", a, aStride, batch, m, k)
	mustFitStrided("B", b, bStride, batch, k, n)
	if k <= 0 {
		for i := range batch {
			fillZero(m, n, c.withOff(c.Off+i*cStride))
		}
		return
	}
	if batch == 1 || (bStride == 0 && aStride == m*a.RS && cStride == m*c.RS) {
		// One product, or one tall product with B shared.
		Mul(batch*m, n, k, a, b, c, opt)
		return
	}
	threads := threadsFor[T](opt.threads(), batch*m*n*k)
	if small := smallPlan(m, n, k, b, c); small.kern != nil && !opt.TF32 {
		s.each(threads, small.streamed(batch, m, n, b, c, cStride, opt.Cold), opt)
		return
	}
	if batch < threads {
		// Few large products: let each use all the goroutines.
		s.run(0, batch, smallCall[T]{}, opt)
		return
	}
	opt.Threads = 1
	s.each(threads, smallCall[T]{}, opt)
}

// mustFitStrided checks every matrix of a strided batched operand: they are
// translates of one view, so the first and the last bound them all.
func mustFitStrided[T any](name string, x Matrix[T], stride, batch, r, c int) {
	mustFit(name, x, r, c)
	mustFit(name, x.withOff(x.Off+(batch-1)*stride), r, c)
}

// stridedBatch is the batch of a MulBatchStrided call.
type stridedBatch[T Elem] struct {
	batch, m, n, k int
	a, b, c        Matrix[T]
	as, bs, cs     int
}

// each runs the products of the whole batch, split over threads
// goroutines, with the small kernel when small has one and with Mul
// otherwise. One goroutine runs them directly: the closures that split
// needs would move the batch to the heap.
func (s *stridedBatch[T]) each(threads int, small smallCall[T], opt Options) {
	if threads == 1 {
		s.run(0, s.batch, small, opt)
		return
	}
	sc := *s
	split(sc.batch, 1, threads, func(i0, i1 int) { sc.run(i0, i1, small, opt) })
}

// run computes products [i0, i1) of the batch on the calling goroutine
// (Mul may still use opt.Threads goroutines for each).
func (s *stridedBatch[T]) run(i0, i1 int, small smallCall[T], opt Options) {
	if small.kern != nil {
		s.runSmall(i0, i1, small)
		return
	}
	for i := i0; i < i1; i++ {
		Mul(s.m, s.n, s.k, s.a.withOff(s.a.Off+i*s.as), s.b.withOff(s.b.Off+i*s.bs), s.c.withOff(s.c.Off+i*s.cs), opt)
	}
}

// offsetChunk holds the offsets of a run of matrices of a strided batch,
// written out for the small kernels, which take offsets. A few kilobytes
// at a time stay in L1 next to the matrices, where a whole batch's
// offsets (three ints per 8×8 product) would stream through memory.
type offsetChunk struct{ a, b, c [256]int }

// offsetChunks recycles offsetChunks: handed to a kernel through a
// function value they would escape, so they cannot live on the stack.
var offsetChunks = sync.Pool{New: func() any { return new(offsetChunk) }}

// runSmall computes products [i0, i1) of the batch with a small kernel,
// one chunk of offsets at a time.
func (s *stridedBatch[T]) runSmall(i0, i1 int, small smallCall[T]) {
	ch := offsetChunks.Get().(*offsetChunk)
	for lo := i0; lo < i1; lo += len(ch.a) {
		count := min(len(ch.a), i1-lo)
		for j := range count {
			i := lo + j
			ch.a[j], ch.b[j], ch.c[j] = i*s.as, i*s.bs, i*s.cs
		}
		small.run(s.m, s.n, s.k, s.a, s.b, s.c, ch.a[:count], ch.b[:count], ch.c[:count])
	}
	offsetChunks.Put(ch)
}

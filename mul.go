package tensor

import (
	"sync"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/ewise"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/shape"
)

// Mul returns the element-wise product x * y as a new contiguous tensor
// (semantics §2-5). Each operand is a *Tensor or a Go number; numbers are
// weak scalars that take the tensor's dtype unless their kind is higher.
// Shapes broadcast; dtypes promote. Floats follow IEEE-754 (NaN in, NaN
// out; ±inf × ±0 is NaN), float16 and bfloat16 products are rounded once,
// integers wrap, bool × bool is logical and.
//
// Two Go numbers give a 0-d tensor of the default dtype of their kind:
// Mul(1.0, 4.0) is a float32 4. Sparse operands follow the rules given
// under Layout.
func Mul(x, y any) (*Tensor, error) {
	if err := requireLive("mul", x, y); err != nil {
		return nil, err
	}
	if isSparse(x) || isSparse(y) {
		return mulSparse(x, y) // sparse_mul.go
	}
	a, b, dt, err := binaryOperands("mul", x, y)
	if err != nil {
		return nil, err
	}
	s, err := shape.Broadcast(a.shape, b.shape)
	if err != nil {
		return nil, wrapErr("mul", err)
	}
	out, err := newProductTensor(dt, s)
	if err != nil {
		return nil, wrapErr("mul", err)
	}
	mulRun(out, a, b, dt)
	return out, nil
}

// MulInto writes x * y into out. out must have the broadcast shape of the
// operands, and a dtype that the promoted result can be cast into without
// lowering its kind (a float result into an int tensor is an ErrDType); it
// may be any view except a broadcast one (ErrLayout). out may be one of
// the operands, for an in-place x *= y; if it overlaps an operand in any
// other way, the product is computed into a temporary first. With
// contiguous operands MulInto allocates nothing.
//
// Large products (64K elements and more) are shared between GOMAXPROCS
// goroutines; each element is computed the same way whatever their number.
func MulInto(out *Tensor, x, y any) error {
	if err := requireStrided("mul", out, x, y); err != nil {
		return err // a sparse product is sparse: use Mul
	}
	if out == nil {
		return opErr("mul", ErrValue, "nil output tensor")
	}
	if err := checkWritable("mul", out); err != nil {
		return err
	}
	noteWrite(out)
	a, b, dt, err := binaryOperands("mul", x, y)
	if err != nil {
		return err
	}
	if !broadcastsTo(out.shape, a.shape, b.shape) {
		s, err := shape.Broadcast(a.shape, b.shape)
		if err != nil {
			return wrapErr("mul", err)
		}
		return opErr("mul", ErrShape, "output shape %s is not the broadcast shape %s of %s and %s",
			shape.String(out.shape), shape.String(s), shape.String(a.shape), shape.String(b.shape))
	}
	s := out.shape
	if !dtype.CanCastInto(dt, out.dtype) {
		return opErr("mul", ErrDType, "cannot write the %v product of %v and %v into a %v output",
			dt, a.dtype, b.dtype, out.dtype)
	}
	if overlapsDifferently(out, a) || overlapsDifferently(out, b) {
		tmp, err := newProductTensor(out.dtype, s)
		if err != nil {
			return wrapErr("mul", err)
		}
		mulRun(tmp, a, b, dt)
		return copyInto(out, tmp)
	}
	mulRun(out, a, b, dt)
	return nil
}

// checkWritable rejects an output whose elements overlap: a broadcast view
// (stride 0 along a dimension longer than 1) would receive several results
// in one place, from several goroutines at once.
func checkWritable(op string, out *Tensor) error {
	for i, d := range out.shape {
		if d > 1 && out.strides[i] == 0 {
			return opErr(op, ErrLayout, "output of shape %s is broadcast along dimension %d (stride 0): its elements overlap",
				shape.String(out.shape), i)
		}
	}
	return nil
}

// broadcastsTo reports whether shapes a and b broadcast to exactly s. It
// is shape.Broadcast followed by a comparison, without allocating.
func broadcastsTo(s, a, b []int) bool {
	if len(s) != max(len(a), len(b)) {
		return false
	}
	for i := 1; i <= len(s); i++ {
		d, da, db := s[len(s)-i], 1, 1
		if i <= len(a) {
			da = a[len(a)-i]
		}
		if i <= len(b) {
			db = b[len(b)-i]
		}
		if !(da == d || da == 1) || !(db == d || db == 1) || da != d && db != d {
			return false
		}
	}
	return true
}

// byteStrides returns t's strides in bytes as seen from shape to, which t
// broadcasts to (checked by the caller).
func byteStrides(t *Tensor, to []int) []int {
	st, err := shape.BroadcastStrides(t.shape, t.strides, to)
	if err != nil {
		panic("tensor: internal error: " + err.Error())
	}
	size := t.dtype.Size()
	for i := range st {
		st[i] *= size
	}
	return st
}

// span returns the byte range [lo, hi) of storage that t's elements occupy.
func span(t *Tensor) (lo, hi int) {
	size := t.dtype.Size()
	lo, hi = t.offset, t.offset
	for i, d := range t.shape {
		if d == 0 {
			return 0, 0
		}
		if s := t.strides[i] * (d - 1); s < 0 {
			lo += s
		} else {
			hi += s
		}
	}
	return lo * size, (hi + 1) * size
}

// overlapsDifferently reports whether the input in shares storage with out
// other than element for element: an in-place product, where out is in (or
// a view laid out exactly like it), is safe because each element is read
// before the same element is written; any other overlap is not.
func overlapsDifferently(out, in *Tensor) bool {
	if !sharesStorage(out, in) {
		return false
	}
	if out.storage != in.storage {
		return true // one Go array wrapped twice (Wrap): offsets do not compare
	}
	olo, ohi := span(out)
	ilo, ihi := span(in)
	if ohi <= ilo || ihi <= olo {
		return false
	}
	if in.dtype != out.dtype || in.offset != out.offset || len(in.shape) > len(out.shape) {
		return true
	}
	lead := len(out.shape) - len(in.shape)
	for i, d := range out.shape {
		if d <= 1 {
			continue
		}
		if i < lead || in.shape[i-lead] != d || in.strides[i-lead] != out.strides[i] {
			return true // broadcast along d, or laid out differently
		}
	}
	return false
}

// runArgs carries the pointer and stride slices of one kernel call. They
// come from a pool so that a kernel called through a function value does
// not make them escape to the heap on every call.
type runArgs struct {
	ptrs    [3]unsafe.Pointer
	strides [3]int
}

var runArgsPool = sync.Pool{New: func() any { return new(runArgs) }}

// mulRun computes out = a * b in dtype c; the shapes and dtypes have been
// checked. out shares no storage with a or b except element for element.
// Large broadcast outputs are streamed (see streamOutputBytes).
func mulRun(out, a, b *Tensor, c DType) {
	n := out.Size()
	if n == 0 {
		return
	}
	dts := [3]dtype.DType{out.dtype, a.dtype, b.dtype}
	if out.IsContiguous() && flat(a, n) && flat(b, n) {
		mulFlat(out, a, b, c, dts, n)
		return
	}
	p := iter.NewPlan(out.shape, byteStrides(out, out.shape), byteStrides(a, out.shape), byteStrides(b, out.shape))
	bases := []unsafe.Pointer{firstElement(out), firstElement(a), firstElement(b)}
	sizes := []int{out.dtype.Size(), a.dtype.Size(), b.dtype.Size()}
	newKernel := func() iter.Kernel { return ewise.MulPromoted(c, dts) }
	if dts == [3]dtype.DType{c, c, c} && n*c.Size() >= streamOutputBytes &&
		readsInOrder(a, out.shape) && readsInOrder(b, out.shape) {
		newKernel = func() iter.Kernel { return ewise.MulStreaming(c) }
	}
	p.Execute(bases, sizes, iter.Workers(n), newKernel)
}

// streamOutputBytes is the output size from which a broadcast multiply
// stores its output around the cache, run by run: the output is then far
// larger than the caches and would be evicted before it is read again, and
// streaming saves reading each line before writing it (MulInto of a
// 4096x4096 float32 row broadcast, 12.6 -> 6.3 ms). Mul's results are
// recycled, uncleared memory (package storage), so the same holds for them;
// when Go zeroed every fresh result, streaming into it measured slower. The
// contiguous path (mulFlat) needs no such choice: its runs are long enough
// for vec to see. A variable so that tests can shrink it.
var streamOutputBytes = 16 << 20

// readsInOrder reports whether t, broadcast to shape to, is read in the
// output's memory order: its strides, over the dimensions it does not
// broadcast, do not grow from outer to inner. An input read against that
// order (a transposed one) makes the engine walk in tiles, whose short
// partial-line rows a streaming store would only slow.
func readsInOrder(t *Tensor, to []int) bool {
	prev := -1
	for i, st := range byteStrides(t, to) {
		st = max(st, -st)
		if st == 0 || to[i] == 1 {
			continue
		}
		if prev >= 0 && st > prev {
			return false
		}
		prev = st
	}
	return true
}

// flat reports whether t, as an operand of an n-element contiguous
// output, is one contiguous run in the output's order (same size,
// contiguous) or a single element broadcast everywhere.
func flat(t *Tensor, n int) bool {
	size := t.Size()
	return size == 1 || size == n && t.IsContiguous()
}

// mulFlat is mulRun for a contiguous output whose operands are flat: the
// whole product is one run, split between goroutines when it is large.
func mulFlat(out, a, b *Tensor, c DType, dts [3]dtype.DType, n int) {
	stride := func(t *Tensor) int {
		if t.Size() == 1 && n > 1 {
			return 0
		}
		return t.dtype.Size()
	}
	args := runArgsPool.Get().(*runArgs)
	args.ptrs = [3]unsafe.Pointer{firstElement(out), firstElement(a), firstElement(b)}
	args.strides = [3]int{out.dtype.Size(), stride(a), stride(b)}
	switch w := iter.Workers(n); {
	case w > 1:
		mulFlatParallel(args, c, dts, n, w)
	case dts == [3]dtype.DType{c, c, c}:
		ewise.Mul(c)(args.ptrs[:], args.strides[:], n)
	default:
		p := ewise.GetPromoter(c, dts)
		p.Kernel(args.ptrs[:], args.strides[:], n)
		p.Release()
	}
	args.ptrs = [3]unsafe.Pointer{} // an idle pooled runArgs keeps no tensor alive
	runArgsPool.Put(args)
}

// mulFlatParallel shares a flat product between w goroutines, in parts of
// whole cache lines (64 elements are a multiple of a 64-byte line for every
// element size), each with its own promoter and so its own buffers.
func mulFlatParallel(args *runArgs, c DType, dts [3]dtype.DType, n, w int) {
	const align = 64
	iter.Parallel((n+align-1)/align, w, func(lo, hi int) {
		first, last := lo*align, min(hi*align, n)
		var q runArgs
		for i := range 3 {
			q.ptrs[i] = unsafe.Add(args.ptrs[i], first*args.strides[i])
			q.strides[i] = args.strides[i]
		}
		p := ewise.GetPromoter(c, dts)
		p.Kernel(q.ptrs[:], q.strides[:], last-first)
		p.Release()
	})
}

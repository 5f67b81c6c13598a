package tensor

import (
	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/ewise"
	"github.com/tensor-go/tensor/shape"
)

// The element-wise API (Mul, Add) is written once here against an
// ewise.Binary: operands and their promotion, the broadcast shape, the
// output and its checks. The strategies (flat, planned, tiled, streamed,
// parallel) are the engine's, ewise.Binary.Run.

// elementwise returns op(x, y) as a new contiguous tensor of the broadcast
// shape and the promoted dtype. The operands are live and strided.
func elementwise(op *ewise.Binary, x, y any) (*Tensor, error) {
	if a, b, ok := sameLayout(x, y); ok {
		out, err := newProductTensor(a.dtype, a.shape)
		if err != nil {
			return nil, wrapErr(op.Name, err)
		}
		runContiguous(op, out, a, b, out.cold)
		return out, nil
	}
	if out, ok, err := elementwiseValue(op, x, y); ok {
		return out, err
	}
	a, b, dt, err := binaryOperands(op.Name, x, y)
	if err != nil {
		return nil, err
	}
	var room [4]int
	s, err := broadcastShape(a.shape, b.shape, room[:])
	if err != nil {
		return nil, wrapErr(op.Name, err)
	}
	out, err := newProductTensor(dt, s)
	if err != nil {
		return nil, wrapErr(op.Name, err)
	}
	elementwiseRun(op, out, a, b, dt, out.cold)
	return out, nil
}

// broadcastShape is shape.Broadcast(a, b), without allocating when one
// shape is the result (equal shapes, or a 0-d operand such as a scalar),
// which it then returns itself, or when the result fits room, which it
// then occupies. The caller must not modify the result.
func broadcastShape(a, b, room []int) ([]int, error) {
	switch {
	case len(b) == 0 || shape.Equal(a, b):
		return a, nil
	case len(a) == 0:
		return b, nil
	case max(len(a), len(b)) <= len(room):
		s := room[:max(len(a), len(b))]
		return s, shape.BroadcastInto(s, a, b)
	}
	return shape.Broadcast(a, b)
}

// elementwiseInto writes op(x, y) into out (see MulInto for the rules).
func elementwiseInto(op *ewise.Binary, out *Tensor, x, y any) error {
	name := op.Name
	if err := requireStrided(name, out, x, y); err != nil {
		return err
	}
	if out == nil {
		return opErr(name, ErrValue, "nil output tensor")
	}
	// Operands laid out as out is (requireStrided has checked all three).
	if a, b, ok := sameLayout(x, y); ok && out.dtype == a.dtype && shape.Equal(out.shape, a.shape) &&
		out.IsContiguous() && !overlapsDifferently(out, a) && !overlapsDifferently(out, b) {
		noteWrite(out)
		runContiguous(op, out, a, b, false) // the caller's buffer may be hot
		return nil
	}
	if err := checkWritable(name, out); err != nil {
		return err
	}
	noteWrite(out)
	a, b, dt, err := binaryOperands(name, x, y)
	if err != nil {
		return err
	}
	if !broadcastsTo(out.shape, a.shape, b.shape) {
		s, err := shape.Broadcast(a.shape, b.shape)
		if err != nil {
			return wrapErr(name, err)
		}
		return opErr(name, ErrShape, "output shape %s is not the broadcast shape %s of %s and %s",
			shape.String(out.shape), shape.String(s), shape.String(a.shape), shape.String(b.shape))
	}
	if !dtype.CanCastInto(dt, out.dtype) {
		return opErr(name, ErrDType, "cannot write the %v result of %v and %v into a %v output",
			dt, a.dtype, b.dtype, out.dtype)
	}
	if overlapsDifferently(out, a) || overlapsDifferently(out, b) {
		tmp, err := newProductTensor(out.dtype, out.shape)
		if err != nil {
			return wrapErr(name, err)
		}
		elementwiseRun(op, tmp, a, b, dt, false) // read back at once
		err = copyInto(out, tmp)
		tmp.Release()
		return err
	}
	elementwiseRun(op, out, a, b, dt, false) // the caller's buffer may be hot
	return nil
}

// elementwiseRun computes out = op(a, b) in dtype c; the shapes and dtypes have
// been checked. out shares no storage with a or b except element for
// element. A contiguous output with flat operands is one run, which costs
// no plan (and no allocation). cold says that out's memory is in no cache
// (a new result's, see Tensor.cold), so the engine may store around it.
func elementwiseRun(op *ewise.Binary, out, a, b *Tensor, c DType, cold bool) {
	n := out.Size()
	if n == 0 {
		return
	}
	o := [3]ewise.Operand{
		{Base: firstElement(out), DType: out.dtype, Cold: cold},
		{Base: firstElement(a), DType: a.dtype},
		{Base: firstElement(b), DType: b.dtype},
	}
	if out.IsContiguous() && flat(a, n) && flat(b, n) {
		for i, t := range [3]*Tensor{out, a, b} {
			o[i].Stride = t.dtype.Size()
			if t.Size() == 1 && n > 1 {
				o[i].Stride = 0
			}
		}
		op.Run(c, n, o[0], o[1], o[2])
		return
	}
	elementwiseStrided(op, out, a, b, c, n, o)
}

// elementwiseStrided is elementwiseRun's planned walk, for operands that
// are not one run each.
func elementwiseStrided(op *ewise.Binary, out, a, b *Tensor, c DType, n int, o [3]ewise.Operand) {
	rank := len(out.shape)
	var room [3 * 4]int // the three operands' strides, on the stack up to rank 4
	all := room[:]
	if 3*rank > len(room) {
		all = make([]int, 3*rank)
	}
	var strides [3][]int
	for i, t := range [3]*Tensor{out, a, b} {
		strides[i] = all[i*rank : (i+1)*rank : (i+1)*rank]
		broadcastByteStrides(strides[i], t, out.shape)
	}
	op.RunStrided(c, out.shape, n, o[0], o[1], o[2], strides)
}

// sameLayout returns x and y when they are tensors of one dtype and one
// shape, both contiguous: the commonest call (two arrays of the same kind
// multiplied or added), which then needs no promotion, no broadcast shape
// and no plan, and is one run whose result has their shape (the callers
// have checked that both are live and strided).
func sameLayout(x, y any) (a, b *Tensor, ok bool) {
	a, ok = x.(*Tensor)
	if !ok || a == nil {
		return nil, nil, false
	}
	if b, ok = y.(*Tensor); !ok || b == nil || a.dtype != b.dtype || !a.dtype.Valid() ||
		!shape.Equal(a.shape, b.shape) || !a.IsContiguous() || !b.IsContiguous() {
		return nil, nil, false
	}
	return a, b, true
}

// elementwiseValue computes op(x, y) when one operand is a contiguous
// tensor and the other a Go number that takes its dtype (Mul(x, 2.0) of
// a float32 x), and the call is small (ewise.Binary.RunsSmall): the
// number, converted as binaryOperands converts it, is passed by value to
// the kernel (ewise.Binary.RunValue) rather than as a 0-d tensor, the
// call's one allocation besides its result. ok is false, with nothing
// done, for every other call.
func elementwiseValue(op *ewise.Binary, x, y any) (out *Tensor, ok bool, err error) {
	a, isTensor := x.(*Tensor)
	v, first := y, false
	if !isTensor {
		if a, isTensor = y.(*Tensor); !isTensor {
			return nil, false, nil
		}
		v, first = x, true
	}
	if a == nil || !a.dtype.Valid() || !a.IsContiguous() || !op.RunsSmall(a.dtype, a.Size()) {
		return nil, false, nil
	}
	s, parsed := parseScalar(v)
	if !parsed || dtype.ScalarResult(a.dtype, s.kind) != a.dtype {
		return nil, false, nil
	}
	value, fits := s.valueIn(a.dtype)
	if !fits {
		return nil, false, nil
	}
	out, err = newProductTensor(a.dtype, a.shape)
	if err != nil {
		return nil, true, wrapErr(op.Name, err)
	}
	if n := out.Size(); n > 0 {
		size := a.dtype.Size()
		op.RunValue(a.dtype, n, firstElement(out), firstElement(a), size, value, first)
	}
	return out, true, nil
}

// runContiguous computes out = op(a, b) for contiguous operands of one
// dtype and shape (sameLayout): one run of each, element for element.
func runContiguous(op *ewise.Binary, out, a, b *Tensor, cold bool) {
	n := out.Size()
	if n == 0 {
		return
	}
	size := a.dtype.Size()
	op.Run(a.dtype, n,
		ewise.Operand{Base: firstElement(out), DType: out.dtype, Stride: size, Cold: cold},
		ewise.Operand{Base: firstElement(a), DType: a.dtype, Stride: size},
		ewise.Operand{Base: firstElement(b), DType: b.dtype, Stride: size})
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
	st := make([]int, len(to))
	broadcastByteStrides(st, t, to)
	return st
}

// broadcastByteStrides writes into st (of len(to)) t's strides in bytes as
// seen from shape to, which t broadcasts to (checked by the caller): 0
// along the dimensions t lacks or has of size 1.
func broadcastByteStrides(st []int, t *Tensor, to []int) {
	lead := len(to) - len(t.shape)
	if lead < 0 {
		panic("tensor: internal error: shape " + shape.String(t.shape) + " does not broadcast to " + shape.String(to))
	}
	size := t.dtype.Size()
	clear(st[:lead])
	for i, d := range t.shape {
		switch {
		case d == to[lead+i]:
			st[lead+i] = t.strides[i] * size
		case d == 1:
			st[lead+i] = 0
		default:
			panic("tensor: internal error: shape " + shape.String(t.shape) + " does not broadcast to " + shape.String(to))
		}
	}
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

// flat reports whether t, as an operand of an n-element contiguous
// output, is one contiguous run in the output's order (same size,
// contiguous) or a single element broadcast everywhere.
func flat(t *Tensor, n int) bool {
	size := t.Size()
	return size == 1 || size == n && t.IsContiguous()
}

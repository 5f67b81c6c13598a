package tensor

import (
	"sync/atomic"
	"unsafe"

	"github.com/tensor-go/tensor/internal/cast"
	"github.com/tensor-go/tensor/internal/ewise"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/shape"
)

// AsType returns a new contiguous tensor with t's values converted to dt,
// like NumPy's astype. It always copies, even when dt is t's dtype, so the
// result never shares storage with t.
//
// Conversions follow NumPy: integers wrap to narrower integers (int32 300 →
// int8 44, -1 → uint8 255); floats truncate toward zero into integers
// (2.7 → 2, -1.5 → uint8 255), and NaN, ±Inf and values beyond 64 bits
// become the pattern 1<<63 before wrapping (int64 min; 0 for narrower
// types); every conversion into a float rounds once to nearest even (so
// float64 → float16 is not float64 → float32 → float16), NaN stays NaN and
// overflow gives ±Inf; complex → real keeps the real part; anything → bool
// is x != 0 (NaN is true); bool → number is 0 or 1.
//
// An invalid dt is an ErrDType error.
func (t *Tensor) AsType(dt DType) (*Tensor, error) {
	if t == nil {
		return nil, opErr("astype", ErrValue, "nil *Tensor")
	}
	if err := requireLive("astype", t); err != nil {
		return nil, err
	}
	if t.layout != Strided {
		return t.sparseAsType(dt) // the values convert; the pattern is kept
	}
	if !dt.Valid() {
		return nil, opErr("astype", ErrDType, "invalid dtype %v", dt)
	}
	out, err := newProductTensor(dt, t.shape)
	if err != nil {
		return nil, wrapErr("astype", err)
	}
	if err := copyInto(out, t); err != nil {
		return nil, wrapErr("astype", err)
	}
	return out, nil
}

// copyInto converts or copies every element of src (any view) into dst,
// which has the same shape and any strides and dtype: the library's one
// strided conversion loop, by the rules AsType documents. Its only error is
// a shape mismatch (ErrShape, op "copy").
//
// dst and src may share storage. When dst is exactly src's view the call
// does nothing; any other overlap is resolved by copying src first, so the
// result is always as if src had been read completely before dst was
// written. dst must not have overlapping elements itself (a broadcast
// view is no destination).
//
// Tensors of iter.MinParallel elements or more are split between up to
// GOMAXPROCS goroutines (see iter.Plan.Execute); a fresh destination's
// first touch (its page faults) is shared out too.
func copyInto(dst, src *Tensor) error {
	if !shape.Equal(dst.shape, src.shape) {
		return opErr("copy", ErrShape, "cannot copy shape %s into shape %s",
			shape.String(src.shape), shape.String(dst.shape))
	}
	if dst.Size() == 0 {
		return nil
	}
	if sharesStorage(dst, src) {
		if dst.storage == src.storage && dst.dtype == src.dtype && dst.offset == src.offset && sameSteps(dst, src) {
			return nil // copying a view onto itself
		}
		tmp, err := newProductTensor(src.dtype, src.shape)
		if err != nil {
			return wrapErr("copy", err)
		}
		copyInto(tmp, src)  // fresh storage: cannot overlap
		defer tmp.Release() // read only by this copy
		src = tmp
	}
	convert := cast.Kernel(dst.dtype, src.dtype)
	n, workers := dst.Size(), iter.Workers(dst.Size())
	if dst.IsContiguous() && src.IsContiguous() {
		// A fresh result nothing has written or viewed yet is cold: a
		// large one is streamed out (an into-form's output has been
		// noted written, and may be hot).
		cold := dst.cold && atomic.LoadPointer(&dst.writes) == nil
		ewise.Convert(convert, firstElement(dst), dst.dtype.Size(), firstElement(src), src.dtype.Size(), n, cold)
		return nil
	}
	plan := iter.NewPlan(dst.shape, byteStrides(dst, dst.shape), byteStrides(src, src.shape))
	bases := []unsafe.Pointer{firstElement(dst), firstElement(src)}
	sizes := []int{dst.dtype.Size(), src.dtype.Size()}
	kernel := func(ptrs []unsafe.Pointer, strides []int, n int) {
		convert(ptrs[0], strides[0], ptrs[1], strides[1], n)
	}
	plan.Execute(bases, sizes, workers, func() iter.Kernel { return kernel })
	return nil
}

// sameSteps reports whether a and b (of one shape) step alike through
// memory, ignoring dimensions of size 1, whose strides are never used.
func sameSteps(a, b *Tensor) bool {
	for i, d := range a.shape {
		if d != 1 && a.strides[i] != b.strides[i] {
			return false
		}
	}
	return true
}

// firstElement returns the address of t's element at index (0, ..., 0).
func firstElement(t *Tensor) unsafe.Pointer {
	return unsafe.Add(t.storage, t.offset*t.dtype.Size())
}

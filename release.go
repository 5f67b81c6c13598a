package tensor

import (
	"fmt"
	"sync/atomic"

	"github.com/tensor-go/tensor/internal/storage"
	"github.com/tensor-go/tensor/shape"
)

// Release says that t will not be used again, so that its memory can serve
// the next result of the same size at once, as NumPy frees an array when
// its last reference goes, rather than when the garbage collector next runs.
// In a loop such as
//
//	for ... {
//		y, _ := tensor.Matmul(a, b)
//		use(y)
//		y.Release()
//	}
//
// every call then gets the memory the previous one wrote, still in the
// caches, and no collection is needed to find it dead. The memory is given
// back only when t owns it alone: t is the result of an operation or a
// constructor, and no view (Reshape, Transpose, Slice, ...) was ever taken
// of it; otherwise Release leaves it to the garbage collector, which is
// always safe. A result of 1 to 64 KiB is a piece of a shared slab, which
// goes back only when it is the newest piece (as in the loop above); an
// older one stays with its slab until the collector frees it.
//
// After Release every operation on t, or on a view taken of it afterwards,
// is an ErrReleased error. Release must not run while another goroutine
// uses t. When an operation returned its operand itself (Contiguous of a
// contiguous tensor, ToDense of a strided one), that tensor is the one
// released. Releasing a sparse tensor, nil, or a released tensor does
// nothing.
func (t *Tensor) Release() {
	if t == nil || t.released || t.layout != Strided {
		return
	}
	if t.pool != 0 && atomic.LoadUint32(&t.viewed) == 0 {
		storage.Put(t.storage, t.pool)
	}
	t.storage, t.n, t.pool, t.released = nil, 0, 0, true
}

// requireLive returns an error naming op when an operand is not a tensor
// any operation can use: a nil *Tensor or the zero value Tensor{} (a struct
// field held by value, never made by a constructor) is an ErrValue error,
// a released tensor an ErrReleased one. Operands of other types are left
// to the caller. Every exported operation calls it (directly, or through
// requireStrided), so this is the one place that decides.
func requireLive(op string, xs ...any) error {
	for _, x := range xs {
		if t, ok := x.(*Tensor); ok && (t == nil || t.released || !t.dtype.Valid()) {
			return unusableErr(op, xs)
		}
	}
	return nil
}

// unusableErr is requireLive's error for the first of xs that no operation
// can use, kept out of requireLive's loop, which every call runs.
func unusableErr(op string, xs []any) error {
	for _, x := range xs {
		if t, ok := x.(*Tensor); ok {
			if class, why := t.unusable(); class != nil {
				return opErr(op, class, "%s", why)
			}
		}
	}
	return nil
}

// unusable reports why no operation can use t (its error class and a
// description), or a nil class when t is usable. A zero-value Tensor is
// recognised by its dtype: every constructor sets a valid one.
func (t *Tensor) unusable() (class error, why string) {
	switch {
	case t == nil:
		return ErrValue, "nil *Tensor"
	case !t.dtype.Valid():
		return ErrValue, "the zero value Tensor{} is not a tensor; make one with a constructor (Zeros, FromSlice, ...) and hold it as *Tensor"
	case t.released:
		return ErrReleased, fmt.Sprintf("the %v tensor of shape %s was released", t.dtype, shape.String(t.shape))
	}
	return nil, ""
}

// unusableLabel names what String prints instead of the elements of an
// unusable tensor, or "" for a usable one.
func (t *Tensor) unusableLabel() string {
	switch class, _ := t.unusable(); {
	case class == nil:
		return ""
	case t == nil:
		return "nil"
	case t.released:
		return "released"
	}
	return "zero value"
}

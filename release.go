package tensor

import (
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
// always safe.
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

// requireLive returns an ErrReleased error naming op when an operand is a
// released tensor; operands of other types are left to the caller.
func requireLive(op string, xs ...any) error {
	for _, x := range xs {
		if t, ok := x.(*Tensor); ok && t != nil && t.released {
			return opErr(op, ErrReleased, "the %v tensor of shape %s was released", t.dtype, shape.String(t.shape))
		}
	}
	return nil
}

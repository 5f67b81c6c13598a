package tensor

import (
	"sync/atomic"
	"unsafe"
)

// Writes through the into-forms are counted per storage, so that a caller
// that kept a tensor (package autograd keeps the operands its backward
// reads) can tell later whether its elements may have changed.

// writeCount returns the counter of t's storage, making it on first use;
// views share their tensor's (view takes it before it returns).
func (t *Tensor) writeCount() *atomic.Uint64 {
	if c := atomic.LoadPointer(&t.writes); c != nil {
		return (*atomic.Uint64)(c)
	}
	atomic.CompareAndSwapPointer(&t.writes, nil, unsafe.Pointer(new(atomic.Uint64)))
	return (*atomic.Uint64)(atomic.LoadPointer(&t.writes))
}

// noteWrite records that an into-form is about to write out's elements.
// Every view of out's storage sees the new count.
func noteWrite(out *Tensor) {
	if out != nil {
		out.writeCount().Add(1)
	}
}

// Version returns the number of times an into-form (MulInto, ProdInto,
// MatmulInto, ...) has written into t's storage through t or any view
// sharing it. Two equal readings mean no into-form wrote in between; a
// change means the elements may differ. Writes made outside the library,
// through a Go slice a tensor was built on, are not counted. A sparse
// tensor reports the count of its values.
func (t *Tensor) Version() uint64 {
	if t == nil {
		return 0
	}
	if t.sparse != nil && t.sparse.values != nil {
		return t.sparse.values.Version()
	}
	if c := atomic.LoadPointer(&t.writes); c != nil {
		return (*atomic.Uint64)(c).Load()
	}
	return 0
}

// Released reports whether Release was called on t (or on the tensor t is a
// view of, before the view was taken).
func (t *Tensor) Released() bool { return t != nil && t.released }

package tensor

import (
	"unsafe"

	"github.com/tensor-go/tensor/shape"
)

// Wrap returns a contiguous tensor of the given shape whose elements are
// data itself, not a copy; with no shape, a 1-D tensor of len(data). The
// dtype follows the Go element type as in FromSlice. It fails with
// ErrShape when the shape does not hold exactly len(data) elements.
//
// Ownership: the tensor and the caller share the memory. A later write by
// either side is seen by the other (a write through MulInto, Copy or Set,
// or into data directly); writing while another goroutine runs an
// operation that reads or writes the same elements is a data race, as for
// any shared slice. The tensor keeps data's array alive for as long as the
// tensor or any view of it is reachable, so the caller may drop its own
// reference. Appending to data beyond its capacity moves the caller's
// slice to new memory: the tensor keeps the old array.
//
// Release never recycles a wrapped buffer: it only marks the tensor as
// released, and data stays valid and the caller's. Results of operations
// on a wrapped tensor are new tensors, as for any other.
func Wrap[T Element](data []T, shape_ ...int) (*Tensor, error) {
	const op = "wrap"
	if shape_ == nil {
		shape_ = []int{len(data)}
	}
	n, err := shape.Size(shape_)
	if err != nil {
		return nil, wrapErr(op, err)
	}
	if n != len(data) {
		return nil, opErr(op, ErrShape, "%d elements do not fill shape %s", len(data), shape.String(shape_))
	}
	return wrapped(data, shape_), nil
}

// wrapped is Wrap for a checked shape; pool 0 tells Release to leave the
// buffer to the caller and the garbage collector.
func wrapped[T Element](data []T, s []int) *Tensor {
	own := append([]int{}, s...)
	var p unsafe.Pointer
	if len(data) > 0 {
		p = unsafe.Pointer(unsafe.SliceData(data))
	}
	return &Tensor{dtype: dtypeOf[T](), shape: own, strides: shape.ContiguousStrides(own), storage: p, n: len(data)}
}

// sharesStorage reports whether x and y may reach the same memory: views of
// one storage, or tensors whose storages differ but lie in one Go array,
// as Wrap can make them (Wrap(s[:8]) and Wrap(s[4:])). Operations that
// must not write what they still read test this rather than comparing the
// storage pointers alone.
func sharesStorage(x, y *Tensor) bool {
	if x.storage == nil || y.storage == nil {
		return false
	}
	if x.storage == y.storage {
		return true
	}
	xlo, ylo := uintptr(x.storage), uintptr(y.storage)
	xhi, yhi := xlo+uintptr(x.n*x.dtype.Size()), ylo+uintptr(y.n*y.dtype.Size())
	return xlo < yhi && ylo < xhi
}

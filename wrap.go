package tensor

import (
	"math"
	"slices"
	"sync/atomic"
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

// WrapStrided is Wrap for a strided layout, as BLAS-style code stores
// matrices (gonum's mat.Dense: rows stride elements apart, stride ≥ the
// number of columns): element (i, j, ...) is data[offset + i·strides[0] +
// j·strides[1] + ...]. The ownership rules are Wrap's. Every element must
// lie inside data, strides must be positive along dimensions longer than 1
// and no two positions may share an element (ErrShape otherwise; use
// BroadcastTo for repeated elements), so that the tensor is a valid
// output.
func WrapStrided[T Element](data []T, offset int, shape_, strides []int) (*Tensor, error) {
	const op = "wrap_strided"
	n, err := shape.Size(shape_)
	if err != nil {
		return nil, wrapErr(op, err)
	}
	if len(strides) != len(shape_) {
		return nil, opErr(op, ErrShape, "%d strides for shape %s", len(strides), shape.String(shape_))
	}
	if n > 0 {
		if err := checkStridedLayout(op, len(data), offset, shape_, strides); err != nil {
			return nil, err
		}
	}
	t := wrapped(data, shape_)
	if n > 0 {
		t.strides, t.offset = append([]int{}, strides...), offset
	}
	return t, nil
}

// checkStridedLayout checks that a strided layout of a non-empty shape
// stays inside size elements from offset and never reaches one element
// twice: taken by increasing stride, each dimension's stride must pass
// the span of all the smaller ones.
func checkStridedLayout(op string, size, offset int, s, strides []int) error {
	type dim struct{ n, stride int }
	var dims []dim
	for i, d := range s {
		if d == 1 {
			continue
		}
		if strides[i] <= 0 {
			return opErr(op, ErrShape, "stride %d of dimension %d (size %d) is not positive", strides[i], i, d)
		}
		dims = append(dims, dim{d, strides[i]})
	}
	slices.SortFunc(dims, func(a, b dim) int { return a.stride - b.stride })
	span := 0 // the position of the last element, from the first
	for _, d := range dims {
		if d.stride <= span {
			return opErr(op, ErrShape, "strides %s make shape %s reach some elements twice", shape.String(strides), shape.String(s))
		}
		if d.n-1 > (math.MaxInt-span)/d.stride {
			return opErr(op, ErrShape, "strides %s of shape %s overflow", shape.String(strides), shape.String(s))
		}
		span += (d.n - 1) * d.stride
	}
	if offset < 0 || offset > size-1 || span > size-1-offset {
		return opErr(op, ErrShape, "shape %s with strides %s from offset %d needs %d elements, the slice has %d",
			shape.String(s), shape.String(strides), offset, offset+span+1, size)
	}
	return nil
}

// StridedElements returns the memory of a strided tensor as a Go slice
// and its strides, without copying: element (i, j, ...) is data[i·strides[0]
// + j·strides[1] + ...], data starting at the first element and ending at
// the last. It is what BLAS-style code takes (gonum's blas64.General), and
// the inverse of WrapStrided. Writes through data write the tensor. A
// reversed view (a negative stride) is an ErrLayout error, and so is a T
// that is not the Go type of the dtype (ErrDType). Like Elements, it
// marks the tensor viewed, so that Release leaves its memory alone.
func StridedElements[T Element](t *Tensor) (data []T, strides []int, err error) {
	const op = "strided_elements"
	if err := checkTyped[T](op, t); err != nil {
		return nil, nil, err
	}
	span := 0
	for i, d := range t.shape {
		if d == 0 {
			return []T{}, t.Strides(), nil
		}
		if d > 1 && t.strides[i] < 0 {
			return nil, nil, opErr(op, ErrLayout, "the tensor of shape %s has a negative stride along dimension %d (strides %s): copy it with Contiguous()",
				shape.String(t.shape), i, shape.String(t.strides))
		}
		span += (d - 1) * max(t.strides[i], 0)
	}
	atomic.StoreUint32(&t.viewed, 1)
	return storageOf[T](t)[t.offset : t.offset+span+1], t.Strides(), nil
}

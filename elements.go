package tensor

import (
	"iter"
	"sync/atomic"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/shape"
)

// Typed access to elements. T is always the Go type of the tensor's dtype
// (int and int64, uint and uint64 are interchangeable on 64-bit
// platforms), as for ToSlice; another T is an ErrDType error, so that no
// value is ever reinterpreted or silently converted on the way out.

// Elements returns the elements of a contiguous tensor in row-major order
// as a slice of its own storage, without copying: writing to the slice
// writes the tensor (and every view sharing its storage), and a later
// write to the tensor is seen in the slice. A tensor that is not
// contiguous (a transpose, a strided slice, a broadcast view) is an
// ErrLayout error naming its shape and strides: copy it first with
// Contiguous or read it with ToSlice.
//
// Because the slice shares the buffer, Elements marks the tensor as viewed:
// a later Release leaves its memory to the garbage collector instead of
// recycling it under the slice.
func Elements[T Element](t *Tensor) ([]T, error) {
	const op = "elements"
	if err := checkTyped[T](op, t); err != nil {
		return nil, err
	}
	if !t.IsContiguous() {
		return nil, opErr(op, ErrLayout, "the tensor of shape %s has strides %s, not a contiguous layout; copy it with Contiguous() or read it with ToSlice",
			shape.String(t.shape), shape.String(t.strides))
	}
	if t.Size() == 0 {
		return []T{}, nil
	}
	atomic.StoreUint32(&t.viewed, 1)
	return contiguousData[T](t), nil
}

// Get returns the element at the given index as a T, without the boxing
// of At. The index rules are At's: one index per dimension, negative ones
// counting from the end, anything else an ErrIndex error.
func Get[T Element](t *Tensor, idx ...int) (T, error) {
	var zero T
	if err := checkTyped[T]("get", t); err != nil {
		return zero, err
	}
	pos, err := t.position("get", idx)
	if err != nil {
		return zero, err
	}
	return *(*T)(unsafe.Add(t.storage, uintptr(pos)*unsafe.Sizeof(zero))), nil
}

// Set writes v at the given index (At's index rules). When T is the Go
// type of t's dtype the value is stored as it is; any other Go number is a
// weak scalar converted as MulInto converts results (semantics §4): a
// float into an integer tensor is an ErrDType error, an integer outside an
// integer dtype's range an ErrValue error, a float64 into float32 rounds.
// A broadcast view, whose positions share elements, is an ErrLayout error.
func Set[T Element](t *Tensor, v T, idx ...int) error {
	const op = "set"
	if err := requireStrided(op, t); err != nil {
		return err
	}
	if t == nil {
		return opErr(op, ErrValue, "nil tensor")
	}
	if err := checkWritable(op, t); err != nil {
		return err
	}
	pos, err := t.position(op, idx)
	if err != nil {
		return err
	}
	if dtypeOf[T]() == t.dtype {
		*(*T)(unsafe.Add(t.storage, uintptr(pos)*unsafe.Sizeof(v))) = v
		return nil
	}
	s, _ := parseScalar(v) // every Element is a Go scalar
	if r := dtype.ScalarResult(t.dtype, s.kind); !dtype.CanCastInto(r, t.dtype) {
		return opErr(op, ErrDType, "cannot write %T %v into a tensor of dtype %v", v, v, t.dtype)
	}
	val, err := s.as(op, t.dtype)
	if err != nil {
		return err
	}
	size := t.dtype.Size()
	copy(unsafe.Slice((*byte)(unsafe.Add(t.storage, pos*size)), size), unsafe.Slice((*byte)(val.storage), size))
	return nil
}

// Each returns an iterator over the elements of t in row-major index
// order, whatever its strides, yielding each element's position in that
// order (0 to Size()-1) and its value:
//
//	seq, err := tensor.Each[float32](x)
//	for i, v := range seq { ... }
//
// The iterator reads the tensor as it goes, so writes made during the loop
// are seen by later elements; it allocates nothing per element.
func Each[T Element](t *Tensor) (iter.Seq2[int, T], error) {
	if err := checkTyped[T]("each", t); err != nil {
		return nil, err
	}
	if t.IsContiguous() {
		return eachContiguous[T](t), nil
	}
	return eachStrided[T](t), nil
}

func eachContiguous[T Element](t *Tensor) iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		if t.Size() == 0 {
			return
		}
		for i, v := range contiguousData[T](t) {
			if !yield(i, v) {
				return
			}
		}
	}
}

// eachStrided walks the index like an odometer, the last dimension fastest.
func eachStrided[T Element](t *Tensor) iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		n := t.Size()
		if n == 0 {
			return
		}
		data := storageOf[T](t)
		last := len(t.shape) - 1
		rows, inner, step := n/t.shape[last], t.shape[last], t.strides[last]
		idx := make([]int, last)
		at, k := t.offset, 0
		for range rows {
			p := at
			for range inner {
				if !yield(k, data[p]) {
					return
				}
				k++
				p += step
			}
			for d := last - 1; d >= 0; d-- {
				at += t.strides[d]
				if idx[d]++; idx[d] < t.shape[d] {
					break
				}
				at -= idx[d] * t.strides[d]
				idx[d] = 0
			}
		}
	}
}

// checkTyped rejects a nil, released or sparse tensor and a T that is not
// the Go type of t's dtype.
func checkTyped[T Element](op string, t *Tensor) error {
	if t != nil && !t.released && t.layout == Strided && t.dtype == dtypeOf[T]() {
		return nil // the common case, without boxing t for requireStrided
	}
	if err := requireStrided(op, t); err != nil {
		return err
	}
	if t == nil {
		return opErr(op, ErrValue, "nil tensor")
	}
	if want := dtypeOf[T](); want != t.dtype {
		var zero T
		return opErr(op, ErrDType, "cannot access %v elements as %T; use %v's Go type or convert with AsType(%v) first",
			t.dtype, zero, t.dtype, want)
	}
	return nil
}

// position returns the storage position of the element at idx, checking
// the index as At does.
func (t *Tensor) position(op string, idx []int) (int, error) {
	if len(idx) != len(t.shape) {
		return 0, opErr(op, ErrIndex, "%d indices for a tensor of %d dimensions %s", len(idx), len(t.shape), shape.String(t.shape))
	}
	pos := t.offset
	for d, i := range idx {
		n := t.shape[d]
		if i < -n || i >= n {
			return 0, opErr(op, ErrIndex, "index %d is out of range for dimension %d of size %d", i, d, n)
		}
		if i < 0 {
			i += n
		}
		pos += i * t.strides[d]
	}
	return pos, nil
}

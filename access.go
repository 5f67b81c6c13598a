package tensor

import (
	"unsafe"

	"github.com/tensor-go/tensor/bfloat16"
	"github.com/tensor-go/tensor/shape"
	"github.com/x448/float16"
)

// At returns the element at the given index as a Go value of the dtype's
// element type (int32 for int32, float16.Float16 for float16, ...). It
// needs one index per dimension (none for a 0-d tensor); negative indices
// count from the end. A wrong count or an index outside the tensor is an
// ErrIndex error.
func (t *Tensor) At(idx ...int) (any, error) {
	if err := requireStrided("at", t); err != nil {
		return nil, err
	}
	pos, err := t.position("at", idx)
	if err != nil {
		return nil, err
	}
	return t.elementAt(pos), nil
}

// Item returns the only element of a tensor of size 1, whatever its rank.
// Other sizes are an ErrValue error.
func (t *Tensor) Item() (any, error) {
	if err := requireStrided("item", t); err != nil {
		return nil, err
	}
	if n := t.Size(); n != 1 {
		return nil, opErr("item", ErrValue, "only a tensor of one element has an item, not shape %s", shape.String(t.shape))
	}
	return t.elementAt(t.offset), nil
}

// elementAt returns the element at storage position pos as a Go value.
func (t *Tensor) elementAt(pos int) any {
	p := unsafe.Add(t.storage, pos*t.dtype.Size())
	switch t.dtype {
	case Bool:
		return *(*bool)(p)
	case Int8:
		return *(*int8)(p)
	case Int16:
		return *(*int16)(p)
	case Int32:
		return *(*int32)(p)
	case Int64:
		return *(*int64)(p)
	case Uint8:
		return *(*uint8)(p)
	case Uint16:
		return *(*uint16)(p)
	case Uint32:
		return *(*uint32)(p)
	case Uint64:
		return *(*uint64)(p)
	case Float16:
		return *(*float16.Float16)(p)
	case BFloat16:
		return *(*bfloat16.BFloat16)(p)
	case Float32:
		return *(*float32)(p)
	case Float64:
		return *(*float64)(p)
	case Complex64:
		return *(*complex64)(p)
	case Complex128:
		return *(*complex128)(p)
	}
	panic("unreachable: a tensor always has a valid dtype")
}

// ToSlice returns a copy of the elements of t in row-major order, whatever
// its strides. T must be the Go type of t's dtype (int and int64, uint and
// uint64 are interchangeable on 64-bit platforms); otherwise it is an
// ErrDType error and t must first be converted with AsType.
func ToSlice[T Element](t *Tensor) ([]T, error) {
	if err := requireStrided("to_slice", t); err != nil {
		return nil, err
	}
	if want := dtypeOf[T](); want != t.dtype {
		var zero T
		return nil, opErr("to_slice", ErrDType, "cannot read %v elements as %T; convert with AsType(%v) first", t.dtype, zero, want)
	}
	out := make([]T, t.Size())
	if len(out) == 0 {
		return out, nil
	}
	if t.IsContiguous() {
		copy(out, contiguousData[T](t))
		return out, nil
	}
	// View out as a contiguous tensor and let the engine fill it.
	dst := &Tensor{dtype: t.dtype, shape: t.shape, strides: shape.ContiguousStrides(t.shape),
		storage: unsafe.Pointer(unsafe.SliceData(out)), n: len(out)}
	if err := copyInto(dst, t); err != nil {
		return nil, wrapErr("to_slice", err)
	}
	return out, nil
}

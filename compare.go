package tensor

import (
	"bytes"
	"math"
	"math/cmplx"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/shape"
)

// Comparing tensors in tests. reflect.DeepEqual compares a tensor's
// storage pointers and strides, not its elements, so two equal tensors are
// never DeepEqual; Equal and AllClose compare what the tensors hold.

// CompareOption adjusts Equal and AllClose.
type CompareOption func(*compareConfig)

type compareConfig struct {
	rtol, atol float64
	equalNaN   bool
}

// EqualNaN makes NaN equal to NaN (a complex element is NaN when either
// part is), as NumPy's equal_nan=True.
func EqualNaN() CompareOption { return func(c *compareConfig) { c.equalNaN = true } }

// RTol sets AllClose's relative tolerance (default 1e-5, NumPy's).
func RTol(r float64) CompareOption { return func(c *compareConfig) { c.rtol = r } }

// ATol sets AllClose's absolute tolerance (default 1e-8, NumPy's).
func ATol(a float64) CompareOption { return func(c *compareConfig) { c.atol = a } }

func compareOptions(opts []CompareOption) compareConfig {
	c := compareConfig{rtol: 1e-5, atol: 1e-8}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// Equal reports whether a and b have the same dtype, the same shape and
// equal elements, whatever their strides or layout (a sparse tensor
// equals the dense one with its values). Floats compare as numbers: -0
// equals +0 and NaN equals nothing, unless EqualNaN is given. Two nil
// tensors are equal; a nil or released tensor equals no other tensor.
// Tolerances are ignored: use AllClose for them.
func Equal(a, b *Tensor, opts ...CompareOption) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.released || b.released || a.dtype != b.dtype || !shape.Equal(a.shape, b.shape) {
		return false
	}
	cfg := compareOptions(opts)
	switch a.dtype.Kind() {
	case dtype.KindFloat:
		x, y, err := comparable[float64](a, b, Float64)
		return err == nil && allPairs(x, y, func(p, q float64) bool { return p == q || cfg.equalNaN && math.IsNaN(p) && math.IsNaN(q) })
	case dtype.KindComplex:
		x, y, err := comparable[complex128](a, b, Complex128)
		return err == nil && allPairs(x, y, func(p, q complex128) bool { return p == q || cfg.equalNaN && cmplx.IsNaN(p) && cmplx.IsNaN(q) })
	}
	// Integers and bools are equal exactly when their bytes are.
	x, y, err := comparable[byte](a, b, dtype.Invalid)
	return err == nil && bytes.Equal(x, y)
}

// AllClose reports whether every element of a is close to the element of
// b at the same position, by NumPy's definition of allclose:
//
//	|a − b| ≤ atol + rtol·|b|
//
// with rtol 1e-5 and atol 1e-8 unless RTol and ATol say otherwise. It is
// not symmetric: b is the reference. Infinities are close only to the
// same infinity; NaN is close to nothing unless EqualNaN is given. The
// shapes broadcast together (semantics §2); the dtypes may differ, and
// compare as float64 values (complex128 when either is complex, with |·|
// the modulus), bool as 0 and 1. Shapes that do not broadcast, nil
// operands and negative or NaN tolerances are errors.
func AllClose(a, b *Tensor, opts ...CompareOption) (bool, error) {
	const op = "allclose"
	if a == nil || b == nil {
		return false, opErr(op, ErrValue, "nil *Tensor operand")
	}
	if err := requireLive(op, a, b); err != nil {
		return false, err
	}
	cfg := compareOptions(opts)
	if !(cfg.rtol >= 0) || !(cfg.atol >= 0) {
		return false, opErr(op, ErrValue, "tolerances must be non-negative numbers, not rtol=%v atol=%v", cfg.rtol, cfg.atol)
	}
	s, err := shape.Broadcast(a.shape, b.shape)
	if err != nil {
		return false, wrapErr(op, err)
	}
	if a.dtype.Kind() == dtype.KindComplex || b.dtype.Kind() == dtype.KindComplex {
		x, y, err := broadcastComparable[complex128](op, a, b, s, Complex128)
		return err == nil && allPairs(x, y, func(p, q complex128) bool {
			if cmplx.IsNaN(p) || cmplx.IsNaN(q) {
				return cfg.equalNaN && cmplx.IsNaN(p) && cmplx.IsNaN(q)
			}
			if cmplx.IsInf(p) || cmplx.IsInf(q) {
				return p == q
			}
			return cmplx.Abs(p-q) <= cfg.atol+float64(cfg.rtol*cmplx.Abs(q)) // rounded as NumPy does, unfused
		}), err
	}
	x, y, err := broadcastComparable[float64](op, a, b, s, Float64)
	return err == nil && allPairs(x, y, func(p, q float64) bool {
		if math.IsNaN(p) || math.IsNaN(q) {
			return cfg.equalNaN && math.IsNaN(p) && math.IsNaN(q)
		}
		if math.IsInf(p, 0) || math.IsInf(q, 0) {
			return p == q
		}
		return math.Abs(p-q) <= cfg.atol+float64(cfg.rtol*math.Abs(q)) // rounded as NumPy does, unfused
	}), err
}

// allPairs reports whether same(x[i], y[i]) holds for every i.
func allPairs[T any](x, y []T, same func(p, q T) bool) bool {
	for i := range x {
		if !same(x[i], y[i]) {
			return false
		}
	}
	return true
}

// comparable returns the elements of a and b (of one shape) in row-major
// order, converted to dt; with dtype.Invalid, their raw bytes in their own
// dtype. Sparse tensors are made dense first.
func comparable[T any](a, b *Tensor, dt DType) ([]T, []T, error) {
	x, err := comparableElements[T](a, dt)
	if err != nil {
		return nil, nil, err
	}
	y, err := comparableElements[T](b, dt)
	return x, y, err
}

func comparableElements[T any](t *Tensor, dt DType) ([]T, error) {
	t, err := t.ToDense()
	if err != nil {
		return nil, err
	}
	if dt == dtype.Invalid {
		c, err := t.Contiguous()
		if err != nil {
			return nil, err
		}
		if c.Size() == 0 {
			return nil, nil
		}
		size := c.dtype.Size() // T is byte
		return unsafe.Slice((*T)(unsafe.Add(c.storage, c.offset*size)), c.Size()*size), nil
	}
	c, err := t.AsType(dt)
	if err != nil {
		return nil, err
	}
	if c.Size() == 0 {
		return nil, nil
	}
	return contiguousData[T](c), nil
}

// broadcastComparable is comparable for operands broadcast to shape s.
func broadcastComparable[T any](op string, a, b *Tensor, s []int, dt DType) ([]T, []T, error) {
	a, err := a.ToDense()
	if err != nil {
		return nil, nil, wrapErr(op, err)
	}
	if b, err = b.ToDense(); err != nil {
		return nil, nil, wrapErr(op, err)
	}
	if a, err = broadcastView(a, s); err != nil {
		return nil, nil, wrapErr(op, err)
	}
	if b, err = broadcastView(b, s); err != nil {
		return nil, nil, wrapErr(op, err)
	}
	return comparable[T](a, b, dt)
}

package tensor

import (
	"reflect"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/shape"
)

// Copy writes the elements of src into dst, which may be any view that is
// not broadcast: a slice, a transpose, a column. Together they cover what
// NumPy's dst[...] = src does.
//
// dst is a *Tensor, or a Go slice of an element type ([]float32, []int64,
// ...) whose elements are written in row-major order: it stands for a
// tensor of src's shape when it has as many elements, and otherwise for a
// 1-D tensor of its length. src is a *Tensor, a Go slice (a 1-D tensor on
// the slice itself, not a copy) or a Go bool or number; it broadcasts to
// dst's shape (semantics §2), which it may not change.
//
// Dtypes convert as the into-forms of operations convert results (as
// MulInto does): into any dtype of the same or a higher kind, so float64
// into float32 rounds and int64 into int8 wraps, while a float into an
// integer tensor or a complex into a real one is an ErrDType error. A Go
// number is a weak scalar: it takes dst's dtype when its kind is not
// higher, and an integer must then fit (300 into uint8 is ErrValue).
// When src and dst share memory, src is read completely before dst is
// written.
func Copy(dst, src any) error {
	const op = "copy"
	if err := requireStrided(op, dst, src); err != nil {
		return err
	}
	s, err := copySource(op, src)
	if err != nil {
		return err
	}
	d, err := copyDestination(op, dst, s)
	if err != nil {
		return err
	}
	if err := checkWritable(op, d); err != nil {
		return err
	}
	if sc := s.scalar; sc != nil {
		if r := dtype.ScalarResult(d.dtype, sc.kind); !dtype.CanCastInto(r, d.dtype) {
			return opErr(op, ErrDType, "cannot write Go %T %v into a tensor of dtype %v", sc.orig, sc.orig, d.dtype)
		}
		if s.t, err = sc.as(op, d.dtype); err != nil {
			return err
		}
	} else if !dtype.CanCastInto(s.t.dtype, d.dtype) {
		return opErr(op, ErrDType, "cannot write %v elements into a tensor of dtype %v, whose kind is lower",
			s.t.dtype, d.dtype)
	}
	b, err := broadcastView(s.t, d.shape)
	if err != nil {
		return opErr(op, ErrShape, "cannot broadcast shape %s into the destination's shape %s",
			shape.String(s.t.shape), shape.String(d.shape))
	}
	return copyInto(d, b)
}

// broadcastView is t broadcast to shape s (which t's shape must broadcast
// to unchanged) as a private view for one operation: unlike BroadcastTo it
// does not mark t viewed, since the view does not outlive the call.
func broadcastView(t *Tensor, s []int) (*Tensor, error) {
	st, err := shape.BroadcastStrides(t.shape, t.strides, s)
	if err != nil {
		return nil, err
	}
	return &Tensor{dtype: t.dtype, shape: s, strides: st, offset: t.offset, storage: t.storage, n: t.n}, nil
}

// copyOperand is Copy's source: a tensor t, or a Go scalar (scalar set)
// whose dtype waits for dst's.
type copyOperand struct {
	t      *Tensor
	scalar *hostScalar
}

func copySource(op string, src any) (copyOperand, error) {
	if t, ok := src.(*Tensor); ok {
		if t == nil {
			return copyOperand{}, opErr(op, ErrValue, "source is a nil *Tensor")
		}
		return copyOperand{t: t}, nil
	}
	if t, ok := wrapGoSlice(src, nil); ok {
		return copyOperand{t: t}, nil
	}
	s, ok := parseScalar(src)
	if !ok {
		return copyOperand{}, opErr(op, ErrDType, "unsupported source type %T: want a *Tensor, a Go slice of an element type, or a Go bool or number", src)
	}
	return copyOperand{scalar: &s}, nil
}

func copyDestination(op string, dst any, src copyOperand) (*Tensor, error) {
	if t, ok := dst.(*Tensor); ok {
		if t == nil {
			return nil, opErr(op, ErrValue, "destination is a nil *Tensor")
		}
		return t, nil
	}
	var like []int
	if src.t != nil {
		like = src.t.shape
	}
	if t, ok := wrapGoSlice(dst, like); ok {
		return t, nil
	}
	return nil, opErr(op, ErrDType, "unsupported destination type %T: want a *Tensor or a Go slice of an element type", dst)
}

// wrapGoSlice returns a tensor on the elements of v when v is a Go slice
// of an element type (or of a type defined on one): of shape like when
// that holds len(v) elements, else 1-D.
func wrapGoSlice(v any, like []int) (*Tensor, bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice {
		return nil, false
	}
	dt, ok := dtypeOfGoType(rv.Type().Elem())
	if !ok {
		return nil, false
	}
	s := []int{rv.Len()}
	if like != nil && shape.MustSize(like) == rv.Len() {
		s = append([]int{}, like...)
	}
	t := &Tensor{dtype: dt, shape: s, strides: shape.ContiguousStrides(s), n: rv.Len()}
	if rv.Len() > 0 {
		t.storage = rv.UnsafePointer()
	}
	return t, true
}

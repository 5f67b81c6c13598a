package tensor

import (
	"reflect"
	"unsafe"

	"github.com/tensor-go/tensor/bfloat16"
	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/cast"
	"github.com/x448/float16"
)

// Host scalars (semantics §4). Binary operations take operands of type any:
// a *Tensor or a Go bool or number. A Go number is "weak": it adopts the
// tensor's dtype unless its kind (bool < integer < float < complex) is
// higher, in which case the result has the default dtype of the scalar's
// kind (int32, float32; for complex, the complex dtype of the tensor's
// precision). The Go type's width never matters: int8(3) and int64(3) are
// the same operand, as 3 and 3.0 are in NumPy.

// hostScalar is a Go scalar operand held exactly: bits holds its value in
// dt, the dtype of its Go type (int as int64, uint as uint64), and kind is
// the kind the promotion rules see. It is a plain value, so that parsing
// an operand allocates nothing: only the tensor as makes does.
type hostScalar struct {
	bits [2]uint64 // room for any element, complex128 included
	dt   dtype.DType
	kind dtype.Kind
	orig any // as the caller passed it, for error messages
}

// scalarOf holds v as a hostScalar of its Go type's dtype.
func scalarOf[T Element](v T) hostScalar {
	s := hostScalar{dt: dtypeOf[T]()}
	*(*T)(unsafe.Pointer(&s.bits)) = v
	s.kind = s.dt.Kind()
	return s
}

// parseScalar recognises the Go scalar types, and types defined on them
// (type Celsius float64), which are read as their underlying type.
func parseScalar(v any) (hostScalar, bool) {
	var s hostScalar
	switch x := v.(type) {
	case bool:
		s = scalarOf(x)
	case int:
		s = scalarOf(x)
	case int8:
		s = scalarOf(x)
	case int16:
		s = scalarOf(x)
	case int32:
		s = scalarOf(x)
	case int64:
		s = scalarOf(x)
	case uint:
		s = scalarOf(x)
	case uint8:
		s = scalarOf(x)
	case uint16:
		s = scalarOf(x)
	case uint32:
		s = scalarOf(x)
	case uint64:
		s = scalarOf(x)
	case float16.Float16:
		s = scalarOf(x)
	case bfloat16.BFloat16:
		s = scalarOf(x)
	case float32:
		s = scalarOf(x)
	case float64:
		s = scalarOf(x)
	case complex64:
		s = scalarOf(x)
	case complex128:
		s = scalarOf(x)
	default:
		return parseDefined(v)
	}
	s.orig = v
	return s, true
}

// parseDefined handles defined types whose underlying type is a Go bool or
// number. Reflection is fine here: it runs once per operation, not per
// element.
func parseDefined(v any) (hostScalar, bool) {
	rv := reflect.ValueOf(v)
	var base any
	switch rv.Kind() {
	case reflect.Bool:
		base = rv.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		base = rv.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		base = rv.Uint()
	case reflect.Float32:
		base = float32(rv.Float())
	case reflect.Float64:
		base = rv.Float()
	case reflect.Complex64:
		base = complex64(rv.Complex())
	case reflect.Complex128:
		base = rv.Complex()
	default:
		return hostScalar{}, false
	}
	s, _ := parseScalar(base)
	s.orig = v
	return s, true
}

// as materialises s as a 0-d tensor of dtype dt. An integer scalar must fit
// an integer dtype (int8 × 300 and uint8 × -1 are errors, not wraps);
// everything else converts by the casting rules, so a float scalar rounds
// into a float16 tensor (1e5 becomes +Inf) and an integer into a float one.
// The tensor, its value and the conversion's source are one allocation.
func (s hostScalar) as(op string, dt dtype.DType) (*Tensor, error) {
	if dt.IsInteger() && s.dt.IsInteger() && !fitsDType(s, dt) {
		return nil, opErr(op, ErrValue, "Go scalar %v (%T) is outside the range of %v", s.orig, s.orig, dt)
	}
	h := new(scalarHeader)
	h.t.shape, h.t.strides = []int{}, []int{}
	h.t.dtype, h.t.storage, h.t.n = dt, unsafe.Pointer(&h.value), 1
	if dt == s.dt {
		h.value = s.bits
	} else {
		h.source = s.bits
		cast.Run(unsafe.Pointer(&h.value), dt, 0, unsafe.Pointer(&h.source), s.dt, 0, 1)
	}
	return &h.t, nil
}

// valueIn returns s converted to dt as as does, as the bits of one
// element, for the conversions Go does itself with as's rounding (to
// nearest even): none, float64 to float32, and int64 to int32 (in range),
// float32 or float64. It returns false for the others, which as converts
// through package cast (whose pointers escape: two allocations here).
func (s hostScalar) valueIn(dt dtype.DType) (v [2]uint64, ok bool) {
	switch {
	case dt == s.dt:
		return s.bits, true
	case s.dt == dtype.Float64 && dt == dtype.Float32:
		*(*float32)(unsafe.Pointer(&v)) = float32(*(*float64)(unsafe.Pointer(&s.bits)))
	case s.dt == dtype.Int64 && dt == dtype.Int32 && fitsDType(s, dt):
		*(*int32)(unsafe.Pointer(&v)) = int32(*(*int64)(unsafe.Pointer(&s.bits)))
	case s.dt == dtype.Int64 && dt == dtype.Float32:
		*(*float32)(unsafe.Pointer(&v)) = float32(*(*int64)(unsafe.Pointer(&s.bits)))
	case s.dt == dtype.Int64 && dt == dtype.Float64:
		*(*float64)(unsafe.Pointer(&v)) = float64(*(*int64)(unsafe.Pointer(&s.bits)))
	default:
		return v, false
	}
	return v, true
}

// scalarHeader is a 0-d tensor with its element and the element it was
// converted from, allocated together.
type scalarHeader struct {
	t      Tensor
	value  [2]uint64
	source [2]uint64
}

// fitsDType reports whether the integer scalar s lies within the range of
// the integer dtype dt.
func fitsDType(s hostScalar, dt dtype.DType) bool {
	neg, mag := integerValue(s)
	bits := dt.Bits()
	switch {
	case neg && !dt.IsSigned():
		return false
	case neg:
		return mag <= 1<<(bits-1) // down to -2^(bits-1)
	case dt.IsSigned():
		return mag <= 1<<(bits-1)-1
	case bits == 64:
		return true
	}
	return mag <= 1<<bits-1
}

// integerValue reads the integer scalar s as a sign and a magnitude,
// widening through int64 or uint64 by its signedness.
func integerValue(s hostScalar) (neg bool, mag uint64) {
	var w [2]uint64
	if s.dt.IsSigned() {
		cast.Run(unsafe.Pointer(&w), dtype.Int64, 0, unsafe.Pointer(&s.bits), s.dt, 0, 1)
		if i := int64(w[0]); i < 0 {
			return true, -uint64(i) // right for int64 min too: it wraps to 2^63
		}
		return false, w[0]
	}
	cast.Run(unsafe.Pointer(&w), dtype.Uint64, 0, unsafe.Pointer(&s.bits), s.dt, 0, 1)
	return false, w[0]
}

// Scalar returns a 0-d tensor holding the Go bool or number v in the
// default dtype of its kind, as semantics §1 and §4 give a host scalar on
// its own: bool for bool, int32 for every Go integer type, float32 for
// every Go float type (float16 and bfloat16 included), complex64 for both
// complex types. So Scalar(2.5) is float32 and Scalar(int64(7)) int32.
// Floats round to float32; an integer outside int32's range is an ErrValue
// error. Types defined on a Go bool or number are read as their underlying
// type; any other type is an ErrDType error. Use ScalarOf to keep the exact
// dtype of a Go type.
func Scalar(v any) (*Tensor, error) {
	s, ok := parseScalar(v)
	if !ok {
		return nil, opErr("scalar", ErrDType, "%v of type %T is not a Go bool or number", v, v)
	}
	return s.as("scalar", dtype.Default(s.kind))
}

// ScalarOf returns a 0-d tensor holding v in the dtype of its Go type, as
// FromSlice would: ScalarOf(int8(3)) is int8, ScalarOf(2.5) float64,
// ScalarOf(3) int64 (Go's int).
func ScalarOf[T Element](v T) *Tensor {
	t, err := empty(dtypeOf[T](), nil)
	if err != nil {
		panic("tensor: internal error: one element failed to allocate: " + err.Error())
	}
	*(*T)(t.storage) = v
	return t
}

// binaryOperands resolves the operands of the binary operation op, each a
// *Tensor or a Go scalar, to two tensors and the dtype of the result:
//
//   - two tensors promote with dtype.Promote (semantics §3); 0-d tensors
//     are tensors, not weak;
//   - a scalar with a tensor follows dtype.ScalarResult (§4); an integer
//     scalar outside the range of an integer result (int8 tensor × 300,
//     uint8 tensor × -1, bool tensor × 2^40, whose result is int32) is an
//     ErrValue error naming op, the value and the dtype;
//   - two scalars give the default dtype of the higher kind (mul(1.0, 4.0)
//     is float32, mul(-3, -4) int32, mul(true, true) bool), with the same
//     range check against int32.
//
// Scalars come back as 0-d tensors of the result dtype, so broadcasting
// handles them like any tensor; tensors come back as given. A nil *Tensor
// is an ErrValue error; an operand of any other type (string, nil, a
// slice) an ErrDType error naming op and the Go type.
func binaryOperands(op string, x, y any) (a, b *Tensor, result DType, err error) {
	ta, sa, err := operand(op, x)
	if err != nil {
		return nil, nil, dtype.Invalid, err
	}
	tb, sb, err := operand(op, y)
	if err != nil {
		return nil, nil, dtype.Invalid, err
	}
	switch {
	case ta != nil && tb != nil:
		result, err = dtype.Promote(ta.dtype, tb.dtype)
		if err != nil {
			return nil, nil, dtype.Invalid, wrapErr(op, err)
		}
		return ta, tb, result, nil
	case ta != nil:
		result = dtype.ScalarResult(ta.dtype, sb.kind)
	case tb != nil:
		result = dtype.ScalarResult(tb.dtype, sa.kind)
	default:
		result = dtype.Default(higherKind(sa.kind, sb.kind))
	}
	if ta == nil {
		if ta, err = sa.as(op, result); err != nil {
			return nil, nil, dtype.Invalid, err
		}
	}
	if tb == nil {
		if tb, err = sb.as(op, result); err != nil {
			return nil, nil, dtype.Invalid, err
		}
	}
	return ta, tb, result, nil
}

// operand classifies one operand: a tensor (t set) or a Go scalar (s set).
func operand(op string, v any) (t *Tensor, s hostScalar, err error) {
	if t, ok := v.(*Tensor); ok {
		if t == nil {
			return nil, s, opErr(op, ErrValue, "operand is a nil *Tensor")
		}
		return t, s, nil
	}
	s, ok := parseScalar(v)
	if !ok {
		return nil, s, opErr(op, ErrDType, "unsupported operand type %T: want a *Tensor or a Go bool or number", v)
	}
	return nil, s, nil
}

// higherKind returns the kind that ranks higher for promotion: bool <
// integer (signed and unsigned alike) < float < complex.
func higherKind(a, b dtype.Kind) dtype.Kind {
	rank := func(k dtype.Kind) int {
		switch k {
		case dtype.KindBool:
			return 1
		case dtype.KindSigned, dtype.KindUnsigned:
			return 2
		case dtype.KindFloat:
			return 3
		}
		return 4
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

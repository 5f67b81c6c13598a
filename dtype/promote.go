package dtype

import "fmt"

// Short unexported names keep the promotion table below readable as a grid.
const (
	bo = Bool
	i1 = Int8
	i2 = Int16
	i4 = Int32
	i8 = Int64
	u1 = Uint8
	u2 = Uint16
	u4 = Uint32
	u8 = Uint64
	f2 = Float16
	bf = BFloat16
	f4 = Float32
	f8 = Float64
	c8 = Complex64
	cx = Complex128
	__ = Invalid // no dtype holds both operands: an error
)

// promotion is the result dtype of a binary operation between tensors of
// the row and column dtypes (semantics §3). It is symmetric. Reading a row:
// within a kind the wider type wins; a signed and an unsigned integer meet
// in the signed type wide enough for both, which for uint64 does not exist;
// float16 and bfloat16 meet in float32; a real float and a complex meet in
// the complex type wide enough for the float's precision; otherwise the
// operand of the higher kind decides.
var promotion = [numDTypes][numDTypes]DType{
	//   __ bo i1 i2 i4 i8 u1 u2 u4 u8 f2 bf f4 f8 c8 cx
	bo: {__, bo, i1, i2, i4, i8, u1, u2, u4, u8, f2, bf, f4, f8, c8, cx}, // bool
	i1: {__, i1, i1, i2, i4, i8, i2, i4, i8, __, f2, bf, f4, f8, c8, cx}, // int8
	i2: {__, i2, i2, i2, i4, i8, i2, i4, i8, __, f2, bf, f4, f8, c8, cx}, // int16
	i4: {__, i4, i4, i4, i4, i8, i4, i4, i8, __, f2, bf, f4, f8, c8, cx}, // int32
	i8: {__, i8, i8, i8, i8, i8, i8, i8, i8, __, f2, bf, f4, f8, c8, cx}, // int64
	u1: {__, u1, i2, i2, i4, i8, u1, u2, u4, u8, f2, bf, f4, f8, c8, cx}, // uint8
	u2: {__, u2, i4, i4, i4, i8, u2, u2, u4, u8, f2, bf, f4, f8, c8, cx}, // uint16
	u4: {__, u4, i8, i8, i8, i8, u4, u4, u4, u8, f2, bf, f4, f8, c8, cx}, // uint32
	u8: {__, u8, __, __, __, __, u8, u8, u8, u8, f2, bf, f4, f8, c8, cx}, // uint64
	f2: {__, f2, f2, f2, f2, f2, f2, f2, f2, f2, f2, f4, f4, f8, c8, cx}, // float16
	bf: {__, bf, bf, bf, bf, bf, bf, bf, bf, bf, f4, bf, f4, f8, c8, cx}, // bfloat16
	f4: {__, f4, f4, f4, f4, f4, f4, f4, f4, f4, f4, f4, f4, f8, c8, cx}, // float32
	f8: {__, f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, cx, cx}, // float64
	c8: {__, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, cx, c8, cx}, // complex64
	cx: {__, cx, cx, cx, cx, cx, cx, cx, cx, cx, cx, cx, cx, cx, cx, cx}, // complex128
}

// Promote returns the dtype of the result of a binary operation between
// tensors of dtypes a and b. It fails only for uint64 with a signed
// integer, which no integer dtype can hold.
func Promote(a, b DType) (DType, error) {
	if !a.Valid() || !b.Valid() {
		return Invalid, fmt.Errorf("cannot promote %v and %v: %w", a, b, ErrDType)
	}
	if r := promotion[a][b]; r != Invalid {
		return r, nil
	}
	return Invalid, fmt.Errorf("cannot promote %v and %v: no integer dtype holds both; cast one operand first: %w", a, b, ErrDType)
}

// ProdResult is the dtype prod returns for an input of dtype d (semantics
// §6): narrow integers and bool widen to 32 bits so that small products do
// not overflow at once; everything else keeps its dtype.
func ProdResult(d DType) DType {
	switch d {
	case Bool, Int8, Int16:
		return Int32
	case Uint8, Uint16:
		return Uint32
	}
	return d
}

// Accumulator is the dtype in which sums and products of d are carried
// before the final rounding: float32 for the 16-bit floats, d otherwise.
func Accumulator(d DType) DType {
	if d == Float16 || d == BFloat16 {
		return Float32
	}
	return d
}

// CanCastInto reports whether a result of dtype from may be written into an
// output of dtype to by an operation's into-form: any dtype of the same or a
// higher kind (float64 into float32 is allowed, float into int is not).
func CanCastInto(from, to DType) bool {
	return from.Valid() && to.Valid() && to.Kind().rank() >= from.Kind().rank()
}

// ScalarResult is the dtype of an operation between a tensor of dtype t and
// a host (Go) scalar of kind k (semantics §4). Scalars are weak: when their
// kind is not higher than the tensor's, the tensor's dtype wins. A scalar of
// a higher kind gives the default dtype of its kind (int32, float32), or for
// complex the complex dtype of the tensor's precision.
func ScalarResult(t DType, k Kind) DType {
	if k.rank() <= t.Kind().rank() {
		return t
	}
	switch k {
	case KindSigned, KindUnsigned:
		return Int32
	case KindFloat:
		return Float32
	case KindComplex:
		if t == Float64 {
			return Complex128
		}
		return Complex64
	}
	return t
}

// Default returns the library's default dtype for a kind: int32 for
// integers, float32 for floats, complex64 for complex, bool for bool.
func Default(k Kind) DType {
	switch k {
	case KindBool:
		return Bool
	case KindSigned, KindUnsigned:
		return Int32
	case KindFloat:
		return Float32
	case KindComplex:
		return Complex64
	}
	return Invalid
}

// Package dtype defines the element types of tensors and the pure rules
// that relate them: names, sizes, kinds, type promotion, the result types of
// reductions and the casts an output may receive.
//
// Nothing here touches tensor data; every rule is a small table or a
// function of its arguments alone, so it can be tested exhaustively.
package dtype

import (
	"errors"
	"fmt"
)

// DType is the element type of a tensor.
type DType uint8

// The fifteen element types, ordered by kind and then by width. The zero
// value Invalid is never the dtype of a tensor.
const (
	Invalid DType = iota
	Bool
	Int8
	Int16
	Int32
	Int64
	Uint8
	Uint16
	Uint32
	Uint64
	Float16
	BFloat16
	Float32
	Float64
	Complex64
	Complex128

	numDTypes = iota
)

// All lists every valid dtype in declaration order.
var All = []DType{
	Bool, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64,
	Float16, BFloat16, Float32, Float64, Complex64, Complex128,
}

// Kind groups dtypes into the families the promotion rules rank:
// Bool < Signed, Unsigned (both "integer") < Float < Complex.
type Kind uint8

const (
	KindInvalid Kind = iota
	KindBool
	KindSigned
	KindUnsigned
	KindFloat
	KindComplex
)

// rank orders kinds for promotion; signed and unsigned integers share a rank.
func (k Kind) rank() int {
	switch k {
	case KindBool:
		return 1
	case KindSigned, KindUnsigned:
		return 2
	case KindFloat:
		return 3
	case KindComplex:
		return 4
	}
	return 0
}

type info struct {
	name string
	size int // bytes per element
	kind Kind
}

var infos = [numDTypes]info{
	Invalid:    {"invalid", 0, KindInvalid},
	Bool:       {"bool", 1, KindBool},
	Int8:       {"int8", 1, KindSigned},
	Int16:      {"int16", 2, KindSigned},
	Int32:      {"int32", 4, KindSigned},
	Int64:      {"int64", 8, KindSigned},
	Uint8:      {"uint8", 1, KindUnsigned},
	Uint16:     {"uint16", 2, KindUnsigned},
	Uint32:     {"uint32", 4, KindUnsigned},
	Uint64:     {"uint64", 8, KindUnsigned},
	Float16:    {"float16", 2, KindFloat},
	BFloat16:   {"bfloat16", 2, KindFloat},
	Float32:    {"float32", 4, KindFloat},
	Float64:    {"float64", 8, KindFloat},
	Complex64:  {"complex64", 8, KindComplex},
	Complex128: {"complex128", 16, KindComplex},
}

// ErrDType is the sentinel wrapped by every dtype error (unknown names,
// pairs that do not promote, forbidden casts).
var ErrDType = errors.New("dtype error")

// Valid reports whether d is one of the fifteen element types.
func (d DType) Valid() bool { return d > Invalid && d < numDTypes }

// String returns the NumPy name of d ("float32", "bfloat16", ...).
func (d DType) String() string {
	if d >= numDTypes {
		return fmt.Sprintf("dtype(%d)", uint8(d))
	}
	return infos[d].name
}

// Size is the number of bytes one element occupies.
func (d DType) Size() int {
	if d >= numDTypes {
		return 0
	}
	return infos[d].size
}

// Kind returns the family of d.
func (d DType) Kind() Kind {
	if d >= numDTypes {
		return KindInvalid
	}
	return infos[d].kind
}

// IsBool, IsInteger, IsFloat and IsComplex test the kind of d.
func (d DType) IsBool() bool    { return d.Kind() == KindBool }
func (d DType) IsInteger() bool { k := d.Kind(); return k == KindSigned || k == KindUnsigned }
func (d DType) IsFloat() bool   { return d.Kind() == KindFloat }
func (d DType) IsComplex() bool { return d.Kind() == KindComplex }

// IsSigned reports whether d is a signed integer type.
func (d DType) IsSigned() bool { return d.Kind() == KindSigned }

// Bits is the width in bits of one element (for complex, of both parts).
func (d DType) Bits() int { return 8 * d.Size() }

// Parse returns the dtype with the given name ("float32", "bfloat16", ...).
// It also accepts C-style aliases; unlike NumPy, "float" and "int" mean the
// library's defaults float32 and int32.
func Parse(name string) (DType, error) {
	for _, d := range All {
		if infos[d].name == name {
			return d, nil
		}
	}
	switch name {
	case "float", "single":
		return Float32, nil
	case "double":
		return Float64, nil
	case "half":
		return Float16, nil
	case "int":
		return Int32, nil
	case "long":
		return Int64, nil
	case "cfloat":
		return Complex64, nil
	case "cdouble":
		return Complex128, nil
	}
	if len(name) > 48 { // quote a short prefix of a huge name, not all of it
		return Invalid, fmt.Errorf("unknown dtype %q... (%d bytes): %w", name[:48], len(name), ErrDType)
	}
	return Invalid, fmt.Errorf("unknown dtype %q: %w", name, ErrDType)
}

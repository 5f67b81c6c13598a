package expr

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/shape"
)

// A Value is what an expression evaluates to:
//
//	*tensor.Tensor  a tensor
//	int64           a Python int (a weak scalar in arithmetic)
//	float64         a Python float (weak), including nan and inf
//	complex128      a Python complex (weak), from literals such as 2j
//	bool            True or False
//	nil             None
//	string          a string (dtype names)
//	Tuple           a tuple: axes, shapes, x.shape
//	List            a list literal, not yet a tensor
//
// Lists stay lists until an operation needs a tensor, so that the same
// literal can be a shape, an axis list or the data of tensor(..., dtype=).
type Value any

// Tuple is a Python tuple.
type Tuple []Value

// List is a Python list.
type List []Value

// Format renders v for printing: tensors in the library's format, other
// values as Python's repr would (strings bare, like NumPy's dtype names).
func Format(v Value) (string, error) {
	switch v := v.(type) {
	case *tensor.Tensor:
		return v.String(), nil
	case List:
		t, err := listTensor(v, dtype.Invalid, "tensor")
		if err != nil {
			return "", err
		}
		return t.String(), nil
	case string:
		return v, nil
	case Archive:
		return formatArchive(v), nil
	}
	return repr(v), nil
}

// repr formats a non-tensor value as Python does.
func repr(v Value) string {
	switch v := v.(type) {
	case nil:
		return "None"
	case bool:
		if v {
			return "True"
		}
		return "False"
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return floatRepr(v)
	case complex128:
		re, im := real(v), imag(v)
		imText := floatRepr(im)
		if re == 0 && !math.Signbit(re) {
			return trimZero(imText) + "j"
		}
		sign := "+"
		if im < 0 || math.Signbit(im) || math.IsNaN(im) && strings.HasPrefix(imText, "-") {
			sign = ""
		}
		return "(" + trimZero(floatRepr(re)) + sign + trimZero(imText) + "j)"
	case string:
		return "'" + v + "'"
	case Tuple:
		if len(v) == 1 {
			return "(" + repr(v[0]) + ",)"
		}
		return "(" + joinRepr([]Value(v)) + ")"
	case List:
		return "[" + joinRepr([]Value(v)) + "]"
	case *tensor.Tensor:
		return v.String()
	}
	return fmt.Sprint(v)
}

func joinRepr(vs []Value) string {
	parts := make([]string, len(vs))
	for i, e := range vs {
		parts[i] = repr(e)
	}
	return strings.Join(parts, ", ")
}

// floatRepr is Python's repr of a float: the shortest round-tripping
// digits, always with a decimal point or exponent.
func floatRepr(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	abs := math.Abs(f)
	if abs != 0 && (abs < 1e-4 || abs >= 1e16) {
		s = strconv.FormatFloat(f, 'e', -1, 64)
		// Python writes 1e-05 and 1e+16: at least two exponent digits.
		mant, exp, _ := strings.Cut(s, "e")
		if len(exp) == 2 {
			exp = exp[:1] + "0" + exp[1:]
		}
		return mant + "e" + exp
	}
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// trimZero drops a ".0" as Python does inside complex reprs: (1+2j).
func trimZero(s string) string { return strings.TrimSuffix(s, ".0") }

// typeName names a value's type in error messages, in Python's words.
func typeName(v Value) string {
	switch v := v.(type) {
	case *tensor.Tensor:
		return "tensor of shape " + shape.String(v.Shape())
	case int64:
		return "int"
	case float64:
		return "float"
	case complex128:
		return "complex"
	case bool:
		return "bool"
	case nil:
		return "None"
	case string:
		return "str"
	case Tuple:
		return "tuple"
	case List:
		return "list"
	case Archive:
		return "archive of members " + v.names() + " (select one with NAME['member'])"
	}
	return fmt.Sprintf("%T", v)
}

// AsTensor converts a result to a tensor for saving: tensors as they are,
// lists and numbers with their default dtypes. Other values fail.
func AsTensor(v Value) (*tensor.Tensor, error) {
	switch v.(type) {
	case *tensor.Tensor, List, int64, float64, complex128, bool:
		return toTensor("save", v)
	}
	return nil, evalErr("save", tensor.ErrValue, "the result is a %s, not a tensor", typeName(v))
}

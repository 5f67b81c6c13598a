package expr

import (
	"math"

	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/internal/cmul"
)

// Arithmetic between two Python numbers stays Python arithmetic: the
// result is a number again (a weak scalar wherever it meets a tensor),
// computed as Python computes it. So `x * (0.1 * 3)` multiplies a float16
// x by the float 0.30000000000000004 and stays float16, as in PyTorch and
// NumPy, rather than by a float32 0-d tensor that would promote it, and
// `3 * 1000000000` is 3000000000, not an int32 that wraps. Python's ints
// are unbounded; here a result beyond int64 is an error, never wrapped.

// isNumber reports whether v is a Python number (bool included).
func isNumber(v Value) bool {
	switch v.(type) {
	case int64, float64, complex128, bool:
		return true
	}
	return false
}

// numberArith computes x op y for two numbers, op one of + - *.
func numberArith(op string, x, y Value) (Value, error) {
	x, y = boolAsInt(x), boolAsInt(y)
	xi, xInt := x.(int64)
	yi, yInt := y.(int64)
	if xInt && yInt {
		return intArith(op, xi, yi)
	}
	_, xc := x.(complex128)
	_, yc := y.(complex128)
	if xc || yc {
		a, b := asComplex(x), asComplex(y)
		switch op {
		case "+":
			return a + b, nil
		case "-":
			return a - b, nil
		}
		return cmul.Mul128(a, b), nil // each product rounded, as Python's
	}
	a, b := asFloat(x), asFloat(y)
	switch op {
	case "+":
		return a + b, nil
	case "-":
		return a - b, nil
	}
	return a * b, nil
}

func boolAsInt(v Value) Value {
	if b, ok := v.(bool); ok {
		if b {
			return int64(1)
		}
		return int64(0)
	}
	return v
}

// intArith is exact int64 arithmetic, refusing what does not fit.
func intArith(op string, a, b int64) (Value, error) {
	var r int64
	var ok bool
	switch op {
	case "+":
		r = a + b
		ok = (b >= 0) == (r >= a)
	case "-":
		r = a - b
		ok = (b >= 0) == (r <= a)
	default:
		r = a * b
		ok = a == 0 || (r/a == b && !(a == -1 && b == math.MinInt64))
	}
	if !ok {
		return nil, evalErr(map[string]string{"+": "add", "-": "sub", "*": "mul"}[op], tensor.ErrValue,
			"%d %s %d does not fit in 64 bits", a, op, b)
	}
	return r, nil
}

func asFloat(v Value) float64 {
	if i, ok := v.(int64); ok {
		return float64(i)
	}
	return v.(float64)
}

func asComplex(v Value) complex128 {
	if c, ok := v.(complex128); ok {
		return c
	}
	return complex(asFloat(v), 0)
}

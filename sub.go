package tensor

import "github.com/tensor-go/tensor/internal/ewise"

// Sub returns the element-wise difference x − y as a new contiguous tensor
// (semantics §10), with exactly Add's rules: each operand is a *Tensor or
// a Go number (a weak scalar), shapes broadcast, dtypes promote, integers
// wrap. Floats follow IEEE-754: NaN in, NaN out; inf − inf is NaN; +0 − +0
// is +0 and −0 − +0 is −0. float16 and bfloat16 differences are computed
// in float32 and rounded once. A bool operand (tensor or Go bool) is an
// ErrDType error, as in PyTorch, which points to logical not for masks.
// Sparse operands are an ErrLayout.
func Sub(x, y any) (*Tensor, error) {
	if err := checkSub(x, y); err != nil {
		return nil, err
	}
	return elementwise(ewise.Sub, x, y)
}

// SubInto writes x − y into out, with AddInto's rules: out may be one of
// the operands (an in-place x -= y); any other overlap is computed into a
// temporary first. With contiguous operands SubInto allocates nothing.
func SubInto(out *Tensor, x, y any) error {
	if err := checkSub(x, y); err != nil {
		return err
	}
	return elementwiseInto(ewise.Sub, out, x, y)
}

func checkSub(x, y any) error {
	if err := requireStrided("sub", x, y); err != nil {
		return err
	}
	if isBool(x) || isBool(y) {
		return opErr("sub", ErrDType, "subtraction with a bool operand is not supported (use logical not to invert a mask)")
	}
	return nil
}

// Neg returns the element-wise negation −x as a new contiguous tensor of
// x's shape and dtype: floats flip their sign (−(+0) is −0, NaN stays
// NaN), integers wrap (the most negative value is its own negation),
// complex numbers negate both parts. A bool tensor is an ErrDType error,
// as in PyTorch. A sparse tensor gives a sparse tensor of its pattern
// with the values negated.
func Neg(x *Tensor) (*Tensor, error) {
	if err := requireLive("neg", x); err != nil {
		return nil, err
	}
	if x.layout != Strided {
		v, err := Neg(x.sparse.values)
		if err != nil {
			return nil, err
		}
		return x.withValues(v), nil
	}
	if err := checkNeg(x); err != nil {
		return nil, err
	}
	return elementwise(ewise.Neg, x, x)
}

// NegInto writes −x into out, with AddInto's rules for out (x itself for
// an in-place negation); x must be strided.
func NegInto(out, x *Tensor) error {
	if err := checkNeg(x); err != nil {
		return err
	}
	return elementwiseInto(ewise.Neg, out, x, x)
}

func checkNeg(x *Tensor) error {
	if err := requireStrided("neg", x); err != nil {
		return err
	}
	if x.dtype == Bool {
		return opErr("neg", ErrDType, "negation of a bool tensor is not supported (use logical not to invert a mask)")
	}
	return nil
}

// isBool reports whether an operand is a bool tensor or a Go bool.
func isBool(v any) bool {
	switch v := v.(type) {
	case bool:
		return true
	case *Tensor:
		return v != nil && v.dtype == Bool
	}
	return false
}

package tensor

import "github.com/tensor-go/tensor/internal/ewise"

// Add returns the element-wise sum x + y as a new contiguous tensor
// (semantics §10), with exactly Mul's rules: each operand is a *Tensor or
// a Go number (a weak scalar), shapes broadcast, dtypes promote, integers
// wrap, and bool + bool is logical or. Floats follow IEEE-754: NaN in, NaN
// out; inf + -inf is NaN; -0 + -0 is -0 and -0 + +0 is +0. float16 and
// bfloat16 sums are computed in float32 and rounded once, which gives the
// correctly rounded sum. Sparse operands are an ErrLayout.
func Add(x, y any) (*Tensor, error) {
	if err := requireStrided("add", x, y); err != nil {
		return nil, err
	}
	return elementwise(ewise.Add, x, y)
}

// AddInto writes x + y into out, with MulInto's rules: out has the
// broadcast shape and a dtype the result can be cast into without lowering
// its kind, is any view except a broadcast one, and may be one of the
// operands (an in-place x += y); any other overlap is computed into a
// temporary first. With contiguous operands AddInto allocates nothing.
func AddInto(out *Tensor, x, y any) error {
	return elementwiseInto(ewise.Add, out, x, y)
}

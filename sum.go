package tensor

import "github.com/tensor-go/tensor/internal/ewise"

// Sum returns the sum of x's elements over the axes chosen by the options
// (all of them by default) (semantics §10), with Prod's rules: the same
// axes and keepdims, the same result dtype (bool, int8 and int16 give
// int32, uint8 and uint16 give uint32, the others keep their dtype; bool
// counts its true elements), integers wrap, NaN propagates and inf + -inf
// is NaN. The sum of no elements is 0.
//
// float32, float16 and bfloat16 are summed in float64 and complex64 in
// complex128, and rounded once to the result dtype at the end, so that no
// error grows with the number of elements (semantics §11). The order of
// the additions is fixed by x's shape and layout alone: the result is the
// same bit for bit on every run and with any number of threads.
func Sum(x *Tensor, opts ...ReduceOption) (*Tensor, error) {
	return reduction(ewise.Sum, x, opts)
}

// SumInto writes the sum of x's elements over the chosen axes into out,
// with ProdInto's rules: out has the result's shape and a dtype the result
// can be cast into (a float sum into an integer output is an ErrDType).
func SumInto(out, x *Tensor, opts ...ReduceOption) error {
	return reductionInto(ewise.Sum, out, x, opts)
}

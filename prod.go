package tensor

import "github.com/tensor-go/tensor/internal/ewise"

// Prod returns the product of x's elements over the axes chosen by the
// options (all of them by default) (semantics §6). The result dtype is
// dtype.ProdResult(x's dtype): bool, int8 and int16 give int32, uint8 and
// uint16 give uint32, the others keep their dtype (WithDType chooses
// another). float32, float16 and bfloat16 are multiplied in float64 and
// complex64 in complex128, and rounded once at the end, so that the error
// does not grow with the number of factors (semantics §12). The product of
// no elements is 1; integers wrap; NaN propagates.
//
// Float products are computed in an order fixed by x's shape and layout
// alone, so the result is the same bit for bit on every run and with any
// number of threads.
func Prod(x *Tensor, opts ...ReduceOption) (*Tensor, error) {
	return reduction(ewise.Prod, x, opts)
}

// ProdInto writes the product of x's elements over the chosen axes into
// out, which must have the result's shape and a dtype the result can be
// cast into (an integer product into a float output is allowed, a float
// product into an integer output is an ErrDType); it receives the result
// rounded to the result dtype, then cast. out may be any view
// except a broadcast one; if it shares x's storage the product is computed
// into a temporary first.
func ProdInto(out, x *Tensor, opts ...ReduceOption) error {
	return reductionInto(ewise.Prod, out, x, opts)
}

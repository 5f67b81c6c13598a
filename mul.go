package tensor

import (
	"github.com/tensor-go/tensor/internal/ewise"
)

// Mul returns the element-wise product x * y as a new contiguous tensor
// (semantics §2-5). Each operand is a *Tensor or a Go number; numbers are
// weak scalars that take the tensor's dtype unless their kind is higher.
// Shapes broadcast; dtypes promote. Floats follow IEEE-754 (NaN in, NaN
// out; ±inf × ±0 is NaN), float16 and bfloat16 products are rounded once,
// integers wrap, bool × bool is logical and.
//
// Two Go numbers give a 0-d tensor of the default dtype of their kind:
// Mul(1.0, 4.0) is a float32 4. Sparse operands follow the rules given
// under Layout.
func Mul(x, y any) (*Tensor, error) {
	if err := requireLive("mul", x, y); err != nil {
		return nil, err
	}
	if isSparse(x) || isSparse(y) {
		return mulSparse(x, y) // sparse_mul.go
	}
	return elementwise(ewise.Mul, x, y)
}

// MulInto writes x * y into out. out must have the broadcast shape of the
// operands, and a dtype that the promoted result can be cast into without
// lowering its kind (a float result into an int tensor is an ErrDType); it
// may be any view except a broadcast one (ErrLayout). out may be one of
// the operands, for an in-place x *= y; if it overlaps an operand in any
// other way, the product is computed into a temporary first. With
// contiguous operands MulInto allocates nothing.
//
// Large products (64K elements and more) are shared between GOMAXPROCS
// goroutines; each element is computed the same way whatever their number.
func MulInto(out *Tensor, x, y any) error {
	return elementwiseInto(ewise.Mul, out, x, y) // a sparse product is sparse: use Mul
}

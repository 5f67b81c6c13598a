package expr

import (
	"fmt"
	"math/bits"

	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/shape"
)

// The Go runtime cannot recover from a failed allocation: it stops the
// process with a stack trace. So before each operation that allocates its
// result, the evaluator estimates the result's size and refuses sizes over
// Env.MaxBytes with an ordinary error. The estimate takes the result shape
// and dtype by the library's own rules; where the operation may reduce
// (prod) or may return a view (reshape), it assumes the worst case, the
// size of the input.

// Reserve returns an ErrShape error when a result of shape s and dtype dt
// would need more than env.MaxBytes bytes (no limit when MaxBytes <= 0).
// Shapes the library itself would refuse pass, so that its error is the
// one reported.
func (env *Env) Reserve(op string, s []int, dt dtype.DType) error {
	if env.MaxBytes <= 0 || !dt.Valid() {
		return nil
	}
	n, err := shape.Size(s)
	if err != nil {
		return nil
	}
	if size := dt.Size(); n > env.MaxBytes/size {
		return evalErr(op, tensor.ErrShape, "a result of shape %s and dtype %v needs %s, more than the %d bytes of memory available",
			shape.String(s), dt, byteCount(n, size), env.MaxBytes)
	}
	return nil
}

// byteCount says how many bytes n elements of size bytes take, in words
// when the count overflows 64 bits (it once printed "needs 0 bytes").
func byteCount(n, size int) string {
	hi, lo := bits.Mul64(uint64(n), uint64(size))
	if hi != 0 {
		return fmt.Sprintf("%d·%d bytes (more than 2^64)", n, size)
	}
	return fmt.Sprintf("%d bytes", lo)
}

// reserveMul checks the result of mul(a, b) for operands as operand
// returns them (tensors or Go scalars).
func (env *Env) reserveMul(a, b any) error {
	ta, aok := a.(*tensor.Tensor)
	tb, bok := b.(*tensor.Tensor)
	switch {
	case aok && ta.Layout() != tensor.Strided || bok && tb.Layout() != tensor.Strided:
		return nil // a sparse product stores at most the entries of a sparse operand
	case aok && bok:
		s, err := shape.Broadcast(ta.Shape(), tb.Shape())
		dt, perr := dtype.Promote(ta.DType(), tb.DType())
		if err != nil || perr != nil {
			return nil
		}
		return env.Reserve("mul", s, dt)
	case aok:
		return env.Reserve("mul", ta.Shape(), dtype.ScalarResult(ta.DType(), scalarDTypeKind(b)))
	case bok:
		return env.Reserve("mul", tb.Shape(), dtype.ScalarResult(tb.DType(), scalarDTypeKind(a)))
	}
	return nil
}

// scalarDTypeKind is the dtype kind of a Go scalar operand.
func scalarDTypeKind(v any) dtype.Kind {
	switch v.(type) {
	case bool:
		return dtype.KindBool
	case int64:
		return dtype.KindSigned
	case float64:
		return dtype.KindFloat
	case complex128:
		return dtype.KindComplex
	}
	return dtype.KindInvalid
}

// reserveMatmul checks the result of a @ b.
func (env *Env) reserveMatmul(a, b *tensor.Tensor) error {
	if a.Layout() != tensor.Strided && b.Layout() != tensor.Strided {
		return nil // a sparse result: its size depends on the patterns
	}
	ms, err := shape.Matmul(a.Shape(), b.Shape())
	dt, perr := dtype.Promote(a.DType(), b.DType())
	if err != nil || perr != nil {
		return nil
	}
	return env.Reserve("matmul", ms.Out, dt)
}

// reserveProd checks the result of prod(x, axis=axes, keepdims=keep), axes
// nil meaning all of them.
func (env *Env) reserveProd(x *tensor.Tensor, axes []int, keep bool) error {
	s := x.Shape()
	if axes == nil {
		axes = make([]int, len(s))
		for i := range axes {
			axes[i] = i
		}
	}
	mask, err := shape.ReduceAxes(axes, len(s))
	if err != nil {
		return nil
	}
	return env.Reserve("prod", shape.Reduced(s, mask, keep), dtype.ProdResult(x.DType()))
}

package expr

import (
	"fmt"
	"math"
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
// would need more than env.MaxBytes bytes (no limit when MaxBytes <= 0),
// or more than env.Available says the process can still allocate, and
// otherwise counts the result's elements as work (see Work), which may be
// an ErrValue error. Shapes the
// library itself would refuse pass, so that its error is the one reported.
func (env *Env) Reserve(op string, s []int, dt dtype.DType) error {
	if !dt.Valid() {
		return nil
	}
	n, err := shape.Size(s)
	if err != nil {
		return nil
	}
	size := dt.Size()
	limit, bounded := env.MaxBytes, env.MaxBytes > 0
	if a, ok := env.available(n, size); ok && (!bounded || a < limit) {
		limit, bounded = a, true
	}
	if !bounded {
		return env.Work(op, n)
	}
	if n > max(limit, 0)/size {
		return evalErr(op, tensor.ErrShape, "a result of shape %s and dtype %v needs %s, more than the %d bytes of memory available",
			shape.String(s), dt, byteCount(n, size), max(limit, 0))
	}
	env.sinceAvail += n * size
	return env.Work(op, n)
}

// availRefresh is how many bytes of results may be reserved between two
// calls of env.Available, which reads several files (tens of microseconds,
// too slow for every small result of a long expression): in between, what
// was reserved is subtracted from the last answer.
const availRefresh = 16 << 20

// available returns what env.Available said last less what was reserved
// since, asking again when a result of n elements of size bytes is large
// or enough was reserved since; ok is false without env.Available.
func (env *Env) available(n, size int) (int, bool) {
	if env.Available == nil {
		return 0, false
	}
	if !env.haveAvail || n >= availRefresh/size || env.sinceAvail >= availRefresh {
		env.avail, env.sinceAvail, env.haveAvail = env.Available(), 0, true
	}
	return env.avail - env.sinceAvail, true
}

// Work counts n element operations of op against env.MaxOps and returns an
// ErrValue error once the evaluation's total would pass it, before the
// operation runs: an expression of a few bytes can ask for hours of work
// (prod(broadcast_to(1., (100000, 100000))) is 10^10 multiplications), and
// the command should refuse it as it refuses results beyond memory.
func (env *Env) Work(op string, n int) error {
	if env.MaxOps <= 0 || n <= 0 {
		return nil
	}
	if int64(n) > env.MaxOps-env.ops {
		return evalErr(op, tensor.ErrValue, "the expression needs more than %d element operations (raise the bound with --max-ops)", env.MaxOps)
	}
	env.ops += int64(n)
	return nil
}

// matmulWorkShare is how many multiply-adds of a dense matrix product
// count as one element operation: blocked matrix kernels do several per
// nanosecond even on the generic path, where a strided element-wise or
// reduction step (the slowest the evaluator can ask for) takes about one
// to four nanoseconds.
const matmulWorkShare = 8

// byteCount says how many bytes n elements of size bytes take, in words
// when the count overflows 64 bits (it once printed "needs 0 bytes").
func byteCount(n, size int) string {
	hi, lo := bits.Mul64(uint64(n), uint64(size))
	if hi != 0 {
		return fmt.Sprintf("%d·%d bytes (more than 2^64)", n, size)
	}
	return fmt.Sprintf("%d bytes", lo)
}

// reserveBinary checks the result of the element-wise op(a, b) (mul, add)
// for operands as operand returns them (tensors or Go scalars).
func (env *Env) reserveBinary(op string, a, b any) error {
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
		return env.Reserve(op, s, dt)
	case aok:
		return env.Reserve(op, ta.Shape(), dtype.ScalarResult(ta.DType(), scalarDTypeKind(b)))
	case bok:
		return env.Reserve(op, tb.Shape(), dtype.ScalarResult(tb.DType(), scalarDTypeKind(a)))
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
	if err := env.Reserve("matmul", ms.Out, dt); err != nil {
		return err
	}
	out, err := shape.Size(ms.Out)
	if err != nil {
		return nil
	}
	macs, ok := mulFits(out, ms.K)
	if !ok {
		macs = math.MaxInt
	}
	return env.Work("matmul", macs/matmulWorkShare)
}

// reserveReduce checks the result, of dtype rd, of the reduction op (prod,
// sum) of x over axes (nil: all of them), keeping them or not.
func (env *Env) reserveReduce(op string, x *tensor.Tensor, axes []int, keep bool, rd dtype.DType) error {
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
	if err := env.Reserve(op, shape.Reduced(s, mask, keep), rd); err != nil {
		return err
	}
	n, err := shape.Size(s)
	if err != nil {
		return nil
	}
	return env.Work(op, n)
}

// mulFits returns a·b for non-negative a and b, and whether it fits an int.
func mulFits(a, b int) (int, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	return int(lo), hi == 0 && lo <= math.MaxInt
}

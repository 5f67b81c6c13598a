package autograd

import (
	"slices"

	"github.com/tensor-go/tensor"
)

// Mul records tensor.Mul(x, y). Go numbers and tensors are both accepted,
// as by tensor.Mul; numbers are constants.
func (tp *Tape) Mul(x, y any) (*tensor.Tensor, error) { return builder{tp: tp}.mul(x, y) }

// Add records tensor.Add(x, y).
func (tp *Tape) Add(x, y any) (*tensor.Tensor, error) { return builder{tp: tp}.add(x, y) }

// Sub records tensor.Sub(x, y): the gradients are the cotangent and its
// negation, each summed to its operand's shape.
func (tp *Tape) Sub(x, y any) (*tensor.Tensor, error) { return builder{tp: tp}.sub(x, y) }

// Neg records tensor.Neg(x); its gradient is the negated cotangent.
func (tp *Tape) Neg(x *tensor.Tensor) (*tensor.Tensor, error) { return builder{tp: tp}.neg(x) }

// Conj records tensor.Conj(x); for real dtypes it is x itself.
func (tp *Tape) Conj(x *tensor.Tensor) (*tensor.Tensor, error) { return builder{tp: tp}.conj(x) }

func (b builder) mul(x, y any) (*tensor.Tensor, error) {
	out, err := tensor.Mul(x, y)
	if err != nil {
		return nil, err
	}
	xs, ys := shapeOf(x), shapeOf(y)
	bw := func(b builder, g *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		grads := make([]*tensor.Tensor, 2)
		for i, other := range []any{y, x} {
			if !need[i] {
				continue
			}
			c, err := b.conjAny(other)
			if err != nil {
				return nil, err
			}
			if d, ok, err := b.mulSumTo(g, c, []([]int){xs, ys}[i]); ok || err != nil {
				grads[i] = d
				if err != nil {
					return nil, err
				}
				continue
			}
			p, err := b.mul(g, c)
			if err != nil {
				return nil, err
			}
			if grads[i], err = b.sumTo(p, []([]int){xs, ys}[i]); err != nil {
				return nil, err
			}
		}
		return grads, nil
	}
	return b.record("mul", b.fresh(out), []any{x, y}, savedOf(x, y), bw), nil
}

// mulSumTo is sumTo(g·c, s) computed in row blocks that stay in cache,
// without the full product, when nothing is being recorded and the sum
// runs over leading rows of real float operands of one dtype, both
// contiguous and of g's shape (a broadcast bias's gradient): each block's
// products go into one scratch block and are summed in float64 into the
// running column sums, rounded once at the end. ok is false when the case
// does not apply. The products round as Mul's; the float64 sums are
// grouped by block, so the bits may differ from the recorded path's in the
// last place, and do not depend on the number of goroutines.
func (b builder) mulSumTo(g *tensor.Tensor, c any, s []int) (*tensor.Tensor, bool, error) {
	other, isTensor := c.(*tensor.Tensor)
	gs := g.Shape()
	dt := g.DType()
	if b.tp != nil || !isTensor || other.DType() != dt || (dt != tensor.Float32 && dt != tensor.Float64) ||
		!g.IsContiguous() || !other.IsContiguous() || !slices.Equal(other.Shape(), gs) {
		return nil, false, nil
	}
	lead := 0
	for lead < len(s) && s[lead] == 1 {
		lead++
	}
	tail := s[lead:]
	if len(tail) > len(gs) || !slices.Equal(tail, gs[len(gs)-len(tail):]) {
		return nil, false, nil
	}
	cols := 1
	for _, d := range tail {
		cols *= d
	}
	rows := g.Size() / max(cols, 1)
	if rows < 2*mulSumBlockRows(cols, dt) || cols == 0 {
		return nil, false, nil // one block: the plain path is as fast
	}
	r := mulSumBlockRows(cols, dt)
	g2, err := g.Reshape(rows, cols)
	if err != nil {
		return nil, true, err
	}
	o2, err := other.Reshape(rows, cols)
	if err != nil {
		return nil, true, err
	}
	acc, err := tensor.Zeros(tensor.Float64, cols)
	if err != nil {
		return nil, true, err
	}
	tmp, err := tensor.Zeros(dt, r, cols)
	if err != nil {
		return nil, true, err
	}
	for r0 := 0; r0 < rows; r0 += r {
		r1 := min(rows, r0+r)
		t := tmp
		if r1-r0 < r {
			if t, err = tmp.Slice(tensor.Span(0, r1-r0)); err != nil {
				return nil, true, err
			}
		}
		gb, err := g2.Slice(tensor.Span(r0, r1))
		if err != nil {
			return nil, true, err
		}
		ob, err := o2.Slice(tensor.Span(r0, r1))
		if err != nil {
			return nil, true, err
		}
		if err := tensor.MulInto(t, gb, ob); err != nil {
			return nil, true, err
		}
		part, err := tensor.Sum(t, tensor.Axis(0), tensor.WithDType(tensor.Float64))
		if err != nil {
			return nil, true, err
		}
		if err := tensor.AddInto(acc, acc, part); err != nil {
			return nil, true, err
		}
	}
	out, err := acc.AsType(dt)
	if err != nil {
		return nil, true, err
	}
	out, err = out.Reshape(s...)
	return b.fresh(out), true, err
}

// mulSumBlockRows is how many rows of cols elements one block of
// mulSumTo covers: mulSumBlock bytes of products.
func mulSumBlockRows(cols int, dt tensor.DType) int {
	return max(1, mulSumBlock/max(1, cols*dt.Size()))
}

// mulSumBlock is half a mebibyte, which stays in the L2 cache between the
// product and the sum. A variable so that tests can make small blocks.
var mulSumBlock = 512 << 10

func (b builder) add(x, y any) (*tensor.Tensor, error) {
	out, err := tensor.Add(x, y)
	if err != nil {
		return nil, err
	}
	xs, ys := shapeOf(x), shapeOf(y)
	bw := func(b builder, g *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		grads := make([]*tensor.Tensor, 2)
		for i, s := range [][]int{xs, ys} {
			if need[i] {
				var err error
				if grads[i], err = b.sumTo(g, s); err != nil {
					return nil, err
				}
			}
		}
		return grads, nil
	}
	return b.record("add", b.fresh(out), []any{x, y}, nil, bw), nil
}

func (b builder) sub(x, y any) (*tensor.Tensor, error) {
	out, err := tensor.Sub(x, y)
	if err != nil {
		return nil, err
	}
	xs, ys := shapeOf(x), shapeOf(y)
	bw := func(b builder, g *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		grads := make([]*tensor.Tensor, 2)
		var err error
		if need[0] {
			if grads[0], err = b.sumTo(g, xs); err != nil {
				return nil, err
			}
		}
		if need[1] {
			// Summed first, then negated: the negation touches the
			// operand's elements only.
			s, err := b.sumTo(g, ys)
			if err != nil {
				return nil, err
			}
			if grads[1], err = b.neg(s); err != nil {
				return nil, err
			}
		}
		return grads, nil
	}
	return b.record("sub", b.fresh(out), []any{x, y}, nil, bw), nil
}

func (b builder) neg(x *tensor.Tensor) (*tensor.Tensor, error) {
	out, err := tensor.Neg(x)
	if err != nil {
		return nil, err
	}
	bw := func(b builder, g *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		d, err := b.neg(g)
		return []*tensor.Tensor{d}, err
	}
	return b.record("neg", b.fresh(out), []any{x}, nil, bw), nil
}

func (b builder) conj(x *tensor.Tensor) (*tensor.Tensor, error) {
	out, err := tensor.Conj(x)
	if err != nil {
		return nil, err
	}
	if out != x {
		b.fresh(out)
	}
	bw := func(b builder, g *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		c, err := b.conj(g)
		return []*tensor.Tensor{c}, err
	}
	return b.record("conj", out, []any{x}, nil, bw), nil
}

// conjAny conjugates a tensor or a Go number.
func (b builder) conjAny(v any) (any, error) {
	switch v := v.(type) {
	case *tensor.Tensor:
		return b.conj(v)
	case complex128:
		return complex(real(v), -imag(v)), nil
	case complex64:
		return complex(real(v), -imag(v)), nil
	}
	return v, nil
}

// shapeOf is a tensor operand's shape; a Go number has none (0-d).
func shapeOf(v any) []int {
	if t, ok := v.(*tensor.Tensor); ok && t != nil {
		return t.Shape()
	}
	return nil
}

// savedOf lists the tensors among the operands.
func savedOf(vs ...any) []*tensor.Tensor {
	var out []*tensor.Tensor
	for _, v := range vs {
		if t, ok := v.(*tensor.Tensor); ok && t != nil {
			out = append(out, t)
		}
	}
	return out
}

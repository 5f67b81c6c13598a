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
		if grads, ok, err := b.mulGradsFused(g, x, y, xs, ys, need); ok || err != nil {
			return grads, err
		}
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

// mulGradsFused computes both gradients of mul(x, y) in one pass over g
// (tensor.MulWithSum) when nothing is being recorded, both are needed, both
// operands are strided tensors, and one operand has g's shape while the
// other was broadcast (a bias, a column, a scalar, a batch operand): the
// full one's gradient g·conj(other) is written as g is read, and the
// broadcast one's is summed from the same pieces of g. ok is false when the
// case does not apply. The bits are those of the separate calls.
func (b builder) mulGradsFused(g *tensor.Tensor, x, y any, xs, ys []int, need []bool) ([]*tensor.Tensor, bool, error) {
	xt, xok := x.(*tensor.Tensor)
	yt, yok := y.(*tensor.Tensor)
	gs := g.Shape()
	if b.tp != nil || !need[0] || !need[1] || !xok || !yok || g.Layout() != tensor.Strided ||
		xt.Layout() != tensor.Strided || yt.Layout() != tensor.Strided {
		return nil, false, nil
	}
	full, bcast := 0, 1 // x has g's shape, y was broadcast
	switch {
	case slices.Equal(xs, gs) && !slices.Equal(ys, gs):
	case slices.Equal(ys, gs) && !slices.Equal(xs, gs):
		full, bcast = 1, 0
	default:
		return nil, false, nil
	}
	ops, shapes := []*tensor.Tensor{xt, yt}, [][]int{xs, ys}
	u, err := b.conj(ops[bcast]) // multiplies g into the full operand's gradient
	if err != nil {
		return nil, true, err
	}
	v, err := b.conj(ops[full]) // multiplies g into the broadcast one's
	if err != nil {
		return nil, true, err
	}
	prod, sum, err := tensor.MulWithSum(g, u, v, tensor.Axis(sumToAxes(gs, shapes[bcast])...), tensor.KeepDims(true))
	if err != nil {
		return nil, true, err
	}
	if sum, err = sum.Reshape(shapes[bcast]...); err != nil {
		return nil, true, err
	}
	grads := make([]*tensor.Tensor, 2)
	grads[full], grads[bcast] = b.fresh(prod), b.fresh(sum)
	return grads, true, nil
}

// mulSumTo is sumTo(g·c, s) computed by tensor.MulSum, which never forms
// the product, when nothing is being recorded and both are strided (a
// broadcast operand's gradient: a bias's, a column's, a scalar's, a batch
// operand's). ok is false when the case does not apply. The products round
// as Mul's; the sums are carried as Sum carries them, in MulSum's own
// order, so the bits may differ from the recorded path's (Mul, then Sum)
// in the last place of the accumulator, and do not depend on the number
// of goroutines.
func (b builder) mulSumTo(g *tensor.Tensor, c any, s []int) (*tensor.Tensor, bool, error) {
	gs := g.Shape()
	if other, isTensor := c.(*tensor.Tensor); b.tp != nil || slices.Equal(gs, s) ||
		g.Layout() != tensor.Strided || isTensor && other.Layout() != tensor.Strided {
		return nil, false, nil
	}
	out, err := tensor.MulSum(g, c, tensor.Axis(sumToAxes(gs, s)...), tensor.KeepDims(true))
	if err != nil {
		return nil, true, err
	}
	out, err = out.Reshape(s...)
	return b.fresh(out), true, err
}

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

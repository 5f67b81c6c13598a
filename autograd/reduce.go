package autograd

import (
	"slices"

	"github.com/tensor-go/tensor"
)

// Prod records tensor.Prod(x, opts...). Its gradient is the cotangent times
// the conjugated product of all the other elements of each reduced group,
// computed with exclusive products (never by dividing the result by x), so
// that zeros, signed zeros, NaN and infinities give exact gradients.
func (tp *Tape) Prod(x *tensor.Tensor, opts ...tensor.ReduceOption) (*tensor.Tensor, error) {
	return builder{tp: tp}.prod(x, opts)
}

// Sum records tensor.Sum(x, opts...); its gradient broadcasts the
// cotangent back over the reduced axes.
func (tp *Tape) Sum(x *tensor.Tensor, opts ...tensor.ReduceOption) (*tensor.Tensor, error) {
	return builder{tp: tp}.sum(x, opts)
}

func (b builder) prod(x *tensor.Tensor, opts []tensor.ReduceOption) (*tensor.Tensor, error) {
	out, err := tensor.Prod(x, opts...)
	if err != nil {
		return nil, err
	}
	mask, keep, err := tensor.ReduceAxes(x, opts...)
	if err != nil {
		return nil, err
	}
	xs := x.Shape()
	bw := func(b builder, g *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		if b.tp == nil && x.DType().IsFloat() && x.Layout() == tensor.Strided && g.Layout() == tensor.Strided {
			// Nothing to record: the product with g in the suffix pass.
			d, err := prodGradient(x, g, opts)
			return []*tensor.Tensor{b.fresh(d)}, err
		}
		e, err := b.exclusive(x, mask, nil)
		if err != nil {
			return nil, err
		}
		if e, err = b.conj(e); err != nil {
			return nil, err
		}
		gk, err := b.keepDims(g, xs, mask, keep)
		if err != nil {
			return nil, err
		}
		d, err := b.mul(gk, e)
		return []*tensor.Tensor{d}, err
	}
	return b.record("prod", b.fresh(out), []any{x}, []*tensor.Tensor{x}, bw), nil
}

// prodGradient is g·ExclusiveProd(x) for a real x, computed in the dtype
// of x's gradients, with the bits of the recorded path.
func prodGradient(x, g *tensor.Tensor, opts []tensor.ReduceOption) (*tensor.Tensor, error) {
	w := x
	if wdt := gradDType(x.DType()); wdt != x.DType() {
		var err error
		if w, err = x.AsType(wdt); err != nil {
			return nil, err
		}
	}
	return tensor.ExclusiveProdMul(w, g, opts...)
}

func (b builder) sum(x *tensor.Tensor, opts []tensor.ReduceOption) (*tensor.Tensor, error) {
	out, err := tensor.Sum(x, opts...)
	if err != nil {
		return nil, err
	}
	mask, keep, err := tensor.ReduceAxes(x, opts...)
	if err != nil {
		return nil, err
	}
	xs := x.Shape()
	bw := func(b builder, g *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		gk, err := b.keepDims(g, xs, mask, keep)
		if err != nil {
			return nil, err
		}
		d, err := b.broadcastTo(gk, xs)
		return []*tensor.Tensor{d}, err
	}
	return b.record("sum", b.fresh(out), []any{x}, nil, bw), nil
}

// keepDims reshapes a reduction's cotangent to the shape with the reduced
// axes kept as 1, so that it broadcasts against the input of shape xs.
func (b builder) keepDims(g *tensor.Tensor, xs []int, mask []bool, keep bool) (*tensor.Tensor, error) {
	if keep {
		return g, nil
	}
	s := slices.Clone(xs)
	for i, m := range mask {
		if m {
			s[i] = 1
		}
	}
	return b.reshape(g, s)
}

// sumTo sums g, of a broadcast shape, down to shape s, with which the
// forward broadcast it: over the leading dimensions s lacks and over
// those where s has 1 and g does not.
func (b builder) sumTo(g *tensor.Tensor, s []int) (*tensor.Tensor, error) {
	gs := g.Shape()
	if slices.Equal(gs, s) {
		return g, nil
	}
	if g.Layout() != tensor.Strided {
		d, err := b.toDense(g)
		if err != nil {
			return nil, err
		}
		g = d
	}
	r, err := b.sum(g, []tensor.ReduceOption{tensor.Axis(sumToAxes(gs, s)...), tensor.KeepDims(true)})
	if err != nil {
		return nil, err
	}
	return b.reshape(r, s)
}

// sumToAxes are the axes of a broadcast shape gs that sumTo sums to reach
// s: the leading ones s lacks and those where s has 1 and gs does not.
func sumToAxes(gs, s []int) []int {
	lead := len(gs) - len(s)
	var axes []int
	for i := range gs {
		if i < lead || s[i-lead] == 1 && gs[i] != 1 {
			axes = append(axes, i)
		}
	}
	return axes
}

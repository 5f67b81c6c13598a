package autograd

import (
	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/dtype"
)

// Matmul records tensor.Matmul(a, b, opts...). The gradients are
// g @ conj(b)ᵀ for a and conj(a)ᵀ @ g for b, in every rank case of the
// product: a 1-D operand is taken as a matrix of one row (a) or one column
// (b) and the cotangent gains the dimension the forward dropped; batch
// dimensions the forward broadcast are summed back. The backward products
// run at the forward's precision (TF32 included) when the forward computed
// in float32.
func (tp *Tape) Matmul(a, b *tensor.Tensor, opts ...tensor.MatmulOption) (*tensor.Tensor, error) {
	return builder{tp: tp}.matmul(a, b, opts)
}

func (b builder) matmul(x, y *tensor.Tensor, opts []tensor.MatmulOption) (*tensor.Tensor, error) {
	out, err := tensor.Matmul(x, y, opts...)
	if err != nil {
		return nil, err
	}
	prec, err := tensor.MatmulPrecisionOf(opts...)
	if err != nil {
		return nil, err
	}
	if ct, err := dtype.Promote(x.DType(), y.DType()); err != nil || ct != tensor.Float32 {
		prec = tensor.Highest
	}
	back := []tensor.MatmulOption{tensor.WithPrecision(prec)}
	xs, ys := x.Shape(), y.Shape()
	bw := func(b builder, g *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		return b.matmulBackward(x, y, xs, ys, g, need, back)
	}
	return b.record("matmul", b.fresh(out), []any{x, y}, []*tensor.Tensor{x, y}, bw), nil
}

func (b builder) matmulBackward(x, y *tensor.Tensor, xs, ys []int, g *tensor.Tensor, need []bool, opts []tensor.MatmulOption) ([]*tensor.Tensor, error) {
	if x.Layout() != tensor.Strided || y.Layout() != tensor.Strided {
		return b.sparseMatmulBackward(x, y, g, need, opts)
	}
	if g.Layout() != tensor.Strided {
		d, err := b.toDense(g)
		if err != nil {
			return nil, err
		}
		g = d
	}
	// Matrices: a 1-D a is (1, K), a 1-D b is (K, 1); the cotangent gets
	// back the dimension the forward dropped for each.
	var err error
	a2, b2, g2 := x, y, g
	if len(xs) == 1 {
		if a2, err = b.reshape(x, []int{1, xs[0]}); err != nil {
			return nil, err
		}
		if g2, err = b.insertAxis(g2, g2.NDim()-boolInt(len(ys) > 1)); err != nil {
			return nil, err
		}
	}
	if len(ys) == 1 {
		if b2, err = b.reshape(y, []int{ys[0], 1}); err != nil {
			return nil, err
		}
		if g2, err = b.insertAxis(g2, g2.NDim()); err != nil {
			return nil, err
		}
	}
	grads := make([]*tensor.Tensor, 2)
	if need[0] {
		bt, err := b.conjT(b2)
		if err != nil {
			return nil, err
		}
		p, err := b.matmul(g2, bt, opts)
		if err != nil {
			return nil, err
		}
		if grads[0], err = b.sumTo(p, a2.Shape()); err != nil {
			return nil, err
		}
		if grads[0], err = b.reshape(grads[0], xs); err != nil {
			return nil, err
		}
	}
	if need[1] {
		at, err := b.conjT(a2)
		if err != nil {
			return nil, err
		}
		p, err := b.matmul(at, g2, opts)
		if err != nil {
			return nil, err
		}
		if grads[1], err = b.sumTo(p, b2.Shape()); err != nil {
			return nil, err
		}
		if grads[1], err = b.reshape(grads[1], ys); err != nil {
			return nil, err
		}
	}
	return grads, nil
}

// sparseMatmulBackward is the backward of a 2-D product with a sparse
// operand; the gradient of the sparse one is sampled at its pattern when
// VJP hands it over.
func (b builder) sparseMatmulBackward(x, y, g *tensor.Tensor, need []bool, opts []tensor.MatmulOption) ([]*tensor.Tensor, error) {
	// A 1-D dense operand is a matrix of one row (x) or one column (y),
	// and the cotangent gets back the dimension the forward dropped.
	xs, ys := x.Shape(), y.Shape()
	var err error
	if len(xs) == 1 {
		if x, err = b.reshape(x, []int{1, xs[0]}); err != nil {
			return nil, err
		}
		if g, err = b.insertAxis(b.dense(g), 0); err != nil {
			return nil, err
		}
	}
	if len(ys) == 1 {
		if y, err = b.reshape(y, []int{ys[0], 1}); err != nil {
			return nil, err
		}
		if g, err = b.insertAxis(b.dense(g), g.NDim()); err != nil {
			return nil, err
		}
	}
	grads, err := b.sparseMatrixBackward(x, y, g, need, opts)
	if err != nil {
		return nil, err
	}
	for i, s := range [][]int{xs, ys} {
		if grads[i] != nil && len(s) == 1 {
			if grads[i], err = b.reshape(b.dense(grads[i]), s); err != nil {
				return nil, err
			}
		}
	}
	return grads, nil
}

// dense returns g, densified if sparse (a failure leaves it as it is, for
// the next operation to report).
func (b builder) dense(g *tensor.Tensor) *tensor.Tensor {
	if g.Layout() == tensor.Strided {
		return g
	}
	if d, err := b.toDense(g); err == nil {
		return d
	}
	return g
}

func (b builder) sparseMatrixBackward(x, y, g *tensor.Tensor, need []bool, opts []tensor.MatmulOption) ([]*tensor.Tensor, error) {
	grads := make([]*tensor.Tensor, 2)
	if need[0] {
		bt, err := b.conjT(y)
		if err != nil {
			return nil, err
		}
		if grads[0], err = b.matmul(g, bt, opts); err != nil {
			return nil, err
		}
	}
	if need[1] {
		at, err := b.conjT(x)
		if err != nil {
			return nil, err
		}
		if grads[1], err = b.matmul(at, g, opts); err != nil {
			return nil, err
		}
	}
	return grads, nil
}

// conjT is conj(x)ᵀ over the last two dimensions.
func (b builder) conjT(x *tensor.Tensor) (*tensor.Tensor, error) {
	c, err := b.conj(x)
	if err != nil {
		return nil, err
	}
	return b.mt(c)
}

// insertAxis adds a dimension of size 1 before position i.
func (b builder) insertAxis(g *tensor.Tensor, i int) (*tensor.Tensor, error) {
	s := g.Shape()
	s = append(s[:i:i], append([]int{1}, s[i:]...)...)
	return b.reshape(g, s)
}

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}

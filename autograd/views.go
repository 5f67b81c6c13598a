package autograd

import (
	"slices"

	"github.com/tensor-go/tensor"
)

// The views and conversions. Each gradient maps back onto the input: a
// permutation by its inverse, a reshape by the input's shape, a slice by
// scattering into zeros, a broadcast by summing.

// Transpose records x.Transpose().
func (tp *Tape) Transpose(x *tensor.Tensor) (*tensor.Tensor, error) {
	return builder{tp: tp}.transpose(x)
}

// Permute records x.Permute(axes...).
func (tp *Tape) Permute(x *tensor.Tensor, axes ...int) (*tensor.Tensor, error) {
	return builder{tp: tp}.permute(x, axes)
}

// MT records x.MT().
func (tp *Tape) MT(x *tensor.Tensor) (*tensor.Tensor, error) { return builder{tp: tp}.mt(x) }

// Slice records x.Slice(ranges...).
func (tp *Tape) Slice(x *tensor.Tensor, ranges ...tensor.Range) (*tensor.Tensor, error) {
	return builder{tp: tp}.slice(x, ranges)
}

// Reshape records x.Reshape(shape...).
func (tp *Tape) Reshape(x *tensor.Tensor, shape ...int) (*tensor.Tensor, error) {
	return builder{tp: tp}.reshape(x, shape)
}

// BroadcastTo records x.BroadcastTo(shape...).
func (tp *Tape) BroadcastTo(x *tensor.Tensor, shape ...int) (*tensor.Tensor, error) {
	return builder{tp: tp}.broadcastTo(x, shape)
}

// Squeeze records x.Squeeze(axes...).
func (tp *Tape) Squeeze(x *tensor.Tensor, axes ...int) (*tensor.Tensor, error) {
	out, err := checked(x)
	if err == nil {
		out, err = x.Squeeze(axes...)
	}
	return builder{tp: tp}.reshapeLike("squeeze", x, out, err)
}

// ExpandDims records x.ExpandDims(axis).
func (tp *Tape) ExpandDims(x *tensor.Tensor, axis int) (*tensor.Tensor, error) {
	out, err := checked(x)
	if err == nil {
		out, err = x.ExpandDims(axis)
	}
	return builder{tp: tp}.reshapeLike("expand_dims", x, out, err)
}

// AsType records x.AsType(dt). The gradient is cast back to x's dtype
// (the real part, when x is real and dt complex).
func (tp *Tape) AsType(x *tensor.Tensor, dt tensor.DType) (*tensor.Tensor, error) {
	return builder{tp: tp}.asType(x, dt)
}

// Contiguous records x.Contiguous(); when that is x itself nothing is
// recorded.
func (tp *Tape) Contiguous(x *tensor.Tensor) (*tensor.Tensor, error) {
	out, err := checked(x)
	if err == nil {
		out, err = x.Contiguous()
	}
	return builder{tp: tp}.identity("contiguous", x, out, err)
}

// Clone records x.Clone().
func (tp *Tape) Clone(x *tensor.Tensor) (*tensor.Tensor, error) { return builder{tp: tp}.clone(x) }

// ToDense records x.ToDense(). The gradient with respect to a sparse x is
// sparse with x's pattern (see VJP).
func (tp *Tape) ToDense(x *tensor.Tensor) (*tensor.Tensor, error) { return builder{tp: tp}.toDense(x) }

// ToSparseCOO records x.ToSparseCOO().
func (tp *Tape) ToSparseCOO(x *tensor.Tensor) (*tensor.Tensor, error) {
	out, err := checked(x)
	if err == nil {
		out, err = x.ToSparseCOO()
	}
	return builder{tp: tp}.densifying("to_sparse_coo", x, out, err)
}

// ToSparseCSR records x.ToSparseCSR().
func (tp *Tape) ToSparseCSR(x *tensor.Tensor) (*tensor.Tensor, error) {
	out, err := checked(x)
	if err == nil {
		out, err = x.ToSparseCSR()
	}
	return builder{tp: tp}.densifying("to_sparse_csr", x, out, err)
}

// checked rejects a nil tensor before a method is called on it.
func checked(x *tensor.Tensor) (*tensor.Tensor, error) {
	if x == nil {
		return nil, gradErr("autograd", tensor.ErrValue, "nil *Tensor")
	}
	return nil, nil
}

func (b builder) transpose(x *tensor.Tensor) (*tensor.Tensor, error) {
	if _, err := checked(x); err != nil {
		return nil, err
	}
	if x.Released() {
		return nil, gradErr("transpose", tensor.ErrReleased, "the tensor of shape %v was released", x.Shape())
	}
	bw := func(b builder, g *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		d, err := b.transpose(g)
		return []*tensor.Tensor{d}, err
	}
	return b.record("transpose", x.Transpose(), []any{x}, nil, bw), nil
}

func (b builder) permute(x *tensor.Tensor, axes []int) (*tensor.Tensor, error) {
	if _, err := checked(x); err != nil {
		return nil, err
	}
	out, err := x.Permute(axes...)
	if err != nil {
		return nil, err
	}
	n := len(axes)
	inv := make([]int, n)
	for i, a := range axes {
		if a < 0 {
			a += n
		}
		inv[a] = i
	}
	bw := func(b builder, g *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		d, err := b.permute(g, inv)
		return []*tensor.Tensor{d}, err
	}
	return b.record("permute", out, []any{x}, nil, bw), nil
}

func (b builder) mt(x *tensor.Tensor) (*tensor.Tensor, error) {
	if _, err := checked(x); err != nil {
		return nil, err
	}
	var out *tensor.Tensor
	var err error
	if x.Layout() != tensor.Strided && x.NDim() == 2 {
		out = x.Transpose() // a sparse matrix transposes in its own layout
	} else if out, err = x.MT(); err != nil {
		return nil, err
	}
	bw := func(b builder, g *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		d, err := b.mt(g)
		return []*tensor.Tensor{d}, err
	}
	return b.record("mT", out, []any{x}, nil, bw), nil
}

func (b builder) slice(x *tensor.Tensor, ranges []tensor.Range) (*tensor.Tensor, error) {
	if _, err := checked(x); err != nil {
		return nil, err
	}
	out, err := x.Slice(ranges...)
	if err != nil {
		return nil, err
	}
	xs := x.Shape()
	bw := func(b builder, g *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		d, err := b.scatter(g, xs, ranges)
		return []*tensor.Tensor{d}, err
	}
	return b.record("slice", out, []any{x}, nil, bw), nil
}

// scatter returns zeros of shape xs with g written at the positions that
// x.Slice(ranges...) selects: the adjoint of the slice.
func (b builder) scatter(g *tensor.Tensor, xs []int, ranges []tensor.Range) (*tensor.Tensor, error) {
	if g.Layout() != tensor.Strided {
		d, err := b.toDense(g)
		if err != nil {
			return nil, err
		}
		g = d
	}
	z, err := tensor.Zeros(g.DType(), xs...)
	if err != nil {
		return nil, err
	}
	v, err := z.Slice(ranges...)
	if err != nil {
		return nil, err
	}
	if err := tensor.MulInto(v, g, 1); err != nil { // g·1 is g, bit for bit
		return nil, err
	}
	bw := func(b builder, c *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		d, err := b.slice(c, ranges)
		return []*tensor.Tensor{d}, err
	}
	return b.record("scatter", b.fresh(z), []any{g}, nil, bw), nil
}

func (b builder) reshape(x *tensor.Tensor, s []int) (*tensor.Tensor, error) {
	if _, err := checked(x); err != nil {
		return nil, err
	}
	if b.isNew != nil && slices.Equal(x.Shape(), s) {
		return x, nil // inside a VJP, a reshape to the same shape is x
	}
	out, err := x.Reshape(s...)
	return b.reshapeLike("reshape", x, out, err)
}

// reshapeLike records a result of x's elements in a new shape, whose
// gradient is the cotangent in x's shape.
func (b builder) reshapeLike(op string, x, out *tensor.Tensor, err error) (*tensor.Tensor, error) {
	if err != nil {
		return nil, err
	}
	xs := x.Shape()
	bw := func(b builder, g *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		if g.Layout() != tensor.Strided {
			d, err := b.toDense(g)
			if err != nil {
				return nil, err
			}
			g = d
		}
		d, err := b.reshape(g, xs)
		return []*tensor.Tensor{d}, err
	}
	return b.record(op, out, []any{x}, nil, bw), nil
}

func (b builder) broadcastTo(x *tensor.Tensor, s []int) (*tensor.Tensor, error) {
	if _, err := checked(x); err != nil {
		return nil, err
	}
	out, err := x.BroadcastTo(s...)
	if err != nil {
		return nil, err
	}
	xs := x.Shape()
	bw := func(b builder, g *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		d, err := b.sumTo(g, xs)
		return []*tensor.Tensor{d}, err
	}
	return b.record("broadcast_to", out, []any{x}, nil, bw), nil
}

func (b builder) asType(x *tensor.Tensor, dt tensor.DType) (*tensor.Tensor, error) {
	if _, err := checked(x); err != nil {
		return nil, err
	}
	out, err := x.AsType(dt)
	if err != nil {
		return nil, err
	}
	// The cotangent goes back as it is; VJP casts every contribution to
	// the dtype of the tensor it flows into.
	bw := func(b builder, g *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		return []*tensor.Tensor{g}, nil
	}
	return b.record("astype", b.fresh(out), []any{x}, nil, bw), nil
}

func (b builder) clone(x *tensor.Tensor) (*tensor.Tensor, error) {
	out, err := checked(x)
	if err == nil {
		out, err = x.Clone()
	}
	return b.identity("clone", x, b.fresh(out), err)
}

func (b builder) toDense(x *tensor.Tensor) (*tensor.Tensor, error) {
	out, err := checked(x)
	if err == nil {
		out, err = x.ToDense()
	}
	if out != nil && out != x {
		b.fresh(out)
	}
	return b.identity("to_dense", x, out, err)
}

// identity records a result equal to x element for element, whose
// gradient is the cotangent itself.
func (b builder) identity(op string, x, out *tensor.Tensor, err error) (*tensor.Tensor, error) {
	if err != nil {
		return nil, err
	}
	bw := func(b builder, g *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		return []*tensor.Tensor{g}, nil
	}
	return b.record(op, out, []any{x}, nil, bw), nil
}

// densifying records a sparse conversion of a dense x: the cotangent,
// sparse or not, goes back dense.
func (b builder) densifying(op string, x, out *tensor.Tensor, err error) (*tensor.Tensor, error) {
	if err != nil {
		return nil, err
	}
	bw := func(b builder, g *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		if g.Layout() == tensor.Strided {
			return []*tensor.Tensor{g}, nil
		}
		d, err := b.toDense(g)
		return []*tensor.Tensor{d}, err
	}
	return b.record(op, out, []any{x}, nil, bw), nil
}

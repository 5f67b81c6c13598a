package autograd

import (
	"github.com/tensor-go/tensor"
)

// sample returns the dense g's elements at the stored entries of the
// sparse tensor pattern, as a sparse tensor of pattern's layout and
// indices: the gradient with respect to a sparse operand, as
// torch.sparse.mm gives it. Its adjoint is densifying.
func (b builder) sample(g, pattern *tensor.Tensor) (*tensor.Tensor, error) {
	var err error
	if g.Layout() != tensor.Strided {
		if g, err = g.ToDense(); err != nil {
			return nil, err
		}
	}
	index0, cols, _, err := pattern.SparseParts()
	if err != nil {
		return nil, err
	}
	rows := index0
	if pattern.Layout() == tensor.SparseCSR {
		rows = make([]int64, len(cols))
		for r := 0; r+1 < len(index0); r++ {
			for k := index0[r]; k < index0[r+1]; k++ {
				rows[k] = int64(r)
			}
		}
	}
	s := pattern.Shape()
	var vals *tensor.Tensor
	switch g.DType() {
	case tensor.Float32:
		vals, err = gather[float32](g, rows, cols, s[1])
	case tensor.Float64:
		vals, err = gather[float64](g, rows, cols, s[1])
	case tensor.Complex64:
		vals, err = gather[complex64](g, rows, cols, s[1])
	case tensor.Complex128:
		vals, err = gather[complex128](g, rows, cols, s[1])
	default:
		var c *tensor.Tensor
		if c, err = g.AsType(tensor.Float32); err == nil {
			if vals, err = gather[float32](c, rows, cols, s[1]); err == nil {
				vals, err = vals.AsType(g.DType())
			}
		}
	}
	if err != nil {
		return nil, err
	}
	var out *tensor.Tensor
	if pattern.Layout() == tensor.SparseCSR {
		out, err = tensor.NewSparseCSR(index0, cols, vals, s...)
	} else {
		out, err = tensor.NewSparseCOO(rows, cols, vals, s...)
	}
	if err != nil {
		return nil, err
	}
	bw := func(b builder, c *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		d, err := b.toDense(c)
		return []*tensor.Tensor{d}, err
	}
	return b.record("sample", b.fresh(out), []any{g}, nil, bw), nil
}

func gather[T tensor.Element](g *tensor.Tensor, rows, cols []int64, n int) (*tensor.Tensor, error) {
	d, err := tensor.ToSlice[T](g)
	if err != nil {
		return nil, err
	}
	v := make([]T, len(cols))
	for k := range v {
		v[k] = d[int(rows[k])*n+int(cols[k])]
	}
	return tensor.FromSlice(v)
}

package autograd

import (
	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/dtype"
)

// addRaw and sumRaw stand in for tensor.Add and tensor.Sum until the
// generic engines provide them.

func addRaw(x, y any) (*tensor.Tensor, error) {
	a, aok := x.(*tensor.Tensor)
	b, bok := y.(*tensor.Tensor)
	if !aok || !bok {
		return nil, gradErr("add", tensor.ErrValue, "placeholder add takes tensors only")
	}
	dt, err := dtype.Promote(a.DType(), b.DType())
	if err != nil {
		return nil, err
	}
	s, err := broadcastShape(a.Shape(), b.Shape())
	if err != nil {
		return nil, err
	}
	av, err := a.BroadcastTo(s...)
	if err != nil {
		return nil, err
	}
	bv, err := b.BroadcastTo(s...)
	if err != nil {
		return nil, err
	}
	ac, err := av.AsType(tensor.Complex128)
	if err != nil {
		return nil, err
	}
	bc, err := bv.AsType(tensor.Complex128)
	if err != nil {
		return nil, err
	}
	as, _ := tensor.ToSlice[complex128](ac)
	bs, _ := tensor.ToSlice[complex128](bc)
	for i := range as {
		as[i] += bs[i]
	}
	r, err := tensor.FromSlice(as, s...)
	if err != nil {
		return nil, err
	}
	return r.AsType(dt)
}

func broadcastShape(a, b []int) ([]int, error) {
	n := max(len(a), len(b))
	out := make([]int, n)
	for i := range n {
		da, db := 1, 1
		if j := len(a) - n + i; j >= 0 {
			da = a[j]
		}
		if j := len(b) - n + i; j >= 0 {
			db = b[j]
		}
		switch {
		case da == db || db == 1:
			out[i] = da
		case da == 1:
			out[i] = db
		default:
			return nil, gradErr("add", tensor.ErrShape, "shapes %v and %v do not broadcast", a, b)
		}
	}
	return out, nil
}

// sumRaw sums x over the masked axes with a matrix product by ones.
func sumRaw(x *tensor.Tensor, mask []bool, keep bool) (*tensor.Tensor, error) {
	s := x.Shape()
	var perm, kept []int
	r := 1
	for i, m := range mask {
		if !m {
			perm, kept = append(perm, i), append(kept, s[i])
		}
	}
	for i, m := range mask {
		if m {
			perm = append(perm, i)
			r *= s[i]
		}
	}
	p, err := x.Permute(perm...)
	if err != nil {
		return nil, err
	}
	p, err = p.Reshape(append(append([]int{}, kept...), r)...)
	if err != nil {
		return nil, err
	}
	dt := x.DType()
	if !dt.IsFloat() && !dt.IsComplex() {
		dt = tensor.Float64
	}
	ones, err := tensor.Ones(dt, r)
	if err != nil {
		return nil, err
	}
	out, err := tensor.Matmul(p, ones)
	if err != nil {
		return nil, err
	}
	return out.Reshape(reducedShape(s, mask, keep)...)
}

func reducedShape(s []int, mask []bool, keep bool) []int {
	out := []int{}
	for i, d := range s {
		switch {
		case !mask[i]:
			out = append(out, d)
		case keep:
			out = append(out, 1)
		}
	}
	return out
}

package gonum

import (
	"errors"
	"fmt"

	"github.com/tensor-go/tensor"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// ErrCopyNeeded is the class of ViewDense's and ViewVecDense's errors for
// a tensor whose layout gonum cannot share: ToDense and ToVecDense copy it.
// It wraps tensor.ErrLayout.
var ErrCopyNeeded = fmt.Errorf("the layout needs a copy: %w", tensor.ErrLayout)

// FromDense returns the float64 tensor of shape (r, c) on m's memory,
// without copying, with strides (stride, 1) for m's row stride. An empty
// Dense (the zero value) gives a tensor of shape (0, 0).
func FromDense(m *mat.Dense) (*tensor.Tensor, error) {
	if m == nil {
		return nil, errors.New("tensor: from_dense: nil *mat.Dense")
	}
	if m.IsEmpty() {
		return tensor.Wrap([]float64{}, 0, 0)
	}
	raw := m.RawMatrix()
	return tensor.WrapStrided(raw.Data, 0, []int{raw.Rows, raw.Cols}, []int{raw.Stride, 1})
}

// FromMatrix returns m as a float64 tensor of shape (r, c): without
// copying for a *mat.Dense, a *mat.VecDense (a column) and their
// transposes (mat.Transpose, m.T()), and otherwise as a new tensor filled
// through m.At.
func FromMatrix(m mat.Matrix) (*tensor.Tensor, error) {
	switch v := m.(type) {
	case nil:
		return nil, errors.New("tensor: from_matrix: nil mat.Matrix")
	case *mat.Dense:
		return FromDense(v)
	case *mat.VecDense:
		t, err := FromVector(v)
		if err != nil {
			return nil, err
		}
		return t.Reshape(-1, 1) // a column: a view, whatever the increment
	case mat.Transpose:
		t, err := FromMatrix(v.Matrix)
		if err != nil {
			return nil, err
		}
		return t.Transpose(), nil
	}
	r, c := m.Dims()
	data := make([]float64, r*c)
	for i := range r {
		for j := range c {
			data[i*c+j] = m.At(i, j)
		}
	}
	return tensor.Wrap(data, r, c)
}

// FromVector returns v as a 1-D float64 tensor: on v's memory for a
// *mat.VecDense (with its increment as the stride), and otherwise a new
// tensor filled through v.AtVec.
func FromVector(v mat.Vector) (*tensor.Tensor, error) {
	switch x := v.(type) {
	case nil:
		return nil, errors.New("tensor: from_vector: nil mat.Vector")
	case *mat.VecDense:
		if x.IsEmpty() {
			return tensor.Wrap([]float64{})
		}
		raw := x.RawVector()
		return tensor.WrapStrided(raw.Data, 0, []int{raw.N}, []int{raw.Inc})
	}
	data := make([]float64, v.Len())
	for i := range data {
		data[i] = v.AtVec(i)
	}
	return tensor.Wrap(data)
}

// ViewDense returns a *mat.Dense on t's memory, without copying. t must be
// a 2-D float64 tensor (other dtypes: convert with AsType) whose rows are
// unit-stride and lie a non-negative stride of at least the column count
// apart (a row-major tensor or a block of one); anything else is an
// ErrCopyNeeded error naming the layout. A tensor with no elements has no
// gonum form (gonum has no empty matrices): that is an error too.
func ViewDense(t *tensor.Tensor) (*mat.Dense, error) {
	const op = "view_dense"
	if err := check2D(op, t); err != nil {
		return nil, err
	}
	s := t.Shape()
	st := t.Strides()
	rowStride := st[0]
	if s[0] == 1 {
		rowStride = s[1] // the only row: any stride will do
	}
	if s[1] > 1 && st[1] != 1 || rowStride < s[1] {
		return nil, fmt.Errorf("tensor: %s: shape %v with strides %v: gonum needs unit-stride rows at least %d elements apart: %w",
			op, s, st, s[1], ErrCopyNeeded)
	}
	data, _, err := tensor.StridedElements[float64](t)
	if err != nil {
		return nil, err
	}
	var m mat.Dense
	m.SetRawMatrix(blas64.General{Rows: s[0], Cols: s[1], Stride: rowStride, Data: data})
	return &m, nil
}

// ToDense returns t as a *mat.Dense: on t's memory where ViewDense can
// share it, and otherwise (a transposed or stepped view, a broadcast, a
// dtype other than float64) as a copy converted as AsType converts.
// Sparse tensors are made dense.
func ToDense(t *tensor.Tensor) (*mat.Dense, error) {
	m, err := ViewDense(t)
	if err == nil || !errors.Is(err, ErrCopyNeeded) && !errors.Is(err, tensor.ErrDType) {
		return m, err
	}
	if t.Layout() != tensor.Strided {
		if t, err = t.ToDense(); err != nil {
			return nil, err
		}
	}
	s := t.Shape()
	data := make([]float64, s[0]*s[1])
	if err := tensor.Copy(data, t); err != nil {
		return nil, err
	}
	return mat.NewDense(s[0], s[1], data), nil
}

// ViewVecDense returns a *mat.VecDense on the memory of a 1-D float64
// tensor with a positive stride, without copying; other layouts are
// ErrCopyNeeded errors.
func ViewVecDense(t *tensor.Tensor) (*mat.VecDense, error) {
	const op = "view_vec_dense"
	if err := checkVector(op, t); err != nil {
		return nil, err
	}
	n, inc := t.Shape()[0], t.Strides()[0]
	if n == 1 {
		inc = 1
	}
	if inc <= 0 {
		return nil, fmt.Errorf("tensor: %s: stride %d: gonum needs a positive increment: %w", op, inc, ErrCopyNeeded)
	}
	data, _, err := tensor.StridedElements[float64](t)
	if err != nil {
		return nil, err
	}
	var v mat.VecDense
	v.SetRawVector(blas64.Vector{N: n, Inc: inc, Data: data})
	return &v, nil
}

// ToVecDense is ViewVecDense, copying where the layout or the dtype needs
// it (a reversed or broadcast view, a dtype other than float64).
func ToVecDense(t *tensor.Tensor) (*mat.VecDense, error) {
	v, err := ViewVecDense(t)
	if err == nil || !errors.Is(err, ErrCopyNeeded) && !errors.Is(err, tensor.ErrDType) {
		return v, err
	}
	data := make([]float64, t.Size())
	if err := tensor.Copy(data, t); err != nil {
		return nil, err
	}
	return mat.NewVecDense(len(data), data), nil
}

// check2D accepts a non-empty 2-D tensor, and a float64 one for a view.
func check2D(op string, t *tensor.Tensor) error {
	if t == nil {
		return fmt.Errorf("tensor: %s: nil *tensor.Tensor: %w", op, tensor.ErrValue)
	}
	s := t.Shape()
	if len(s) != 2 {
		return fmt.Errorf("tensor: %s: a gonum matrix is 2-D, not shape %v: %w", op, s, tensor.ErrShape)
	}
	if s[0] == 0 || s[1] == 0 {
		return fmt.Errorf("tensor: %s: gonum has no empty matrix (shape %v): %w", op, s, tensor.ErrShape)
	}
	return checkFloat64(op, t)
}

func checkVector(op string, t *tensor.Tensor) error {
	if t == nil {
		return fmt.Errorf("tensor: %s: nil *tensor.Tensor: %w", op, tensor.ErrValue)
	}
	s := t.Shape()
	if len(s) != 1 || s[0] == 0 {
		return fmt.Errorf("tensor: %s: a gonum vector is 1-D and not empty, not shape %v: %w", op, s, tensor.ErrShape)
	}
	return checkFloat64(op, t)
}

func checkFloat64(op string, t *tensor.Tensor) error {
	if t.Layout() != tensor.Strided {
		return fmt.Errorf("tensor: %s: a %v tensor has no gonum view: %w", op, t.Layout(), ErrCopyNeeded)
	}
	if t.DType() != tensor.Float64 {
		return fmt.Errorf("tensor: %s: gonum holds float64, not %v (convert with AsType(Float64)): %w", op, t.DType(), tensor.ErrDType)
	}
	return nil
}

package expr

import (
	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/autograd"
)

// The view, copy and conversion spellings of NumPy and PyTorch beside the
// library's own names. Each is one tape operation, so gradients flow
// through it.

// callSwap is swapaxes(x, axis1, axis2) (PyTorch's swapdims).
func callSwap(env *Env, name string, a []Value) (Value, error) {
	x, err := toTensor(name, a[0])
	if err != nil {
		return nil, err
	}
	return swapDims(env, name, x, a[1], a[2])
}

// swapDims is the permutation of x that swaps dims d0 and d1 (negative
// ones counting from the end).
func swapDims(env *Env, name string, x *tensor.Tensor, d0, d1 Value) (Value, error) {
	var dims [2]int
	for k, v := range []Value{d0, d1} {
		d, err := dimArg(name, v, x.NDim())
		if err != nil {
			return nil, err
		}
		dims[k] = d
	}
	perm := make([]int, x.NDim())
	for i := range perm {
		perm[i] = i
	}
	perm[dims[0]], perm[dims[1]] = perm[dims[1]], perm[dims[0]]
	return env.tape().Permute(x, perm...)
}

// dimArg converts a dim of a tensor of ndim dimensions, counting negative
// ones from the end; a dim out of range is an ErrAxis error.
func dimArg(name string, v Value, ndim int) (int, error) {
	d, ok := v.(int64)
	if !ok {
		return 0, evalErr(name, tensor.ErrValue, "dims must be ints, got %s", typeName(v))
	}
	if d < -int64(ndim) || d >= int64(ndim) {
		return 0, evalErr(name, tensor.ErrAxis, "dim %d is out of range for a %d-dimensional tensor", d, ndim)
	}
	if d < 0 {
		d += int64(ndim)
	}
	return int(d), nil
}

// callFlatten is x.flatten() and ravel: the elements as one dimension, in
// row-major order (a view where the strides allow, as reshape).
func callFlatten(env *Env, name string, a []Value) (Value, error) {
	x, err := toTensor(name, a[0])
	if err != nil {
		return nil, err
	}
	if err := env.Reserve(name, x.Shape(), x.DType()); err != nil { // in case it copies
		return nil, err
	}
	return env.tape().Reshape(x, -1)
}

// callSqueeze drops the size-1 dims axis names, or all of them. As in
// NumPy, naming a dim whose size is not 1 is an error (PyTorch leaves it).
func callSqueeze(env *Env, name string, a []Value) (Value, error) {
	x, err := toTensor(name, a[0])
	if err != nil {
		return nil, err
	}
	var axes []int
	if given(a[1]) {
		if axes, err = intList(name, "axis", a[1]); err != nil {
			return nil, err
		}
	}
	return env.tape().Squeeze(x, axes...)
}

// callExpandDims is expand_dims(x, axis) and PyTorch's unsqueeze(x, dim):
// a size-1 dim inserted at axis of the result.
func callExpandDims(env *Env, name string, a []Value) (Value, error) {
	x, err := toTensor(name, a[0])
	if err != nil {
		return nil, err
	}
	axis, err := dimArg(name, a[1], x.NDim()+1)
	if err != nil {
		return nil, err
	}
	return env.tape().ExpandDims(x, axis)
}

// callClone is clone and copy: always a new contiguous tensor.
var callClone = copying(storedShape, (*autograd.Tape).Clone)

// callContiguous copies only a tensor that is not contiguous already.
var callContiguous = copying((*tensor.Tensor).Shape, (*autograd.Tape).Contiguous)

// callConj is the complex conjugate (a copy, as in NumPy; a real tensor's
// is itself).
var callConj = copying(storedShape, (*autograd.Tape).Conj)

// copying makes the call of a one-operand tape operation that may copy its
// operand: room for elements of the reserved shape is checked first.
func copying(reserved func(*tensor.Tensor) []int, op func(*autograd.Tape, *tensor.Tensor) (*tensor.Tensor, error)) func(*Env, string, []Value) (Value, error) {
	return func(env *Env, name string, a []Value) (Value, error) {
		x, err := toTensor(name, a[0])
		if err != nil {
			return nil, err
		}
		if err := env.Reserve(name, reserved(x), x.DType()); err != nil {
			return nil, err
		}
		return op(env.tape(), x)
	}
}

// callNumel is PyTorch's numel: the number of elements.
func callNumel(env *Env, name string, a []Value) (Value, error) {
	x, err := toTensor(name, a[0])
	if err != nil {
		return nil, err
	}
	return int64(x.Size()), nil
}

// callConvert is one of PyTorch's conversion methods (x.double(), ...).
func callConvert(to string) func(*Env, string, []Value) (Value, error) {
	return func(env *Env, name string, a []Value) (Value, error) {
		return callAsType(env, name, []Value{a[0], to})
	}
}

// callRankedMatmul is PyTorch's mm (2-D @ 2-D), bmm (3-D @ 3-D, batch
// sizes equal, no broadcasting) and mv (2-D @ 1-D): matmul with the ranks
// checked first.
func callRankedMatmul(rankX, rankY int) func(*Env, string, []Value) (Value, error) {
	return func(env *Env, name string, a []Value) (Value, error) {
		x, y, err := tensorPair(name, a)
		if err != nil {
			return nil, err
		}
		if x.NDim() != rankX || y.NDim() != rankY {
			return nil, evalErr(name, tensor.ErrShape, "needs %d-D and %d-D operands, got shapes %v and %v", rankX, rankY, x.Shape(), y.Shape())
		}
		if rankX == 3 && x.Shape()[0] != y.Shape()[0] {
			return nil, evalErr(name, tensor.ErrShape, "batch sizes differ: shapes %v and %v", x.Shape(), y.Shape())
		}
		return env.matmul(x, y)
	}
}

// callDot is NumPy's dot for operands of at most two dimensions (where it
// is matmul) and a 0-d operand (where it is mul); PyTorch's dot takes two
// 1-D operands, a case of the same. NumPy's dot of higher ranks sums over
// other axes than matmul's and is refused rather than computed as matmul.
func callDot(env *Env, name string, a []Value) (Value, error) {
	x, y, err := tensorPair(name, a)
	if err != nil {
		return nil, err
	}
	switch {
	case x.NDim() == 0 || y.NDim() == 0:
		return env.mul(x, y)
	case x.NDim() > 2 || y.NDim() > 2:
		return nil, evalErr(name, tensor.ErrShape, "takes operands of at most 2 dimensions here, got shapes %v and %v (use matmul)", x.Shape(), y.Shape())
	}
	return env.matmul(x, y)
}

// tensorPair converts a call's first two arguments to tensors.
func tensorPair(name string, a []Value) (x, y *tensor.Tensor, err error) {
	if x, err = toTensor(name, a[0]); err != nil {
		return nil, nil, err
	}
	if y, err = toTensor(name, a[1]); err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

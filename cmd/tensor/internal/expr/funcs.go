package expr

import (
	"math"

	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/dtype"
)

// function is a built-in function. Its parameters are positional or
// keyword, as in Python; the first required ones must be given. Absent
// optional arguments arrive as absent.
type function struct {
	params   []string
	required int
	// method: also callable as x.name(...), x filling the first parameter.
	method bool
	// methodOnly: callable only as a method (x.size()).
	methodOnly bool
	// packsShape: as a method, several positional arguments form one tuple
	// (x.reshape(2, 3), x.permute(1, 0)), as NumPy and PyTorch allow.
	packsShape bool
	// swapsPair: exactly two integer dims, positional, swap those two
	// (PyTorch's transpose(x, dim0, dim1) and x.transpose(0, 1)) instead of
	// being packed into a permutation.
	swapsPair bool
	// kwAliases maps other libraries' keyword names to this function's
	// (PyTorch's dim and keepdim for axis and keepdims).
	kwAliases map[string]string
	call      func(env *Env, name string, args []Value) (Value, error)
}

// absentT marks an optional argument that was not given (distinct from an
// explicit None).
type absentT struct{}

var absent Value = absentT{}

func isAbsent(v Value) bool { _, ok := v.(absentT); return ok }

// given reports whether an optional argument carries a value other than None.
func given(v Value) bool { return !isAbsent(v) && v != nil }

// functions is the function table. Aliases point at the same entry.
//
// Sparse tensors enter through to_sparse_coo, to_sparse_csr (also
// PyTorch's methods x.to_sparse() and x.to_sparse_csr()) and file
// bindings; to_dense leaves them. mul and matmul accept them through the
// same entries as dense tensors.
var functions map[string]*function

func init() {
	tensorFn := &function{params: []string{"data", "dtype"}, required: 1, call: callTensor}
	reduceAliases := map[string]string{"dim": "axis", "keepdim": "keepdims", "input": "x"}
	binaryAliases := map[string]string{"input": "x", "other": "y"}
	axisAliases := map[string]string{"dim": "axis", "input": "x"}
	functions = map[string]*function{
		"mul":               {params: []string{"x", "y"}, required: 2, method: true, kwAliases: binaryAliases, call: callMul},
		"multiply":          {params: []string{"x", "y"}, required: 2, method: true, kwAliases: binaryAliases, call: callMul},
		"matmul":            {params: []string{"x", "y"}, required: 2, method: true, kwAliases: binaryAliases, call: callMatmul},
		"add":               {params: []string{"x", "y"}, required: 2, method: true, kwAliases: binaryAliases, call: callAdd},
		"sub":               {params: []string{"x", "y"}, required: 2, method: true, kwAliases: binaryAliases, call: callSub},
		"subtract":          {params: []string{"x", "y"}, required: 2, method: true, kwAliases: binaryAliases, call: callSub},
		"neg":               {params: []string{"x"}, required: 1, method: true, call: callNeg},
		"negative":          {params: []string{"x"}, required: 1, method: true, call: callNeg},
		"prod":              {params: []string{"x", "axis", "keepdims", "dtype"}, required: 1, method: true, kwAliases: reduceAliases, call: callReduce},
		"sum":               {params: []string{"x", "axis", "keepdims", "dtype"}, required: 1, method: true, kwAliases: reduceAliases, call: callReduce},
		"tensor":            tensorFn,
		"Tensor":            tensorFn,
		"array":             tensorFn,
		"asarray":           tensorFn,
		"astype":            {params: []string{"x", "dtype"}, required: 2, method: true, call: callAsType},
		"to":                {params: []string{"x", "dtype"}, required: 2, method: true, methodOnly: true, call: callAsType},
		"type":              {params: []string{"x", "dtype"}, required: 2, method: true, methodOnly: true, call: callAsType},
		"transpose":         {params: []string{"x", "axes", "dim1"}, required: 1, method: true, packsShape: true, swapsPair: true, kwAliases: map[string]string{"dim0": "axes", "input": "x"}, call: callTranspose},
		"swapaxes":          {params: []string{"x", "axis1", "axis2"}, required: 3, method: true, kwAliases: map[string]string{"dim0": "axis1", "dim1": "axis2", "input": "x"}, call: callSwap},
		"swapdims":          {params: []string{"x", "axis1", "axis2"}, required: 3, method: true, kwAliases: map[string]string{"dim0": "axis1", "dim1": "axis2", "input": "x"}, call: callSwap},
		"permute":           {params: []string{"x", "axes"}, required: 2, method: true, packsShape: true, kwAliases: map[string]string{"dims": "axes", "input": "x"}, call: callTranspose},
		"reshape":           {params: []string{"x", "shape"}, required: 2, method: true, packsShape: true, call: callReshape},
		"view":              {params: []string{"x", "shape"}, required: 2, method: true, methodOnly: true, packsShape: true, call: callReshape},
		"flatten":           {params: []string{"x"}, required: 1, method: true, call: callFlatten},
		"ravel":             {params: []string{"x"}, required: 1, method: true, call: callFlatten},
		"squeeze":           {params: []string{"x", "axis"}, required: 1, method: true, kwAliases: axisAliases, call: callSqueeze},
		"expand_dims":       {params: []string{"x", "axis"}, required: 2, method: true, kwAliases: axisAliases, call: callExpandDims},
		"unsqueeze":         {params: []string{"x", "axis"}, required: 2, method: true, kwAliases: axisAliases, call: callExpandDims},
		"clone":             {params: []string{"x"}, required: 1, method: true, call: callClone},
		"copy":              {params: []string{"x"}, required: 1, method: true, call: callClone},
		"contiguous":        {params: []string{"x"}, required: 1, method: true, methodOnly: true, call: callContiguous},
		"ascontiguousarray": {params: []string{"x"}, required: 1, call: callContiguous},
		"conj":              {params: []string{"x"}, required: 1, method: true, call: callConj},
		"conjugate":         {params: []string{"x"}, required: 1, method: true, call: callConj},
		"broadcast_to":      {params: []string{"x", "shape"}, required: 2, method: true, packsShape: true, call: callBroadcastTo},
		"expand":            {params: []string{"x", "shape"}, required: 2, method: true, methodOnly: true, packsShape: true, call: callBroadcastTo},
		"zeros":             {params: []string{"shape", "dtype"}, required: 1, packsShape: true, call: callFill(0)},
		"ones":              {params: []string{"shape", "dtype"}, required: 1, packsShape: true, call: callFill(1)},
		"full":              {params: []string{"shape", "fill_value", "dtype"}, required: 2, call: callFull},
		"arange":            {params: []string{"start", "stop", "step", "dtype"}, required: 1, call: callArange},
		"size":              {params: []string{"x"}, required: 1, method: true, methodOnly: true, call: callSize},
		"numel":             {params: []string{"x"}, required: 1, method: true, call: callNumel},
		// PyTorch's and NumPy's names for matrix products of fixed ranks.
		"mm":  {params: []string{"x", "y"}, required: 2, method: true, kwAliases: binaryAliases, call: callRankedMatmul(2, 2)},
		"bmm": {params: []string{"x", "y"}, required: 2, method: true, kwAliases: binaryAliases, call: callRankedMatmul(3, 3)},
		"mv":  {params: []string{"x", "y"}, required: 2, method: true, kwAliases: binaryAliases, call: callRankedMatmul(2, 1)},
		"dot": {params: []string{"x", "y"}, required: 2, method: true, kwAliases: binaryAliases, call: callDot},
		// Dtype conversions as PyTorch's methods.
		"double":   {params: []string{"x"}, required: 1, method: true, methodOnly: true, call: callConvert("float64")},
		"float":    {params: []string{"x"}, required: 1, method: true, methodOnly: true, call: callConvert("float32")},
		"half":     {params: []string{"x"}, required: 1, method: true, methodOnly: true, call: callConvert("float16")},
		"bfloat16": {params: []string{"x"}, required: 1, method: true, methodOnly: true, call: callConvert("bfloat16")},
		"int":      {params: []string{"x"}, required: 1, method: true, methodOnly: true, call: callConvert("int32")},
		"long":     {params: []string{"x"}, required: 1, method: true, methodOnly: true, call: callConvert("int64")},
		"bool":     {params: []string{"x"}, required: 1, method: true, methodOnly: true, call: callConvert("bool")},
		// Sparse layouts.
		"to_sparse_coo": {params: []string{"x"}, required: 1, method: true, call: callToSparse},
		"to_sparse":     {params: []string{"x"}, required: 1, method: true, call: callToSparse},
		"to_sparse_csr": {params: []string{"x"}, required: 1, method: true, call: callToSparse},
		"to_dense":      {params: []string{"x"}, required: 1, method: true, call: callToDense},
	}
}

func callMul(env *Env, name string, a []Value) (Value, error) { return env.mul(a[0], a[1]) }

func callAdd(env *Env, name string, a []Value) (Value, error) { return env.add(a[0], a[1]) }

func callSub(env *Env, name string, a []Value) (Value, error) { return env.sub(a[0], a[1]) }

func callNeg(env *Env, name string, a []Value) (Value, error) { return env.neg(a[0]) }

// storedShape is the shape of the elements x stores: its shape, or for a
// sparse tensor the (nnz,) of its values, which is what a dtype
// conversion allocates.
func storedShape(x *tensor.Tensor) []int {
	if x.Layout() != tensor.Strided {
		return []int{x.Nnz()}
	}
	return x.Shape()
}

// callToSparse converts to the COO layout (to_sparse_coo, to_sparse) or
// the CSR one. Its worst case stores an int64 index pair per element.
func callToSparse(env *Env, name string, a []Value) (Value, error) {
	x, err := toTensor(name, a[0])
	if err != nil {
		return nil, err
	}
	switch {
	case x.Layout() == tensor.Strided:
		if err := env.Reserve(name, append(x.Shape(), 3), dtype.Int64); err != nil {
			return nil, err
		}
	case name == "to_sparse_csr":
		// A row pointer per row, however few the entries.
		if err := env.Reserve(name, x.Shape()[:1], dtype.Int64); err != nil {
			return nil, err
		}
	}
	if name == "to_sparse_csr" {
		return env.tape().ToSparseCSR(x)
	}
	return env.tape().ToSparseCOO(x)
}

func callToDense(env *Env, name string, a []Value) (Value, error) {
	x, err := toTensor(name, a[0])
	if err != nil {
		return nil, err
	}
	if err := env.Reserve(name, x.Shape(), x.DType()); err != nil {
		return nil, err
	}
	return env.tape().ToDense(x)
}

func callMatmul(env *Env, name string, a []Value) (Value, error) { return env.matmul(a[0], a[1]) }

// callReduce is prod and sum: prod(x, axis=None, keepdims=False,
// dtype=None), with the Array API's dtype (accumulate and return in it).
func callReduce(env *Env, name string, a []Value) (Value, error) {
	x, err := toTensor(name, a[0])
	if err != nil {
		return nil, err
	}
	var opts []tensor.ReduceOption
	var axes []int // nil: all axes
	if given(a[1]) {
		if axes, err = intList(name, "axis", a[1]); err != nil {
			return nil, err
		}
		opts = append(opts, tensor.Axis(axes...))
	}
	keep := false
	if !isAbsent(a[2]) {
		var ok bool
		if keep, ok = a[2].(bool); !ok {
			return nil, evalErr(name, tensor.ErrValue, "keepdims must be True or False, got %s", typeName(a[2]))
		}
		opts = append(opts, tensor.KeepDims(keep))
	}
	rd, dt := dtype.ProdResult(x.DType()), dtype.Invalid
	if given(a[3]) {
		if dt, err = dtypeArg(name, a[3]); err != nil {
			return nil, err
		}
		if !dtype.CanCastInto(x.DType(), dt) {
			return nil, evalErr(name, tensor.ErrDType, "cannot accumulate a %v tensor in %v, a lower kind; cast it first", x.DType(), dt)
		}
		// The input may be converted to dt first: room for that copy.
		if err := env.Reserve(name, storedShape(x), dt); err != nil {
			return nil, err
		}
		rd = dt
	}
	if err := env.reserveReduce(name, x, axes, keep, rd); err != nil {
		return nil, err
	}
	tp := env.tape()
	reduce := tp.Prod
	if name == "sum" {
		reduce = tp.Sum
	}
	if dt == dtype.Invalid {
		return reduce(x, opts...)
	}
	if tp == nil {
		return reduce(x, append(opts, tensor.WithDType(dt))...)
	}
	// Recorded for gradients: the conversions are tape operations, so the
	// gradient flows back through them (casting back to x's dtype).
	if x.DType() != dt {
		if x, err = tp.AsType(x, dt); err != nil {
			return nil, err
		}
	}
	out, err := reduce(x, opts...)
	if err != nil || out.DType() == dt {
		return out, err
	}
	return tp.AsType(out, dt)
}

func callTensor(env *Env, name string, a []Value) (Value, error) {
	dt := dtype.Invalid
	if given(a[1]) {
		var err error
		if dt, err = dtypeArg(name, a[1]); err != nil {
			return nil, err
		}
	}
	if t, ok := a[0].(*tensor.Tensor); ok {
		if dt == dtype.Invalid {
			return t, nil
		}
		if err := env.Reserve(name, storedShape(t), dt); err != nil {
			return nil, err
		}
		return env.tape().AsType(t, dt)
	}
	return listTensor(a[0], dt, name)
}

func callAsType(env *Env, name string, a []Value) (Value, error) {
	x, err := toTensor("astype", a[0])
	if err != nil {
		return nil, err
	}
	dt, err := dtypeArg("astype", a[1])
	if err != nil {
		return nil, err
	}
	if err := env.Reserve("astype", storedShape(x), dt); err != nil {
		return nil, err
	}
	return env.tape().AsType(x, dt)
}

// callTranspose is NumPy's transpose: all axes reversed, or permuted as
// axes says (also PyTorch's permute); given two dims apart, as PyTorch's
// transpose(x, dim0, dim1), it swaps those two.
func callTranspose(env *Env, name string, a []Value) (Value, error) {
	x, err := toTensor(name, a[0])
	if err != nil {
		return nil, err
	}
	if len(a) > 2 && given(a[2]) {
		return swapDims(env, name, x, a[1], a[2])
	}
	if !given(a[1]) {
		return env.tape().Transpose(x)
	}
	axes, err := intList(name, "axes", a[1])
	if err != nil {
		return nil, err
	}
	return env.tape().Permute(x, axes...)
}

func callReshape(env *Env, name string, a []Value) (Value, error) {
	x, err := toTensor("reshape", a[0])
	if err != nil {
		return nil, err
	}
	s, err := intList("reshape", "shape", a[1])
	if err != nil {
		return nil, err
	}
	if err := env.Reserve("reshape", x.Shape(), x.DType()); err != nil { // in case it copies
		return nil, err
	}
	return env.tape().Reshape(x, s...)
}

func callBroadcastTo(env *Env, name string, a []Value) (Value, error) {
	x, err := toTensor("broadcast_to", a[0])
	if err != nil {
		return nil, err
	}
	s, err := intList("broadcast_to", "shape", a[1])
	if err != nil {
		return nil, err
	}
	return env.tape().BroadcastTo(x, s...)
}

// callFill makes zeros and ones: float32 unless a dtype is given.
func callFill(value int) func(*Env, string, []Value) (Value, error) {
	return func(env *Env, name string, a []Value) (Value, error) {
		s, err := intList(name, "shape", a[0])
		if err != nil {
			return nil, err
		}
		dt := dtype.Float32
		if given(a[1]) {
			if dt, err = dtypeArg(name, a[1]); err != nil {
				return nil, err
			}
		}
		if err := env.Reserve(name, s, dt); err != nil {
			return nil, err
		}
		if value == 0 {
			return tensor.Zeros(dt, s...)
		}
		return tensor.Ones(dt, s...)
	}
}

// callFull is NumPy's full: the dtype defaults to the default of the fill
// value's kind.
func callFull(env *Env, name string, a []Value) (Value, error) {
	s, err := intList(name, "shape", a[0])
	if err != nil {
		return nil, err
	}
	dt, ok := defaultDType(a[1])
	if !ok {
		return nil, evalErr(name, tensor.ErrValue, "fill_value must be a number, got %s", typeName(a[1]))
	}
	if given(a[2]) {
		if dt, err = dtypeArg(name, a[2]); err != nil {
			return nil, err
		}
	}
	if err := env.Reserve(name, s, dt); err != nil {
		return nil, err
	}
	return tensor.Full(a[1], dt, s...)
}

// callArange is NumPy's arange: arange(n), arange(start, stop[, step]);
// int32 when every bound is an int, else float32, unless dtype says.
func callArange(env *Env, name string, a []Value) (Value, error) {
	bounds := []float64{0, 0, 1}
	allInts := true
	for i, v := range a[:3] {
		if !given(v) {
			continue
		}
		switch v := v.(type) {
		case int64:
			bounds[i] = float64(v)
		case float64:
			bounds[i] = v
			allInts = false
		default:
			return nil, evalErr(name, tensor.ErrValue, "%s must be a number, got %s", functions["arange"].params[i], typeName(v))
		}
	}
	dt := dtype.Float32
	if allInts {
		dt = dtype.Int32
	}
	if given(a[3]) {
		var err error
		if dt, err = dtypeArg(name, a[3]); err != nil {
			return nil, err
		}
	}
	if !given(a[1]) { // arange(stop)
		bounds[0], bounds[1] = 0, bounds[0]
	}
	if count := math.Ceil((bounds[1] - bounds[0]) / bounds[2]); count > 0 && count < math.MaxInt32*float64(math.MaxInt32) {
		if err := env.Reserve(name, []int{int(min(count, math.MaxInt))}, dt); err != nil {
			return nil, err
		}
	}
	return tensor.ArangeRange(bounds[0], bounds[1], bounds[2], dt)
}

// callSize is PyTorch's x.size(): the shape.
func callSize(env *Env, name string, a []Value) (Value, error) {
	x, err := toTensor(name, a[0])
	if err != nil {
		return nil, err
	}
	return shapeTuple(x.Shape()), nil
}

// intList converts an int, or a tuple or list of ints, to a slice.
func intList(op, what string, v Value) ([]int, error) {
	switch v := v.(type) {
	case int64:
		if int64(int(v)) != v {
			return nil, evalErr(op, tensor.ErrValue, "%s holds %d, beyond this platform's int", what, v)
		}
		return []int{int(v)}, nil
	case Tuple, List:
		var elems []Value
		if t, ok := v.(Tuple); ok {
			elems = t
		} else {
			elems = v.(List)
		}
		out := make([]int, len(elems))
		for i, e := range elems {
			n, ok := e.(int64)
			if !ok {
				return nil, evalErr(op, tensor.ErrValue, "%s must hold ints, got %s at position %d", what, typeName(e), i)
			}
			if int64(int(n)) != n { // a 32-bit int would keep the low bits
				return nil, evalErr(op, tensor.ErrValue, "%s holds %d at position %d, beyond this platform's int", what, n, i)
			}
			out[i] = int(n)
		}
		return out, nil
	}
	return nil, evalErr(op, tensor.ErrValue, "%s must be an int or a tuple of ints, got %s", what, typeName(v))
}

// dtypeArg converts a dtype argument (a name such as "int8").
func dtypeArg(op string, v Value) (dtype.DType, error) {
	s, ok := v.(string)
	if !ok {
		return dtype.Invalid, evalErr(op, tensor.ErrDType, "dtype must be a name such as \"float32\", got %s", typeName(v))
	}
	dt, err := dtype.Parse(s)
	if err != nil {
		return dtype.Invalid, evalErr(op, tensor.ErrDType, "unknown dtype %q", s)
	}
	return dt, nil
}

// scalarKind ranks the kinds of literal elements: a list takes the highest.
type scalarKind int

const (
	kindNone scalarKind = iota
	kindBool
	kindInt
	kindFloat
	kindComplex
)

// defaultDType is the dtype a lone host scalar takes.
func defaultDType(v Value) (dtype.DType, bool) {
	switch v.(type) {
	case bool:
		return dtype.Bool, true
	case int64:
		return dtype.Int32, true
	case float64:
		return dtype.Float32, true
	case complex128:
		return dtype.Complex64, true
	}
	return dtype.Invalid, false
}

// scalarOf returns the number a dense 0-d tensor holds as the Go type of
// its kind (bool, int64, float64 or complex128).
func scalarOf(t *tensor.Tensor) (Value, bool) {
	if t == nil || t.Layout() != tensor.Strided || len(t.Shape()) != 0 {
		return nil, false
	}
	dt := t.DType()
	wide := map[bool]dtype.DType{true: dtype.Complex128, false: dtype.Float64}[dt.IsComplex()]
	switch {
	case dt == dtype.Bool:
		v, err := tensor.ToSlice[bool](t)
		return v[0], err == nil
	case dt.IsInteger():
		w, err := t.AsType(dtype.Int64)
		if err != nil {
			return nil, false
		}
		v, err := tensor.ToSlice[int64](w)
		return v[0], err == nil
	}
	w, err := t.AsType(wide)
	if err != nil {
		return nil, false
	}
	if wide == dtype.Complex128 {
		v, err := tensor.ToSlice[complex128](w)
		return v[0], err == nil
	}
	v, err := tensor.ToSlice[float64](w)
	return v[0], err == nil
}

// literal is a flattened list literal: its shape, its elements in
// row-major order and the highest kind among them.
type literal struct {
	shape []int
	elems []Value
	kind  scalarKind
}

// flatten walks nested lists and tuples, checking that they are
// rectangular and hold only numbers and bools.
func (l *literal) flatten(op string, v Value, depth int) error {
	var elems []Value
	switch v := v.(type) {
	case List:
		elems = v
	case Tuple:
		elems = v
	default:
		if depth != len(l.shape) {
			return evalErr(op, tensor.ErrShape, "ragged nested list: a number where a list was expected at depth %d", depth)
		}
		k := kindNone
		if t, ok := v.(*tensor.Tensor); ok {
			// A number computed in the list, such as 1+2j or 3-1j: a 0-d
			// result of weak scalars, taken as its number.
			if n, ok := scalarOf(t); ok {
				v = n
			}
		}
		switch v.(type) {
		case bool:
			k = kindBool
		case int64:
			k = kindInt
		case float64:
			k = kindFloat
		case complex128:
			k = kindComplex
		default:
			return evalErr(op, tensor.ErrValue, "list elements must be numbers or bools, got %s", typeName(v))
		}
		l.kind = max(l.kind, k)
		l.elems = append(l.elems, v)
		return nil
	}
	switch {
	case depth == len(l.shape) && len(l.elems) == 0:
		l.shape = append(l.shape, len(elems)) // the first list at this depth sets the size
	case depth >= len(l.shape):
		return evalErr(op, tensor.ErrShape, "ragged nested list: a list where a number was expected at depth %d", depth)
	case l.shape[depth] != len(elems):
		return evalErr(op, tensor.ErrShape, "ragged nested list: length %d at depth %d, expected %d", len(elems), depth, l.shape[depth])
	}
	for _, e := range elems {
		if err := l.flatten(op, e, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// listTensor builds a tensor from a (nested) list literal or a number. With
// dt Invalid the dtype is the default of the highest kind present: bool,
// int32, float32 or complex64; an empty list is float32. Integers must fit
// an integer dtype; they convert exactly.
func listTensor(v Value, dt dtype.DType, op string) (*tensor.Tensor, error) {
	var l literal
	if err := l.flatten(op, v, 0); err != nil {
		return nil, err
	}
	if dt == dtype.Invalid {
		switch l.kind {
		case kindBool:
			dt = dtype.Bool
		case kindInt:
			dt = dtype.Int32
		case kindComplex:
			dt = dtype.Complex64
		default:
			dt = dtype.Float32
		}
	}
	src, err := l.build(op, dt)
	if err != nil {
		return nil, err
	}
	if src.DType() == dt {
		return src, nil
	}
	return src.AsType(dt)
}

// build makes a tensor of the literal's widest Go type (bool, int64,
// float64 or complex128), checking integer ranges against the target dt.
func (l *literal) build(op string, dt dtype.DType) (*tensor.Tensor, error) {
	n := len(l.elems)
	// A non-nil shape, so that a lone number is 0-d (FromSlice reads no
	// shape at all as 1-D).
	s := append([]int{}, l.shape...)
	switch l.kind {
	case kindBool:
		data := make([]bool, n)
		for i, e := range l.elems {
			data[i] = e.(bool)
		}
		return tensor.FromSlice(data, s...)
	case kindInt:
		data := make([]int64, n)
		for i, e := range l.elems {
			if b, ok := e.(bool); ok {
				e = boolInt(b)
			}
			data[i] = e.(int64)
			if dt.IsInteger() && !fitsInteger(data[i], dt) {
				return nil, evalErr(op, tensor.ErrValue, "integer %d is out of the range of %v", data[i], dt)
			}
		}
		return tensor.FromSlice(data, s...)
	case kindComplex:
		data := make([]complex128, n)
		for i, e := range l.elems {
			data[i] = complexOf(e)
		}
		return tensor.FromSlice(data, s...)
	}
	data := make([]float64, n)
	for i, e := range l.elems {
		data[i] = real(complexOf(e))
	}
	return tensor.FromSlice(data, s...)
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func complexOf(v Value) complex128 {
	switch v := v.(type) {
	case bool:
		return complex(float64(boolInt(v)), 0)
	case int64:
		return complex(float64(v), 0)
	case float64:
		return complex(v, 0)
	case complex128:
		return v
	}
	return 0
}

// fitsInteger reports whether v is within the range of the integer dtype.
func fitsInteger(v int64, dt dtype.DType) bool {
	bits := dt.Bits()
	if dt.IsSigned() {
		if bits == 64 {
			return true
		}
		return v >= -1<<(bits-1) && v < 1<<(bits-1)
	}
	if v < 0 {
		return false
	}
	return bits == 64 || uint64(v) <= math.MaxUint64>>(64-bits)
}

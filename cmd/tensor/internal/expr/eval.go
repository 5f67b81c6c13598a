package expr

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/dtype"
)

// Env is what an expression is evaluated in.
type Env struct {
	// Vars are the tensors bound to names on the command line.
	Vars map[string]*tensor.Tensor
	// Matmul holds the options of every matrix product (@ and matmul),
	// such as the precision.
	Matmul []tensor.MatmulOption
	// MaxBytes, when positive, bounds the size of any one result; see
	// Reserve.
	MaxBytes int
	// Available, when set, says how many bytes the process can still
	// allocate; each result must fit in it as well, so that everything the
	// evaluation holds live counts, not one result alone.
	Available func() int
	// MaxOps, when positive, bounds the work of the whole evaluation in
	// element operations (see Work); ops is what it has used so far.
	MaxOps int64
	ops    int64

	avail      int  // what Available said last
	sinceAvail int  // bytes reserved since
	haveAvail  bool // Available has been asked
	// grad is the tape of vjp and grad, shared with the environments of
	// their lambdas; nil until the first one runs (grad.go).
	grad *gradState
	// Archives are the plain .npz archives bound to names (archive.go).
	Archives map[string]Archive
	// NPZ, if set, reports whether a name is bound to a .npz file, plain
	// or sparse, whose attributes Check left for Eval.
	NPZ func(name string) bool
}

// Bound reports whether name is bound to a tensor; it suits Check.
func (env *Env) Bound(name string) bool {
	_, ok := env.Vars[name]
	if !ok {
		_, ok = env.Archives[name]
	}
	return ok
}

// Eval evaluates n, which should have passed Check with env.Bound. Errors
// are *tensor.OpError values whose message names the operation and the
// offending shapes or values; a CheckError can only come from a node that
// did not pass Check.
func (env *Env) Eval(n Node) (Value, error) {
	switch n := n.(type) {
	case *IntLit:
		return parseInt(n.Text)
	case *FloatLit:
		return n.Value, nil
	case *ImagLit:
		return complex(0, n.Value), nil
	case *StringLit:
		return n.Value, nil
	case *Ident:
		if t, ok := env.Vars[n.Name]; ok {
			return t, nil
		}
		if a, ok := env.Archives[n.Name]; ok {
			return a.value(), nil
		}
		return constantValue(n.Col(), n.Name)
	case *ListLit:
		vs, err := env.evalAll(n.Elems)
		return List(vs), err
	case *TupleLit:
		vs, err := env.evalAll(n.Elems)
		return Tuple(vs), err
	case *Unary:
		return env.negate(n)
	case *Binary:
		return env.binary(n)
	case *Attr:
		if id, ok := n.X.(*Ident); ok && modules[id.Name] && !env.Bound(id.Name) {
			return constantValue(n.At+1, n.Name)
		}
		if v, ok, err := env.archiveAttr(n); ok {
			return v, err
		}
		x, err := env.Eval(n.X)
		if err != nil {
			return nil, err
		}
		return env.attribute(x, n.Name)
	case *Call:
		return env.call(n)
	case *Index:
		return env.index(n)
	}
	return nil, callErrorf(n.Col(), "%T cannot be evaluated here", n)
}

func (env *Env) evalAll(ns []Node) ([]Value, error) {
	out := make([]Value, len(ns))
	for i, n := range ns {
		v, err := env.Eval(n)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// evalErr builds the error of a failed operation in the library's style.
func evalErr(op string, class error, format string, args ...any) error {
	return &tensor.OpError{Op: op, Detail: fmt.Sprintf(format, args...), Class: class}
}

// parseInt converts an integer literal as Python reads it (base prefixes,
// underscores). Python's ints are unbounded; here they must fit in int64.
func parseInt(text string) (Value, error) {
	v, err := strconv.ParseInt(text, 0, 64)
	if err != nil {
		return nil, evalErr("literal", tensor.ErrValue, "integer %s does not fit in 64 bits", text)
	}
	return v, nil
}

func constantValue(col int, name string) (Value, error) {
	switch name {
	case "True":
		return true, nil
	case "False":
		return false, nil
	case "None":
		return nil, nil
	case "nan":
		return math.NaN(), nil
	case "inf":
		return math.Inf(1), nil
	}
	if isDTypeName(name) {
		return name, nil
	}
	return nil, nameErrorf(col, "unknown name '%s'", name)
}

// negate computes -x: numbers negate, tensors go through Neg (keeping
// their dtype; a bool tensor is an error, as in PyTorch). A literal is
// negated as text so that -9223372036854775808 is representable.
func (env *Env) negate(n *Unary) (Value, error) {
	if lit, ok := n.X.(*IntLit); ok && !strings.HasPrefix(lit.Text, "-") {
		return parseInt("-" + lit.Text)
	}
	x, err := env.Eval(n.X)
	if err != nil {
		return nil, err
	}
	return env.neg(x)
}

// neg negates a value: a number, or a tensor through Neg.
func (env *Env) neg(x Value) (Value, error) {
	switch x := x.(type) {
	case int64:
		if x == math.MinInt64 {
			return nil, evalErr("neg", tensor.ErrValue, "-(%d) does not fit in 64 bits", x)
		}
		return -x, nil
	case float64:
		return -x, nil
	case complex128:
		return -x, nil
	case bool:
		if x {
			return int64(-1), nil
		}
		return int64(0), nil
	}
	t, err := toTensor("neg", x)
	if err != nil {
		return nil, err
	}
	if err := env.reserveBinary("neg", t, int64(-1)); err != nil {
		return nil, err
	}
	return env.tape().Neg(t)
}

func (env *Env) binary(n *Binary) (Value, error) {
	x, err := env.Eval(n.X)
	if err != nil {
		return nil, err
	}
	y, err := env.Eval(n.Y)
	if err != nil {
		return nil, err
	}
	if n.Op != "@" && isNumber(x) && isNumber(y) {
		return numberArith(n.Op, x, y)
	}
	switch n.Op {
	case "@":
		return env.matmul(x, y)
	case "+":
		return env.add(x, y)
	case "-":
		return env.sub(x, y)
	}
	return env.mul(x, y)
}

// mul multiplies two values: tensors, or numbers as weak scalars.
func (env *Env) mul(x, y Value) (Value, error) {
	a, b, err := env.binaryOperands("mul", x, y)
	if err != nil {
		return nil, err
	}
	return env.tape().Mul(a, b)
}

// add adds two values as mul multiplies them.
func (env *Env) add(x, y Value) (Value, error) {
	a, b, err := env.binaryOperands("add", x, y)
	if err != nil {
		return nil, err
	}
	return env.tape().Add(a, b)
}

// sub subtracts two values as add adds them.
func (env *Env) sub(x, y Value) (Value, error) {
	a, b, err := env.binaryOperands("sub", x, y)
	if err != nil {
		return nil, err
	}
	return env.tape().Sub(a, b)
}

// binaryOperands converts the values of an element-wise operation op and
// reserves its result.
func (env *Env) binaryOperands(op string, x, y Value) (a, b any, err error) {
	if a, err = operand(op, x); err != nil {
		return nil, nil, err
	}
	if b, err = operand(op, y); err != nil {
		return nil, nil, err
	}
	if err := env.reserveBinary(op, a, b); err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

func (env *Env) matmul(x, y Value) (Value, error) {
	a, b, err := tensorPair("matmul", []Value{x, y})
	if err != nil {
		return nil, err
	}
	if err := env.reserveMatmul(a, b); err != nil {
		return nil, err
	}
	return env.tape().Matmul(a, b, env.Matmul...)
}

// operand converts a value for tensor.Mul: tensors and Go numbers pass as
// they are (numbers are weak scalars); lists become tensors.
func operand(op string, v Value) (any, error) {
	switch v := v.(type) {
	case *tensor.Tensor, int64, float64, complex128, bool:
		return v, nil
	case List:
		return listTensor(v, dtype.Invalid, op)
	}
	return nil, evalErr(op, tensor.ErrValue, "expected a tensor or a number, got %s", typeName(v))
}

// toTensor converts a value that must be a tensor: lists become tensors
// of the default dtypes and numbers 0-d tensors (not weak: an operation
// that takes only tensors, like matmul, sees their default dtype).
func toTensor(op string, v Value) (*tensor.Tensor, error) {
	switch v := v.(type) {
	case *tensor.Tensor:
		return v, nil
	case List:
		return listTensor(v, dtype.Invalid, op)
	case int64, float64, complex128, bool:
		return listTensor(v, dtype.Invalid, op)
	}
	return nil, evalErr(op, tensor.ErrValue, "expected a tensor, got %s", typeName(v))
}

// attribute evaluates x.name for the names in attributes.
func (env *Env) attribute(x Value, name string) (Value, error) {
	t, err := toTensor(name, x)
	if err != nil {
		return nil, err
	}
	switch name {
	case "T":
		return env.tape().Transpose(t)
	case "mT":
		return env.tape().MT(t)
	case "shape":
		return shapeTuple(t.Shape()), nil
	case "ndim":
		return int64(t.NDim()), nil
	case "size":
		return int64(t.Size()), nil
	case "dtype":
		return t.DType().String(), nil
	}
	return nil, evalErr(name, tensor.ErrValue, "unknown attribute '%s'", name)
}

func shapeTuple(s []int) Tuple {
	out := make(Tuple, len(s))
	for i, d := range s {
		out[i] = int64(d)
	}
	return out
}

// call evaluates a function or method call.
func (env *Env) call(n *Call) (Value, error) {
	c := checker{bound: env.Bound}
	if name, ok := c.gradCallee(n); ok {
		return env.gradCall(n, name)
	}
	fn, name, receiver, err := c.callee(n)
	if err != nil {
		return nil, err
	}
	slots, err := bind(name, fn, n, receiver != nil)
	if err != nil {
		return nil, err
	}
	args := make([]Value, len(slots))
	for i, s := range slots {
		args[i] = absent
		if i == 0 && receiver != nil {
			s = receiver
		}
		if s == nil {
			continue
		}
		if args[i], err = env.Eval(s); err != nil {
			return nil, err
		}
	}
	return fn.call(env, name, args)
}

// index evaluates x[items]: integers select and drop a dimension, slices
// select ranges, and ... stands for as many whole dimensions as needed.
func (env *Env) index(n *Index) (Value, error) {
	if v, ok, err := env.archiveIndex(n); ok {
		return v, err
	}
	x, err := env.Eval(n.X)
	if err != nil {
		return nil, err
	}
	if tup, ok := x.(Tuple); ok {
		return env.indexTuple(tup, n.Items)
	}
	t, err := toTensor("index", x)
	if err != nil {
		return nil, err
	}
	explicit := 0
	for _, it := range n.Items {
		if _, ok := it.(*Ellipsis); !ok && !isNone(it) {
			explicit++
		}
	}
	var ranges []tensor.Range
	var newAxes []int // where None items put a new size-1 dim, in the result
	out := 0          // the result's dims so far
	for _, it := range n.Items {
		if _, ok := it.(*Ellipsis); ok {
			for range max(t.NDim()-explicit, 0) {
				ranges = append(ranges, tensor.All())
				out++
			}
			continue
		}
		if isNone(it) {
			newAxes = append(newAxes, out)
			out++
			continue
		}
		r, err := env.rangeOf(it)
		if err != nil {
			return nil, err
		}
		ranges = append(ranges, r)
		if _, isSlice := it.(*Slice); isSlice {
			out++
		}
	}
	v, err := env.tape().Slice(t, ranges...)
	for _, axis := range newAxes { // ascending: each lands at its final place
		if err != nil {
			break
		}
		v, err = env.tape().ExpandDims(v, axis)
	}
	return v, err
}

// isNone reports whether a subscript item is None (NumPy's newaxis).
func isNone(it Node) bool {
	id, ok := it.(*Ident)
	return ok && id.Name == "None"
}

// rangeOf converts one subscript item to a tensor.Range.
// clampInt converts an index or slice bound to int, the out-of-range ones
// to the nearest int (where int has 32 bits): an index stays out of range
// and a slice bound past the end clamps, as in Python, rather than
// keeping only its low bits.
func clampInt(v int64) int {
	return int(min(max(v, math.MinInt), math.MaxInt))
}

func (env *Env) rangeOf(it Node) (tensor.Range, error) {
	s, ok := it.(*Slice)
	if !ok {
		v, err := env.Eval(it)
		if err != nil {
			return tensor.Range{}, err
		}
		i, ok := v.(int64)
		if !ok {
			return tensor.Range{}, evalErr("index", tensor.ErrIndex, "indices must be integers, slices or '...', got %s", typeName(v))
		}
		return tensor.Index(clampInt(i)), nil
	}
	var bound [3]*int
	for k, part := range []Node{s.Lo, s.Hi, s.Step} {
		if part == nil {
			continue
		}
		v, err := env.Eval(part)
		if err != nil {
			return tensor.Range{}, err
		}
		switch v := v.(type) {
		case nil:
		case int64:
			b := clampInt(v)
			bound[k] = &b
		default:
			return tensor.Range{}, evalErr("index", tensor.ErrIndex, "slice bounds must be integers or None, got %s", typeName(v))
		}
	}
	var r tensor.Range
	switch lo, hi := bound[0], bound[1]; {
	case lo != nil && hi != nil:
		r = tensor.Span(*lo, *hi)
	case lo != nil:
		r = tensor.From(*lo)
	case hi != nil:
		r = tensor.Until(*hi)
	default:
		r = tensor.All()
	}
	if bound[2] != nil {
		r = r.By(*bound[2])
	}
	return r, nil
}

package expr

import (
	"maps"
	"slices"
	"strings"

	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/autograd"
	"github.com/tensor-go/tensor/dtype"
)

// vjp and grad differentiate a lambda:
//
//	vjp(lambda a, b: EXPR, A, B, seed=S)  the gradients (a tuple, one per
//	                                      parameter) of EXPR's value with
//	                                      seed S as its cotangent
//	grad(lambda a, b: EXPR, A, B)         the same with seed 1, for a real
//	                                      EXPR of one element
//
// EXPR may be a tuple of tensors, with a tuple of seeds. Every operation
// evaluated once the first vjp or grad has started is recorded on one
// tape, so a vjp inside a lambda is differentiated by the vjp outside it
// (higher derivatives); the inner one then records its own backward.

// gradState is the tape shared by an environment and those of its lambdas.
type gradState struct {
	tape  *autograd.Tape
	depth int // lambdas being evaluated
}

// tape is the tape operations record on, or nil before any vjp or grad:
// a nil *autograd.Tape runs its operations without recording.
func (env *Env) tape() *autograd.Tape {
	if env.grad == nil {
		return nil
	}
	return env.grad.tape
}

// gradCallee reports whether n calls vjp or grad (not shadowed by a bound
// name, and with or without a module prefix such as torch.func).
func (c *checker) gradCallee(n *Call) (string, bool) {
	var name string
	switch f := n.Fn.(type) {
	case *Ident:
		if c.bound(f.Name) {
			return "", false
		}
		name = f.Name
	case *Attr:
		name = f.Name
		for x := f.X; ; {
			switch v := x.(type) {
			case *Ident:
				if !modules[v.Name] || c.bound(v.Name) {
					return "", false
				}
				return name, name == "vjp" || name == "grad"
			case *Attr:
				if v.Name != "func" && v.Name != "autograd" {
					return "", false
				}
				x = v.X
			default:
				return "", false
			}
		}
	default:
		return "", false
	}
	return name, name == "vjp" || name == "grad"
}

// gradCall checks vjp(lambda ..., args..., seed=S) and grad(lambda ..., args...).
func (c *checker) gradCall(n *Call, name string) error {
	if len(n.Args) == 0 {
		return callErrorf(n.At, "%s() needs a lambda as its first argument", name)
	}
	lam, ok := n.Args[0].(*Lambda)
	if !ok {
		return callErrorf(n.Args[0].Col(), "the first argument of %s() must be a lambda", name)
	}
	if got := len(n.Args) - 1; got != len(lam.Params) {
		return callErrorf(n.At, "%s(): the lambda takes %d arguments, got %d", name, len(lam.Params), got)
	}
	seeded := false
	for _, kw := range n.Kwargs {
		if kw.Name != "seed" || name == "grad" {
			return callErrorf(kw.At, "%s() has no parameter '%s'%s", name, kw.Name, map[bool]string{true: " (seed only)", false: " (grad seeds with 1)"}[name == "vjp"])
		}
		seeded = true
		if err := c.node(kw.Value); err != nil {
			return err
		}
	}
	if name == "vjp" && !seeded {
		return callErrorf(n.At, "vjp() is missing argument 'seed'")
	}
	if err := c.nodes(n.Args[1:]); err != nil {
		return err
	}
	inner := checker{bound: func(s string) bool { return slices.Contains(lam.Params, s) || c.bound(s) }, npz: c.npz}
	return inner.node(lam.Body)
}

// gradCall evaluates vjp or grad (checked by checker.gradCall).
func (env *Env) gradCall(n *Call, name string) (Value, error) {
	lam := n.Args[0].(*Lambda)
	args, err := env.evalAll(n.Args[1:])
	if err != nil {
		return nil, err
	}
	var seedVal Value
	for _, kw := range n.Kwargs {
		if seedVal, err = env.Eval(kw.Value); err != nil {
			return nil, err
		}
	}
	if env.grad == nil {
		env.grad = &gradState{tape: autograd.New()}
	}
	tp := env.grad.tape
	nested := env.grad.depth > 0
	child := *env
	child.Vars = maps.Clone(env.Vars)
	if child.Vars == nil {
		child.Vars = map[string]*tensor.Tensor{}
	}
	params := make([]*tensor.Tensor, len(args))
	for i, a := range args {
		t, err := toTensor(name, a)
		if err != nil {
			return nil, err
		}
		if !t.DType().IsFloat() && !t.DType().IsComplex() {
			return nil, evalErr(name, tensor.ErrDType, "argument '%s' is %s tensor: only float and complex tensors have gradients", lam.Params[i], aDType(t.DType()))
		}
		// A tensor of its own for each parameter, recorded as the
		// identity of the argument, so that two parameters given the same
		// tensor, or a tensor the body also uses by another name, get
		// their own gradients.
		if t.Layout() == tensor.Strided {
			params[i], err = tp.Reshape(t, t.Shape()...)
		} else {
			// A sparse argument is differentiated in canonical form, as
			// PyTorch coalesces the gradient of an uncoalesced operand: a
			// COO file from scipy.sparse may repeat a position, and the
			// gradient of each repeat is the dense gradient there, so its
			// dense form (-o) would add them up.
			if t, err = t.Coalesce(); err != nil {
				return nil, err
			}
			params[i], err = tp.AsType(t, t.DType())
		}
		if err != nil {
			return nil, err
		}
		child.Vars[lam.Params[i]] = params[i]
	}
	env.grad.depth++
	v, err := child.Eval(lam.Body)
	env.grad.depth--
	if err != nil {
		return nil, err
	}
	outs, seeds, err := env.outputsAndSeeds(name, v, seedVal)
	if err != nil {
		return nil, err
	}
	// AllowUnused: a parameter the result does not depend on gets zeros,
	// and so does every parameter when the result depends on none (a
	// constant, or the gradient of a linear function differentiated
	// again), as torch.autograd.functional.vjp and torch.func.vjp give.
	opts := []autograd.VJPOption{autograd.AllowUnused()}
	if nested {
		opts = append(opts, autograd.CreateGraph())
	}
	grads, err := tp.VJP(outs, seeds, params, opts...)
	if err != nil {
		return nil, err
	}
	out := make(Tuple, len(grads))
	for i, g := range grads {
		out[i] = g
	}
	return out, nil
}

// outputsAndSeeds converts the lambda's value to output tensors and the
// seed to their cotangents. As in PyTorch, a seed of another dtype of the
// same kind is converted (a float64 seed for a float32 output); a complex
// seed for a real output, or the reverse, or another shape is an error.
func (env *Env) outputsAndSeeds(name string, v, seed Value) (outs, seeds []*tensor.Tensor, err error) {
	vs, tuple := v.(Tuple)
	if !tuple {
		vs = Tuple{v}
	}
	for _, o := range vs {
		t, err := toTensor(name, o)
		if err != nil {
			return nil, nil, err
		}
		outs = append(outs, t)
	}
	if name == "grad" {
		if len(outs) != 1 || outs[0].Size() != 1 || !outs[0].DType().IsFloat() {
			return nil, nil, evalErr("grad", tensor.ErrValue, "grad needs a real floating result of one element, got %s; use vjp with a seed", describeOutputs(outs, tuple))
		}
		one, err := tensor.Ones(outs[0].DType(), outs[0].Shape()...)
		return outs, []*tensor.Tensor{one}, err
	}
	ss, seedTuple := seed.(Tuple)
	if !seedTuple {
		ss = Tuple{seed}
	}
	if seedTuple != tuple || len(ss) != len(outs) {
		return nil, nil, evalErr("vjp", tensor.ErrValue, "the lambda gives %s but seed is %s", describeOutputs(outs, tuple), typeName(seed))
	}
	for i, s := range ss {
		t, err := toTensor("vjp", s)
		if err != nil {
			return nil, nil, err
		}
		o := outs[i]
		switch {
		case !slices.Equal(t.Shape(), o.Shape()):
			return nil, nil, evalErr("vjp", tensor.ErrShape, "seed of shape %s for a result of shape %s", shapeString(t.Shape()), shapeString(o.Shape()))
		case t.DType().IsComplex() != o.DType().IsComplex():
			return nil, nil, evalErr("vjp", tensor.ErrDType, "seed of dtype %v for a result of dtype %v: complex results need complex seeds and real results real ones", t.DType(), o.DType())
		case t.DType() != o.DType() && (o.DType().IsFloat() || o.DType().IsComplex()):
			if t, err = t.AsType(o.DType()); err != nil {
				return nil, nil, err
			}
		}
		seeds = append(seeds, t)
	}
	return outs, seeds, nil
}

func describeOutputs(outs []*tensor.Tensor, tuple bool) string {
	if tuple {
		return "a tuple"
	}
	return aDType(outs[0].DType()) + " tensor of shape " + shapeString(outs[0].Shape())
}

// aDType is a dtype's name after its article: "an int32", "a float32".
func aDType(dt dtype.DType) string {
	if name := dt.String(); strings.HasPrefix(name, "i") {
		return "an " + name
	}
	return "a " + dt.String()
}

func shapeString(s []int) string { return repr(shapeTuple(s)) }

// indexTuple evaluates t[i] (negative i counts from the end) and t[i:j:k].
func (env *Env) indexTuple(t Tuple, items []Node) (Value, error) {
	if len(items) != 1 {
		return nil, evalErr("index", tensor.ErrIndex, "a tuple takes one index, got %d", len(items))
	}
	if s, ok := items[0].(*Slice); ok {
		var bound [3]*int
		for k, part := range []Node{s.Lo, s.Hi, s.Step} {
			if part == nil {
				continue
			}
			v, err := env.Eval(part)
			if err != nil {
				return nil, err
			}
			switch v := v.(type) {
			case nil:
			case int64:
				b := clampInt(v)
				bound[k] = &b
			default:
				return nil, evalErr("index", tensor.ErrIndex, "slice bounds must be integers or None, got %s", typeName(v))
			}
		}
		return sliceTuple(t, bound)
	}
	v, err := env.Eval(items[0])
	if err != nil {
		return nil, err
	}
	i, ok := v.(int64)
	if !ok {
		return nil, evalErr("index", tensor.ErrIndex, "tuple indices must be integers or slices, got %s", typeName(v))
	}
	if i < 0 {
		i += int64(len(t))
	}
	if i < 0 || i >= int64(len(t)) {
		return nil, evalErr("index", tensor.ErrIndex, "tuple index %d out of range for a tuple of %d", v, len(t))
	}
	return t[i], nil
}

// sliceTuple is Python's t[lo:hi:step].
func sliceTuple(t Tuple, b [3]*int) (Value, error) {
	n := len(t)
	step := 1
	if b[2] != nil {
		step = *b[2]
	}
	if step == 0 {
		return nil, evalErr("index", tensor.ErrIndex, "slice step cannot be zero")
	}
	clamp := func(p *int, def int) int {
		if p == nil {
			return def
		}
		v := *p
		if v < 0 {
			v += n
		}
		lo, hi := 0, n
		if step < 0 {
			lo, hi = -1, n-1
		}
		return max(lo, min(v, hi))
	}
	var out Tuple
	if step > 0 {
		for i := clamp(b[0], 0); i < clamp(b[1], n); i += step {
			out = append(out, t[i])
		}
	} else {
		for i := clamp(b[0], n-1); i > clamp(b[1], -1); i += step {
			out = append(out, t[i])
		}
	}
	if out == nil {
		out = Tuple{}
	}
	return out, nil
}

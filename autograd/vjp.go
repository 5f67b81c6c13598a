package autograd

import (
	"slices"

	"github.com/tensor-go/tensor"
)

// VJPOption configures VJP.
type VJPOption func(*vjpConfig)

type vjpConfig struct {
	createGraph bool
	allowUnused bool
}

// CreateGraph records the backward computation on the tape, so that the
// gradients VJP returns are tape results themselves and can be
// differentiated again (second and higher derivatives). A VJP with it
// records, so it must not run concurrently with anything else on the tape.
func CreateGraph() VJPOption { return func(c *vjpConfig) { c.createGraph = true } }

// AllowUnused makes VJP return zeros, instead of an ErrUnused or
// ErrNotOnTape error, for a tensor the outputs do not depend on; and lets
// an output that is not on the tape contribute nothing instead of failing.
func AllowUnused() VJPOption { return func(c *vjpConfig) { c.allowUnused = true } }

// VJP returns the vector-Jacobian product of the outputs with respect to
// each tensor in wrt: Σᵢ seedᵢᴴ·∂outputᵢ/∂w, PyTorch's convention for
// complex tensors (the gradient of a real function of complex w is the
// conjugate Wirtinger derivative times 2; mul's backward is g·conj(y)).
//
// seeds[i] is the cotangent of outputs[i]: its shape and dtype (a dense or
// sparse seed for a sparse output). Each result is a new tensor of its w's
// shape, dtype and layout: contiguous for a strided w, sparse with w's own
// pattern for a sparse one (the dense gradient at w's stored entries).
// float16 and bfloat16 gradients are computed in float32 and rounded once.
//
// Errors, matched with errors.Is: tensor.ErrDType for an integer or bool
// w or output, or a seed of another dtype; tensor.ErrShape for a seed of
// another shape; tensor.ErrReleased when a tensor the backward reads was
// released; ErrOverwritten when an into-form wrote into one after it was
// recorded; ErrNotOnTape and ErrUnused for tensors the outputs do not
// depend on (see AllowUnused); tensor.ErrValue for nil tensors or
// mismatched counts.
func (tp *Tape) VJP(outputs, seeds, wrt []*tensor.Tensor, opts ...VJPOption) ([]*tensor.Tensor, error) {
	if tp == nil {
		return nil, gradErr("vjp", tensor.ErrValue, "nil *Tape: nothing was recorded")
	}
	var cfg vjpConfig
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if len(outputs) != len(seeds) {
		return nil, gradErr("vjp", tensor.ErrValue, "%d outputs but %d seeds", len(outputs), len(seeds))
	}
	if err := tp.checkWRT(wrt, cfg); err != nil {
		return nil, err
	}
	r := &backward{tp: tp, cfg: cfg, grads: map[*tensor.Tensor]*tensor.Tensor{}, need: map[*tensor.Tensor]bool{}}
	r.b = builder{isNew: map[*tensor.Tensor]bool{}}
	if cfg.createGraph {
		r.b.tp = tp
	}
	for i, out := range outputs {
		if err := r.seed(i, out, seeds[i], wrt); err != nil {
			return nil, err
		}
	}
	for _, w := range wrt {
		r.need[w] = true
	}
	nodes := tp.nodes[:len(tp.nodes):len(tp.nodes)] // CreateGraph appends
	for _, n := range nodes {
		for _, in := range n.inputs {
			if in != nil && r.need[in] {
				r.need[n.out] = true
				break
			}
		}
	}
	for i := len(nodes) - 1; i >= 0; i-- {
		if err := r.run(nodes[i]); err != nil {
			return nil, err
		}
	}
	return r.results(wrt)
}

// Grad is VJP of one output with a seed of 1: the gradient of a real
// function with one element (a 0-d tensor, or a tensor of shape (1, …)).
// Other outputs are an ErrValue or, when complex, an ErrDType error.
func (tp *Tape) Grad(output *tensor.Tensor, wrt []*tensor.Tensor, opts ...VJPOption) ([]*tensor.Tensor, error) {
	if output == nil {
		return nil, gradErr("grad", tensor.ErrValue, "nil output")
	}
	if !output.DType().IsFloat() {
		return nil, gradErr("grad", tensor.ErrDType, "grad needs a real floating output, got %v; use VJP with a seed", output.DType())
	}
	if output.Size() != 1 {
		return nil, gradErr("grad", tensor.ErrValue, "grad needs an output of one element, got shape %v; use VJP with a seed", output.Shape())
	}
	seed, err := tensor.Ones(output.DType(), output.Shape()...)
	if err != nil {
		return nil, err
	}
	return tp.VJP([]*tensor.Tensor{output}, []*tensor.Tensor{seed}, wrt, opts...)
}

func (tp *Tape) checkWRT(wrt []*tensor.Tensor, cfg vjpConfig) error {
	for i, w := range wrt {
		switch {
		case w == nil:
			return gradErr("vjp", tensor.ErrValue, "tensor %d to differentiate with respect to is nil", i)
		case w.Released():
			return gradErr("vjp", tensor.ErrReleased, "tensor %d to differentiate with respect to (shape %v) was released", i, w.Shape())
		case !differentiable(w.DType()):
			return gradErr("vjp", tensor.ErrDType, "cannot differentiate with respect to %s tensor (%d, shape %v): only float and complex tensors have gradients",
				aDType(w.DType()), i, w.Shape())
		}
		if _, ok := tp.known[w]; !ok && !cfg.allowUnused {
			return gradErr("vjp", ErrNotOnTape, "tensor %d (shape %v) to differentiate with respect to is not on the tape", i, w.Shape())
		}
	}
	return nil
}

// backward is the state of one VJP.
type backward struct {
	tp    *Tape
	cfg   vjpConfig
	b     builder
	grads map[*tensor.Tensor]*tensor.Tensor
	need  map[*tensor.Tensor]bool
}

func (r *backward) seed(i int, out, seed *tensor.Tensor, wrt []*tensor.Tensor) error {
	switch {
	case out == nil || seed == nil:
		return gradErr("vjp", tensor.ErrValue, "output %d or its seed is nil", i)
	case out.Released() || seed.Released():
		return gradErr("vjp", tensor.ErrReleased, "output %d or its seed was released", i)
	case !differentiable(out.DType()):
		return gradErr("vjp", tensor.ErrDType, "output %d is %s tensor, which has no gradient", i, aDType(out.DType()))
	case !slices.Equal(out.Shape(), seed.Shape()):
		return gradErr("vjp", tensor.ErrShape, "seed %d has shape %v, output %d has shape %v", i, seed.Shape(), i, out.Shape())
	case seed.DType().IsComplex() && !out.DType().IsComplex():
		return gradErr("vjp", tensor.ErrDType, "seed %d is %v but output %d is real (%v): a real output needs a real seed", i, seed.DType(), i, out.DType())
	case seed.DType() != out.DType():
		return gradErr("vjp", tensor.ErrDType, "seed %d is %v but output %d is %v", i, seed.DType(), i, out.DType())
	}
	_, known := r.tp.known[out]
	if !known && !slices.Contains(wrt, out) {
		if r.cfg.allowUnused {
			return nil
		}
		return gradErr("vjp", ErrNotOnTape, "output %d (shape %v) is not on the tape", i, out.Shape())
	}
	return r.accumulate(out, seed)
}

// accumulate adds a contribution to t's gradient, in t's gradient dtype
// and, for strided t, dense. A sparse t's gradient is kept dense and
// sampled at its pattern when used.
func (r *backward) accumulate(t, c *tensor.Tensor) error {
	var err error
	if c.Layout() != tensor.Strided {
		if c, err = r.b.toDense(c); err != nil {
			return err
		}
	}
	if !slices.Equal(c.Shape(), t.Shape()) {
		return gradErr("vjp", tensor.ErrShape, "internal: a gradient of shape %v for a tensor of shape %v", c.Shape(), t.Shape())
	}
	if want := gradDType(t.DType()); c.DType() != want {
		if c, err = r.b.asType(c, want); err != nil { // complex → real keeps the real part
			return err
		}
	}
	if old := r.grads[t]; old != nil {
		if c, err = r.b.add(old, c); err != nil {
			return err
		}
	}
	r.grads[t] = c
	return nil
}

// run propagates the cotangent of n's output to n's inputs.
func (r *backward) run(n *node) error {
	g := r.grads[n.out]
	if g == nil || !r.need[n.out] {
		return nil
	}
	need := make([]bool, len(n.inputs))
	any := false
	for i, in := range n.inputs {
		need[i] = in != nil && r.need[in] && differentiable(in.DType())
		any = any || need[i]
	}
	if !any {
		return nil
	}
	for i, s := range n.saved {
		switch {
		case s.Released():
			return gradErr("vjp", tensor.ErrReleased, "the %v tensor of shape %v that %s recorded was released", s.DType(), s.Shape(), n.op)
		case s.Version() != n.versions[i]:
			return gradErr("vjp", ErrOverwritten, "the %v tensor of shape %v that %s recorded was overwritten by an into-form since", s.DType(), s.Shape(), n.op)
		}
	}
	g, err := r.prepare(n.out, g)
	if err != nil {
		return err
	}
	contrib, err := n.backward(r.b, g, need)
	if err != nil {
		return err
	}
	for i, c := range contrib {
		if c != nil && need[i] {
			if err := r.accumulate(n.inputs[i], c); err != nil {
				return err
			}
		}
	}
	return nil
}

// prepare turns t's accumulated gradient into the form its users see:
// sparse with t's pattern when t is sparse.
func (r *backward) prepare(t, g *tensor.Tensor) (*tensor.Tensor, error) {
	if t.Layout() == tensor.Strided {
		return g, nil
	}
	return r.b.sample(g, t)
}

// results finishes the gradient of each w: its dtype, its layout, and a
// tensor of its own.
func (r *backward) results(wrt []*tensor.Tensor) ([]*tensor.Tensor, error) {
	out := make([]*tensor.Tensor, len(wrt))
	given := map[*tensor.Tensor]bool{}
	for i, w := range wrt {
		g := r.grads[w]
		var err error
		if g == nil {
			if !r.cfg.allowUnused {
				return nil, gradErr("vjp", ErrUnused, "the outputs do not depend on tensor %d (shape %v); AllowUnused gives zeros", i, w.Shape())
			}
			if g, err = tensor.Zeros(gradDType(w.DType()), w.Shape()...); err != nil {
				return nil, err
			}
			r.b.fresh(g)
		}
		if g.DType() != w.DType() {
			if g, err = r.b.asType(g, w.DType()); err != nil {
				return nil, err
			}
		}
		if w.Layout() != tensor.Strided {
			if g, err = r.b.sample(g, w); err != nil {
				return nil, err
			}
		} else if !r.b.isNew[g] || given[g] || !g.IsContiguous() {
			if g, err = r.b.clone(g); err != nil {
				return nil, err
			}
		}
		given[g] = true
		out[i] = g
	}
	return out, nil
}

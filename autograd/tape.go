package autograd

import (
	"github.com/tensor-go/tensor"
)

// Tape records the operations run through it, so that VJP can run them
// backwards. The zero Tape is not usable; call New.
//
// A Tape is like a Go map: one goroutine at a time may record on it (call
// its operations, or VJP with CreateGraph, which records the backward).
// Once no goroutine records any more, any number of goroutines may call VJP
// without CreateGraph on it at once.
//
// The operations of a nil *Tape run without recording anything, exactly as
// the library's own functions, so that code can be written once for both.
type Tape struct {
	nodes []*node
	// producer maps each recorded result to the operation that made it.
	producer map[*tensor.Tensor]*node
	// known holds every tensor an operation took or gave.
	known map[*tensor.Tensor]struct{}
}

// New returns an empty tape.
func New() *Tape {
	return &Tape{producer: map[*tensor.Tensor]*node{}, known: map[*tensor.Tensor]struct{}{}}
}

// DependsOn reports whether out is one of wrt or was computed, through
// operations recorded on tp, from one of them: whether a VJP of out with
// respect to wrt can be anything but zeros.
func (tp *Tape) DependsOn(out *tensor.Tensor, wrt []*tensor.Tensor) bool {
	if tp == nil || out == nil {
		return false
	}
	reached := map[*tensor.Tensor]bool{}
	for _, w := range wrt {
		reached[w] = true
	}
	for _, n := range tp.nodes {
		if reached[out] {
			break
		}
		for _, in := range n.inputs {
			if in != nil && reached[in] && differentiable(in.DType()) {
				reached[n.out] = true
				break
			}
		}
	}
	return reached[out]
}

// Len returns the number of operations recorded.
func (tp *Tape) Len() int { return len(tp.nodes) }

// node is one recorded operation: out = op(inputs...).
type node struct {
	op     string
	out    *tensor.Tensor
	inputs []*tensor.Tensor // tensor operands in order; nil for Go numbers
	// saved are the tensors whose values the backward reads, each with the
	// storage version it had when recorded.
	saved    []*tensor.Tensor
	versions []uint64
	backward backwardFn
}

// backwardFn returns the contribution of the output's cotangent g to each
// input that need marks (nil elsewhere, or where there is none). It computes
// through b, so that with CreateGraph its products are recorded too.
type backwardFn func(b builder, g *tensor.Tensor, need []bool) ([]*tensor.Tensor, error)

// builder runs operations, recording them on tp when tp is not nil. The
// forward methods of Tape use it with the tape; VJP with the tape only
// under CreateGraph. isNew, during a VJP, collects results that are new
// contiguous tensors no one else holds, which may be returned as they are.
type builder struct {
	tp    *Tape
	isNew map[*tensor.Tensor]bool
}

// record notes out = op(inputs...) on the tape, if recording. An operation
// that handed back one of its operands (Contiguous of a contiguous tensor)
// records nothing: the gradient passes through unchanged.
func (b builder) record(op string, out *tensor.Tensor, inputs []any, saved []*tensor.Tensor, bw backwardFn) *tensor.Tensor {
	if out == nil {
		return nil
	}
	ts := make([]*tensor.Tensor, len(inputs))
	for i, in := range inputs {
		if t, ok := in.(*tensor.Tensor); ok && t != nil {
			if t == out {
				return out
			}
			ts[i] = t
		}
	}
	if b.tp == nil {
		return out
	}
	n := &node{op: op, out: out, inputs: ts, saved: saved, backward: bw}
	n.versions = make([]uint64, len(saved))
	for i, s := range saved {
		n.versions[i] = s.Version()
	}
	for _, t := range n.inputs {
		if t != nil {
			b.tp.known[t] = struct{}{}
		}
	}
	b.tp.known[out] = struct{}{}
	b.tp.producer[out] = n
	b.tp.nodes = append(b.tp.nodes, n)
	return out
}

// fresh notes, during a VJP, that t is a new tensor of its own (the
// result of an operation that allocates), and returns it.
func (b builder) fresh(t *tensor.Tensor) *tensor.Tensor {
	if b.isNew != nil && t != nil {
		b.isNew[t] = true
	}
	return t
}

// differentiable reports whether gradients flow into a tensor of dt.
func differentiable(dt tensor.DType) bool { return dt.IsFloat() || dt.IsComplex() }

// gradDType is the dtype gradients with respect to a tensor of dt are
// computed and summed in: float32 for float16 and bfloat16 (rounded once,
// at the end), dt itself otherwise.
func gradDType(dt tensor.DType) tensor.DType {
	if dt == tensor.Float16 || dt == tensor.BFloat16 {
		return tensor.Float32
	}
	return dt
}

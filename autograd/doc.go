// Package autograd computes gradients of the tensor library's operations
// in reverse mode, eagerly (define-by-run): a Tape records each operation
// as it runs, and VJP runs the records backwards from the outputs to the
// tensors asked for.
//
//	tp := autograd.New()
//	y, err := tp.Mul(x, w)            // recorded
//	z, err := tp.Prod(y, tensor.Axis(0))
//	g, err := tp.VJP([]*tensor.Tensor{z}, []*tensor.Tensor{seed}, []*tensor.Tensor{x, w})
//
// Every tensor an operation of the tape takes or gives is on the tape, and
// any of them can be differentiated with respect to; Go numbers and tensors
// the tape never saw are constants. There is no global state: tapes are
// independent values.
//
// The rules are PyTorch's, complex convention included (see VJP), with the
// exact exclusive-product gradient of Prod. Gradients of gradients come
// from CreateGraph. docs/gradients.md lists the rules and the decisions
// taken where the library's contract is silent.
//
// Errors, never panics: see VJP for the classes, matched with errors.Is.
//
// A Tape is used like a Go map: one goroutine records; once recording is
// over, VJPs without CreateGraph may run on it from any number of
// goroutines at once.
package autograd

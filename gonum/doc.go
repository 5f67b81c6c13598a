// Package gonum converts between tensors and gonum's matrices and vectors
// (gonum.org/v1/gonum/mat), without copying wherever the memory layout
// allows it.
//
// It is a module of its own, so that the tensor library itself depends on
// nothing but golang.org/x/sys and github.com/x448/float16; a program that
// uses gonum adds this module beside it:
//
//	import tg "github.com/tensor-go/tensor/gonum"
//
// # Sharing and copying
//
// A *mat.Dense stores its elements row-major with a row stride of at least
// its column count, which a float64 tensor of shape (r, c) and strides
// (stride, 1) describes exactly, so [FromDense] and [ViewDense] share the
// memory: a write through either side is seen by the other, and neither
// Release nor gonum's own operations free it under the other (the Go
// garbage collector keeps the memory alive while either refers to it).
// A sub-matrix (Dense.Slice) and a transpose (m.T() of a Dense) are shared
// too: the tensor gets the sub-matrix's stride, or the transposed strides.
//
// Copies happen only where gonum cannot describe a tensor's layout: a
// tensor whose rows are not unit-stride (a transpose, a stepped column
// slice, a broadcast), or whose dtype is not float64. [ToDense] then
// copies, while [ViewDense] reports the layout as an error, for code that
// must not copy by accident. Matrices that are not dense (mat.SymDense,
// mat.TriDense, any mat.Matrix) are read element by element into a new
// tensor by [FromMatrix]; vectors likewise by [FromVector].
package gonum

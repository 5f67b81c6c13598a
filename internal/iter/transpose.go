package iter

import (
	"unsafe"

	"github.com/tensor-go/tensor/internal/kernels"
)

// Transposing kernels. A tiled walk gathers a transposed operand, whose
// elements lie contiguously down the tile's columns, into a buffer of
// rows. Element by element that is a load and a store per element, as
// much work as the operation itself; the assembly kernels instead load
// whole columns of blocks and transpose them in registers (8×8 blocks of
// 2- and 4-byte elements, 4×4 of 8-byte ones, 16 rows × 8 columns of
// bytes), a few shuffles per vector.
//
// A kernel copies a rows × cols block whose element (r, c) is at
// src + r·size + c·cs into dst + r·pitch + c·size (pitch in bytes), with
// rows and cols multiples of its block: 8 for 2- and 4-byte elements, 4 for
// 8-byte ones, 16 rows and 8 columns for bytes. Only the element size matters, so one kernel serves every dtype of
// that size, and a copy never changes a bit.
type transposeKernel func(dst, src unsafe.Pointer, cs, pitch, rows, cols int)

// transposeKernels are one set's transposing kernels; a nil kernel means
// that the set gathers that size element by element.
type transposeKernels struct {
	t1, t2, t4, t8 transposeKernel
}

var (
	transposeImpl  transposeKernels
	transposeTable = kernels.NewTable(&transposeImpl, transposeKernels{})
)

// gatherColumns is gather for a source whose rows are adjacent elements
// (rs == size): the whole blocks go to the active set's transposing kernel,
// the edges element by element. It reports false, doing nothing, when the
// set has no kernel for the size.
func gatherColumns(dst, src unsafe.Pointer, cs, rows, cols, pitch, size int) bool {
	k, rb, cb := transposeKernelOf(size)
	if k == nil {
		return false
	}
	r, c := rows/rb*rb, cols/cb*cb
	if r > 0 && c > 0 {
		k(dst, src, cs, pitch*size, r, c)
	}
	if c < cols {
		gatherElems(unsafe.Add(dst, c*size), unsafe.Add(src, c*cs), size, cs, rows, cols-c, pitch, size)
	}
	if r < rows && c > 0 {
		gatherElems(unsafe.Add(dst, r*pitch*size), unsafe.Add(src, r*size), size, cs, rows-r, c, pitch, size)
	}
	return true
}

// transposeKernelOf returns the active set's transposing kernel for
// elements of size bytes and its block's rows and columns, or nil.
func transposeKernelOf(size int) (k transposeKernel, rows, cols int) {
	switch size {
	case 1:
		return transposeImpl.t1, 16, 8
	case 2:
		return transposeImpl.t2, 8, 8
	case 4:
		return transposeImpl.t4, 8, 8
	case 8:
		return transposeImpl.t8, 4, 4
	}
	return nil, 0, 0
}

package ewise

import (
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/vec"
)

// RowsIntoKernel reduces rows (1 to RowsIntoMax of them) of x straight
// into n contiguous results of the result dtype, one per column:
//
//	for i := range n { a := start; for r := range rows { a = a op x[r][i] }; out[i] = round(a) }
//
// the rows rowStride bytes apart (rowStride > 0) and each contiguous, the
// accumulator of the Accumulator dtype. It gives what filling a row of
// accumulators, folding the rows into it with the RowsKernel and
// converting it into out give, bit for bit, in one pass and no row of
// accumulators: a reduction over a short middle axis.
type RowsIntoKernel func(out, x unsafe.Pointer, n, rows, rowStride int)

// RowsIntoMax is the most rows a RowsIntoKernel takes (vec.RowsIntoMax).
const RowsIntoMax = vec.RowsIntoMax

// RowsInto returns the RowsIntoKernel for input dtype dt, or nil when dt
// has none (or UseVec is off).
func (r *Reduction) RowsInto(dt dtype.DType) RowsIntoKernel {
	if !UseVec || !dt.Valid() || r.rowsInto == nil {
		return nil
	}
	return r.rowsInto[dt]
}

// withRowsInto fills r's table of rows-into kernels from table.
func (r *Reduction) withRowsInto(table func(dtype.DType) RowsIntoKernel) *Reduction {
	r.rowsInto = new([numDTypes]RowsIntoKernel)
	for _, dt := range dtype.All {
		r.rowsInto[dt] = table(dt)
	}
	return r
}

// prodRowsInto and sumRowsInto are Prod's and Sum's tables.
func prodRowsInto(dt dtype.DType) RowsIntoKernel {
	switch dt {
	case dtype.Float32:
		return rowsIntoKernel(vec.ProdRowsIntoF32)
	case dtype.Float64:
		return rowsIntoKernel(vec.ProdRowsIntoF64)
	}
	return nil
}

func sumRowsInto(dt dtype.DType) RowsIntoKernel {
	switch dt {
	case dtype.Float32:
		return rowsIntoKernel(vec.SumRowsIntoF32)
	case dtype.Float64:
		return rowsIntoKernel(vec.SumRowsIntoF64)
	}
	return nil
}

// rowsIntoKernel adapts a vec rows-into kernel to raw pointers and a byte
// stride.
func rowsIntoKernel[T any](f func(out, x []T, rows, stride int)) RowsIntoKernel {
	return func(out, x unsafe.Pointer, n, rows, rowStride int) {
		stride := rowStride / int(unsafe.Sizeof(*new(T)))
		f(run[T](out, n), run[T](x, (rows-1)*stride+n), rows, stride)
	}
}

package vec

import "github.com/tensor-go/tensor/internal/kernels"

// Rows-into kernels: a reduction over a short middle axis (a sum over axis
// 1 of 1000×3×1000) as one pass that reads the few rows and writes the
// result, the accumulator carried in a register from its starting value
// to its rounding:
//
//	for i := range out { a := start; for r := range rows { a = a op x[r*stride+i] }; out[i] = round(a) }
//
// start is the reduction's starting value (1 for products, -0 for sums)
// and round the conversion to out's type. start op x[i] is x[i] exactly
// (a NaN stays a NaN; payloads are not part of the contract), so the
// kernels start from the first row. Each element sees the same operations
// in the same order as filling a row of accumulators with start, folding
// the rows into it one after another and converting it, so the bits are
// those; it saves the row of
// accumulators, which was filled, read and written once per row and
// converted (four fifths of that sum's time). The kernels take any number
// of rows, but read them all for every vector of out: the schedule gives
// them a few (RowsIntoMax).
type rowsIntoKernels struct {
	sumF32, prodF32 func(out, x []float32, rows, stride int) // float64 accumulators
	sumF64, prodF64 func(out, x []float64, rows, stride int)
}

// RowsIntoMax is the most rows the reduction schedule hands a rows-into
// kernel: every row is a stream read at once, and hardware prefetchers
// follow a dozen or so; longer axes go a row of accumulators at a time.
const RowsIntoMax = 8

var (
	rowsIntoImpl  rowsIntoKernels
	rowsIntoTable = kernels.NewTable(&rowsIntoImpl, rowsIntoKernels{
		sumF32: sumRowsInto[float32], prodF32: prodRowsInto[float32],
		sumF64: sumRowsInto[float64], prodF64: prodRowsInto[float64],
	})
)

// SumRowsIntoF32 sums the rows of x (rows ≥ 1 of them, stride elements
// apart) into out in float64, from -0, and rounds each sum to float32:
//
//	for i := range out { a := -0.0; for r := range rows { a += float64(x[r*stride+i]) }; out[i] = float32(a) }
func SumRowsIntoF32(out, x []float32, rows, stride int) {
	rowsInto(out, x, rows, stride, rowsIntoImpl.sumF32)
}

// ProdRowsIntoF32 is SumRowsIntoF32 for the product, from 1.
func ProdRowsIntoF32(out, x []float32, rows, stride int) {
	rowsInto(out, x, rows, stride, rowsIntoImpl.prodF32)
}

// SumRowsIntoF64 is SumRowsIntoF32 for float64 rows.
func SumRowsIntoF64(out, x []float64, rows, stride int) {
	rowsInto(out, x, rows, stride, rowsIntoImpl.sumF64)
}

// ProdRowsIntoF64 is ProdRowsIntoF32 for float64 rows.
func ProdRowsIntoF64(out, x []float64, rows, stride int) {
	rowsInto(out, x, rows, stride, rowsIntoImpl.prodF64)
}

// rowsInto checks that every row is in range, once, and runs kernel.
func rowsInto[T float32 | float64](out, x []T, rows, stride int, kernel func(out, x []T, rows, stride int)) {
	n := len(out)
	if n == 0 {
		return
	}
	if rows < 1 || rows > 1 && stride < n {
		panic("vec: rows-into needs a row and rows that do not overlap")
	}
	kernel(out, x[:(rows-1)*stride+n], rows, stride)
}

// rowsIntoBlock is the accumulators the Go twins carry at a time, on the
// stack: the twins fold a row into them at a time, as the compiler keeps
// such a loop tight.
const rowsIntoBlock = 256

// sumRowsInto is the Go twin of the sum kernels.
func sumRowsInto[T float32 | float64](out, x []T, rows, stride int) {
	foldRowsInto(out, x, rows, stride, false)
}

// prodRowsInto is the Go twin of the product kernels.
func prodRowsInto[T float32 | float64](out, x []T, rows, stride int) {
	foldRowsInto(out, x, rows, stride, true)
}

// foldRowsInto folds each row into the accumulators by sums or by
// products, rowsIntoBlock columns at a time; the choice is made once a
// row, outside the loop over its elements.
func foldRowsInto[T float32 | float64](out, x []T, rows, stride int, product bool) {
	var acc [rowsIntoBlock]float64
	for lo := 0; lo < len(out); lo += rowsIntoBlock {
		o := out[lo:min(lo+rowsIntoBlock, len(out))]
		a := acc[:len(o)]
		x0 := x[lo : lo+len(o)]
		for i := range a {
			a[i] = float64(x0[i])
		}
		for r := 1; r < rows; r++ {
			xr := x[r*stride+lo : r*stride+lo+len(o)]
			if product {
				for i := range a {
					a[i] *= float64(xr[i])
				}
			} else {
				for i := range a {
					a[i] += float64(xr[i])
				}
			}
		}
		for i := range o {
			o[i] = T(a[i])
		}
	}
}

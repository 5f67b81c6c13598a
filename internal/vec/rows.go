package vec

// rowKernels multiplies four rows into a row of accumulators at once, so
// that a reduction over an outer axis loads and stores each accumulator
// once per four rows rather than once per row. x holds the four rows, one
// every stride elements, each at least len(acc) long.
type rowKernels struct {
	f32 func(acc, x []float32, stride int)
	f64 func(acc, x []float64, stride int)
}

// MulRowsF32 multiplies rows of x into acc, one row after another, rows
// being stride elements apart:
//
//	for r := range rows { for i := range acc { acc[i] *= x[r*stride+i] } }
//
// Each accumulator sees the rows in order, so the result is the same bit
// for bit as multiplying row by row with MulF32.
func MulRowsF32(acc, x []float32, rows, stride int) {
	mulRows(acc, x, rows, stride, rowImpl.f32, MulF32)
}

// MulRowsF64 multiplies rows of x into acc, one row after another, rows
// being stride elements apart:
//
//	for r := range rows { for i := range acc { acc[i] *= x[r*stride+i] } }
func MulRowsF64(acc, x []float64, rows, stride int) {
	mulRows(acc, x, rows, stride, rowImpl.f64, MulF64)
}

// mulRows runs four4 on the rows four at a time and one on the rest.
func mulRows[T number](acc, x []T, rows, stride int, four func(acc, x []T, stride int), one func(dst, a, b []T)) {
	n := len(acc)
	if n == 0 || rows <= 0 {
		return
	}
	_ = x[(rows-1)*stride+n-1] // every row is in range, once for all
	r := 0
	for ; r+4 <= rows; r += 4 {
		four(acc, x[r*stride:(r+3)*stride+n], stride)
	}
	for ; r < rows; r++ {
		one(acc, acc, x[r*stride:r*stride+n])
	}
}

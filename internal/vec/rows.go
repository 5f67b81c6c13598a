package vec

// rowKernels combines four rows into a row of accumulators at once, so that
// a reduction over an outer axis loads and stores each accumulator once per
// four rows rather than once per row. x holds the four rows, one every
// stride elements, each at least len(acc) long. One set per operation:
// mulRowImpl for products, addRowImpl for sums.
type rowKernels struct {
	f32    func(acc, x []float32, stride int)
	f64    func(acc, x []float64, stride int)
	f32f64 func(acc []float64, x []float32, stride int) // float32 rows, float64 accumulators
	// f32f64Up is f32f64 taking the four rows from the last up (products
	// only: MulRowsUpF32F64).
	f32f64Up func(acc []float64, x []float32, stride int)
}

// MulRowsF32 multiplies rows of x into acc, one row after another, rows
// being stride elements apart:
//
//	for r := range rows { for i := range acc { acc[i] *= x[r*stride+i] } }
//
// Each accumulator sees the rows in order, so the result is the same bit
// for bit as multiplying row by row with MulF32.
func MulRowsF32(acc, x []float32, rows, stride int) {
	combineRows(acc, x, rows, stride, mulRowImpl.f32, MulF32)
}

// MulRowsF64 multiplies rows of x into acc, one row after another, rows
// being stride elements apart:
//
//	for r := range rows { for i := range acc { acc[i] *= x[r*stride+i] } }
func MulRowsF64(acc, x []float64, rows, stride int) {
	if len(acc) <= narrowRows {
		mulRowsNarrow(acc, x, rows, stride)
		return
	}
	combineRows(acc, x, rows, stride, mulRowImpl.f64, MulF64)
}

// MulRowsF32F64 multiplies float32 rows of x into float64 accumulators:
//
//	for r := range rows { for i := range acc { acc[i] *= float64(x[r*stride+i]) } }
func MulRowsF32F64(acc []float64, x []float32, rows, stride int) {
	if len(acc) <= narrowRows {
		mulRowsNarrow(acc, x, rows, stride)
		return
	}
	combineRows(acc, x, rows, stride, mulRowImpl.f32f64, MulF64F32)
}

// MulRowsUpF32F64 multiplies float32 rows of x into float64 accumulators
// from the last row up, as a suffix product runs:
//
//	for r := rows - 1; r >= 0; r-- { for i := range acc { acc[i] *= float64(x[r*stride+i]) } }
//
// four rows a kernel call, so the result is the same bit for bit as
// multiplying row by row with MulF64F32 in that order.
func MulRowsUpF32F64(acc []float64, x []float32, rows, stride int) {
	n := len(acc)
	if n == 0 || rows <= 0 {
		return
	}
	_ = x[(rows-1)*stride+n-1] // every row is in range, once for all
	r := rows
	for ; r >= 4; r -= 4 {
		mulRowImpl.f32f64Up(acc, x[(r-4)*stride:(r-1)*stride+n], stride)
	}
	for ; r > 0; r-- {
		MulF64F32(acc, acc, x[(r-1)*stride:(r-1)*stride+n])
	}
}

// AddRowsF64 adds rows of x into acc, one row after another:
//
//	for r := range rows { for i := range acc { acc[i] += x[r*stride+i] } }
func AddRowsF64(acc, x []float64, rows, stride int) {
	if len(acc) <= narrowRows {
		addRowsNarrow(acc, x, rows, stride)
		return
	}
	combineRows(acc, x, rows, stride, addRowImpl.f64, AddF64)
}

// AddRowsF32F64 adds float32 rows of x into float64 accumulators:
//
//	for r := range rows { for i := range acc { acc[i] += float64(x[r*stride+i]) } }
func AddRowsF32F64(acc []float64, x []float32, rows, stride int) {
	if len(acc) <= narrowRows {
		addRowsNarrow(acc, x, rows, stride)
		return
	}
	combineRows(acc, x, rows, stride, addRowImpl.f32f64, AddF64F32)
}

// combineRows runs four on the rows four at a time and one on the rest.
func combineRows[A, X any](acc []A, x []X, rows, stride int, four func(acc []A, x []X, stride int), one func(dst, a []A, b []X)) {
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

// narrowRows is the widest row of accumulators that mulRowsNarrow and
// addRowsNarrow carry in registers. A row of three (a product over axis 0
// of 10^6×3) in the four-row kernels made one call, one masked load and
// one store of the accumulators per four rows, a chain through memory of
// about 20 cycles; in registers each row costs one multiply's latency.
const narrowRows = 4

// mulRowsNarrow is the rows product for len(acc) <= narrowRows, the
// accumulators in locals: the same products in the same order, row after
// row, so the same bits.
func mulRowsNarrow[X float32 | float64](acc []float64, x []X, rows, stride int) {
	n := len(acc)
	if n == 0 || rows <= 0 {
		return
	}
	x = x[:(rows-1)*stride+n]
	var a [narrowRows]float64
	copy(a[:], acc)
	a0, a1, a2, a3 := a[0], a[1], a[2], a[3]
	for o := 0; o < len(x); o += stride {
		switch r := x[o:min(o+narrowRows, len(x))]; n {
		case 1:
			a0 *= float64(r[0])
		case 2:
			a0 *= float64(r[0])
			a1 *= float64(r[1])
		case 3:
			a0 *= float64(r[0])
			a1 *= float64(r[1])
			a2 *= float64(r[2])
		default:
			a0 *= float64(r[0])
			a1 *= float64(r[1])
			a2 *= float64(r[2])
			a3 *= float64(r[3])
		}
	}
	a = [narrowRows]float64{a0, a1, a2, a3}
	copy(acc, a[:n])
}

// addRowsNarrow is mulRowsNarrow for sums.
func addRowsNarrow[X float32 | float64](acc []float64, x []X, rows, stride int) {
	n := len(acc)
	if n == 0 || rows <= 0 {
		return
	}
	x = x[:(rows-1)*stride+n]
	var a [narrowRows]float64
	copy(a[:], acc)
	a0, a1, a2, a3 := a[0], a[1], a[2], a[3]
	for o := 0; o < len(x); o += stride {
		switch r := x[o:min(o+narrowRows, len(x))]; n {
		case 1:
			a0 += float64(r[0])
		case 2:
			a0 += float64(r[0])
			a1 += float64(r[1])
		case 3:
			a0 += float64(r[0])
			a1 += float64(r[1])
			a2 += float64(r[2])
		default:
			a0 += float64(r[0])
			a1 += float64(r[1])
			a2 += float64(r[2])
			a3 += float64(r[3])
		}
	}
	a = [narrowRows]float64{a0, a1, a2, a3}
	copy(acc, a[:n])
}

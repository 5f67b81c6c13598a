package sparse

import "fmt"

// Dense is a strided view of a Rows×Cols matrix: element (i, j) is
// Data[Off + i*RS + j*CS]. Strides count elements and may be zero or
// negative; a view that is written to must not address one element twice.
type Dense[T any] struct {
	Data        []T
	Off, RS, CS int
	Rows, Cols  int
}

// At returns element (i, j).
func (d Dense[T]) At(i, j int) T { return d.Data[d.Off+i*d.RS+j*d.CS] }

// transposed returns the view of dᵀ.
func (d Dense[T]) transposed() Dense[T] {
	return Dense[T]{Data: d.Data, Off: d.Off, RS: d.CS, CS: d.RS, Rows: d.Cols, Cols: d.Rows}
}

// rowsContiguous reports whether every row is a contiguous run of Data:
// CS is 1, or a row has one element.
func (d Dense[T]) rowsContiguous() bool { return d.CS == 1 || d.Cols == 1 }

// row returns row i as a contiguous slice; it requires rowsContiguous.
func (d Dense[T]) row(i int) []T {
	start := d.Off + i*d.RS
	return d.Data[start : start+d.Cols]
}

// mustFit panics unless every element of the view lies inside Data. The
// package's kernels are internal and trust their callers for shapes; this
// check turns a caller's mistake into a clear panic before any write.
func (d Dense[T]) mustFit(what string) {
	if d.Rows < 0 || d.Cols < 0 {
		panic(fmt.Sprintf("sparse: %s has negative shape %d×%d", what, d.Rows, d.Cols))
	}
	if d.Rows == 0 || d.Cols == 0 {
		return
	}
	lo, hi := d.Off, d.Off
	for _, ext := range [2]int{(d.Rows - 1) * d.RS, (d.Cols - 1) * d.CS} {
		if ext < 0 {
			lo += ext
		} else {
			hi += ext
		}
	}
	if lo < 0 || hi >= len(d.Data) {
		panic(fmt.Sprintf("sparse: %s (%d×%d, offset %d, strides %d,%d) reaches outside its %d elements",
			what, d.Rows, d.Cols, d.Off, d.RS, d.CS, len(d.Data)))
	}
}

// mustShape panics unless d is rows×cols.
func (d Dense[T]) mustShape(what string, rows, cols int) {
	if d.Rows != rows || d.Cols != cols {
		panic(fmt.Sprintf("sparse: %s is %d×%d, want %d×%d", what, d.Rows, d.Cols, rows, cols))
	}
	d.mustFit(what)
}

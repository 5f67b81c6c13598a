package sparse

import "unsafe"

// SpMMCOO with a narrow b: entry by entry into c, in storage order.

// cooDirectMax and cooDirectBytes bound the b for which SpMMCOO adds
// each entry's products straight into its row of c instead of grouping
// the entries by row first (GroupRows, a pass that scatters every entry to
// its row's place in fresh memory): 1M entries in random order over 100000
// rows, two goroutines for the grouped form, one for the direct, CPU per
// call: float32 0.15x at one column, 0.35x at two, 0.4x at three, 0.5x at
// four, 0.6x at six, 0.8x at eight, 2.7x at sixteen; float64 0.7x at
// four, 1.1-1.3x at eight (BenchmarkSpMMCOONarrow, Intel Xeon family 6
// model 207 Emerald Rapids, load 13-16): c's rows are then too wide to
// stay in the L2 while entries land on them in random order. A variable
// so that the benchmark can compare the two.
var cooDirectMax = 8

const cooDirectBytes = 32

// spmmCOODirect sets c = a·b by clearing c and adding every entry's
// products into its row, entry by entry in storage order: each element
// receives +0 and then its products in the order of a's entries, as from
// the row-grouped form (GroupRows keeps storage order within a row), so
// the bits are the same. It runs on the calling goroutine. It returns
// false, computing nothing, for a b wider than cooDirectMax columns or
// cooDirectBytes, with strided rows, or a complex T.
func spmmCOODirect[T Number](a *COO[T], b, c Dense[T]) bool {
	n := b.Cols
	var z T
	if productOf[T]() != nil || n > cooDirectMax || n*int(unsafe.Sizeof(z)) > cooDirectBytes || !b.rowsContiguous() {
		return false
	}
	zeroDense(c)
	rows := a.RowIdx
	cols, vals := a.ColIdx[:len(rows)], a.Values[:len(rows)]
	if n == 1 {
		for p, r := range rows {
			c.Data[c.Off+int(r)*c.RS] += T(vals[p] * b.Data[b.Off+int(cols[p])*b.RS])
		}
		return true
	}
	for p, r := range rows {
		v, o := vals[p], c.Off+int(r)*c.RS
		x := b.Data[b.Off+int(cols[p])*b.RS:][:n]
		for j, xj := range x {
			c.Data[o+j*c.CS] += T(v * xj)
		}
	}
	return true
}

package sparse

// SpMM for a b of one to four columns: whole chunks of rows in one loop of
// Go, the accumulators of a row in registers. At these widths a row's
// work is a few loads per entry, and a call per row (of a row kernel, or
// of gatherNarrow) cost as much again: the matrix-vector product of the
// spmm/ sweep (1M entries, 100000 rows) spent a third of its time in the
// per-row calls and spills around them: about half the CPU per call at
// one and two columns, 0.6-0.7x at three, 0.75x at four (float32 and
// float64, BenchmarkSpMMNarrow and in-process A/B, one goroutine, Intel
// Xeon family 6 model 207 Emerald Rapids, load 12-15). Each element of
// c still receives +0 and then its products one at a time in storage
// order, each rounded on its own, as gatherNarrow and the row kernels add
// them: the bits are theirs.

// narrowMax is the widest b that spmmNarrow takes.
const narrowMax = 4

// spmmNarrow computes rows [lo, hi) of c = a·b for a b of 1 to narrowMax
// columns with contiguous rows (CS 1, or one column) and real T; it
// returns false, computing nothing, for any other b or T.
func spmmNarrow[T Number](a *CSR[T], b, c Dense[T], lo, hi int) bool {
	if productOf[T]() != nil || b.Cols > narrowMax || !b.rowsContiguous() {
		return false
	}
	switch b.Cols {
	case 1:
		narrow1(a, b, c, lo, hi)
	case 2:
		narrow2(a, b, c, lo, hi)
	case 3:
		narrow3(a, b, c, lo, hi)
	case 4:
		narrow4(a, b, c, lo, hi)
	default:
		return false
	}
	return true
}

// rowEntries returns row i's columns and values, of equal lengths.
func rowEntries[T Number](a *CSR[T], i int) ([]int64, []T) {
	start, end := a.RowPtr[i], a.RowPtr[i+1]
	cols := a.ColIdx[start:end]
	return cols, a.Values[start:end][:len(cols)]
}

// narrow1 is the matrix-vector product: x[col] is b's element of row col.
func narrow1[T Number](a *CSR[T], b, c Dense[T], lo, hi int) {
	if b.RS == 1 {
		x := b.Data[b.Off : b.Off+b.Rows]
		for i := lo; i < hi; i++ {
			cols, vals := rowEntries(a, i)
			var s T
			for p, col := range cols {
				s += T(vals[p] * x[col])
			}
			c.Data[c.Off+i*c.RS] = s
		}
		return
	}
	for i := lo; i < hi; i++ {
		cols, vals := rowEntries(a, i)
		var s T
		for p, col := range cols {
			s += T(vals[p] * b.Data[b.Off+int(col)*b.RS])
		}
		c.Data[c.Off+i*c.RS] = s
	}
}

func narrow2[T Number](a *CSR[T], b, c Dense[T], lo, hi int) {
	for i := lo; i < hi; i++ {
		cols, vals := rowEntries(a, i)
		var s0, s1 T
		for p, col := range cols {
			r := b.Off + int(col)*b.RS
			x := b.Data[r : r+2 : r+2]
			v := vals[p]
			s0 += T(v * x[0])
			s1 += T(v * x[1])
		}
		o := c.Off + i*c.RS
		c.Data[o] = s0
		c.Data[o+c.CS] = s1
	}
}

func narrow3[T Number](a *CSR[T], b, c Dense[T], lo, hi int) {
	for i := lo; i < hi; i++ {
		cols, vals := rowEntries(a, i)
		var s0, s1, s2 T
		for p, col := range cols {
			r := b.Off + int(col)*b.RS
			x := b.Data[r : r+3 : r+3]
			v := vals[p]
			s0 += T(v * x[0])
			s1 += T(v * x[1])
			s2 += T(v * x[2])
		}
		o := c.Off + i*c.RS
		c.Data[o] = s0
		c.Data[o+c.CS] = s1
		c.Data[o+2*c.CS] = s2
	}
}

func narrow4[T Number](a *CSR[T], b, c Dense[T], lo, hi int) {
	for i := lo; i < hi; i++ {
		cols, vals := rowEntries(a, i)
		var s0, s1, s2, s3 T
		for p, col := range cols {
			r := b.Off + int(col)*b.RS
			x := b.Data[r : r+4 : r+4]
			v := vals[p]
			s0 += T(v * x[0])
			s1 += T(v * x[1])
			s2 += T(v * x[2])
			s3 += T(v * x[3])
		}
		o := c.Off + i*c.RS
		c.Data[o] = s0
		c.Data[o+c.CS] = s1
		c.Data[o+2*c.CS] = s2
		c.Data[o+3*c.CS] = s3
	}
}

package sparse

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"unsafe"
)

// Coalesce returns a copy of c with entries sorted by (row, column) and
// repeated positions replaced by one entry holding their sum, added in
// storage order. Sums that come out zero stay as explicit entries, as
// PyTorch keeps them.
func (c *COO[T]) Coalesce() *COO[T] {
	if c.Coalesced {
		return &COO[T]{Rows: c.Rows, Cols: c.Cols, RowIdx: slices.Clone(c.RowIdx),
			ColIdx: slices.Clone(c.ColIdx), Values: slices.Clone(c.Values), Coalesced: true}
	}
	perm := canonicalOrder(c.Rows, c.Cols, c.RowIdx, c.ColIdx)
	out := &COO[T]{Rows: c.Rows, Cols: c.Cols, Coalesced: true}
	out.RowIdx, out.ColIdx, out.Values = mergeInOrder(perm, c.RowIdx, c.ColIdx, c.Values)
	return out
}

// ToCSR returns c coalesced into CSR form (sorted, no repeated columns).
// Its row pointers take c.Rows+1 elements whatever the number of entries.
func (c *COO[T]) ToCSR() *CSR[T] {
	co := c.Coalesce()
	return &CSR[T]{Rows: c.Rows, Cols: c.Cols, RowPtr: rowPtrOf(c.Rows, co.RowIdx),
		ColIdx: co.ColIdx, Values: co.Values, Sorted: true}
}

// ToCOO returns c in coordinate form with the same entries in the same
// order; it is coalesced exactly when c is sorted.
func (c *CSR[T]) ToCOO() *COO[T] {
	rowIdx := make([]int64, len(c.ColIdx))
	for i := 0; i < c.Rows; i++ {
		fill(rowIdx[c.RowPtr[i]:c.RowPtr[i+1]], int64(i))
	}
	return &COO[T]{Rows: c.Rows, Cols: c.Cols, RowIdx: rowIdx, ColIdx: slices.Clone(c.ColIdx),
		Values: slices.Clone(c.Values), Coalesced: c.Sorted}
}

// Canonical returns a copy of c with the columns of every row sorted and
// repeated columns replaced by one entry holding their sum, added in
// storage order. Zero sums stay as explicit entries.
func (c *CSR[T]) Canonical() *CSR[T] {
	if c.Sorted {
		return &CSR[T]{Rows: c.Rows, Cols: c.Cols, RowPtr: slices.Clone(c.RowPtr),
			ColIdx: slices.Clone(c.ColIdx), Values: slices.Clone(c.Values), Sorted: true}
	}
	out := &CSR[T]{Rows: c.Rows, Cols: c.Cols, RowPtr: make([]int64, c.Rows+1), Sorted: true}
	out.ColIdx = make([]int64, 0, len(c.ColIdx))
	out.Values = make([]T, 0, len(c.Values))
	var perm []int
	for i := 0; i < c.Rows; i++ {
		lo, hi := int(c.RowPtr[i]), int(c.RowPtr[i+1])
		perm = perm[:0]
		for p := lo; p < hi; p++ {
			perm = append(perm, p)
		}
		sortByColumn(perm, c.ColIdx)
		for k, p := range perm {
			n := len(out.ColIdx)
			if k > 0 && out.ColIdx[n-1] == c.ColIdx[p] {
				out.Values[n-1] += c.Values[p]
				continue
			}
			out.ColIdx = append(out.ColIdx, c.ColIdx[p])
			out.Values = append(out.Values, c.Values[p])
		}
		out.RowPtr[i+1] = int64(len(out.ColIdx))
	}
	return out
}

// GroupRows returns c in CSR form with entries grouped by row but neither
// sorted by column nor merged: each row keeps its entries in storage
// order, so products summing over it add in the same order as a direct
// pass over c would.
func (c *COO[T]) GroupRows() *CSR[T] {
	if c.Coalesced {
		return &CSR[T]{Rows: c.Rows, Cols: c.Cols, RowPtr: rowPtrOf(c.Rows, c.RowIdx),
			ColIdx: c.ColIdx, Values: c.Values, Sorted: true}
	}
	rowPtr := rowPtrOf(c.Rows, c.RowIdx)
	next := slices.Clone(rowPtr[:c.Rows])
	colIdx := make([]int64, len(c.ColIdx))
	values := make([]T, len(c.Values))
	for p, r := range c.RowIdx {
		q := next[r]
		next[r]++
		colIdx[q], values[q] = c.ColIdx[p], c.Values[p]
	}
	return &CSR[T]{Rows: c.Rows, Cols: c.Cols, RowPtr: rowPtr, ColIdx: colIdx, Values: values}
}

// columns returns cᵀ in CSR form, row j of it holding the entries of
// column j of c in c's storage order (ascending rows, and a row's entries
// in their order), neither sorted within a row of c nor merged.
func (c *CSR[T]) columns() *CSR[T] {
	rowPtr := rowPtrOf(c.Cols, c.ColIdx)
	next := slices.Clone(rowPtr[:c.Cols])
	rowIdx := make([]int64, len(c.ColIdx))
	values := make([]T, len(c.Values))
	for i := range c.Rows {
		for p := c.RowPtr[i]; p < c.RowPtr[i+1]; p++ {
			q := next[c.ColIdx[p]]
			next[c.ColIdx[p]]++
			rowIdx[q], values[q] = int64(i), c.Values[p]
		}
	}
	return &CSR[T]{Rows: c.Cols, Cols: c.Rows, RowPtr: rowPtr, ColIdx: rowIdx, Values: values, Sorted: c.Sorted}
}

// A SizeError reports a conversion whose result would need more memory
// than its caller allows: Need bytes (saturated at math.MaxUint64), more
// than Limit.
type SizeError struct {
	Rows, Nnz int
	Need      uint64
	Limit     int
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("sparse: %d entries in %d rows need %d bytes, more than the %d allowed", e.Nnz, e.Rows, e.Need, e.Limit)
}

// Bytes returns what a sparse matrix of rows rows and nnz entries of
// elemSize bytes needs, saturating at math.MaxUint64: nnz values and nnz
// column indices, plus nnz row indices (COO) or rows+1 row pointers (CSR).
func Bytes(rows, nnz, elemSize int, csr bool) uint64 {
	perEntry, pointers := uint64(16+elemSize), uint64(0)
	if csr {
		perEntry, pointers = uint64(8+elemSize), uint64(rows)+1
	}
	hi, entries := bits.Mul64(uint64(nnz), perEntry)
	hi2, fixed := bits.Mul64(pointers, 8)
	sum, carry := bits.Add64(entries, fixed, 0)
	if hi != 0 || hi2 != 0 || carry != 0 {
		return math.MaxUint64
	}
	return sum
}

// CheckSize returns a *SizeError when a matrix of rows rows and nnz entries
// of T needs more than limit bytes (no limit when limit <= 0).
func CheckSize[T Number](rows, nnz int, csr bool, limit int) error {
	var e T
	need := Bytes(rows, nnz, int(unsafe.Sizeof(e)), csr)
	if limit > 0 && need > uint64(limit) {
		return &SizeError{Rows: rows, Nnz: nnz, Need: need, Limit: limit}
	}
	return nil
}

// nonzeros counts the elements of d that FromDense keeps, stopping once
// the count passes most (the caller refuses so many anyway). A broadcast
// dimension (stride 0) repeats one row or column, which is counted once, so
// a view that costs nothing takes no time in proportion to its size.
func nonzeros[T Number](d Dense[T], most int) int {
	if d.Rows == 0 || d.Cols == 0 {
		return 0
	}
	rows, cols, times := d.Rows, d.Cols, 1
	if d.RS == 0 {
		rows, times = 1, d.Rows
	}
	if d.CS == 0 {
		if times > math.MaxInt/d.Cols { // beyond any limit, and beyond an int
			return most + 1
		}
		cols, times = 1, times*d.Cols
	}
	var zero T
	n := 0
	for i := 0; i < rows && n <= most; i++ {
		for j := 0; j < cols; j++ {
			if d.At(i, j) != zero {
				n++
			}
		}
	}
	if n > 0 && times > most/n {
		return most + 1
	}
	return n * times
}

// mostEntries is how many entries of T fit in limit bytes (no limit when
// limit <= 0).
func mostEntries[T Number](limit int) int {
	if limit <= 0 {
		return math.MaxInt
	}
	var e T
	return limit / (8 + int(unsafe.Sizeof(e)))
}

// FromDense returns the nonzero elements of d as a sorted CSR matrix.
// Zeros (including -0) are dropped; NaN is not zero and is kept. It counts
// the nonzeros first and allocates the result once, at its exact size, and
// only when that size is within limit bytes (no limit when limit <= 0):
// otherwise it returns a *SizeError, so that a dense view that costs
// nothing (broadcast, or with a huge dimension beside a zero one) cannot
// make it allocate out of proportion.
func FromDense[T Number](d Dense[T], limit int) (*CSR[T], error) {
	d.mustFit("FromDense source")
	nnz := nonzeros(d, mostEntries[T](limit))
	if err := CheckSize[T](d.Rows, nnz, true, limit); err != nil {
		return nil, err
	}
	out := &CSR[T]{Rows: d.Rows, Cols: d.Cols, RowPtr: make([]int64, d.Rows+1), Sorted: true,
		ColIdx: make([]int64, 0, nnz), Values: make([]T, 0, nnz)}
	if nnz == 0 {
		return out, nil // every row pointer 0; no pass over empty rows
	}
	var zero T
	for i := 0; i < d.Rows; i++ {
		for j := 0; j < d.Cols; j++ {
			if v := d.At(i, j); v != zero {
				out.ColIdx = append(out.ColIdx, int64(j))
				out.Values = append(out.Values, v)
			}
		}
		out.RowPtr[i+1] = int64(len(out.ColIdx))
	}
	return out, nil
}

// FromDenseCOO returns the nonzero elements of d as a coalesced COO matrix;
// zeros are dropped and the size is bounded as by FromDense. Its memory is
// in proportion to the nonzeros alone: no row pointers are made.
func FromDenseCOO[T Number](d Dense[T], limit int) (*COO[T], error) {
	d.mustFit("FromDenseCOO source")
	nnz := nonzeros(d, mostEntries[T](limit))
	if err := CheckSize[T](d.Rows, nnz, false, limit); err != nil {
		return nil, err
	}
	out := &COO[T]{Rows: d.Rows, Cols: d.Cols, Coalesced: true,
		RowIdx: make([]int64, 0, nnz), ColIdx: make([]int64, 0, nnz), Values: make([]T, 0, nnz)}
	if nnz == 0 {
		return out, nil
	}
	var zero T
	for i := 0; i < d.Rows; i++ {
		for j := 0; j < d.Cols; j++ {
			if v := d.At(i, j); v != zero {
				out.RowIdx = append(out.RowIdx, int64(i))
				out.ColIdx = append(out.ColIdx, int64(j))
				out.Values = append(out.Values, v)
			}
		}
	}
	return out, nil
}

// ToDense writes c into dst, which must be c.Rows×c.Cols: every element is
// set, to +0 plus the sum of the entries stored at its position.
func (c *CSR[T]) ToDense(dst Dense[T]) {
	dst.mustShape("ToDense destination", c.Rows, c.Cols)
	zeroDense(dst)
	for i := 0; i < c.Rows; i++ {
		base := dst.Off + i*dst.RS
		for p := c.RowPtr[i]; p < c.RowPtr[i+1]; p++ {
			dst.Data[base+int(c.ColIdx[p])*dst.CS] += c.Values[p]
		}
	}
}

// ToDense writes c into dst, which must be c.Rows×c.Cols: every element is
// set, to +0 plus the sum of the entries stored at its position.
func (c *COO[T]) ToDense(dst Dense[T]) {
	dst.mustShape("ToDense destination", c.Rows, c.Cols)
	zeroDense(dst)
	for p, v := range c.Values {
		dst.Data[dst.Off+int(c.RowIdx[p])*dst.RS+int(c.ColIdx[p])*dst.CS] += v
	}
}

// zeroDense sets every element of d to +0.
func zeroDense[T Number](d Dense[T]) {
	if d.Rows == 0 || d.Cols == 0 {
		return // Data may be too short to slice even an empty row from
	}
	for i := 0; i < d.Rows; i++ {
		if d.CS == 1 {
			clear(d.row(i))
			continue
		}
		for j := 0; j < d.Cols; j++ {
			d.Data[d.Off+i*d.RS+j*d.CS] = 0
		}
	}
}

// canonicalOrder returns the permutation that sorts entries by (row,
// column). Entries at the same position keep their storage order, so
// duplicates are later summed in that order however the sort proceeds.
func canonicalOrder(rows, cols int, rowIdx, colIdx []int64) []int {
	nnz := len(rowIdx)
	// Counting sorts cost memory in proportion to the dimension they sort
	// by; take them only when that is in proportion to the entries.
	affordable := func(dim int) bool { return dim <= 2*nnz+1024 }
	switch {
	case affordable(rows) && affordable(cols):
		// Radix sort: stable by column, then stable by row.
		return countingSort(rows, rowIdx, countingSort(cols, colIdx, nil))
	case affordable(rows):
		start := rowPtrOf(rows, rowIdx)
		perm := countingSort(rows, rowIdx, nil)
		for i := 0; i < rows; i++ {
			sortByColumn(perm[start[i]:start[i+1]], colIdx)
		}
		return perm
	}
	perm := make([]int, nnz)
	for p := range perm {
		perm[p] = p
	}
	slices.SortFunc(perm, func(p, q int) int {
		return cmp.Or(cmp.Compare(rowIdx[p], rowIdx[q]), cmp.Compare(colIdx[p], colIdx[q]), cmp.Compare(p, q))
	})
	return perm
}

// countingSort returns the entry numbers listed by order (0, 1, … when
// order is nil) stably sorted by key[entry], a value in [0, bound).
func countingSort(bound int, key []int64, order []int) []int {
	next := rowPtrOf(bound, key) // next free slot per key
	out := make([]int, len(key))
	if order == nil {
		for p, k := range key {
			out[next[k]] = p
			next[k]++
		}
		return out
	}
	for _, p := range order {
		k := key[p]
		out[next[k]] = p
		next[k]++
	}
	return out
}

// sortByColumn sorts entry numbers by (column, entry number), cheaply
// leaving alone a run already in strictly increasing column order.
func sortByColumn(perm []int, colIdx []int64) {
	for k := 1; k < len(perm); k++ {
		if colIdx[perm[k]] <= colIdx[perm[k-1]] {
			slices.SortFunc(perm, func(p, q int) int {
				return cmp.Or(cmp.Compare(colIdx[p], colIdx[q]), cmp.Compare(p, q))
			})
			return
		}
	}
}

// mergeInOrder gathers the entries in perm order, which must be sorted by
// position, summing runs at the same position.
func mergeInOrder[T Number](perm []int, rowIdx, colIdx []int64, values []T) ([]int64, []int64, []T) {
	rs := make([]int64, 0, len(perm))
	cs := make([]int64, 0, len(perm))
	vs := make([]T, 0, len(perm))
	for _, p := range perm {
		n := len(vs)
		if n > 0 && rs[n-1] == rowIdx[p] && cs[n-1] == colIdx[p] {
			vs[n-1] += values[p]
			continue
		}
		rs, cs, vs = append(rs, rowIdx[p]), append(cs, colIdx[p]), append(vs, values[p])
	}
	return rs, cs, vs
}

// rowPtrOf returns the row pointers of entries with the given row indices
// once grouped by row: entry counts per row, prefix-summed.
func rowPtrOf(rows int, rowIdx []int64) []int64 {
	ptr := make([]int64, rows+1)
	for _, r := range rowIdx {
		ptr[r+1]++
	}
	for i := 1; i <= rows; i++ {
		ptr[i] += ptr[i-1]
	}
	return ptr
}

func fill(s []int64, v int64) {
	for k := range s {
		s[k] = v
	}
}

package sparse

import (
	"errors"
	"fmt"
)

// Number is the set of element types the package computes with. bool is not
// in it: callers map it to uint8 and apply their own OR/AND semantics.
type Number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 |
		~float32 | ~float64 | ~complex64 | ~complex128
}

// ErrInvalid is wrapped by every error that rejects malformed index data or
// dimensions; the message names the array and the position at fault.
var ErrInvalid = errors.New("invalid sparse index data")

// invalid builds an error wrapping ErrInvalid.
func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// COO is a Rows×Cols matrix in coordinate form: entry p is Values[p] at
// (RowIdx[p], ColIdx[p]). Entries may come in any order and repeat a
// position (uncoalesced); repeated positions mean the sum of their values.
type COO[T Number] struct {
	Rows, Cols     int
	RowIdx, ColIdx []int64
	Values         []T
	// Coalesced reports that entries are sorted by (row, column) with no
	// position repeated. Methods trust it, so it must never be set falsely.
	Coalesced bool
}

// CSR is a Rows×Cols matrix in compressed sparse row form: the entries of
// row i are ColIdx[p], Values[p] for p in [RowPtr[i], RowPtr[i+1]).
// Columns within a row may be unsorted and repeated unless Sorted is set;
// repeated columns mean the sum of their values.
type CSR[T Number] struct {
	Rows, Cols     int
	RowPtr, ColIdx []int64
	Values         []T
	// Sorted reports that column indices are strictly increasing within
	// every row. Methods trust it, so it must never be set falsely.
	Sorted bool
}

// Nnz returns the number of stored entries, duplicates included.
func (c *COO[T]) Nnz() int { return len(c.Values) }

// Nnz returns the number of stored entries, duplicates included.
func (c *CSR[T]) Nnz() int { return len(c.Values) }

// NewCOO validates coordinate data and returns a COO matrix that owns the
// given slices. The three slices must have equal lengths, every row index
// must lie in [0, rows) and every column index in [0, cols), and both
// dimensions must be non-negative; otherwise the error wraps ErrInvalid.
// Coalesced is set when the entries already are in canonical order.
func NewCOO[T Number](rows, cols int, rowIdx, colIdx []int64, values []T) (*COO[T], error) {
	if err := checkDims("COO", rows, cols); err != nil {
		return nil, err
	}
	if len(rowIdx) != len(values) {
		return nil, invalid("COO RowIdx has %d entries but Values has %d", len(rowIdx), len(values))
	}
	if len(colIdx) != len(values) {
		return nil, invalid("COO ColIdx has %d entries but Values has %d", len(colIdx), len(values))
	}
	if err := checkIndices("COO RowIdx", rowIdx, rows); err != nil {
		return nil, err
	}
	if err := checkIndices("COO ColIdx", colIdx, cols); err != nil {
		return nil, err
	}
	return &COO[T]{
		Rows: rows, Cols: cols, RowIdx: rowIdx, ColIdx: colIdx, Values: values,
		Coalesced: inCanonicalOrder(rowIdx, colIdx),
	}, nil
}

// NewCSR validates compressed-row data and returns a CSR matrix that owns
// the given slices. RowPtr must have rows+1 entries, start at 0, never
// decrease and end at the number of entries, which ColIdx and Values must
// both have; every column index must lie in [0, cols) and both dimensions
// must be non-negative. Otherwise the error wraps ErrInvalid. Sorted is set
// when every row's columns are already strictly increasing.
func NewCSR[T Number](rows, cols int, rowPtr, colIdx []int64, values []T) (*CSR[T], error) {
	if err := checkDims("CSR", rows, cols); err != nil {
		return nil, err
	}
	if len(rowPtr)-1 != rows {
		return nil, invalid("CSR RowPtr has %d entries, want rows+1 = %d", len(rowPtr), rows+1)
	}
	if len(colIdx) != len(values) {
		return nil, invalid("CSR ColIdx has %d entries but Values has %d", len(colIdx), len(values))
	}
	if rowPtr[0] != 0 {
		return nil, invalid("CSR RowPtr[0] = %d, want 0", rowPtr[0])
	}
	for i := 1; i < len(rowPtr); i++ {
		if rowPtr[i] < rowPtr[i-1] {
			return nil, invalid("CSR RowPtr[%d] = %d is less than RowPtr[%d] = %d", i, rowPtr[i], i-1, rowPtr[i-1])
		}
	}
	if last := rowPtr[rows]; last != int64(len(values)) {
		return nil, invalid("CSR RowPtr[%d] = %d but there are %d entries", rows, last, len(values))
	}
	if err := checkIndices("CSR ColIdx", colIdx, cols); err != nil {
		return nil, err
	}
	c := &CSR[T]{Rows: rows, Cols: cols, RowPtr: rowPtr, ColIdx: colIdx, Values: values}
	c.Sorted = c.rowsStrictlyIncreasing()
	return c, nil
}

func checkDims(layout string, rows, cols int) error {
	if rows < 0 || cols < 0 {
		return invalid("%s dimensions %d×%d are negative", layout, rows, cols)
	}
	return nil
}

// checkIndices reports the first index outside [0, bound).
func checkIndices(name string, idx []int64, bound int) error {
	for p, v := range idx {
		// One unsigned comparison rejects negatives too.
		if uint64(v) >= uint64(bound) {
			return invalid("%s[%d] = %d is outside [0, %d)", name, p, v, bound)
		}
	}
	return nil
}

// inCanonicalOrder reports whether (row, col) pairs strictly increase.
func inCanonicalOrder(rowIdx, colIdx []int64) bool {
	for p := 1; p < len(rowIdx); p++ {
		r0, r1 := rowIdx[p-1], rowIdx[p]
		if r1 < r0 || (r1 == r0 && colIdx[p] <= colIdx[p-1]) {
			return false
		}
	}
	return true
}

// rowsStrictlyIncreasing reports whether columns strictly increase in
// every row.
func (c *CSR[T]) rowsStrictlyIncreasing() bool {
	for i := 0; i < c.Rows; i++ {
		row := c.ColIdx[c.RowPtr[i]:c.RowPtr[i+1]]
		for p := 1; p < len(row); p++ {
			if row[p] <= row[p-1] {
				return false
			}
		}
	}
	return true
}

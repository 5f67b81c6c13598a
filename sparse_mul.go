package tensor

import (
	"github.com/tensor-go/tensor/shape"
)

// Element-wise products with sparse operands; the rules are documented on
// Layout.

// mulSparse is Mul when x or y is a sparse tensor.
func mulSparse(x, y any) (*Tensor, error) {
	ta, sa, err := operand("mul", x)
	if err != nil {
		return nil, err
	}
	tb, sb, err := operand("mul", y)
	if err != nil {
		return nil, err
	}
	if ta != nil {
		if ta, err = ta.boolCoalesced(); err != nil {
			return nil, err
		}
	}
	if tb != nil {
		if tb, err = tb.boolCoalesced(); err != nil {
			return nil, err
		}
	}
	switch {
	case ta == nil || tb == nil: // one Go number
		if ta != nil {
			return scaleSparse(ta, ta.sparse.values, sb.orig)
		}
		return scaleSparse(tb, sa.orig, tb.sparse.values)
	case ta.layout != Strided && tb.layout != Strided:
		return mulSparseSparse(ta, tb)
	case ta.layout != Strided:
		return mulSparseDense(ta, tb, false)
	}
	return mulSparseDense(tb, ta, true)
}

// scaleSparse returns s's pattern holding x * y, where one of them is s's
// values and the other a Go number or a 0-d tensor.
func scaleSparse(s *Tensor, x, y any) (*Tensor, error) {
	v, err := Mul(x, y)
	if err != nil {
		return nil, err
	}
	return s.withValues(v), nil
}

// mulSparseDense multiplies sparse s by strided d (on the left when
// denseFirst, which only matters for error messages).
func mulSparseDense(s, d *Tensor, denseFirst bool) (*Tensor, error) {
	if len(d.shape) == 0 {
		if denseFirst {
			return scaleSparse(s, d, s.sparse.values)
		}
		return scaleSparse(s, s.sparse.values, d)
	}
	if !shape.Equal(s.shape, d.shape) {
		a, b := s, d
		if denseFirst {
			a, b = d, s
		}
		return nil, opErr("mul", ErrShape, "shapes %s (%s) and %s (%s) differ; sparse operands do not broadcast",
			shape.String(a.shape), a.layout, shape.String(b.shape), b.layout)
	}
	sd := s.sparse
	rows := sd.index0
	if s.layout == SparseCSR {
		rows = expandRows(sd.index0, len(sd.cols))
	}
	pos := make([]int, len(sd.cols))
	for p, c := range sd.cols {
		pos[p] = d.offset + int(rows[p])*d.strides[0] + int(c)*d.strides[1]
	}
	g := gatherAt(d, pos)
	if denseFirst {
		return scaleSparse(s, g, sd.values)
	}
	return scaleSparse(s, sd.values, g)
}

// mulSparseSparse multiplies two sparse tensors of the same shape: the
// product is stored where both store an entry.
func mulSparseSparse(a, b *Tensor) (*Tensor, error) {
	if !shape.Equal(a.shape, b.shape) {
		return nil, opErr("mul", ErrShape, "shapes %s (%s) and %s (%s) differ; sparse operands do not broadcast",
			shape.String(a.shape), a.layout, shape.String(b.shape), b.layout)
	}
	ca, err := a.Coalesce()
	if err != nil {
		return nil, err
	}
	cb, err := b.Coalesce()
	if err != nil {
		return nil, err
	}
	ra, rb := canonicalRows(ca), canonicalRows(cb)
	colsA, colsB := ca.sparse.cols, cb.sparse.cols
	var rows, cols []int64
	var ia, ib []int
	for p, q := 0, 0; p < len(colsA) && q < len(colsB); {
		switch {
		case ra[p] < rb[q] || ra[p] == rb[q] && colsA[p] < colsB[q]:
			p++
		case ra[p] > rb[q] || colsA[p] > colsB[q]:
			q++
		default:
			rows, cols = append(rows, ra[p]), append(cols, colsA[p])
			ia, ib = append(ia, p), append(ib, q)
			p++
			q++
		}
	}
	v, err := Mul(gatherAt(ca.sparse.values, ia), gatherAt(cb.sparse.values, ib))
	if err != nil {
		return nil, err
	}
	m, n := a.shape[0], a.shape[1]
	if a.layout == SparseCSR {
		return newSparse(SparseCSR, m, n, compressRows(m, rows), cols, v, true), nil
	}
	return newSparse(SparseCOO, m, n, rows, cols, v, true), nil
}

// canonicalRows returns the row of each entry of a coalesced sparse tensor.
func canonicalRows(t *Tensor) []int64 {
	if t.layout == SparseCSR {
		return expandRows(t.sparse.index0, len(t.sparse.cols))
	}
	return t.sparse.index0
}

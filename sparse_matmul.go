package tensor

import (
	"slices"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/shape"
)

// Matrix products with sparse operands (semantics §7, last rule); the
// rules are documented on Layout.

// matmulSparse is Matmul when a or b is sparse.
func matmulSparse(a, b *Tensor, opts []MatmulOption) (*Tensor, error) {
	p, err := planSparseMatmul(a, b, opts)
	if err != nil {
		return nil, err
	}
	if p.sparseResult() {
		return p.runSparse()
	}
	// runDense writes every element of out without reading it (package
	// sparse's SpMM and DenseSpMM say so), so out is not cleared first:
	// clearing the 25.6 MB result of the spmm/ CSR workload was a pass as
	// long as a twentieth of the product.
	out, err := newProductTensor(p.dtype, p.outShape)
	if err != nil {
		return nil, wrapErr("matmul", err)
	}
	if err := p.runDense(out); err != nil {
		return nil, err
	}
	return out, nil
}

// matmulSparseInto is MatmulInto when out, a or b is sparse. It computes
// the product into a new tensor and copies it into out, so out may alias
// the dense operand.
func matmulSparseInto(out, a, b *Tensor, opts []MatmulOption) error {
	if out != nil && out.layout != Strided {
		return opErr("matmul", ErrLayout, "cannot write into a %s output; the into-form needs a strided one", out.layout)
	}
	p, err := planSparseMatmul(a, b, opts)
	if err != nil {
		return err
	}
	switch {
	case out == nil:
		return opErr("matmul", ErrValue, "nil output tensor")
	case p.sparseResult():
		return opErr("matmul", ErrLayout, "the product of %s and %s tensors is sparse and has no into-form; use Matmul",
			a.layout, b.layout)
	case !shape.Equal(out.shape, p.outShape):
		return opErr("matmul", ErrShape, "output shape %s differs from the result shape %s of %s and %s",
			shape.String(out.shape), shape.String(p.outShape), shape.String(a.shape), shape.String(b.shape))
	case out.dtype != p.dtype:
		return opErr("matmul", ErrDType, "output dtype %v differs from the result dtype %v of %v and %v",
			out.dtype, p.dtype, a.dtype, b.dtype)
	}
	for i, st := range out.strides {
		if st == 0 && out.shape[i] > 1 {
			return opErr("matmul", ErrLayout, "output of shape %s is a broadcast view (stride 0 in dimension %d): its elements overlap",
				shape.String(out.shape), i)
		}
	}
	tmp, err := newProductTensor(p.dtype, p.outShape)
	if err != nil {
		return wrapErr("matmul", err)
	}
	if err := p.runDense(tmp); err != nil {
		return err
	}
	err = copyInto(out, tmp)
	tmp.Release()
	return wrapErr("matmul", err)
}

// sparsePlan is a validated product with a sparse operand.
type sparsePlan struct {
	a, b     *Tensor
	m, k, n  int
	dtype    dtype.DType // of the result
	outShape []int
}

// planSparseMatmul checks the operands of a product with a sparse operand.
func planSparseMatmul(a, b *Tensor, opts []MatmulOption) (*sparsePlan, error) {
	if a == nil || b == nil {
		return nil, opErr("matmul", ErrValue, "nil operand")
	}
	if _, err := resolveMatmulOptions(opts); err != nil {
		return nil, err
	}
	for _, t := range []*Tensor{a, b} {
		switch {
		case t.layout != Strided:
		case len(t.shape) == 0:
			return nil, opErr("matmul", ErrShape, "0-d operand: matmul needs at least 1-D tensors")
		case len(t.shape) > 2:
			other := a
			if t == a {
				other = b
			}
			return nil, opErr("matmul", ErrLayout, "a %s operand multiplies only 1-D or 2-D tensors, not shape %s",
				other.layout, shape.String(t.shape))
		}
	}
	dt, err := dtype.Promote(a.dtype, b.dtype)
	if err != nil {
		return nil, wrapErr("matmul", err)
	}
	if dt != Bool {
		if a, err = a.boolCoalesced(); err != nil {
			return nil, err
		}
		if b, err = b.boolCoalesced(); err != nil {
			return nil, err
		}
	}
	p := &sparsePlan{a: a, b: b, dtype: dt}
	var ka, kb int
	if len(a.shape) == 1 {
		p.m, ka = 1, a.shape[0]
	} else {
		p.m, ka = a.shape[0], a.shape[1]
	}
	if len(b.shape) == 1 {
		kb, p.n = b.shape[0], 1
	} else {
		kb, p.n = b.shape[0], b.shape[1]
	}
	if ka != kb {
		return nil, opErr("matmul", ErrShape, "inner sizes differ: %s (%s) @ %s (%s)",
			shape.String(a.shape), a.layout, shape.String(b.shape), b.layout)
	}
	p.k = ka
	switch {
	case len(a.shape) == 1:
		p.outShape = []int{p.n}
	case len(b.shape) == 1:
		p.outShape = []int{p.m}
	default:
		p.outShape = []int{p.m, p.n}
	}
	return p, nil
}

// sparseResult reports whether both operands are sparse.
func (p *sparsePlan) sparseResult() bool {
	return p.a.layout != Strided && p.b.layout != Strided
}

// runSparse computes sparse@sparse in the compute dtype and converts the
// result's values back.
func (p *sparsePlan) runSparse() (*Tensor, error) {
	ct := computeDType(p.dtype)
	a, err := p.a.withValuesAs("matmul", ct)
	if err != nil {
		return nil, err
	}
	b, err := p.b.withValuesAs("matmul", ct)
	if err != nil {
		return nil, err
	}
	// CSR forms of COO operands need a row pointer per row; where the
	// inner or the result's row dimension dwarfs the entries, only the
	// indices in use are kept, so memory stays in proportion to the input.
	var rowsUsed []int64
	if b.layout == SparseCOO && p.k > proportionate(a.Nnz()+b.Nnz()) {
		a, b = compactInner(a, b)
	}
	if a.layout == SparseCOO && p.m > proportionate(a.Nnz()) {
		a, rowsUsed = compactRows(a)
	}
	kern := kernelsFor(ct)
	c := kern.spgemm(a, b)
	if p.a.layout == SparseCOO {
		c = kern.convert(c, SparseCOO)
	}
	if rowsUsed != nil {
		// Row r of the compact product is row rowsUsed[r]; the map is
		// increasing, so the entries stay sorted.
		rows := make([]int64, c.Nnz())
		for q, r := range c.sparse.index0 {
			rows[q] = rowsUsed[r]
		}
		c = newSparse(SparseCOO, p.m, p.n, rows, c.sparse.cols, c.sparse.values, c.sparse.canonical)
	}
	return c.withValuesAs("matmul", p.dtype)
}

// proportionate is the largest dimension whose row pointers cost memory in
// proportion to nnz entries.
func proportionate(nnz int) int { return 2*nnz + 1024 }

// compactInner renumbers the inner dimension of a@b, b being COO, to the
// rows b stores, in order. Entries of a in other columns meet nothing and
// are dropped; the renumbering is increasing, so canonical order is kept.
func compactInner(a, b *Tensor) (*Tensor, *Tensor) {
	used := slices.Clone(b.sparse.index0)
	slices.Sort(used)
	used = slices.Compact(used)
	bRows := make([]int64, len(b.sparse.index0))
	for q, r := range b.sparse.index0 {
		j, _ := slices.BinarySearch(used, r)
		bRows[q] = int64(j)
	}
	b = newSparse(SparseCOO, len(used), b.shape[1], bRows, b.sparse.cols, b.sparse.values, b.sparse.canonical)
	aRows := canonicalRows(a) // the row of each entry, for either layout
	var rows, cols []int64
	var keep []int
	for q, c := range a.sparse.cols {
		if j, found := slices.BinarySearch(used, c); found {
			rows, cols, keep = append(rows, aRows[q]), append(cols, int64(j)), append(keep, q)
		}
	}
	a = newSparse(SparseCOO, a.shape[0], len(used), rows, cols, gatherAt(a.sparse.values, keep), a.sparse.canonical)
	return a, b
}

// compactRows renumbers the rows of a COO tensor to those it stores, in
// order, and returns the original number of each.
func compactRows(a *Tensor) (*Tensor, []int64) {
	used := slices.Clone(a.sparse.index0)
	slices.Sort(used)
	used = slices.Compact(used)
	rows := make([]int64, len(a.sparse.index0))
	for q, r := range a.sparse.index0 {
		j, _ := slices.BinarySearch(used, r)
		rows[q] = int64(j)
	}
	return newSparse(SparseCOO, len(used), a.shape[1], rows, a.sparse.cols, a.sparse.values, a.sparse.canonical), used
}

// runDense computes sparse@dense or dense@sparse into out, a strided tensor
// of the result's shape and dtype that shares no storage with the operands.
// Operands are converted to the compute dtype first; a result computed in
// another dtype (bool, float16, bfloat16) is rounded into out once.
func (p *sparsePlan) runDense(out *Tensor) error {
	if out.Size() == 0 {
		return nil
	}
	ct := computeDType(p.dtype)
	a, err := p.asCompute(p.a, ct)
	if err != nil {
		return err
	}
	b, err := p.asCompute(p.b, ct)
	if err != nil {
		return err
	}
	defer releaseMade(a, p.a)
	defer releaseMade(b, p.b)
	c := out
	if ct != p.dtype {
		if c, err = newProductTensor(ct, out.shape); err != nil {
			return wrapErr("matmul", err)
		}
	}
	kern := kernelsFor(ct)
	cv := p.resultView(c)
	if a.layout != Strided {
		kern.spmm(a, p.operandView(b, false), cv)
	} else {
		kern.denseSpmm(p.operandView(a, true), b, cv)
	}
	if c != out {
		err := copyInto(out, c)
		c.Release() // this call's own: the next product finds it cached
		return wrapErr("matmul", err)
	}
	return nil
}

// asCompute returns an operand with the compute dtype ct.
func (p *sparsePlan) asCompute(t *Tensor, ct DType) (*Tensor, error) {
	if t.dtype == ct {
		return t, nil
	}
	if t.layout != Strided {
		return t.withValuesAs("matmul", ct)
	}
	c, err := t.AsType(ct)
	return c, wrapErr("matmul", err)
}

// operandView sees a dense operand as a matrix: a 1-D one as a row when it
// is on the left, as a column when on the right.
func (p *sparsePlan) operandView(t *Tensor, left bool) matrixView {
	if len(t.shape) == 2 {
		return matrixViewOf(t)
	}
	if left {
		return matrixView{t: t, off: t.offset, cs: t.strides[0], rows: 1, cols: t.shape[0]}
	}
	return matrixView{t: t, off: t.offset, rs: t.strides[0], rows: t.shape[0], cols: 1}
}

// resultView sees the result (with its vector dimension dropped) as the
// m×n matrix of the product.
func (p *sparsePlan) resultView(c *Tensor) matrixView {
	switch {
	case len(c.shape) == 2:
		return matrixViewOf(c)
	case len(p.a.shape) == 1:
		return matrixView{t: c, off: c.offset, cs: c.strides[0], rows: 1, cols: p.n}
	}
	return matrixView{t: c, off: c.offset, rs: c.strides[0], rows: p.m, cols: 1}
}

package tensor

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/memlimit"
	"github.com/tensor-go/tensor/internal/sparse"
	"github.com/tensor-go/tensor/shape"
)

// Layout says how a tensor stores its elements, as PyTorch's layouts do.
// Strided, the zero value, is the dense n-dimensional view of
// storage that every operation accepts. The sparse layouts are 2-D only and
// store just their entries:
//
//   - SparseCOO keeps a row index, a column index and a value per entry, in
//     any order, possibly repeating a position ("uncoalesced"; repeated
//     positions mean the sum of their values);
//   - SparseCSR keeps rows+1 row pointers (crow_indices), and per entry a
//     column index and a value, the entries of row i lying at positions
//     crow[i] to crow[i+1]-1.
//
// Sparse tensors are immutable: no into-form writes to them. Matmul and Mul
// accept them (as below); ToDense, ToSparseCOO, ToSparseCSR, Coalesce,
// AsType and Transpose convert them (AsType converts the values, coalescing
// an uncoalesced tensor first; Transpose keeps the layout, except that a
// CSR tensor with far more columns than entries gives COO, whose memory
// stays in proportion); ReadSparseNPZ and WriteSparseNPZ
// exchange them with SciPy. Other operations (Prod, views other than
// Transpose, element access, .npy output) are ErrLayout errors: call
// ToDense first.
//
// Matmul with a sparse operand follows PyTorch's torch.mm, extended:
// sparse@dense and dense@sparse give a dense tensor (a 1-D dense operand is
// a row on the left or a column on the right, so sparse@1-D is 1-D);
// sparse@sparse gives a coalesced sparse tensor in the first operand's
// layout, and has no into-form. Only stored entries are multiplied, so a
// NaN or Inf in the dense operand facing implicit zeros does not reach the
// result, unlike the dense product; repeated entries each contribute.
// Dtypes promote as for dense operands; bool is the OR of ANDs, float16 and
// bfloat16 accumulate in float32 and round once. Dense operands of more
// than 2 dimensions are ErrLayout errors; TF32 does not apply.
//
// Mul with a sparse operand gives a sparse tensor in that operand's layout
// (the first one's for two): sparse × Go number or 0-d tensor scales the
// values; sparse × dense of the same shape multiplies each stored value by
// the dense element at its position, keeping the pattern (a NaN or Inf of
// the dense operand at an implicit zero does not appear, as in PyTorch);
// sparse × sparse stores the products where both store an entry. Nothing
// else broadcasts. Repeated entries of a bool tensor mean their OR, so an
// uncoalesced bool operand is coalesced before its values become numbers.
//
// A sparse tensor prints as PyTorch prints one, its parts formatted as
// NumPy arrays like every tensor body, dtype= shown unless float32:
//
//	Tensor(indices=[[0 1 1]
//	 [2 0 2]], values=[3. 4. 5.], size=(2, 3), nnz=3, layout=sparse_coo, device=xpux:0)
//	Tensor(crow_indices=[0 1 3], col_indices=[2 0 2], values=[3 4 5], size=(2, 3), nnz=3, dtype=int64, layout=sparse_csr, device=xpux:0)
type Layout int

// The layouts; see Layout.
const (
	Strided Layout = iota
	SparseCOO
	SparseCSR
)

// String returns PyTorch's name of the layout: "strided", "sparse_coo" or
// "sparse_csr".
func (l Layout) String() string {
	switch l {
	case Strided:
		return "strided"
	case SparseCOO:
		return "sparse_coo"
	case SparseCSR:
		return "sparse_csr"
	}
	return "Layout(" + strconv.Itoa(int(l)) + ")"
}

// sparseData holds the parts of a sparse tensor. The slices are never
// written after construction, so tensors derived without arithmetic (a COO
// transpose, a dtype conversion) share them.
type sparseData struct {
	index0 []int64 // COO: the row of each entry; CSR: rows+1 row pointers
	cols   []int64 // the column of each entry
	values *Tensor // 1-D, contiguous from offset 0, of the tensor's dtype
	// canonical: entries sorted by (row, column) with no position repeated.
	// Kernels trust it, so it is set only when known to hold.
	canonical bool
}

// newSparse assembles a sparse tensor of shape (m, n) from validated parts.
func newSparse(l Layout, m, n int, index0, cols []int64, values *Tensor, canonical bool) *Tensor {
	return &Tensor{dtype: values.dtype, shape: []int{m, n}, layout: l,
		sparse: &sparseData{index0: index0, cols: cols, values: values, canonical: canonical}}
}

// Nnz returns the number of stored entries of a sparse tensor, repeated
// positions of an uncoalesced one included, and the number of elements
// (Size) of a strided tensor.
func (t *Tensor) Nnz() int {
	if t.layout == Strided {
		return t.Size()
	}
	return len(t.sparse.cols)
}

// isSparse reports whether v is a non-nil sparse *Tensor.
func isSparse(v any) bool {
	t, ok := v.(*Tensor)
	return ok && t != nil && t.layout != Strided
}

// hasSparse reports whether any of ts is a sparse tensor; nil entries are
// left for the caller's own checks.
func hasSparse(ts ...*Tensor) bool {
	for _, t := range ts {
		if t != nil && t.layout != Strided {
			return true
		}
	}
	return false
}

// requireStrided returns an ErrLayout error naming op when any operand (a
// *Tensor; other values are ignored) is sparse. Operations that read
// strided storage call it first.
func requireStrided(op string, xs ...any) error {
	for _, x := range xs {
		if t, ok := x.(*Tensor); ok && (t == nil || t.released || !t.dtype.Valid() || t.layout != Strided) {
			return notStridedErr(op, xs)
		}
	}
	return nil
}

// notStridedErr is requireStrided's error: the first unusable operand's,
// else the first sparse one's.
func notStridedErr(op string, xs []any) error {
	if err := requireLive(op, xs...); err != nil {
		return err
	}
	for _, x := range xs {
		if isSparse(x) {
			t := x.(*Tensor)
			return opErr(op, ErrLayout, "%s tensors of shape %s are not supported; convert with ToDense first",
				t.layout, shape.String(t.shape))
		}
	}
	return nil
}

// NewSparseCOO returns a sparse COO tensor of the 2-D shape size with
// entry p holding values[p] at (rows[p], cols[p]), like PyTorch's
// sparse_coo_tensor. The dtype is that of values, a 1-D strided tensor of
// any dtype. The index slices and values are copied. Entries may come in
// any order and repeat a position; repeated positions mean the sum of their
// values (see Coalesce).
//
// Errors name the layout: a shape that is not 2-D is ErrLayout, a negative
// dimension or index and value counts that disagree ErrShape, an index
// outside the shape ErrValue, a nil values ErrValue.
func NewSparseCOO(rows, cols []int64, values *Tensor, size ...int) (*Tensor, error) {
	const op = "sparse_coo_tensor"
	m, n, err := sparseShape(op, SparseCOO, size)
	if err != nil {
		return nil, err
	}
	v, err := sparseValues(op, values)
	if err != nil {
		return nil, err
	}
	canonical, err := checkCOO(op, m, n, rows, cols, v.Size())
	if err != nil {
		return nil, err
	}
	return newSparse(SparseCOO, m, n, slices.Clone(rows), slices.Clone(cols), v, canonical), nil
}

// NewSparseCSR returns a sparse CSR tensor of the 2-D shape size (m, n),
// like PyTorch's sparse_csr_tensor: the entries of row i are cols[p],
// values[p] for p from crow[i] to crow[i+1]-1. crow must have m+1 entries,
// start at 0, never decrease and end at len(cols). Columns within a row may
// be unsorted or repeated (repeats sum). The slices and values are copied.
//
// Errors are classed as for NewSparseCOO; row pointers that do not start at
// 0, decrease, or do not end at the entry count are ErrValue.
func NewSparseCSR(crow, cols []int64, values *Tensor, size ...int) (*Tensor, error) {
	const op = "sparse_csr_tensor"
	m, n, err := sparseShape(op, SparseCSR, size)
	if err != nil {
		return nil, err
	}
	v, err := sparseValues(op, values)
	if err != nil {
		return nil, err
	}
	canonical, err := checkCSR(op, m, n, crow, cols, v.Size())
	if err != nil {
		return nil, err
	}
	return newSparse(SparseCSR, m, n, slices.Clone(crow), slices.Clone(cols), v, canonical), nil
}

// sparseShape checks that s is a valid 2-D shape for layout l.
func sparseShape(op string, l Layout, s []int) (m, n int, err error) {
	if len(s) != 2 {
		return 0, 0, opErr(op, ErrLayout, "%s tensors are 2-D, not shape %s", l, shape.String(s))
	}
	if _, err := shape.Size(s); err != nil {
		return 0, 0, opErr(op, ErrShape, "%s shape %s: %s", l, shape.String(s), stripClass(err.Error(), ErrShape))
	}
	return s[0], s[1], nil
}

// sparseValues checks and copies the values argument of a constructor.
func sparseValues(op string, values *Tensor) (*Tensor, error) {
	switch {
	case values == nil:
		return nil, opErr(op, ErrValue, "nil values tensor")
	case requireLive(op, values) != nil:
		return nil, requireLive(op, values)
	case values.layout != Strided:
		return nil, opErr(op, ErrLayout, "values must be a strided tensor, not %s", values.layout)
	case len(values.shape) != 1:
		return nil, opErr(op, ErrShape, "values must be 1-D, not shape %s", shape.String(values.shape))
	}
	v, err := values.AsType(values.dtype) // always a contiguous copy
	return v, wrapErr(op, err)
}

// checkCOO validates coordinate index data for an m×n COO tensor with nv
// values and reports whether the entries are in canonical order.
func checkCOO(op string, m, n int, rows, cols []int64, nv int) (canonical bool, err error) {
	if len(rows) != len(cols) || len(cols) != nv {
		return false, opErr(op, ErrShape, "%d row indices, %d column indices and %d values disagree",
			len(rows), len(cols), nv)
	}
	canonical = true
	for p := range rows {
		r, c := rows[p], cols[p]
		if r < 0 || r >= int64(m) {
			return false, opErr(op, ErrValue, "row index %d of entry %d is outside [0, %d)", r, p, m)
		}
		if c < 0 || c >= int64(n) {
			return false, opErr(op, ErrValue, "column index %d of entry %d is outside [0, %d)", c, p, n)
		}
		if p > 0 && (r < rows[p-1] || r == rows[p-1] && c <= cols[p-1]) {
			canonical = false
		}
	}
	return canonical, nil
}

// checkCSR validates compressed-row index data for an m×n CSR tensor with
// nv values and reports whether every row's columns strictly increase.
func checkCSR(op string, m, n int, crow, cols []int64, nv int) (canonical bool, err error) {
	if len(crow) != m+1 {
		return false, opErr(op, ErrShape, "%d row pointers for %d rows, want %d", len(crow), m, m+1)
	}
	if len(cols) != nv {
		return false, opErr(op, ErrShape, "%d column indices and %d values disagree", len(cols), nv)
	}
	if crow[0] != 0 {
		return false, opErr(op, ErrValue, "row pointers start at %d, not 0", crow[0])
	}
	for i := range m {
		if crow[i+1] < crow[i] {
			return false, opErr(op, ErrValue, "row pointers decrease at row %d (%d then %d)", i, crow[i], crow[i+1])
		}
	}
	if crow[m] != int64(len(cols)) {
		return false, opErr(op, ErrValue, "row pointers end at %d, not at the %d entries", crow[m], len(cols))
	}
	canonical = true
	for i := range m {
		for p := crow[i]; p < crow[i+1]; p++ {
			if c := cols[p]; c < 0 || c >= int64(n) {
				return false, opErr(op, ErrValue, "column index %d of entry %d (row %d) is outside [0, %d)", c, p, i, n)
			}
			if p > crow[i] && cols[p] <= cols[p-1] {
				canonical = false
			}
		}
	}
	return canonical, nil
}

// ToSparseCOO returns t in the SparseCOO layout: a 2-D strided tensor's
// nonzero elements (NaN is nonzero; -0 is zero) in row-major order, or a
// sparse tensor converted (a CSR tensor's entries in the same order; a COO
// tensor is returned as it is). Other ranks are ErrLayout errors.
func (t *Tensor) ToSparseCOO() (*Tensor, error) { return t.toLayout("to_sparse_coo", SparseCOO) }

// ToSparseCSR returns t in the SparseCSR layout, as ToSparseCOO does; a COO
// tensor is coalesced on the way (repeated positions summed).
func (t *Tensor) ToSparseCSR() (*Tensor, error) { return t.toLayout("to_sparse_csr", SparseCSR) }

// toLayout converts t to the sparse layout l.
func (t *Tensor) toLayout(op string, l Layout) (*Tensor, error) {
	if t == nil {
		return nil, opErr(op, ErrValue, "nil *Tensor")
	}
	if err := requireLive(op, t); err != nil {
		return nil, err
	}
	if t.layout == l {
		return t, nil
	}
	ct := computeDType(t.dtype)
	if t.layout != Strided {
		if l == SparseCSR {
			// The row pointers are the one part not in proportion to the
			// entries: a COO tensor of 2^40 rows is a few bytes.
			if err := sparse.CheckSize[int8](t.shape[0], t.Nnz(), true, sparseLimit()); err != nil {
				return nil, sparseSizeErr(op, l, t.shape, err)
			}
		}
		c, err := t.withValuesAs(op, ct)
		if err != nil {
			return nil, err
		}
		return kernelsFor(ct).convert(c, l).withValuesAs(op, t.dtype)
	}
	if len(t.shape) != 2 {
		return nil, opErr(op, ErrLayout, "%s tensors are 2-D; cannot convert shape %s", l, shape.String(t.shape))
	}
	d := t
	if t.dtype != ct {
		var err error
		if d, err = t.AsType(ct); err != nil {
			return nil, wrapErr(op, err)
		}
	}
	s, err := kernelsFor(ct).fromDense(d, l)
	if err != nil {
		return nil, sparseSizeErr(op, l, t.shape, err)
	}
	return s.withValuesAs(op, t.dtype)
}

// sparseLimit is the most bytes a conversion to a sparse layout may take
// now: the machine's memory, or less where a limit (RLIMIT_AS, GOMEMLIMIT,
// a cgroup) leaves less, as alloc checks for every dense result.
func sparseLimit() int { return min(maxBytes, memlimit.Allocatable()) }

// sparseSizeErr reports a conversion to layout l whose result would not
// fit in memory (err a *sparse.SizeError), as ErrShape, like every other
// result too large for the machine.
func sparseSizeErr(op string, l Layout, s []int, err error) error {
	var se *sparse.SizeError
	if !errors.As(err, &se) {
		return wrapErr(op, err)
	}
	what := fmt.Sprintf("%d bytes", se.Need)
	if se.Need == math.MaxUint64 {
		what = "more bytes than an int can count"
	}
	return opErr(op, ErrShape, "a %s tensor of shape %s with %d entries needs %s, more than the %d bytes this process may allocate now",
		l, shape.String(s), se.Nnz, what, se.Limit)
}

// ToDense returns a sparse tensor as a new contiguous strided tensor, every
// element +0 plus the sum of the entries stored at its position. A strided
// tensor is returned as it is.
func (t *Tensor) ToDense() (*Tensor, error) {
	const op = "to_dense"
	if t == nil {
		return nil, opErr(op, ErrValue, "nil *Tensor")
	}
	if err := requireLive(op, t); err != nil {
		return nil, err
	}
	if t.layout == Strided {
		return t, nil
	}
	ct := computeDType(t.dtype)
	c, err := t.withValuesAs(op, ct)
	if err != nil {
		return nil, err
	}
	out, err := empty(ct, t.shape)
	if err != nil {
		return nil, wrapErr(op, err)
	}
	if out.n > 0 {
		kernelsFor(ct).toDense(c, out)
	}
	if ct == t.dtype {
		return out, nil
	}
	res, err := out.AsType(t.dtype)
	return res, wrapErr(op, err)
}

// Coalesce returns a sparse tensor in canonical form: entries sorted by
// (row, column), repeated positions replaced by one entry holding their
// sum, added in storage order (float16 and bfloat16 in float32, rounded
// once; bool as OR; integers wrap). Sums that come out zero stay as explicit
// entries, as in PyTorch. The layout is kept. A strided tensor is an
// ErrLayout error.
func (t *Tensor) Coalesce() (*Tensor, error) {
	const op = "coalesce"
	if t == nil {
		return nil, opErr(op, ErrValue, "nil *Tensor")
	}
	if err := requireSparse(op, t); err != nil {
		return nil, err
	}
	if t.sparse.canonical {
		return t, nil
	}
	ct := computeDType(t.dtype)
	c, err := t.withValuesAs(op, ct)
	if err != nil {
		return nil, err
	}
	return kernelsFor(ct).coalesce(c).withValuesAs(op, t.dtype)
}

// IsCoalesced reports whether a sparse tensor is known to be in canonical
// form (see Coalesce). It is false for strided tensors.
func (t *Tensor) IsCoalesced() bool {
	return t.layout != Strided && t.sparse.canonical
}

// SparseParts returns copies of a sparse tensor's parts. For SparseCOO,
// index0 holds the row and index1 the column of each entry (PyTorch's
// indices() as two slices); for SparseCSR, index0 holds the rows+1 row
// pointers (crow_indices) and index1 the column of each entry
// (col_indices). values is a new 1-D tensor of the tensor's dtype. A
// strided tensor is an ErrLayout error.
func (t *Tensor) SparseParts() (index0, index1 []int64, values *Tensor, err error) {
	const op = "sparse_parts"
	if t == nil {
		return nil, nil, nil, opErr(op, ErrValue, "nil *Tensor")
	}
	if err := requireSparse(op, t); err != nil {
		return nil, nil, nil, err
	}
	d := t.sparse
	v, err := d.values.AsType(d.values.dtype)
	if err != nil {
		return nil, nil, nil, wrapErr(op, err)
	}
	return slices.Clone(d.index0), slices.Clone(d.cols), v, nil
}

// requireSparse returns an ErrLayout error unless t is sparse.
func requireSparse(op string, t *Tensor) error {
	if err := requireLive(op, t); err != nil {
		return err
	}
	if t.layout == Strided {
		return opErr(op, ErrLayout, "needs a sparse tensor, not a strided one of shape %s", shape.String(t.shape))
	}
	return nil
}

// withValuesAs returns the sparse tensor t with its values converted to dt,
// sharing the index slices (which are never written).
func (t *Tensor) withValuesAs(op string, dt DType) (*Tensor, error) {
	if t.dtype == dt {
		return t, nil
	}
	v, err := t.sparse.values.AsType(dt)
	if err != nil {
		return nil, wrapErr(op, err)
	}
	return t.withValues(v), nil
}

// boolCoalesced returns an uncoalesced bool sparse tensor coalesced, and
// any other tensor as it is. Repeated bool entries mean their OR, so before
// bool values become numbers (true·x + true·x would count x twice) the
// repeats must be merged.
func (t *Tensor) boolCoalesced() (*Tensor, error) {
	if t.layout == Strided || t.dtype != Bool || t.sparse.canonical {
		return t, nil
	}
	return t.Coalesce()
}

// withValues returns t's pattern holding new values (1-D, contiguous, one
// per entry).
func (t *Tensor) withValues(v *Tensor) *Tensor {
	d := t.sparse
	return newSparse(t.layout, t.shape[0], t.shape[1], d.index0, d.cols, v, d.canonical)
}

// sparseAsType converts a sparse tensor's values to dt, keeping its
// pattern. An uncoalesced tensor is coalesced first, so that the result
// densifies to the dense conversion of the tensor's value: converting each
// repeat on its own differs where conversion is not additive (1.5 and 1.5
// truncate to 1 and 1, their sum 3 to 3; true and true are true, not 2).
func (t *Tensor) sparseAsType(dt DType) (*Tensor, error) {
	if !dt.Valid() {
		return nil, opErr("astype", ErrDType, "invalid dtype %v", dt)
	}
	if dt != t.dtype && !t.sparse.canonical {
		var err error
		if t, err = t.Coalesce(); err != nil {
			return nil, err
		}
	}
	v, err := t.sparse.values.AsType(dt)
	if err != nil {
		return nil, wrapErr("astype", err)
	}
	return t.withValues(v), nil
}

// sparseTranspose returns the transpose of a sparse tensor in its own
// layout. No arithmetic is involved, so it cannot fail: a COO transpose
// swaps the index slices (shared, not copied), a CSR one regroups the
// entries by column with a stable counting sort. A CSR tensor with far
// more columns than entries transposes to COO instead, since row pointers
// for its columns would take memory out of proportion to it.
func (t *Tensor) sparseTranspose() *Tensor {
	d := t.sparse
	m, n := t.shape[0], t.shape[1]
	if t.layout == SparseCSR && n > 2*len(d.cols)+1024 {
		return newSparse(SparseCOO, n, m, d.cols, expandRows(d.index0, len(d.cols)), d.values, len(d.cols) <= 1)
	}
	if t.layout == SparseCOO {
		return newSparse(SparseCOO, n, m, d.cols, d.index0, d.values, len(d.cols) <= 1)
	}
	crow, rows, perm := transposeCSR(m, n, d.index0, d.cols)
	// Entries of a canonical matrix land in increasing row order within
	// each column, distinct, so the transpose is canonical too.
	return newSparse(SparseCSR, n, m, crow, rows, gatherAt(d.values, perm), d.canonical)
}

// transposeCSR regroups the entries of an m×n CSR pattern by column: it
// returns the n+1 column pointers, the row of each regrouped entry, and for
// each the position of the entry it came from.
func transposeCSR(m, n int, crow, cols []int64) (ccol, rows []int64, perm []int) {
	ccol = make([]int64, n+1)
	for _, c := range cols {
		ccol[c+1]++
	}
	for j := range n {
		ccol[j+1] += ccol[j]
	}
	next := slices.Clone(ccol[:n])
	rows, perm = make([]int64, len(cols)), make([]int, len(cols))
	for i := range m {
		for p := crow[i]; p < crow[i+1]; p++ {
			q := next[cols[p]]
			next[cols[p]]++
			rows[q], perm[q] = int64(i), int(p)
		}
	}
	return ccol, rows, perm
}

// expandRows returns the row of each entry of a CSR pattern.
func expandRows(crow []int64, nnz int) []int64 {
	rows := make([]int64, nnz)
	for i := 0; i+1 < len(crow); i++ {
		for p := crow[i]; p < crow[i+1]; p++ {
			rows[p] = int64(i)
		}
	}
	return rows
}

// compressRows returns the m+1 row pointers of entries sorted by row.
func compressRows(m int, rows []int64) []int64 {
	crow := make([]int64, m+1)
	for _, r := range rows {
		crow[r+1]++
	}
	for i := range m {
		crow[i+1] += crow[i]
	}
	return crow
}

// gatherAt returns a new 1-D contiguous tensor of src's dtype holding the
// elements of src's storage at the given storage positions. It moves bits
// and never converts, so it serves every dtype by element size.
func gatherAt(src *Tensor, pos []int) *Tensor {
	out := &Tensor{dtype: src.dtype, shape: []int{len(pos)}, strides: []int{1}, n: len(pos)}
	switch src.dtype.Size() {
	case 1:
		out.storage = gatherBits[uint8](src, pos)
	case 2:
		out.storage = gatherBits[uint16](src, pos)
	case 4:
		out.storage = gatherBits[uint32](src, pos)
	case 8:
		out.storage = gatherBits[uint64](src, pos)
	default:
		out.storage = gatherBits[[2]uint64](src, pos)
	}
	return out
}

// gatherBits is gatherAt for elements of E's size.
func gatherBits[E any](src *Tensor, pos []int) unsafe.Pointer {
	if len(pos) == 0 {
		return nil
	}
	from := storageOf[E](src)
	to := make([]E, len(pos))
	for i, p := range pos {
		to[i] = from[p]
	}
	return unsafe.Pointer(unsafe.SliceData(to))
}

// sparseString formats a sparse tensor as PyTorch prints one, with the
// library's NumPy-style bodies and device:
//
//	Tensor(indices=[[0 1 1]
//	 [2 0 2]], values=[3. 4. 5.], size=(2, 3), nnz=3, layout=sparse_coo, device=xpux:0)
//
// A CSR tensor shows crow_indices= and col_indices= instead of indices=.
// dtype= appears, before layout=, unless the dtype is float32.
func (t *Tensor) sparseString() string {
	d := t.sparse
	var b strings.Builder
	b.WriteString("Tensor(")
	if t.layout == SparseCOO {
		idx := make([]int64, 0, 2*len(d.cols))
		idx = append(append(idx, d.index0...), d.cols...)
		b.WriteString("indices=" + Must(FromSlice(idx, 2, len(d.cols))).body())
	} else {
		b.WriteString("crow_indices=" + Must(FromSlice(d.index0)).body())
		b.WriteString(", col_indices=" + Must(FromSlice(d.cols)).body())
	}
	fmt.Fprintf(&b, ", values=%s, size=(%d, %d), nnz=%d", d.values.body(), t.shape[0], t.shape[1], len(d.cols))
	if t.dtype != Float32 {
		b.WriteString(", dtype=" + t.dtype.String())
	}
	b.WriteString(", layout=" + t.layout.String() + ", device=" + Device + ")")
	return b.String()
}

// computeDType is the dtype sparse kernels compute a dtype in: bool as
// int32 (a sum of products is then nonzero exactly when some product is
// true, unless it wraps, which takes 2^32 stored entries meeting in one
// element), float16 and bfloat16 as float32 (rounded once on the way
// back), the others as themselves.
func computeDType(dt DType) DType {
	switch dt {
	case Bool:
		return Int32
	case Float16, BFloat16:
		return Float32
	}
	return dt
}

// sparseKernels are the sparse operations on tensors of one compute dtype
// (see computeDType). Operands have that dtype; results too.
type sparseKernels interface {
	// fromDense fails with a *sparse.SizeError when the result would need
	// more than maxBytes.
	fromDense(d *Tensor, l Layout) (*Tensor, error)
	toDense(s, dst *Tensor)
	coalesce(s *Tensor) *Tensor
	convert(s *Tensor, l Layout) *Tensor
	// spmm sets c = a·b for sparse a and strided b and c, each strided one
	// seen as a matrix through its view (see matrixView).
	spmm(a *Tensor, b, c matrixView)
	// denseSpmm sets c = a·b for strided a and c and sparse b.
	denseSpmm(a matrixView, b *Tensor, c matrixView)
	spgemm(a, b *Tensor) *Tensor
}

// matrixView is a strided tensor seen as a rows×cols matrix with element
// (i, j) at storage position off + i*rs + j*cs (a 1-D tensor is a row or a
// column).
type matrixView struct {
	t                       *Tensor
	off, rs, cs, rows, cols int
}

// kernelsFor returns the kernels of a compute dtype.
func kernelsFor(ct DType) sparseKernels {
	switch ct {
	case Int8:
		return typedKernels[int8]{ct}
	case Int16:
		return typedKernels[int16]{ct}
	case Int32:
		return typedKernels[int32]{ct}
	case Int64:
		return typedKernels[int64]{ct}
	case Uint8:
		return typedKernels[uint8]{ct}
	case Uint16:
		return typedKernels[uint16]{ct}
	case Uint32:
		return typedKernels[uint32]{ct}
	case Uint64:
		return typedKernels[uint64]{ct}
	case Float32:
		return typedKernels[float32]{ct}
	case Float64:
		return typedKernels[float64]{ct}
	case Complex64:
		return typedKernels[complex64]{ct}
	case Complex128:
		return typedKernels[complex128]{ct}
	}
	panic("tensor: internal error: no sparse kernels for " + ct.String())
}

// typedKernels implements sparseKernels with package sparse for element
// type T, the Go type of dtype dt.
type typedKernels[T sparse.Number] struct{ dt dtype.DType }

// sparseThreads is how many goroutines the sparse kernels may use.
func sparseThreads() int { return runtime.GOMAXPROCS(0) }

func (k typedKernels[T]) values(s *Tensor) []T { return contiguousData[T](s.sparse.values) }

// wrap returns a 1-D tensor of k's dtype over vals, without copying.
func (k typedKernels[T]) wrap(vals []T) *Tensor {
	return &Tensor{dtype: k.dt, shape: []int{len(vals)}, strides: []int{1},
		storage: unsafe.Pointer(unsafe.SliceData(vals)), n: len(vals)}
}

// csr returns s as a package sparse CSR matrix sharing its parts when s is
// CSR or a canonical COO (whose rows then only need compressing), and
// converted otherwise.
func (k typedKernels[T]) csr(s *Tensor) *sparse.CSR[T] {
	d := s.sparse
	m, n := s.shape[0], s.shape[1]
	switch {
	case s.layout == SparseCSR:
		return &sparse.CSR[T]{Rows: m, Cols: n, RowPtr: d.index0, ColIdx: d.cols, Values: k.values(s), Sorted: d.canonical}
	case d.canonical:
		return &sparse.CSR[T]{Rows: m, Cols: n, RowPtr: compressRows(m, d.index0), ColIdx: d.cols, Values: k.values(s), Sorted: true}
	}
	return k.coo(s).ToCSR()
}

// coo returns s as a package sparse COO matrix.
func (k typedKernels[T]) coo(s *Tensor) *sparse.COO[T] {
	d := s.sparse
	if s.layout == SparseCSR {
		return &sparse.COO[T]{Rows: s.shape[0], Cols: s.shape[1], RowIdx: expandRows(d.index0, len(d.cols)),
			ColIdx: d.cols, Values: k.values(s), Coalesced: d.canonical}
	}
	return &sparse.COO[T]{Rows: s.shape[0], Cols: s.shape[1], RowIdx: d.index0, ColIdx: d.cols,
		Values: k.values(s), Coalesced: d.canonical}
}

func (k typedKernels[T]) fromCSR(c *sparse.CSR[T]) *Tensor {
	return newSparse(SparseCSR, c.Rows, c.Cols, c.RowPtr, c.ColIdx, k.wrap(c.Values), c.Sorted)
}

func (k typedKernels[T]) fromCOO(c *sparse.COO[T]) *Tensor {
	return newSparse(SparseCOO, c.Rows, c.Cols, c.RowIdx, c.ColIdx, k.wrap(c.Values), c.Coalesced)
}

// sparseDense returns the package sparse view of v.
func sparseDense[T any](v matrixView) sparse.Dense[T] {
	return sparse.Dense[T]{Data: storageOf[T](v.t), Off: v.off, RS: v.rs, CS: v.cs, Rows: v.rows, Cols: v.cols}
}

// matrixViewOf sees a 2-D strided tensor as a matrix.
func matrixViewOf(t *Tensor) matrixView {
	return matrixView{t: t, off: t.offset, rs: t.strides[0], cs: t.strides[1], rows: t.shape[0], cols: t.shape[1]}
}

func (k typedKernels[T]) fromDense(d *Tensor, l Layout) (*Tensor, error) {
	if l == SparseCOO {
		c, err := sparse.FromDenseCOO(sparseDense[T](matrixViewOf(d)), sparseLimit())
		if err != nil {
			return nil, err
		}
		return k.fromCOO(c), nil
	}
	c, err := sparse.FromDense(sparseDense[T](matrixViewOf(d)), sparseLimit())
	if err != nil {
		return nil, err
	}
	return k.fromCSR(c), nil
}

func (k typedKernels[T]) toDense(s, dst *Tensor) {
	if s.layout == SparseCSR {
		k.csr(s).ToDense(sparseDense[T](matrixViewOf(dst)))
		return
	}
	k.coo(s).ToDense(sparseDense[T](matrixViewOf(dst)))
}

func (k typedKernels[T]) coalesce(s *Tensor) *Tensor {
	if s.layout == SparseCSR {
		return k.fromCSR(k.csr(s).Canonical())
	}
	return k.fromCOO(k.coo(s).Coalesce())
}

func (k typedKernels[T]) convert(s *Tensor, l Layout) *Tensor {
	if l == SparseCSR {
		return k.fromCSR(k.csr(s))
	}
	return k.fromCOO(k.coo(s))
}

func (k typedKernels[T]) spmm(a *Tensor, b, c matrixView) {
	if a.layout == SparseCOO && !a.sparse.canonical {
		sparse.SpMMCOO(k.coo(a), sparseDense[T](b), sparseDense[T](c), sparseThreads())
		return
	}
	sparse.SpMM(k.csr(a), sparseDense[T](b), sparseDense[T](c), sparseThreads())
}

func (k typedKernels[T]) denseSpmm(a matrixView, b *Tensor, c matrixView) {
	sparse.DenseSpMM(sparseDense[T](a), k.rows(b), sparseDense[T](c), sparseThreads())
}

func (k typedKernels[T]) spgemm(a, b *Tensor) *Tensor {
	return k.fromCSR(sparse.SpGEMM(k.rows(a), k.rows(b), sparseThreads()))
}

// rows returns s in CSR form for a product: an uncoalesced COO tensor's
// entries grouped by row but not merged, so that each repeated entry
// contributes its own product (inf·1 + inf·-3 is NaN, where the merged
// inf·-2 would be -inf), whichever side of the product s is on.
func (k typedKernels[T]) rows(s *Tensor) *sparse.CSR[T] {
	if s.layout == SparseCOO && !s.sparse.canonical {
		return k.coo(s).GroupRows()
	}
	return k.csr(s)
}

package tensor

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/shape"
)

// spAllDTypes are the dtypes the property tests cover: every one.
var spAllDTypes = []DType{Bool, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64,
	Float16, BFloat16, Float32, Float64, Complex64, Complex128}

// spCase is a random sparse matrix together with its dense value, built
// independently of the code under test: entries are accumulated in float64
// (small integers, so every sum is exact) and the dense matrix is converted
// to the dtype once.
type spCase struct {
	m, n       int
	rows, cols []int64
	vals       []float64
	dense      []float64 // row-major sums of the entries
}

// spRandom draws an m×n pattern of about density·m·n entries with small
// integer values (0 or 1 for bool, non-negative for unsigned types). When
// messy, entries are shuffled and some positions repeated.
func spRandom(rng *rand.Rand, m, n int, density float64, dt DType, messy bool) spCase {
	c := spCase{m: m, n: n, dense: make([]float64, m*n)}
	for i := range m {
		for j := range n {
			if rng.Float64() >= density {
				continue
			}
			reps := 1
			if messy && rng.IntN(4) == 0 {
				reps = 2
			}
			for range reps {
				c.rows, c.cols = append(c.rows, int64(i)), append(c.cols, int64(j))
				c.vals = append(c.vals, spValue(rng, dt))
			}
		}
	}
	if messy {
		rng.Shuffle(len(c.rows), func(p, q int) {
			c.rows[p], c.rows[q] = c.rows[q], c.rows[p]
			c.cols[p], c.cols[q] = c.cols[q], c.cols[p]
			c.vals[p], c.vals[q] = c.vals[q], c.vals[p]
		})
	}
	for p := range c.rows {
		c.dense[int(c.rows[p])*n+int(c.cols[p])] += c.vals[p]
	}
	return c
}

// spValue draws one small value that every dtype holds exactly.
func spValue(rng *rand.Rand, dt DType) float64 {
	switch {
	case dt == Bool:
		return float64(rng.IntN(2))
	case dt.IsInteger() && !dt.IsSigned():
		return float64(rng.IntN(4))
	}
	return float64(rng.IntN(5) - 2)
}

// spValues returns vals as a 1-D tensor of dt.
func spValues(t testing.TB, vals []float64, dt DType) *Tensor {
	t.Helper()
	v := Must(FromSlice(append([]float64{}, vals...)))
	return Must(v.AsType(dt))
}

// sparse builds the case as a sparse tensor of the layout and dtype. A CSR
// tensor is built from the entries sorted stably by row, so duplicates and
// unsorted columns within a row remain.
func (c spCase) sparse(t testing.TB, l Layout, dt DType) *Tensor {
	t.Helper()
	if l == SparseCOO {
		return Must(NewSparseCOO(c.rows, c.cols, spValues(t, c.vals, dt), c.m, c.n))
	}
	order := make([]int, 0, len(c.rows))
	for i := range c.m {
		for p := range c.rows {
			if c.rows[p] == int64(i) {
				order = append(order, p)
			}
		}
	}
	cols, vals := make([]int64, len(order)), make([]float64, len(order))
	for q, p := range order {
		cols[q], vals[q] = c.cols[p], c.vals[p]
	}
	crow := make([]int64, c.m+1)
	for _, r := range c.rows {
		crow[r+1]++
	}
	for i := range c.m {
		crow[i+1] += crow[i]
	}
	return Must(NewSparseCSR(crow, cols, spValues(t, vals, dt), c.m, c.n))
}

// denseOf returns the case's dense matrix as a tensor of dt.
func (c spCase) denseOf(t testing.TB, dt DType) *Tensor {
	t.Helper()
	return Must(Must(FromSlice(append([]float64{}, c.dense...), c.m, c.n)).AsType(dt))
}

// spSame fails unless got and want have the same layout, shape, dtype and
// element bits (sparse ones compared through ToDense).
func spSame(t *testing.T, what string, got, want *Tensor) {
	t.Helper()
	if got.Layout() != want.Layout() || !shape.Equal(got.shape, want.shape) || got.dtype != want.dtype {
		t.Fatalf("%s: got %s %v %v, want %s %v %v", what, got.Layout(), got.shape, got.dtype, want.Layout(), want.shape, want.dtype)
	}
	g, w := Must(got.ToDense()), Must(want.ToDense())
	if !bytes.Equal(spBytes(g), spBytes(w)) {
		t.Fatalf("%s:\ngot  %v\nwant %v", what, got, want)
	}
}

// spBytes returns the bytes of t's elements in row-major order.
func spBytes(t *Tensor) []byte {
	c := Must(t.Clone())
	return unsafe.Slice((*byte)(c.storage), c.Size()*c.dtype.Size())
}

// spSameValues is spSame comparing values rather than bits, so that -0
// equals +0: a sparse product leaves implicit zeros +0 where the dense one
// may compute -0 (0 × -2).
func spSameValues(t *testing.T, what string, got, want *Tensor) {
	t.Helper()
	g := spMust(ToSlice[complex128](Must(Must(got.ToDense()).AsType(Complex128))))
	w := spMust(ToSlice[complex128](Must(Must(want.ToDense()).AsType(Complex128))))
	if got.dtype != want.dtype || len(g) != len(w) {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
	for i := range g {
		if g[i] != w[i] {
			t.Fatalf("%s: element %d is %v, want %v\ngot  %v\nwant %v", what, i, g[i], w[i], got, want)
		}
	}
}

func TestSparseToDenseAndBack(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dt := range spAllDTypes {
		for _, density := range []float64{0, 0.05, 0.5, 1} {
			for _, messy := range []bool{false, true} {
				m, n := rng.IntN(7), rng.IntN(7)
				c := spRandom(rng, m, n, density, dt, messy)
				want := c.denseOf(t, dt)
				for _, l := range []Layout{SparseCOO, SparseCSR} {
					s := c.sparse(t, l, dt)
					if s.Layout() != l || s.DType() != dt || s.Nnz() != len(c.rows) {
						t.Fatalf("%v %v: layout %v dtype %v nnz %d, want nnz %d", l, dt, s.Layout(), s.DType(), s.Nnz(), len(c.rows))
					}
					spSame(t, "to_dense "+l.String()+" "+dt.String(), Must(s.ToDense()), want)
					co := Must(s.Coalesce())
					if !co.IsCoalesced() || co.Layout() != l {
						t.Fatalf("coalesce %v: not canonical or layout %v", l, co.Layout())
					}
					spSame(t, "coalesce", Must(co.ToDense()), want)
					for _, to := range []Layout{SparseCOO, SparseCSR} {
						var conv *Tensor
						if to == SparseCOO {
							conv = Must(s.ToSparseCOO())
						} else {
							conv = Must(s.ToSparseCSR())
						}
						if conv.Layout() != to {
							t.Fatalf("%v to %v gave %v", l, to, conv.Layout())
						}
						spSame(t, "convert", Must(conv.ToDense()), want)
						fromDense := Must(map[Layout]func() (*Tensor, error){SparseCOO: want.ToSparseCOO, SparseCSR: want.ToSparseCSR}[to]())
						if !fromDense.IsCoalesced() {
							t.Fatalf("from dense %v: not coalesced", to)
						}
						spSame(t, "from dense", Must(fromDense.ToDense()), want)
					}
					tr := s.Transpose()
					if tr.Layout() != l {
						t.Fatalf("transpose changed layout to %v", tr.Layout())
					}
					spSame(t, "transpose", Must(tr.ToDense()), Must(want.Transpose().Contiguous()))
				}
			}
		}
	}
}

// TestSparseFromDenseDropsZeros checks which elements a conversion keeps.
func TestSparseFromDenseDropsZeros(t *testing.T) {
	d := Must(FromSlice([]float64{0, math.Copysign(0, -1), math.NaN(), 2}, 2, 2))
	s := Must(d.ToSparseCOO())
	rows, cols, v, err := s.SparseParts()
	if err != nil {
		t.Fatal(err)
	}
	vals := spMust(ToSlice[float64](v))
	if len(rows) != 2 || rows[0] != 1 || cols[0] != 0 || !math.IsNaN(vals[0]) || rows[1] != 1 || cols[1] != 1 || vals[1] != 2 {
		t.Fatalf("parts %v %v %v, want NaN at (1,0) and 2 at (1,1)", rows, cols, vals)
	}
	crow, ccols, _, _ := Must(d.ToSparseCSR()).SparseParts()
	if !spEqualInts(crow, []int64{0, 0, 2}) || !spEqualInts(ccols, []int64{0, 1}) {
		t.Fatalf("csr parts %v %v", crow, ccols)
	}
	// Any strided view converts: here rows reversed and then transposed.
	view := Must(Must(FromSlice([]int16{1, 0, 2, 0, 0, 3}, 2, 3)).Slice(All().By(-1))).Transpose()
	for _, conv := range []func() (*Tensor, error){view.ToSparseCOO, view.ToSparseCSR} {
		spSame(t, "view", Must(Must(conv()).ToDense()), Must(view.Contiguous()))
	}
	// The parts are copies: changing them leaves the tensor alone.
	rows[0] = 0
	if r, _, _, _ := s.SparseParts(); r[0] != 1 {
		t.Fatal("SparseParts shares the row indices")
	}
}

func spEqualInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSparseCoalesceSums(t *testing.T) {
	v := Must(FromSlice([]int32{1, 2, -3, 4}))
	s := Must(NewSparseCOO([]int64{1, 0, 1, 1}, []int64{0, 1, 0, 0}, v, 2, 2))
	if s.IsCoalesced() {
		t.Fatal("uncoalesced input reported coalesced")
	}
	c := Must(s.Coalesce())
	rows, cols, vals, _ := c.SparseParts()
	got := spMust(ToSlice[int32](vals))
	// (1,0) sums to 1+(-3)+4 = 2; (0,1) is 2. Sorted by row.
	if !spEqualInts(rows, []int64{0, 1}) || !spEqualInts(cols, []int64{1, 0}) || got[0] != 2 || got[1] != 2 {
		t.Fatalf("coalesced %v %v %v", rows, cols, got)
	}
	// A sum of zero stays an explicit entry, as in PyTorch.
	z := Must(Must(NewSparseCOO([]int64{0, 0}, []int64{0, 0}, Must(FromSlice([]int32{5, -5})), 1, 1)).Coalesce())
	if z.Nnz() != 1 {
		t.Fatalf("zero sum: nnz %d, want 1", z.Nnz())
	}
	// float16 repeats sum in float32 and round once: 2048+1+1 is 2050, where
	// float16 arithmetic would round 2048+1 back to 2048 twice.
	h := Must(Must(FromSlice([]float64{2048, 1, 1})).AsType(Float16))
	hs := Must(Must(NewSparseCOO([]int64{0, 0, 0}, []int64{0, 0, 0}, h, 1, 1)).Coalesce())
	if _, _, v, _ := hs.SparseParts(); spMust(ToSlice[float64](Must(v.AsType(Float64))))[0] != 2050 {
		t.Errorf("float16 coalesce: %v, want 2050", hs)
	}
	if _, err := Must(FromSlice([]int32{1})).Coalesce(); !errors.Is(err, ErrLayout) {
		t.Fatalf("Coalesce of a strided tensor: %v, want ErrLayout", err)
	}
}

func TestSparseConstructorErrors(t *testing.T) {
	f := Must(FromSlice([]float32{1, 2}))
	cases := []struct {
		name  string
		build func() (*Tensor, error)
		class error
		want  string
	}{
		{"coo 3-D", func() (*Tensor, error) { return NewSparseCOO([]int64{0, 0}, []int64{0, 1}, f, 2, 2, 2) }, ErrLayout, "sparse_coo"},
		{"coo 1-D", func() (*Tensor, error) { return NewSparseCOO([]int64{0, 0}, []int64{0, 1}, f, 2) }, ErrLayout, "sparse_coo"},
		{"coo negative dim", func() (*Tensor, error) { return NewSparseCOO([]int64{0, 0}, []int64{0, 1}, f, -1, 2) }, ErrShape, "sparse_coo"},
		{"coo lengths", func() (*Tensor, error) { return NewSparseCOO([]int64{0}, []int64{0, 1}, f, 2, 2) }, ErrShape, "sparse_coo"},
		{"coo values count", func() (*Tensor, error) { return NewSparseCOO([]int64{0, 1, 1}, []int64{0, 1, 0}, f, 2, 2) }, ErrShape, "sparse_coo"},
		{"coo row range", func() (*Tensor, error) { return NewSparseCOO([]int64{0, 2}, []int64{0, 1}, f, 2, 2) }, ErrValue, "row index 2 of entry 1"},
		{"coo negative row", func() (*Tensor, error) { return NewSparseCOO([]int64{-1, 0}, []int64{0, 1}, f, 2, 2) }, ErrValue, "sparse_coo"},
		{"coo column range", func() (*Tensor, error) { return NewSparseCOO([]int64{0, 1}, []int64{0, 5}, f, 2, 2) }, ErrValue, "column index 5"},
		{"coo nil values", func() (*Tensor, error) { return NewSparseCOO(nil, nil, nil, 2, 2) }, ErrValue, "sparse_coo"},
		{"coo 2-D values", func() (*Tensor, error) {
			return NewSparseCOO([]int64{0}, []int64{0}, Must(FromSlice([]float32{1}, 1, 1)), 2, 2)
		}, ErrShape, "sparse_coo"},
		{"coo sparse values", func() (*Tensor, error) {
			return NewSparseCOO([]int64{0}, []int64{0}, Must(Must(FromSlice([]float32{1}, 1, 1)).ToSparseCOO()), 2, 2)
		}, ErrLayout, "sparse_coo"},
		{"csr 3-D", func() (*Tensor, error) { return NewSparseCSR([]int64{0, 2}, []int64{0, 1}, f, 1, 2, 2) }, ErrLayout, "sparse_csr"},
		{"csr pointer count", func() (*Tensor, error) { return NewSparseCSR([]int64{0, 2}, []int64{0, 1}, f, 2, 2) }, ErrShape, "sparse_csr"},
		{"csr values count", func() (*Tensor, error) { return NewSparseCSR([]int64{0, 1, 1}, []int64{0}, f, 2, 2) }, ErrShape, "sparse_csr"},
		{"csr start", func() (*Tensor, error) { return NewSparseCSR([]int64{1, 2, 2}, []int64{0, 1}, f, 2, 2) }, ErrValue, "start at 1"},
		{"csr decreasing", func() (*Tensor, error) { return NewSparseCSR([]int64{0, 3, 2}, []int64{0, 1}, f, 2, 2) }, ErrValue, "decrease at row 1"},
		{"csr end", func() (*Tensor, error) { return NewSparseCSR([]int64{0, 1, 1}, []int64{0, 1}, f, 2, 2) }, ErrValue, "end at 1"},
		{"csr column range", func() (*Tensor, error) { return NewSparseCSR([]int64{0, 1, 2}, []int64{0, 2}, f, 2, 2) }, ErrValue, "column index 2"},
		{"csr negative column", func() (*Tensor, error) { return NewSparseCSR([]int64{0, 1, 2}, []int64{-1, 0}, f, 2, 2) }, ErrValue, "sparse_csr"},
		{"to_sparse_coo 3-D", func() (*Tensor, error) { return Must(Zeros(Float32, 1, 2, 2)).ToSparseCOO() }, ErrLayout, "sparse_coo"},
		{"to_sparse_csr 1-D", func() (*Tensor, error) { return f.ToSparseCSR() }, ErrLayout, "sparse_csr"},
	}
	for _, c := range cases {
		_, err := c.build()
		if !errors.Is(err, c.class) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want class %v mentioning %q", c.name, err, c.class, c.want)
		}
	}
}

func TestSparseString(t *testing.T) {
	v := Must(FromSlice([]float32{3, 4, 5}))
	coo := Must(NewSparseCOO([]int64{0, 1, 1}, []int64{2, 0, 2}, v, 2, 3))
	want := "Tensor(indices=[[0 1 1]\n [2 0 2]], values=[3. 4. 5.], size=(2, 3), nnz=3, layout=sparse_coo, device=xpux:0)"
	if got := coo.String(); got != want {
		t.Errorf("coo:\n%s\nwant\n%s", got, want)
	}
	csr := Must(Must(coo.AsType(Int64)).ToSparseCSR())
	want = "Tensor(crow_indices=[0 1 3], col_indices=[2 0 2], values=[3 4 5], size=(2, 3), nnz=3, dtype=int64, layout=sparse_csr, device=xpux:0)"
	if got := csr.String(); got != want {
		t.Errorf("csr:\n%s\nwant\n%s", got, want)
	}
	empty := Must(Must(Zeros(Float64, 2, 2)).ToSparseCOO())
	want = "Tensor(indices=[], values=[], size=(2, 2), nnz=0, dtype=float64, layout=sparse_coo, device=xpux:0)"
	if got := empty.String(); got != want {
		t.Errorf("empty:\n%s\nwant\n%s", got, want)
	}
	if Strided.String() != "strided" || Layout(7).String() != "Layout(7)" {
		t.Error("layout names")
	}
}

// TestSparseMatmulProperty compares every sparse product with the dense
// product of the densified operands, on random shapes, densities and
// dtypes, with uncoalesced inputs. The values are small integers, so every
// sum is exact and the results must agree bit for bit.
func TestSparseMatmulProperty(t *testing.T) {
	// Results are not cleared before the kernels write them: poisoned,
	// any element a kernel misses shows.
	poisonProductTensors = true
	defer func() { poisonProductTensors = false }()
	rng := rand.New(rand.NewPCG(3, 4))
	pairs := [][2]DType{{Float32, Float32}, {Float64, Int8}, {Bool, Bool}, {Int8, Int8}, {Uint8, Int16},
		{Float16, Float16}, {BFloat16, Float32}, {Complex64, Float64}, {Uint64, Uint32}, {Int32, Bool}, {Float16, BFloat16}}
	for _, dt := range spAllDTypes {
		pairs = append(pairs, [2]DType{dt, dt})
	}
	for iter := range 300 {
		dts := pairs[iter%len(pairs)]
		m, k, n := rng.IntN(9), rng.IntN(9), rng.IntN(9)
		density := []float64{0, 0.03, 0.3, 1}[rng.IntN(4)]
		ca := spRandom(rng, m, k, density, dts[0], true)
		cb := spRandom(rng, k, n, []float64{0, 0.03, 0.3, 1}[rng.IntN(4)], dts[1], true)
		la, lb := Layout(1+rng.IntN(2)), Layout(1+rng.IntN(2))
		sa, sb := ca.sparse(t, la, dts[0]), cb.sparse(t, lb, dts[1])
		da, db := ca.denseOf(t, dts[0]), cb.denseOf(t, dts[1])
		want := Must(Matmul(da, db))
		// sparse@dense, dense@sparse, sparse@sparse.
		spSame(t, "sparse@dense", Must(Matmul(sa, db)), want)
		spSame(t, "dense@sparse", Must(Matmul(da, sb)), want)
		ss := Must(Matmul(sa, sb))
		if ss.Layout() != la || !ss.IsCoalesced() {
			t.Fatalf("sparse@sparse: layout %v coalesced %v, want %v coalesced", ss.Layout(), ss.IsCoalesced(), la)
		}
		spSame(t, "sparse@sparse", Must(ss.ToDense()), want)
		// A transposed (strided) dense operand and 1-D operands.
		spSame(t, "sparse@dense.T", Must(Matmul(sa, Must(Must(db.Transpose().Contiguous()).MT()))), want)
		if n > 0 {
			col := Must(db.Slice(All(), Index(0)))
			spSame(t, "sparse@1-D", Must(Matmul(sa, col)), Must(Matmul(da, col)))
		}
		if m > 0 {
			row := Must(da.Slice(Index(m - 1)))
			spSame(t, "1-D@sparse", Must(Matmul(row, sb)), Must(Matmul(row, db)))
		}
		// The into-form into a strided view.
		if m > 0 && n > 0 {
			big := Must(Full(7, want.dtype, m, 2*n))
			view := Must(big.Slice(All(), All().By(2)))
			if err := MatmulInto(view, sa, db); err != nil {
				t.Fatal(err)
			}
			spSame(t, "matmul into", Must(view.Contiguous()), want)
			if got := Must(Must(big.Slice(All(), From(1).By(2))).Contiguous()); !bytes.Equal(spBytes(got), spBytes(Must(Full(7, want.dtype, m, n)))) {
				t.Fatal("MatmulInto wrote outside its view")
			}
		}
	}
}

// TestSparseMatmulRules covers the table of rules one at a time.
func TestSparseMatmulRules(t *testing.T) {
	nan := math.NaN()
	// [[1, 0]] @ [[2], [nan]]: the implicit zero never meets the NaN.
	a := Must(Must(FromSlice([]float64{1, 0}, 1, 2)).ToSparseCOO())
	b := Must(FromSlice([]float64{2, nan}, 2, 1))
	got := Must(Matmul(a, b))
	if v := spMust(ToSlice[float64](got)); v[0] != 2 {
		t.Errorf("sparse@dense with NaN at an implicit zero: %v, want 2", v)
	}
	bt := Must(FromSlice([]float64{2, nan}, 1, 2))
	at := Must(Must(FromSlice([]float64{1, 0}, 2, 1)).ToSparseCSR())
	if v := spMust(ToSlice[float64](Must(Matmul(bt, at)))); v[0] != 2 {
		t.Errorf("dense@sparse with NaN at an implicit zero: %v, want 2", v)
	}
	// Uncoalesced duplicates sum.
	dup := Must(NewSparseCOO([]int64{0, 0}, []int64{1, 1}, Must(FromSlice([]float64{1, 2})), 1, 2))
	if v := spMust(ToSlice[float64](Must(Matmul(dup, Must(FromSlice([]float64{5, 10})))))); len(v) != 1 || v[0] != 30 {
		t.Errorf("duplicates: %v, want [30]", v)
	}
	// Promotion: int8 sparse @ float32 dense is float32; uint64 with int8 fails.
	i8 := Must(Must(FromSlice([]int8{1, 2}, 1, 2)).ToSparseCSR())
	if r := Must(Matmul(i8, Must(Ones(Float32, 2, 3)))); r.DType() != Float32 || !shape.Equal(r.Shape(), []int{1, 3}) {
		t.Errorf("promotion: %v %v", r.DType(), r.Shape())
	}
	u64 := Must(Must(Ones(Uint64, 2, 2)).ToSparseCOO())
	if _, err := Matmul(u64, Must(Ones(Int8, 2, 2))); !errors.Is(err, ErrDType) {
		t.Errorf("uint64@int8: %v, want ErrDType", err)
	}
	// Errors: rank, inner size, 0-d, sparse into-forms.
	if _, err := Matmul(a, Must(Ones(Float64, 1, 2, 1))); !errors.Is(err, ErrLayout) || !strings.Contains(err.Error(), "sparse_coo") {
		t.Errorf("3-D operand: %v, want ErrLayout naming sparse_coo", err)
	}
	if _, err := Matmul(Must(Ones(Float64, 2, 1, 2)), at); !errors.Is(err, ErrLayout) || !strings.Contains(err.Error(), "sparse_csr") {
		t.Errorf("3-D left operand: %v, want ErrLayout naming sparse_csr", err)
	}
	if _, err := Matmul(a, Must(Ones(Float64, 3, 1))); !errors.Is(err, ErrShape) {
		t.Errorf("inner mismatch: %v, want ErrShape", err)
	}
	if _, err := Matmul(a, ScalarOf(1.0)); !errors.Is(err, ErrShape) {
		t.Errorf("0-d: %v, want ErrShape", err)
	}
	if err := MatmulInto(Must(Zeros(Float64, 1, 1)), a, at); !errors.Is(err, ErrLayout) {
		t.Errorf("into with sparse result: %v, want ErrLayout", err)
	}
	if err := MatmulInto(a, a, at); !errors.Is(err, ErrLayout) {
		t.Errorf("into a sparse output: %v, want ErrLayout", err)
	}
	if err := MatmulInto(a, Must(Ones(Float64, 2, 1, 2)), Must(Ones(Float64, 2, 1))); !errors.Is(err, ErrLayout) || !strings.Contains(err.Error(), "output") {
		t.Errorf("dense product into a sparse output: %v, want ErrLayout about the output", err)
	}
	if err := MatmulInto(Must(Zeros(Float64, 2, 1)), a, b); !errors.Is(err, ErrShape) {
		t.Errorf("into wrong shape: %v, want ErrShape", err)
	}
	if err := MatmulInto(Must(Zeros(Float32, 1, 1)), a, b); !errors.Is(err, ErrDType) {
		t.Errorf("into wrong dtype: %v, want ErrDType", err)
	}
	// A broadcast dense operand is read in place; an output aliasing the
	// dense operand gets the product as if computed into a temporary.
	sq := Must(NewSparseCOO([]int64{0, 1, 1}, []int64{1, 0, 1}, Must(FromSlice([]float64{2, 3, 4})), 2, 2))
	row := Must(Must(FromSlice([]float64{1, 10})).BroadcastTo(2, 2))
	if v := spMust(ToSlice[float64](Must(Matmul(sq, row)))); v[0] != 2 || v[1] != 20 || v[2] != 7 || v[3] != 70 {
		t.Errorf("sparse@broadcast: %v, want [2 20 7 70]", v)
	}
	alias := Must(FromSlice([]float64{1, 2, 3, 4}, 2, 2))
	if err := MatmulInto(alias, sq, alias); err != nil {
		t.Fatal(err)
	}
	if v := spMust(ToSlice[float64](alias)); v[0] != 6 || v[1] != 8 || v[2] != 15 || v[3] != 22 {
		t.Errorf("aliased into-form: %v, want [6 8 15 22]", v)
	}
	// The into-form overwrites stale contents even when K = 0.
	e := Must(Must(Zeros(Float32, 2, 0)).ToSparseCSR())
	out := Must(Full(nan, Float32, 2, 3))
	if err := MatmulInto(out, e, Must(Zeros(Float32, 0, 3))); err != nil {
		t.Fatal(err)
	}
	for _, v := range spMust(ToSlice[float32](out)) {
		if v != 0 || math.Signbit(float64(v)) {
			t.Fatalf("K = 0 into-form left %v", v)
		}
	}
	// float16 accumulates in float32: 2048 + 1 + 1 is 2050 (float16 alone
	// would round 2048+1 back to 2048 twice).
	h := Must(Must(FromSlice([]float64{2048, 1, 1}, 1, 3)).AsType(Float16))
	hs := Must(h.ToSparseCOO())
	r := Must(Must(Matmul(hs, Must(Ones(Float16, 3, 1)))).AsType(Float64))
	if v := spMust(ToSlice[float64](r)); v[0] != 2050 {
		t.Errorf("float16 accumulation: %v, want 2050", v)
	}
}

func TestSparseMul(t *testing.T) {
	nan := math.NaN()
	s := Must(NewSparseCOO([]int64{1, 0, 1}, []int64{0, 1, 0}, Must(FromSlice([]float32{2, 3, 4})), 2, 2))
	d := Must(FromSlice([]float32{float32(nan), 10, 100, float32(math.Inf(1))}, 2, 2))
	// Sparse × dense keeps the pattern; the NaN and Inf at implicit zeros do not appear.
	for _, r := range []*Tensor{Must(Mul(s, d)), Must(Mul(d, s))} {
		if r.Layout() != SparseCOO || r.Nnz() != 3 {
			t.Fatalf("sparse×dense: %v", r)
		}
		if v := spMust(ToSlice[float32](Must(r.ToDense()))); v[0] != 0 || v[1] != 30 || v[2] != 600 || v[3] != 0 {
			t.Errorf("sparse×dense dense values %v, want [0 30 600 0]", v)
		}
	}
	// A strided (transposed) dense operand is read through its view.
	if v := spMust(ToSlice[float32](Must(Must(Mul(s, d.Transpose())).ToDense()))); v[1] != 300 || v[2] != 60 {
		t.Errorf("sparse×transposed: %v", v)
	}
	// Scalars are weak; a 0-d tensor promotes.
	sc := Must(Mul(s, 2))
	if sc.DType() != Float32 || spMust(ToSlice[float32](Must(sc.ToDense())))[2] != 12 {
		t.Errorf("sparse×2: %v", sc)
	}
	if r := Must(Mul(ScalarOf(2.0), s)); r.DType() != Float64 {
		t.Errorf("0-d float64 × float32 sparse: %v", r.DType())
	}
	i8 := Must(Must(FromSlice([]int8{1, 0, 0, 2}, 2, 2)).ToSparseCSR())
	if _, err := Mul(i8, 300); !errors.Is(err, ErrValue) {
		t.Errorf("int8 sparse × 300: %v, want ErrValue", err)
	}
	// Sparse × sparse is the intersection, coalesced, in the first layout.
	other := Must(NewSparseCSR([]int64{0, 1, 3}, []int64{0, 1, 0}, Must(FromSlice([]float32{5, 7, 1})), 2, 2))
	r := Must(Mul(s, other))
	if r.Layout() != SparseCOO || !r.IsCoalesced() || r.Nnz() != 1 {
		t.Fatalf("intersection: %v", r)
	}
	if v := spMust(ToSlice[float32](Must(r.ToDense()))); v[2] != 6 || v[0] != 0 || v[1] != 0 || v[3] != 0 {
		t.Errorf("intersection values %v, want [0 0 6 0]: (2+4)·1 at (1,0), the only common position", v)
	}
	if r := Must(Mul(other, s)); r.Layout() != SparseCSR {
		t.Errorf("csr × coo layout %v", r.Layout())
	}
	// No broadcasting; into-form and reductions refuse sparse tensors.
	if _, err := Mul(s, Must(Ones(Float32, 2))); !errors.Is(err, ErrShape) {
		t.Errorf("broadcast: %v, want ErrShape", err)
	}
	if _, err := Mul(s, Must(Must(Ones(Float32, 2, 3)).ToSparseCOO())); !errors.Is(err, ErrShape) {
		t.Errorf("sparse shapes: %v, want ErrShape", err)
	}
	if err := MulInto(Must(Zeros(Float32, 2, 2)), s, d); !errors.Is(err, ErrLayout) {
		t.Errorf("MulInto: %v, want ErrLayout", err)
	}
	if _, err := Mul(s, "x"); !errors.Is(err, ErrDType) {
		t.Errorf("string operand: %v, want ErrDType", err)
	}
}

// TestSparseMulProperty compares sparse products with dense ones.
func TestSparseMulProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for iter := range 200 {
		dt := spAllDTypes[iter%len(spAllDTypes)]
		dt2 := spAllDTypes[rng.IntN(len(spAllDTypes))]
		if dt == Uint64 && dt2.IsSigned() || dt2 == Uint64 && dt.IsSigned() {
			dt2 = dt
		}
		m, n := rng.IntN(6), rng.IntN(6)
		ca := spRandom(rng, m, n, []float64{0, 0.1, 0.5, 1}[rng.IntN(4)], dt, true)
		cb := spRandom(rng, m, n, []float64{0, 0.1, 0.5, 1}[rng.IntN(4)], dt2, true)
		sa := ca.sparse(t, Layout(1+rng.IntN(2)), dt)
		da, db := ca.denseOf(t, dt), cb.denseOf(t, dt2)
		want := Must(Mul(da, db))
		spSameValues(t, "sparse×dense", Must(Mul(sa, db)), want)
		spSameValues(t, "dense×sparse", Must(Mul(db, sa)), Must(Mul(db, da)))
		sb := cb.sparse(t, Layout(1+rng.IntN(2)), dt2)
		spSameValues(t, "sparse×sparse", Must(Mul(sa, sb)), want)
	}
}

func TestSparseLayoutErrors(t *testing.T) {
	s := Must(Must(FromSlice([]float32{1, 0, 0, 2}, 2, 2)).ToSparseCSR())
	checks := map[string]error{}
	_, checks["prod"] = Prod(s)
	checks["prod_into"] = ProdInto(Must(Zeros(Float32)), s)
	_, checks["reshape"] = s.Reshape(4)
	_, checks["permute"] = s.Permute(1, 0)
	_, checks["mT"] = s.MT()
	_, checks["broadcast_to"] = s.BroadcastTo(2, 2, 2)
	_, checks["contiguous"] = s.Contiguous()
	_, checks["clone"] = s.Clone()
	_, checks["slice"] = s.Slice(Index(0))
	_, checks["squeeze"] = s.Squeeze()
	_, checks["expand_dims"] = s.ExpandDims(0)
	_, checks["at"] = s.At(0, 0)
	_, checks["item"] = s.Item()
	_, checks["to_slice"] = ToSlice[float32](s)
	checks["write_npy"] = WriteNPY(&bytes.Buffer{}, s)
	for op, err := range checks {
		if !errors.Is(err, ErrLayout) || !strings.Contains(err.Error(), "sparse_csr") {
			t.Errorf("%s: %v, want ErrLayout naming sparse_csr", op, err)
		}
	}
	if s.IsContiguous() {
		t.Error("a sparse tensor reports contiguous")
	}
	if s.Size() != 4 || s.NDim() != 2 || s.Nnz() != 2 || Must(Zeros(Float32, 3)).Nnz() != 3 {
		t.Error("size, ndim or nnz")
	}
	if _, _, _, err := Must(Zeros(Float32, 2)).SparseParts(); !errors.Is(err, ErrLayout) {
		t.Errorf("SparseParts of strided: %v", err)
	}
	if d := Must(Zeros(Float32, 2)); Must(d.ToDense()) != d {
		t.Error("ToDense of a strided tensor should return it")
	}
	// AsType converts the tensor's value: repeats are summed first.
	dup := Must(NewSparseCOO([]int64{0, 0, 1, 1}, []int64{0, 0, 1, 1}, Must(FromSlice([]float32{1.5, 1.5, 1, -1})), 2, 2))
	if v := spMust(ToSlice[int32](Must(Must(dup.AsType(Int32)).ToDense()))); v[0] != 3 || v[3] != 0 {
		t.Errorf("AsType int32 of repeats: %v, want 3 at (0,0) and 0 at (1,1)", v)
	}
	if v := spMust(ToSlice[bool](Must(Must(dup.AsType(Bool)).ToDense()))); !v[0] || v[3] {
		t.Errorf("AsType bool of repeats: %v, want true at (0,0), false at (1,1)", v)
	}
	if _, err := s.AsType(DType(99)); !errors.Is(err, ErrDType) {
		t.Errorf("AsType invalid dtype: %v", err)
	}
}

// FuzzSparseConstructors builds sparse tensors from arbitrary index data:
// the constructors either refuse it with a classed error or accept it, and
// then every form of the tensor densifies alike.
func FuzzSparseConstructors(f *testing.F) {
	f.Add(uint8(2), uint8(3), []byte{0, 2, 1, 0, 1, 2}, false)
	f.Add(uint8(2), uint8(2), []byte{0, 1, 2, 0, 1}, true)
	f.Add(uint8(0), uint8(0), []byte{}, true)
	f.Add(uint8(3), uint8(1), []byte{0, 0, 255, 3, 0}, true)
	f.Fuzz(func(t *testing.T, m, n uint8, data []byte, csr bool) {
		rows, cols := int(m%8), int(n%8)
		idx := make([]int64, len(data))
		for i, b := range data {
			idx[i] = int64(int8(b)) // negatives included
		}
		var s *Tensor
		var err error
		if csr {
			k := min(rows+1, len(idx))
			crow, rest := idx[:k], idx[k:]
			vals := Must(Arange(len(rest), Float64))
			s, err = NewSparseCSR(crow, rest, vals, rows, cols)
		} else {
			half := len(idx) / 2
			vals := Must(Arange(half, Float64))
			s, err = NewSparseCOO(idx[:half], idx[half:2*half], vals, rows, cols)
		}
		if err != nil {
			if !errors.Is(err, ErrValue) && !errors.Is(err, ErrShape) {
				t.Fatalf("unclassed error %v", err)
			}
			return
		}
		want := Must(s.ToDense())
		for _, form := range []func() (*Tensor, error){s.Coalesce, s.ToSparseCOO, s.ToSparseCSR} {
			spSame(t, "form", Must(Must(form()).ToDense()), want)
		}
		spSame(t, "transpose", Must(s.Transpose().ToDense()), Must(want.Transpose().Contiguous()))
		_ = s.String()
	})
}

// spMust returns v and fails the process on err, for values other than
// tensors (Must covers those).
func spMust[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// spBenchOperand builds an m×n sparse matrix of nnz entries at distinct
// random positions with values in [0.9999, 1.0001), as the spmm and spgemm
// workloads describe.
func spBenchOperand(b *testing.B, m, n, nnz int, dt DType, l Layout) *Tensor {
	rng := rand.New(rand.NewPCG(uint64(m), uint64(nnz)))
	seen := map[int64]bool{}
	rows, cols := make([]int64, 0, nnz), make([]int64, 0, nnz)
	for len(rows) < nnz {
		p := rng.Int64N(int64(m) * int64(n))
		if !seen[p] {
			seen[p] = true
			rows, cols = append(rows, p/int64(n)), append(cols, p%int64(n))
		}
	}
	s := Must(NewSparseCOO(rows, cols, Must(Rand(1, dt, 0.9999, 1.0001, nnz)), m, n))
	if l == SparseCSR {
		return Must(s.ToSparseCSR())
	}
	return Must(s.Coalesce())
}

// BenchmarkSparse times the spmm/ and spgemm/ workloads of
// bench/workloads.json (go test -bench Sparse -benchtime 5x).
func BenchmarkSparse(b *testing.B) {
	b.Run("spmm/float32/csr100000x100000-nnz1M@64", func(b *testing.B) {
		a := spBenchOperand(b, 100000, 100000, 1000000, Float32, SparseCSR)
		d := Must(Rand(2, Float32, 0.9999, 1.0001, 100000, 64))
		b.ResetTimer()
		for range b.N {
			Must(Matmul(a, d))
		}
	})
	b.Run("spmm/float64/coo20000x20000-nnz400k@128", func(b *testing.B) {
		a := spBenchOperand(b, 20000, 20000, 400000, Float64, SparseCOO)
		d := Must(Rand(2, Float64, 0.9999, 1.0001, 20000, 128))
		b.ResetTimer()
		for range b.N {
			Must(Matmul(a, d))
		}
	})
	b.Run("spgemm/float64/csr20000x20000-nnz200k@csr", func(b *testing.B) {
		a := spBenchOperand(b, 20000, 20000, 200000, Float64, SparseCSR)
		c := spBenchOperand(b, 20000, 20000, 200000, Float64, SparseCSR)
		b.ResetTimer()
		for range b.N {
			Must(Matmul(a, c))
		}
	})
}

// TestSparseTransposeWide checks that a CSR tensor with a huge column count
// transposes (to COO) without row pointers for every column, and that a
// SciPy csc file of that shape loads.
func TestSparseTransposeWide(t *testing.T) {
	big, ok := intBeyond32()
	if !ok {
		t.Skip("a 2^40+1-column shape needs a 64-bit int")
	}
	s := Must(NewSparseCSR([]int64{0, 1, 2}, []int64{1 << 40, 5}, Must(FromSlice([]float32{1, 2})), 2, big+1))
	tr := s.Transpose()
	rows, cols, _, _ := tr.SparseParts()
	if tr.Layout() != SparseCOO || !shape.Equal(tr.Shape(), []int{big + 1, 2}) || !spEqualInts(rows, []int64{1 << 40, 5}) || !spEqualInts(cols, []int64{0, 1}) {
		t.Fatalf("wide transpose: %v", tr)
	}
	// Back to (2, 2^40+1), sorted.
	back := Must(tr.Transpose().Coalesce())
	if r, c, _, _ := back.SparseParts(); !spEqualInts(r, []int64{0, 1}) || !spEqualInts(c, []int64{1 << 40, 5}) {
		t.Fatalf("transposed back: %v", back)
	}
	var f bytes.Buffer
	writeFormatArray(&f, "csc")
	archive := spZip(t, map[string][]byte{
		"indptr.npy":  spNPY(t, Must(FromSlice([]int64{0, 1, 2}))),
		"indices.npy": spNPY(t, Must(FromSlice([]int64{1 << 40, 5}))),
		"format.npy":  f.Bytes(),
		"shape.npy":   spNPY(t, Must(FromSlice([]int64{1<<40 + 1, 2}))),
		"data.npy":    spNPY(t, Must(FromSlice([]float32{1, 2}))),
	}, "indptr.npy", "indices.npy", "format.npy", "shape.npy", "data.npy")
	csc, err := ReadSparseNPZ(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		t.Fatal(err)
	}
	if r, c, _, _ := csc.SparseParts(); !spEqualInts(r, []int64{1 << 40, 5}) || !spEqualInts(c, []int64{0, 1}) {
		t.Fatalf("wide csc: %v", csc)
	}
}

// TestSparseMatmulHugeDims multiplies sparse matrices whose dimensions
// dwarf their entries (row pointers for them would need terabytes) and
// checks the result against products summed entry by entry.
func TestSparseMatmulHugeDims(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	type entry struct{ r, c int64 }
	draw := func(m, n int64, nnz int) ([]int64, []int64, []float64) {
		var rows, cols []int64
		var vals []float64
		for range nnz {
			rows, cols = append(rows, rng.Int64N(m)), append(cols, rng.Int64N(n))
			vals = append(vals, float64(rng.IntN(5)-2))
		}
		return rows, cols, vals
	}
	if _, ok := intBeyond32(); !ok {
		t.Skip("dimensions of 2^40 need a 64-bit int")
	}
	for _, dims := range [][3]int64{{1 << 40, 50, 7}, {10, 1 << 40, 7}, {1 << 30, 1 << 30, 1 << 30}, {3, 40, 1 << 40}} {
		m, k, n := dims[0], dims[1], dims[2]
		ra, ca, va := draw(m, k, 60)
		rb, cb, vb := draw(k, n, 60)
		// Make some inner indices meet.
		for i := range 30 {
			rb[i] = ca[i]
		}
		want := map[entry]float64{}
		for p := range ra {
			for q := range rb {
				if ca[p] == rb[q] {
					want[entry{ra[p], cb[q]}] += va[p] * vb[q]
				}
			}
		}
		a := Must(NewSparseCOO(ra, ca, Must(FromSlice(va)), int(m), int(k)))
		b := Must(NewSparseCOO(rb, cb, Must(FromSlice(vb)), int(k), int(n)))
		pairs := [][2]*Tensor{{a, b}, {a, Must(b.Coalesce())}}
		if m < 1<<20 { // a CSR left operand has its m+1 row pointers anyway
			pairs = append(pairs, [2]*Tensor{Must(a.ToSparseCSR()), b})
		}
		for _, pair := range pairs {
			c := Must(Matmul(pair[0], pair[1]))
			if c.Layout() != pair[0].Layout() || !c.IsCoalesced() || !shape.Equal(c.Shape(), []int{int(m), int(n)}) {
				t.Fatalf("%v: %v %v %v", dims, c.Layout(), c.IsCoalesced(), c.Shape())
			}
			c = Must(c.ToSparseCOO())
			rows, cols, v, _ := c.SparseParts()
			vals := spMust(ToSlice[float64](v))
			if len(vals) != len(want) {
				t.Fatalf("%v: %d entries, want %d", dims, len(vals), len(want))
			}
			for p := range vals {
				if w, ok := want[entry{rows[p], cols[p]}]; !ok || w != vals[p] {
					t.Fatalf("%v: (%d, %d) = %v, want %v (present %v)", dims, rows[p], cols[p], vals[p], w, ok)
				}
			}
		}
	}
}

// TestSparseMatmulRepeatedEntriesEachContribute checks that every stored
// entry of an uncoalesced COO operand contributes its own product, on
// either side of a dense operand and in a sparse product: 1 and -3 at one
// position facing inf give inf - 3·inf = NaN, not (1 - 3)·inf = -inf.
func TestSparseMatmulRepeatedEntriesEachContribute(t *testing.T) {
	dup := Must(NewSparseCOO([]int64{0, 0}, []int64{0, 0}, Must(FromSlice([]float32{1, -3})), 1, 1))
	inf := Must(FromSlice([]float32{float32(math.Inf(1))}, 1, 1))
	infSparse := Must(NewSparseCOO([]int64{0}, []int64{0}, Must(FromSlice([]float32{float32(math.Inf(1))})), 1, 1))
	for name, got := range map[string]*Tensor{
		"sparse @ dense":   Must(Matmul(dup, inf)),
		"dense @ sparse":   Must(Matmul(inf, dup)),
		"sparse @ sparse":  Must(Must(Matmul(dup, infSparse)).ToDense()),
		"sparse @ sparse'": Must(Must(Matmul(infSparse, dup)).ToDense()),
	} {
		v, err := ToSlice[float32](got)
		if err != nil || len(v) != 1 || !math.IsNaN(float64(v[0])) {
			t.Errorf("%s: %v, want [NaN]", name, v)
		}
	}
}

// TestToSparseBoundsItsAllocation checks that conversions whose result
// would not fit in memory are clean ErrShape errors: a dense view of 2^62
// rows and no columns (its CSR row pointers; before, make panicked), 10^10
// rows (a fatal out-of-memory before), and a COO tensor of 2^40 rows, a
// few bytes, whose CSR form needs 8 TB of row pointers.
func TestToSparseBoundsItsAllocation(t *testing.T) {
	for _, rows := range []int{hugeInt, min(10_000_000_000, math.MaxInt)} {
		z := Must(Zeros(Float32, rows, 0))
		if _, err := z.ToSparseCSR(); !errors.Is(err, ErrShape) || !strings.Contains(err.Error(), "to_sparse_csr:") {
			t.Errorf("Zeros(%d, 0).ToSparseCSR(): %v, want an ErrShape error", rows, err)
		}
		coo, err := z.ToSparseCOO() // no row pointers: a few bytes
		if err != nil || coo.Nnz() != 0 || coo.Shape()[0] != rows {
			t.Errorf("Zeros(%d, 0).ToSparseCOO(): %v", rows, err)
		}
	}
	if big, ok := intBeyond32(); ok {
		tall := Must(NewSparseCOO([]int64{1 << 39}, []int64{0}, Must(FromSlice([]float64{2})), big, 1))
		if _, err := tall.ToSparseCSR(); !errors.Is(err, ErrShape) {
			t.Errorf("a COO tensor of 2^40 rows to CSR: %v, want an ErrShape error", err)
		}
	}
	// A broadcast view costs nothing; its conversion must be refused
	// before it allocates, and quickly.
	// 2^20×2^20 (2^15×2^15 where int has 32 bits).
	side := 1 << min(20, strconv.IntSize/2-1)
	wide := Must(Must(FromSlice([]float64{1})).BroadcastTo(side, side))
	if _, err := wide.ToSparseCOO(); !errors.Is(err, ErrShape) {
		t.Errorf("a broadcast %d×%d to COO: %v, want an ErrShape error", side, side, err)
	}
	zeros := Must(Must(FromSlice([]float64{0})).BroadcastTo(side, side))
	if s, err := zeros.ToSparseCSR(); err != nil || s.Nnz() != 0 {
		t.Errorf("broadcast zeros %d×%d to CSR: %v", side, side, err)
	}
}

package sparse

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// elemType describes how the product tests treat one element type.
type elemType[T Number] struct {
	gen    func(*rand.Rand) T
	tol    float64 // relative error allowed per term; 0 demands exact equality
	poison T       // prefilled into outputs to prove they are overwritten
	nan    *T      // a NaN of the type, for floating types
}

func TestProductsFloat32(t *testing.T) {
	nan := float32(math.NaN())
	testProducts(t, elemType[float32]{gen: func(r *rand.Rand) float32 { return r.Float32()*2 - 1 }, tol: 1e-6, poison: nan, nan: &nan})
}

func TestProductsFloat64(t *testing.T) {
	nan := math.NaN()
	testProducts(t, elemType[float64]{gen: func(r *rand.Rand) float64 { return r.Float64()*2 - 1 }, tol: 1e-15, poison: nan, nan: &nan})
}

// Full-range int32 values make almost every product and sum wrap.
func TestProductsInt32Wrapping(t *testing.T) {
	testProducts(t, elemType[int32]{gen: func(r *rand.Rand) int32 { return int32(r.Uint32()) }, poison: 99})
}

func TestProductsUint8Wrapping(t *testing.T) {
	testProducts(t, elemType[uint8]{gen: func(r *rand.Rand) uint8 { return uint8(r.Uint32()) }, poison: 99})
}

func TestProductsComplex128(t *testing.T) {
	nan := complex(math.NaN(), 0)
	testProducts(t, elemType[complex128]{gen: func(r *rand.Rand) complex128 {
		return complex(r.Float64()*2-1, r.Float64()*2-1)
	}, tol: 1e-15, poison: nan, nan: &nan})
}

var productShapes = [][3]int{{0, 0, 0}, {0, 3, 4}, {3, 0, 4}, {3, 4, 0}, {1, 1, 1}, {5, 7, 3}, {17, 9, 33}, {40, 50, 9}, {3, 200, 70}, {64, 64, 64}}

// testProducts checks SpMM, SpMMCOO, DenseSpMM and SpGEMM against the naive
// triple loop over densified operands, on every shape, several densities
// (none, one entry, ~10%, full, twice full so most positions repeat),
// operands with and without duplicates, dense views of every layout, and
// thread counts that must all give the same bits.
func testProducts[T Number](t *testing.T, et elemType[T]) {
	defer func(old int64) { minWorkPerThread = old }(minWorkPerThread)
	minWorkPerThread = 1 // split even tiny products over threads
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sh := range productShapes {
		m, k, n := sh[0], sh[1], sh[2]
		for _, density := range []float64{0, -1, 0.1, 1, 2} {
			nnzOf := func(r, c int) int {
				if density < 0 {
					return 1
				}
				return int(density * float64(r*c))
			}
			name := fmt.Sprintf("%dx%dx%d/density%v", m, k, n, density)
			a := randomCOO(rng, m, k, nnzOf(m, k), et.gen)
			b := randomCOO(rng, k, n, nnzOf(k, n), et.gen)
			aDense, bDense := denseOfCOO(a), denseOfCOO(b)
			// Random dense operands in every layout.
			for vi, bView := range denseViews[T](k, n) {
				fillRandom(rng, bView, et.gen)
				bRM := rowMajor(bView)
				want := naiveMatmul(m, k, n, aDense, bRM)
				scale := naiveMatmul(m, k, n, absDense(a), absSlice(bRM))
				// Each result layout meets each operand layout across the
				// three calls, without running the whole cross product.
				cs := denseViews[T](m, n)
				label := fmt.Sprintf("%s/B%d", name, vi)
				c := cs[vi]
				checkThreads(t, et, label+"/SpMM(unsorted CSR)", c, want, scale, k, func(th int) { SpMM(a.GroupRows(), bView, c, th) })
				c1 := cs[(vi+1)%len(cs)]
				checkThreads(t, et, label+"/SpMM(canonical CSR)", c1, want, scale, k, func(th int) { SpMM(a.ToCSR(), bView, c1, th) })
				c2 := cs[(vi+2)%len(cs)]
				checkThreads(t, et, label+"/SpMMCOO", c2, want, scale, k, func(th int) { SpMMCOO(a, bView, c2, th) })
			}
			for vi, aView := range denseViews[T](m, k) {
				fillRandom(rng, aView, et.gen)
				aRM := rowMajor(aView)
				want := naiveMatmul(m, k, n, aRM, bDense)
				scale := naiveMatmul(m, k, n, absSlice(aRM), absDense(b))
				cs := denseViews[T](m, n)
				for ci := range 2 {
					c := cs[(vi+ci)%len(cs)]
					checkThreads(t, et, fmt.Sprintf("%s/A%d/DenseSpMM", name, vi), c, want, scale, k,
						func(th int) { DenseSpMM(aView, b.GroupRows(), c, th) })
				}
			}
			testSpGEMM(t, et, name, a, b, naiveMatmul(m, k, n, aDense, bDense), naiveMatmul(m, k, n, absDense(a), absDense(b)))
			if et.nan != nil {
				testNaNFacingImplicitZeros(t, et, name, rng, a, b)
			}
		}
	}
}

// checkThreads runs product(threads) into c, prefilled with poison, for
// several thread counts: the first result must match want and every later
// one must match it bit for bit, with nothing written outside c's view.
func checkThreads[T Number](t *testing.T, et elemType[T], name string, c Dense[T], want, scale []T, k int, product func(threads int)) {
	t.Helper()
	var first []T
	for _, threads := range []int{1, 0, 2, 3, 8} {
		fillAll(c.Data, et.poison)
		product(threads)
		got := rowMajor(c)
		if first == nil {
			first = got
			for e := range want {
				if !closeEnough(got[e], want[e], scale[e], k, et.tol) {
					t.Fatalf("%s: element %d = %v, want %v", name, e, got[e], want[e])
				}
			}
		} else if !sameBits(got, first) {
			t.Fatalf("%s: %d threads differ from 1 thread", name, threads)
		}
		checkOutside(t, name, c, et.poison)
	}
}

// testSpGEMM checks a·b in CSR form from unsorted and canonical operands.
func testSpGEMM[T Number](t *testing.T, et elemType[T], name string, a, b *COO[T], want, scale []T) {
	t.Helper()
	reach := reachable(a, b)
	operands := [][2]*CSR[T]{{a.GroupRows(), b.GroupRows()}, {a.ToCSR(), b.ToCSR()}}
	for oi, ops := range operands {
		var first *CSR[T]
		for _, threads := range []int{1, 2, 3, 8} {
			got := SpGEMM(ops[0], ops[1], threads)
			label := fmt.Sprintf("%s/SpGEMM operands %d threads %d", name, oi, threads)
			checkCanonical(t, label, got)
			if got.Rows != a.Rows || got.Cols != b.Cols {
				t.Fatalf("%s: shape %d×%d", label, got.Rows, got.Cols)
			}
			if first != nil {
				if !slices.Equal(got.RowPtr, first.RowPtr) || !slices.Equal(got.ColIdx, first.ColIdx) || !sameBits(got.Values, first.Values) {
					t.Fatalf("%s: differs from 1 thread", label)
				}
				continue
			}
			first = got
			co := got.ToCOO()
			if len(co.RowIdx) != len(reach) {
				t.Fatalf("%s: %d entries, want the %d reachable positions", label, len(co.RowIdx), len(reach))
			}
			for p := range co.RowIdx {
				if !reach[[2]int64{co.RowIdx[p], co.ColIdx[p]}] {
					t.Fatalf("%s: entry at unreachable (%d,%d)", label, co.RowIdx[p], co.ColIdx[p])
				}
			}
			dense := denseOfCSR(got)
			for e := range want {
				if !closeEnough(dense[e], want[e], scale[e], a.Cols, et.tol) {
					t.Fatalf("%s: element %d = %v, want %v", label, e, dense[e], want[e])
				}
			}
		}
		// Both accumulators must agree bit for bit.
		dense := getDenseAccumulator[T](ops[1].Cols)
		var sorting sortingAccumulator[T]
		for i := 0; i < ops[0].Rows; i++ {
			// The row's products, which decide how the dense accumulator lists its columns.
			work := 0
			for _, k := range ops[0].ColIdx[ops[0].RowPtr[i]:ops[0].RowPtr[i+1]] {
				work += int(ops[1].RowPtr[k+1] - ops[1].RowPtr[k])
			}
			xn := dense.add(ops[0], ops[1], i, int64(work))
			xc, xv := make([]int64, xn), make([]T, xn)
			dense.emit(xc, xv)
			y := sorting.row(ops[0], ops[1], i, spgemmPart[T]{})
			if !slices.Equal(xc[:xn], y.cols) || !sameBits(xv[:xn], y.vals) {
				t.Fatalf("%s: accumulators disagree on row %d", name, i)
			}
		}
	}
}

// reachable returns the positions (i, j) with stored a[i,k] and b[k,j].
func reachable[T Number](a, b *COO[T]) map[[2]int64]bool {
	m, k, n := a.Rows, a.Cols, b.Cols
	inA, inB := make([]bool, m*k), make([]bool, k*n)
	for p := range a.RowIdx {
		inA[int(a.RowIdx[p])*k+int(a.ColIdx[p])] = true
	}
	for p := range b.RowIdx {
		inB[int(b.RowIdx[p])*n+int(b.ColIdx[p])] = true
	}
	out := map[[2]int64]bool{}
	for i := range m {
		for kk := range k {
			if !inA[i*k+kk] {
				continue
			}
			for j := range n {
				if inB[kk*n+j] {
					out[[2]int64{int64(i), int64(j)}] = true
				}
			}
		}
	}
	return out
}

// testNaNFacingImplicitZeros puts NaN in every dense element that meets
// only implicit zeros of the sparse operand: the products must not see
// them, so they equal the products with those elements zeroed.
func testNaNFacingImplicitZeros[T Number](t *testing.T, et elemType[T], name string, rng *rand.Rand, a, b *COO[T]) {
	m, k, n := a.Rows, a.Cols, b.Cols
	usedCol := make([]bool, k) // columns of a holding an entry
	for _, c := range a.ColIdx {
		usedCol[c] = true
	}
	usedRow := make([]bool, k) // rows of b holding an entry
	for _, r := range b.RowIdx {
		usedRow[r] = true
	}
	bd := make([]T, k*n)
	clean := make([]T, k*n)
	for kk := range k {
		for j := range n {
			clean[kk*n+j] = et.gen(rng)
			bd[kk*n+j] = clean[kk*n+j]
			if !usedCol[kk] {
				bd[kk*n+j] = *et.nan
				clean[kk*n+j] = 0
			}
		}
	}
	c := Dense[T]{Data: make([]T, m*n), RS: n, CS: 1, Rows: m, Cols: n}
	want := naiveMatmul(m, k, n, denseOfCOO(a), clean)
	scale := naiveMatmul(m, k, n, absDense(a), absSlice(clean))
	checkThreads(t, et, name+"/SpMM NaN", c, want, scale, k, func(th int) {
		SpMM(a.GroupRows(), Dense[T]{Data: bd, RS: n, CS: 1, Rows: k, Cols: n}, c, th)
	})

	ad := make([]T, m*k)
	clean = make([]T, m*k)
	for i := range m {
		for kk := range k {
			clean[i*k+kk] = et.gen(rng)
			ad[i*k+kk] = clean[i*k+kk]
			if !usedRow[kk] {
				ad[i*k+kk] = *et.nan
				clean[i*k+kk] = 0
			}
		}
	}
	want = naiveMatmul(m, k, n, clean, denseOfCOO(b))
	scale = naiveMatmul(m, k, n, absSlice(clean), absDense(b))
	checkThreads(t, et, name+"/DenseSpMM NaN", c, want, scale, k, func(th int) {
		DenseSpMM(Dense[T]{Data: ad, RS: k, CS: 1, Rows: m, Cols: k}, b.GroupRows(), c, th)
	})
}

func naiveMatmul[T Number](m, k, n int, a, b []T) []T {
	c := make([]T, m*n)
	for i := range m {
		for j := range n {
			var s T
			for kk := range k {
				s += a[i*k+kk] * b[kk*n+j]
			}
			c[i*n+j] = s
		}
	}
	return c
}

// absDense densifies m with every entry replaced by its magnitude, so that
// products with it bound the magnitudes summed by a product.
func absDense[T Number](m *COO[T]) []T {
	v := make([]T, len(m.Values))
	for p, x := range m.Values {
		v[p] = abs(x)
	}
	return naiveDense(m.Rows, m.Cols, m.RowIdx, m.ColIdx, v)
}

func absSlice[T Number](s []T) []T {
	out := make([]T, len(s))
	for e, x := range s {
		out[e] = abs(x)
	}
	return out
}

// abs returns |x| for floating and complex types; integers are compared
// exactly, so it leaves them alone.
func abs[T Number](x T) T {
	switch v := any(x).(type) {
	case float32:
		return any(float32(math.Abs(float64(v)))).(T)
	case float64:
		return any(math.Abs(v)).(T)
	case complex64:
		return any(complex64(complex(cmplx.Abs(complex128(v)), 0))).(T)
	case complex128:
		return any(complex(cmplx.Abs(v), 0)).(T)
	}
	return x
}

// closeEnough reports got == want for exact types, and otherwise
// |got-want| ≤ tol·(terms+1)·scale, where scale sums the magnitudes of the
// products (a bound on the rounding error of any summation order).
func closeEnough[T Number](got, want, scale T, terms int, tol float64) bool {
	if tol == 0 {
		return got == want
	}
	g, w, s := toComplex(got), toComplex(want), toComplex(scale)
	if cmplx.IsNaN(g) || cmplx.IsNaN(w) {
		return false
	}
	return cmplx.Abs(g-w) <= tol*float64(terms+1)*real(s)+1e-300
}

func toComplex[T Number](x T) complex128 {
	switch v := any(x).(type) {
	case float32:
		return complex(float64(v), 0)
	case float64:
		return complex(v, 0)
	case complex64:
		return complex128(v)
	case complex128:
		return v
	}
	panic("toComplex of an integer")
}

func sameBits[T Number](x, y []T) bool {
	if len(x) != len(y) {
		return false
	}
	if len(x) == 0 {
		return true
	}
	size := len(x) * int(unsafe.Sizeof(x[0]))
	return slices.Equal(unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), size), unsafe.Slice((*byte)(unsafe.Pointer(&y[0])), size))
}

func fillRandom[T Number](rng *rand.Rand, d Dense[T], gen func(*rand.Rand) T) {
	for i := range d.Rows {
		for j := range d.Cols {
			d.Data[d.Off+i*d.RS+j*d.CS] = gen(rng)
		}
	}
}

func rowMajor[T Number](d Dense[T]) []T {
	out := make([]T, 0, d.Rows*d.Cols)
	for i := range d.Rows {
		for j := range d.Cols {
			out = append(out, d.At(i, j))
		}
	}
	return out
}

// checkOutside fails unless every element of Data outside d's view still
// holds sentinel.
func checkOutside[T Number](t *testing.T, name string, d Dense[T], sentinel T) {
	t.Helper()
	inside := make([]bool, len(d.Data))
	for i := range d.Rows {
		for j := range d.Cols {
			inside[d.Off+i*d.RS+j*d.CS] = true
		}
	}
	s := []T{sentinel}
	for k := range d.Data {
		if !inside[k] && !sameBits(d.Data[k:k+1], s) {
			t.Fatalf("%s: wrote outside the result view at %d", name, k)
		}
	}
}

// TestSpGEMMWide covers results too wide for the bitmap to be worth
// scanning (sorted lists instead) and too wide for a dense accumulator
// at all (sorting accumulator). The reference adds the products in the
// documented order, so float64 results must match it bit for bit.
func TestSpGEMMWide(t *testing.T) {
	defer func(old int64) { minWorkPerThread = old }(minWorkPerThread)
	minWorkPerThread = 1
	rng := rand.New(rand.NewPCG(5, 6))
	gen := func(r *rand.Rand) float64 { return r.Float64()*2 - 1 }
	type pair struct{ a, b *CSR[float64] }
	var pairs []pair
	for _, cols := range []int{5000, 1 << 17} {
		pairs = append(pairs, pair{randomCOO(rng, 6, 9, 20, gen).GroupRows(), randomCOO(rng, 9, cols, 25, gen).GroupRows()})
	}
	// Row 0 reaches the two ends of 2^20 columns, which the second-level
	// bitmap spans in 256 words: too many for 2 entries, so it sorts. Row 1
	// has the work that makes a dense accumulator worth its 2^20 elements.
	const wide, k = 1 << 20, 600
	var ar, ac, br, bc []int64
	ar, ac = append(ar, 0, 0), append(ac, 0, 1)
	for c := range k {
		ar, ac = append(ar, 1), append(ac, int64(c))
	}
	br, bc = append(br, 0, 1), append(bc, 0, wide-1)
	for r := 2; r < k; r++ {
		for range 500 {
			br, bc = append(br, int64(r)), append(bc, rng.Int64N(wide))
		}
	}
	values := func(n int) []float64 {
		v := make([]float64, n)
		for p := range v {
			v[p] = gen(rng)
		}
		return v
	}
	a, _ := NewCOO(2, k, ar, ac, values(len(ar)))
	b, _ := NewCOO(k, wide, br, bc, values(len(br)))
	pairs = append(pairs, pair{a.GroupRows(), b.GroupRows()})
	for _, pr := range pairs {
		a, b, cols := pr.a, pr.b, pr.b.Cols
		want := map[[2]int64]float64{}
		for i := 0; i < a.Rows; i++ {
			for p := a.RowPtr[i]; p < a.RowPtr[i+1]; p++ {
				k := a.ColIdx[p]
				for q := b.RowPtr[k]; q < b.RowPtr[k+1]; q++ {
					key := [2]int64{int64(i), b.ColIdx[q]}
					if _, ok := want[key]; !ok {
						want[key] = 0
					}
					want[key] += float64(a.Values[p] * b.Values[q]) // rounded, as the package rounds
				}
			}
		}
		for _, threads := range []int{1, 2, 4} {
			got := SpGEMM(a, b, threads)
			checkCanonical(t, "wide SpGEMM", got)
			co := got.ToCOO()
			if len(co.Values) != len(want) {
				t.Fatalf("cols %d: %d entries, want %d", cols, len(co.Values), len(want))
			}
			for p, v := range co.Values {
				w, ok := want[[2]int64{co.RowIdx[p], co.ColIdx[p]}]
				if !ok || math.Float64bits(v) != math.Float64bits(w) {
					t.Fatalf("cols %d threads %d: (%d,%d) = %v, want %v (present %v)", cols, threads, co.RowIdx[p], co.ColIdx[p], v, w, ok)
				}
			}
		}
	}
}

// TestShapePreconditionsPanic checks that a caller's shape mistake stops
// the kernels before they write anything.
func TestShapePreconditionsPanic(t *testing.T) {
	a, _ := NewCSR(2, 3, []int64{0, 1, 2}, []int64{0, 2}, []float64{1, 2})
	dense := func(rows, cols, size int) Dense[float64] {
		return Dense[float64]{Data: make([]float64, size), RS: cols, CS: 1, Rows: rows, Cols: cols}
	}
	cases := map[string]func(){
		"SpMM inner":         func() { SpMM(a, dense(4, 2, 8), dense(2, 2, 4), 1) },
		"SpMM result shape":  func() { SpMM(a, dense(3, 2, 6), dense(2, 3, 6), 1) },
		"SpMM operand short": func() { SpMM(a, dense(3, 2, 5), dense(2, 2, 4), 1) },
		"SpMM result short":  func() { SpMM(a, dense(3, 2, 6), dense(2, 2, 3), 1) },
		"SpMM negative offset": func() {
			SpMM(a, dense(3, 2, 6), Dense[float64]{Data: make([]float64, 4), Off: 1, RS: -2, CS: 1, Rows: 2, Cols: 2}, 1)
		},
		"DenseSpMM inner":  func() { DenseSpMM(dense(2, 3, 6), a, dense(2, 3, 6), 1) },
		"DenseSpMM result": func() { DenseSpMM(dense(1, 2, 2), a, dense(2, 3, 6), 1) },
		"SpGEMM inner":     func() { SpGEMM(a, a, 1) },
		"ToDense shape":    func() { a.ToDense(dense(3, 2, 6)) },
		"negative shape":   func() { a.ToDense(Dense[float64]{Rows: -2, Cols: 3}) },
	}
	for name, call := range cases {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			call()
		}()
	}
}

// TestSplitRows checks chunk boundaries: increasing, covering all rows,
// each chunk near its share of the work, and no overflow when work times
// threads exceeds 64 bits.
func TestSplitRows(t *testing.T) {
	for _, tc := range []struct {
		rows, threads int
		perRow        int64
	}{{0, 4, 1}, {1, 4, 1 << 20}, {10, 3, 1 << 20}, {1000, 7, 1 << 10}, {1 << 20, 1 << 19, 1 << 42}, {5, 2, 1}} {
		cost := func(i int) int64 { return int64(i) * tc.perRow }
		b := splitRows(tc.rows, tc.threads, cost)
		if b[0] != 0 || b[len(b)-1] != tc.rows || len(b)-1 > max(tc.threads, 1) {
			t.Fatalf("%+v: bounds %v", tc, b[:min(len(b), 10)])
		}
		chunks := len(b) - 1
		for c := 1; c < len(b); c++ {
			if b[c] <= b[c-1] && tc.rows > 0 {
				t.Fatalf("%+v: bounds not increasing at %d", tc, c)
			}
			// Uniform rows: every chunk holds its share, give or take a row.
			if size, share := b[c]-b[c-1], tc.rows/chunks; size < share-1 || size > share+2 {
				t.Fatalf("%+v: chunk %d has %d rows, share %d", tc, c-1, size, share)
			}
		}
	}
}

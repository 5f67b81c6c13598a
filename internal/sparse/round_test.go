package sparse

import (
	"fmt"
	"testing"
)

// roundingCase is a product x·y added to z whose fused value
// (fma(x, y, z), or for complex types the fusion inside the product) differs
// from the value with each product rounded first, which is want.
type roundingCase[T Number] struct {
	x, y, z, want T
}

// TestProductsRoundedBeforeSum checks that every product path rounds each
// product before adding it, as the package documents, whatever the
// compiler may fuse: Go fuses x*y + z into one multiply-add on arm64,
// ppc64le, s390x, riscv64 and amd64 with GOAMD64=v3, and did so in some of
// these loops and not in others (run it with GOAMD64=v3 or under
// GOARCH=arm64). Each element of the result is z + x·y: row 0 of a holds
// 1 and x, b's row 0 holds z and its row 1 holds y.
func TestProductsRoundedBeforeSum(t *testing.T) {
	e32, e64 := float32(1.0/(1<<13)), 1.0/(1<<30)
	x32, x64 := 1+e32, 1+e64
	testRounding(t, roundingCase[float32]{x32, x32, -1, 2 * e32})
	testRounding(t, roundingCase[float64]{x64, x64, -1, 2 * e64})
	// (1+e)(1+i) squared is 2(1+e)²i: a fused real part keeps −e².
	c64, c128 := complex(x32, x32), complex(x64, x64)
	testRounding(t, roundingCase[complex64]{c64, c64, 0, complex(0, 2*(1+2*e32))})
	testRounding(t, roundingCase[complex128]{c128, c128, 0, complex(0, 2*(1+2*e64))})
}

func testRounding[T Number](t *testing.T, rc roundingCase[T]) {
	t.Helper()
	name := fmt.Sprintf("%T", rc.x)
	// Row 1 of a has four entries (1, x, 1, 1) against b's rows (z, y, 0,
	// 0), so the four-row kernels see the case too.
	aCOO, err := NewCOO(2, 4, []int64{0, 0, 1, 1, 1, 1}, []int64{0, 1, 0, 1, 2, 3}, []T{1, rc.x, 1, rc.x, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	a := aCOO.ToCSR()
	check := func(path string, got []T) {
		t.Helper()
		for e, v := range got {
			if !sameBits([]T{v}, []T{rc.want}) {
				t.Errorf("%s %s: element %d = %v, want %v (each product rounded before the sum)", name, path, e, v, rc.want)
				return
			}
		}
	}
	// b as dense rows (z, y, 0, 0), every column alike, in both layouts.
	const n = 37 // past the assembly kernels' vector width, with a tail
	for _, colMajor := range []bool{false, true} {
		b := Dense[T]{Data: make([]T, 4*n), Rows: 4, Cols: n, RS: n, CS: 1}
		if colMajor {
			b.RS, b.CS = 1, 4
		}
		for j := range n {
			b.Data[b.Off+j*b.CS] = rc.z
			b.Data[b.Off+b.RS+j*b.CS] = rc.y
		}
		c := Dense[T]{Data: make([]T, 2*n), Rows: 2, Cols: n, RS: n, CS: 1}
		SpMM(a, b, c, 1)
		check(fmt.Sprintf("SpMM (b column-major %v)", colMajor), c.Data)
	}
	// DenseSpMM: a dense, b sparse with rows (z, y, 0, 0), into both layouts of c.
	var br, bc []int64
	var bv []T
	for r, v := range []T{rc.z, rc.y, 0, 0} {
		for j := range n {
			br, bc, bv = append(br, int64(r)), append(bc, int64(j)), append(bv, v)
		}
	}
	bCOO, err := NewCOO(4, n, br, bc, bv)
	if err != nil {
		t.Fatal(err)
	}
	bCSR := bCOO.ToCSR()
	aDense := Dense[T]{Data: []T{1, rc.x, 0, 0, 1, rc.x, 1, 1}, Rows: 2, Cols: 4, RS: 4, CS: 1}
	for _, cs := range []int{1, 2} {
		c := Dense[T]{Data: make([]T, 2*n*cs), Rows: 2, Cols: n, RS: n * cs, CS: cs}
		DenseSpMM(aDense, bCSR, c, 1)
		for j := range c.Data {
			if j%cs != 0 {
				c.Data[j] = rc.want // the gaps of the strided layout
			}
		}
		check(fmt.Sprintf("DenseSpMM (c stride %d)", cs), c.Data)
	}
	// SpGEMM, narrow (bitmap accumulator) and wide (listing accumulator),
	// and the sorting accumulator directly.
	for _, cols := range []int{n, 1 << 17} {
		bCOO, err := NewCOO(4, cols, []int64{0, 1, 2, 3}, []int64{int64(cols) - 1, int64(cols) - 1, int64(cols) - 1, int64(cols) - 1}, []T{rc.z, rc.y, 0, 0})
		if err != nil {
			t.Fatal(err)
		}
		b := bCOO.ToCSR()
		check(fmt.Sprintf("SpGEMM (%d columns)", cols), SpGEMM(a, b, 1).Values)
		dense := getDenseAccumulator[T](cols)
		var sorting sortingAccumulator[T]
		for i := range a.Rows {
			xn := dense.add(a, b, i, a.RowPtr[i+1]-a.RowPtr[i])
			xc, xv := make([]int64, xn), make([]T, xn)
			dense.emit(xc, xv)
			check(fmt.Sprintf("dense accumulator (%d columns, listing %v)", cols, dense.listing), xv)
			check(fmt.Sprintf("sorting accumulator (%d columns)", cols), sorting.row(a, b, i, spgemmPart[T]{}).vals)
		}
	}
}

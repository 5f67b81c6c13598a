package gemm

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

// checkComplex compares MulComplex with a complex128 triple loop, summing
// term by term, within a tolerance relative to Σ|a||b|.
func checkComplex[T complex64 | complex128](t *testing.T, rng *rand.Rand, m, n, k int, al, bl, cl layout, eps float64) {
	t.Helper()
	gen := func(n int) []T {
		s := make([]T, n)
		for i := range s {
			s[i] = T(complex(rng.Float64()*2-1, rng.Float64()*2-1))
		}
		return s
	}
	a, b := view(m, k, al, gen), view(k, n, bl, gen)
	if cl == broadcast {
		cl = rowMajor
	}
	c := view(m, n, cl, func(n int) []T {
		s := make([]T, n)
		for i := range s {
			s[i] = T(cmplx.NaN())
		}
		return s
	})
	MulComplex(m, n, k, a, b, c, Options{Threads: 2})
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var want complex128
			var bound float64
			for p := 0; p < k; p++ {
				x, y := complex128(a.at(i, p)), complex128(b.at(p, j))
				want += x * y
				bound += cmplx.Abs(x) * cmplx.Abs(y)
			}
			got := complex128(c.at(i, j))
			if cmplx.Abs(got-want) > 4*float64(k+1)*eps*bound || cmplx.IsNaN(got) {
				t.Fatalf("%dx%dx%d A %v B %v C %v: C[%d,%d] = %v, want %v", m, n, k, al, bl, cl, i, j, got, want)
			}
		}
	}
}

func TestMulComplex(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 25))
	for trial := range 40 {
		m, n, k := 1+rng.IntN(30), 1+rng.IntN(40), rng.IntN(40)
		if trial == 0 {
			m, n, k = 70, 90, 300
		}
		al, bl, cl := layout(rng.IntN(int(numLayouts))), layout(rng.IntN(int(numLayouts))), layout(rng.IntN(int(numLayouts)))
		checkComplex[complex64](t, rng, m, n, k, al, bl, cl, 0x1p-24)
		checkComplex[complex128](t, rng, m, n, k, al, bl, cl, 0x1p-53)
	}
}

// TestMulComplexSpecial checks that Inf and NaN propagate as in the
// schoolbook formula (no zero skipping).
func TestMulComplexSpecial(t *testing.T) {
	a := []complex128{complex(math.Inf(1), 0)}
	b := []complex128{1}
	c := []complex128{0}
	MulComplex(1, 1, 1, Matrix[complex128]{a, 0, 1, 1}, Matrix[complex128]{b, 0, 1, 1}, Matrix[complex128]{c, 0, 1, 1}, Options{})
	// (Inf+0i)(1+0i) = (Inf·1 − 0·0) + (Inf·0 + 0·1)i = Inf + NaN·i.
	if !math.IsInf(real(c[0]), 1) || !math.IsNaN(imag(c[0])) {
		t.Fatalf("(Inf+0i)(1+0i) = %v, want (+Inf+NaNi)", c[0])
	}
}

func TestMulComplexBatch(t *testing.T) {
	const batch, m, n, k = 5, 3, 4, 6
	rng := rand.New(rand.NewPCG(26, 27))
	a := make([]complex64, batch*m*k)
	b := make([]complex64, k*n)
	for i := range a {
		a[i] = complex(rng.Float32(), rng.Float32())
	}
	for i := range b {
		b[i] = complex(rng.Float32(), rng.Float32())
	}
	c := make([]complex64, batch*m*n)
	aOffs, bOffs, cOffs := make([]int, batch), make([]int, batch), make([]int, batch)
	for i := range batch {
		aOffs[i], cOffs[i] = i*m*k, i*m*n
	}
	MulComplexBatch(batch, m, n, k, Matrix[complex64]{a, 0, k, 1}, Matrix[complex64]{b, 0, n, 1}, Matrix[complex64]{c, 0, n, 1}, aOffs, bOffs, cOffs, Options{Threads: 2})
	for i := range batch {
		want := make([]complex64, m*n)
		MulComplex(m, n, k, Matrix[complex64]{a, aOffs[i], k, 1}, Matrix[complex64]{b, 0, n, 1}, Matrix[complex64]{want, 0, n, 1}, Options{Threads: 1})
		for j, w := range want {
			if c[cOffs[i]+j] != w {
				t.Fatalf("matrix %d element %d = %v, MulComplex gives %v", i, j, c[cOffs[i]+j], w)
			}
		}
	}
}

// widenedProduct is mulInterleaved through a wide matrix built whole: the
// real product its packing from B (packWide) must reproduce bit for bit.
func widenedProduct[T complex64 | complex128, R float32 | float64](m, n, k int, a, b Matrix[T], threads int) []R {
	ap, bp := realViews[T, R](a), realViews[T, R](b)
	ar := Matrix[R]{make([]R, 2*m*k), 0, 2 * k, 1}
	for i := range m {
		for p := range k {
			ar.Data[i*2*k+2*p], ar.Data[i*2*k+2*p+1] = ap.re.at(i, p), ap.im.at(i, p)
		}
	}
	wide := make([]R, 4*k*n)
	widen(wide, 0, k, n, bp)
	c := make([]R, 2*m*n)
	Mul(m, 2*n, 2*k, ar, Matrix[R]{wide, 0, 2 * n, 1}, Matrix[R]{c, 0, 2 * n, 1}, Options{Threads: threads})
	return c
}

// TestMulComplexPackedWide checks that the complex products whose wide
// matrix is packed from B (packsWide) give the bits of the wide matrix
// built whole, with every kernel set, across K blocks (odd ones too, so
// that a block starts on an imaginary row), sliver and tile edges, B
// layouts, on one goroutine and two.
func TestMulComplexPackedWide(t *testing.T) {
	defer func(saved kernelSet) { active = saved }(active)
	rng := rand.New(rand.NewPCG(28, 29))
	for _, v := range kernelSets.Variants() {
		active = v.K
		checkPackedWide[complex64, float32](t, rng, v.Name())
		checkPackedWide[complex128, float64](t, rng, v.Name())
	}
}

func checkPackedWide[T complex64 | complex128, R float32 | float64](t *testing.T, rng *rand.Rand, set string) {
	t.Helper()
	gen := func(n int) []T {
		x := make([]T, n)
		for i := range x {
			x[i] = T(complex(rng.Float64()*2-1, rng.Float64()*2-1))
		}
		return x
	}
	for _, s := range [][3]int{{40, 33, 20}, {13, 70, 301}, {100, 17, 150}, {30, 48, 401}} {
		m, n, k := s[0], s[1], s[2]
		if !packsWide[R](m, n, k, Options{}) {
			t.Fatalf("%v: %dx%dx%d does not take packWide", set, m, n, k)
		}
		for _, bl := range []layout{rowMajor, colMajor, stepped, reversed} {
			for _, threads := range []int{1, 2} {
				a, b := view(m, k, rowMajor, gen), view(k, n, bl, gen)
				c := make([]T, m*n)
				MulComplex(m, n, k, a, b, Matrix[T]{c, 0, n, 1}, Options{Threads: threads})
				want := widenedProduct[T, R](m, n, k, a, b, threads)
				got := realViews[T, R](Matrix[T]{c, 0, n, 1}).re.Data
				for i, w := range c {
					if !sameBits(got[2*i], want[2*i]) || !sameBits(got[2*i+1], want[2*i+1]) {
						t.Fatalf("%v %dx%dx%d B %v threads %d: C element %d = %v, the wide product gives (%v, %v)",
							set, m, n, k, bl, threads, i, w, want[2*i], want[2*i+1])
					}
				}
			}
		}
	}
}

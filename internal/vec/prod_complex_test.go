package vec

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tensor-go/tensor/internal/cmul"
)

// TestProdComplexOrder: ProdC64 and ProdC128 follow the order their doc
// states, written out here as a plain loop over lanes, at every length to
// three lane blocks past the lane threshold, with infinities among the
// factors (which the rule for a product of exactly 1 is about).
func TestProdComplexOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 64))
	rule := func(p, v complex128) complex128 {
		if p == 1 {
			return v
		}
		return cmul.Mul128(p, v)
	}
	want := func(a []complex128) complex128 {
		if len(a) < ProdC64MinLanes {
			p := complex128(1)
			for _, v := range a {
				p = rule(p, v)
			}
			return p
		}
		l := []complex128{1, 1, 1, 1, 1, 1, 1, 1}
		for i, v := range a {
			l[i%8] = rule(l[i%8], v)
		}
		for half := 4; half > 0; half /= 2 {
			for j := range half {
				l[j] = rule(l[j], l[j+half])
			}
		}
		return l[0]
	}
	same := func(x, y complex128) bool {
		eq := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
		return eq(real(x), real(y)) && eq(imag(x), imag(y))
	}
	for n := 0; n <= ProdC64MinLanes+3*complexLanes+1; n++ {
		c128, c64 := make([]complex128, n), make([]complex64, n)
		w128, w64 := make([]complex128, n), make([]complex128, n)
		for i := range n {
			c128[i] = complex(0.5+rng.Float64(), rng.Float64()-0.5)
			if rng.IntN(20) == 0 {
				c128[i] = complex(2, math.Inf(-1))
			}
			c64[i] = complex64(c128[i])
			w128[i], w64[i] = c128[i], complex128(c64[i])
		}
		if got, w := ProdC128(c128), want(w128); !same(got, w) {
			t.Errorf("ProdC128 n=%d = %v, want %v", n, got, w)
		}
		if got, w := ProdC64(c64), want(w64); !same(got, w) {
			t.Errorf("ProdC64 n=%d = %v, want %v", n, got, w)
		}
	}
}

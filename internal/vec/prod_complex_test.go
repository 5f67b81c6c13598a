package vec

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tensor-go/tensor/internal/cmul"
)

// nearOneC64 returns a complex64 of modulus near 1 at a random angle, or
// now and then one with a special part (NaN, ±Inf, ±0, a denormal, an
// extreme): long products stay finite unless a special enters.
func nearOneC64(r *rand.Rand) complex64 {
	if r.IntN(300) == 0 {
		s := specialsF32[r.IntN(len(specialsF32))]
		if r.IntN(2) == 0 {
			return complex(s, float32(logNear1(r)))
		}
		return complex(float32(logNear1(r)), s)
	}
	m, a := logNear1(r), 2*math.Pi*r.Float64()
	return complex(float32(m*math.Cos(a)), float32(m*math.Sin(a)))
}

func sameC128(x, y complex128) bool {
	return sameF64(real(x), real(y)) && sameF64(imag(x), imag(y))
}

// prodC64Order is ProdC64's documented order, written out on its own
// (ProdC128's too).
func prodC64Order[C complex64 | complex128](a []C) complex128 {
	if len(a) < ProdC64Min {
		p := complex128(1)
		for i, v := range a {
			if i == 0 {
				p = complex128(v)
				continue
			}
			p = cmul.Mul128(p, complex128(v))
		}
		return p
	}
	var lane [16]complex128
	for i, v := range a {
		if i < 16 {
			lane[i] = complex128(v)
			continue
		}
		lane[i%16] = cmul.Mul128(lane[i%16], complex128(v))
	}
	for half := 8; half > 0; half /= 2 {
		for j := range half {
			lane[j] = cmul.Mul128(lane[j], lane[j+half])
		}
	}
	return lane[0]
}

// TestProdC64 checks ProdC64 under every kernel set, the Go twin
// included, against its documented order bit for bit, at every length
// up to several blocks and beyond, every alignment, with specials, and
// with guard elements around the run that would change the product if
// they were read.
func TestProdC64(t *testing.T) {
	defer func(saved prodKernels) { prodImpl = saved }(prodImpl)
	r := rand.New(rand.NewPCG(21, 22))
	for _, v := range prodTable.Variants() {
		prodImpl = v.K
		for _, n := range testLengths(r, 8) {
			for _, off := range testOffsets(n) {
				a, _ := sliceAt(n, off, func() complex64 { return nearOneC64(r) })
				want := prodC64Order(a)
				if got := ProdC64(a); !sameC128(got, want) {
					t.Fatalf("%s n=%d off=%d: got %v, want %v", v.Name(), n, off, got, want)
				}
			}
		}
	}
}

// TestProdC128 is TestProdC64 for ProdC128, on complex128 elements of
// modulus near 1 (with the same specials).
func TestProdC128(t *testing.T) {
	defer func(saved prodKernels) { prodImpl = saved }(prodImpl)
	r := rand.New(rand.NewPCG(23, 24))
	gen := func() complex128 {
		c := nearOneC64(r)
		// Low bits of its own, so that float64 rounding shows.
		return complex(real(complex128(c))*(1+0x1p-40*r.Float64()), imag(complex128(c))*(1-0x1p-40*r.Float64()))
	}
	for _, v := range prodTable.Variants() {
		prodImpl = v.K
		for _, n := range testLengths(r, 16) {
			for _, off := range testOffsets(n) {
				a, _ := sliceAt(n, off, gen)
				want := prodC64Order(a)
				if got := ProdC128(a); !sameC128(got, want) {
					t.Fatalf("%s n=%d off=%d: got %v, want %v", v.Name(), n, off, got, want)
				}
			}
		}
	}
}

// TestProdC64Specials checks the cases where the textbook product is not
// what a multiplication by 1 would be: each lane starts from its first
// element, so one infinite factor among ones keeps its finite part.
func TestProdC64Specials(t *testing.T) {
	defer func(saved prodKernels) { prodImpl = saved }(prodImpl)
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	for _, v := range prodTable.Variants() {
		prodImpl = v.K
		for _, n := range []int{1, 5, ProdC64Min - 1, ProdC64Min, ProdC64Min + 17, 1000} {
			a := make([]complex64, n)
			a[0] = complex(2, -inf)
			if got := ProdC64(a[:1]); got != complex(2, math.Inf(-1)) {
				t.Errorf("%s: product of 2−∞i alone: %v", v.Name(), got)
			}
			for i := range a {
				a[i] = complex(float32(math.Copysign(0, -1)), 0) // −0+0i
			}
			a[n-1] = 1
			want := prodC64Order(a)
			if got := ProdC64(a); !sameC128(got, want) || math.Signbit(real(got)) != math.Signbit(real(want)) {
				t.Errorf("%s n=%d: product of −0s: %v, want %v", v.Name(), n, got, want)
			}
			a[n/2] = complex(nan, 1)
			if got := ProdC64(a); !math.IsNaN(real(got)) {
				t.Errorf("%s n=%d: NaN factor gave %v", v.Name(), n, got)
			}
		}
	}
}

// BenchmarkProdC64 times the complex64 product of 64K elements in lanes
// under each kernel set against one chain of products from the left (the
// order before the lanes: every product waits for the last).
func BenchmarkProdC64(b *testing.B) {
	defer func(saved prodKernels) { prodImpl = saved }(prodImpl)
	a := filled(1<<16, complex64(1+1e-6i))
	for _, v := range prodTable.Variants() {
		b.Run(v.Name(), func(b *testing.B) {
			prodImpl = v.K
			b.SetBytes(int64(8 * len(a)))
			for b.Loop() {
				sinkC128 = ProdC64(a)
			}
		})
	}
	b.Run("one-chain", func(b *testing.B) {
		b.SetBytes(int64(8 * len(a)))
		for b.Loop() {
			sinkC128 = prodC64Left(a)
		}
	})
}

// BenchmarkProdC128 is BenchmarkProdC64 for complex128.
func BenchmarkProdC128(b *testing.B) {
	defer func(saved prodKernels) { prodImpl = saved }(prodImpl)
	a := filled(1<<16, complex128(1+1e-6i))
	for _, v := range prodTable.Variants() {
		b.Run(v.Name(), func(b *testing.B) {
			prodImpl = v.K
			b.SetBytes(int64(16 * len(a)))
			for b.Loop() {
				sinkC128 = ProdC128(a)
			}
		})
	}
	b.Run("one-chain", func(b *testing.B) {
		b.SetBytes(int64(16 * len(a)))
		for b.Loop() {
			sinkC128 = prodC64Left(a)
		}
	})
}

package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/tensor-go/tensor/internal/vec"
)

// TestProdFloat32Pairs checks the float32 products and sums that go through the
// pair kernel (chunks of a reduction to one element, rows of a reduction
// over the last axis) against the order the engine defines, computed here
// from vec's single-run functions: each chunk or row is ProdF32 of it,
// chunks combine with ProdF64 in order, and every result rounds once to
// float32. Odd chunk and row counts, a short last chunk, one, two and three
// goroutines, and NaN, ±Inf, -0 among the factors.
func TestProdFloat32Pairs(t *testing.T) {
	defer func(c int) { reduceChunk = c }(reduceChunk)
	reduceChunk = 1000
	rng := rand.New(rand.NewPCG(21, 22))
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1))}
	data := func(n int, special bool) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = float32(math.Exp2((rng.Float64() - 0.5) / 64))
		}
		if special && n > 0 {
			s[rng.IntN(n)] = specials[rng.IntN(len(specials))]
		}
		return s
	}
	same := func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b }
	for _, procs := range []int{1, 2, 3} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		for k, n := range []int{1000, 1999, 2000, 3000, 3001, 7 * 1000, 8*1000 + 37, 70001, 300001, 301000} {
			s := data(n, k%2 == 1)
			var partials []float64
			for c := 0; c < n; c += reduceChunk {
				partials = append(partials, vec.ProdF32(s[c:min(c+reduceChunk, n)]))
			}
			want := float32(vec.ProdF64(partials))
			got := Must(Prod(Must(FromSlice(s, n)))).storageF32(t)
			if !same(got[0], want) {
				t.Fatalf("procs %d: Prod of %d float32 = %v, want %v", procs, n, got[0], want)
			}
			partials = partials[:0]
			for c := 0; c < n; c += reduceChunk {
				partials = append(partials, vec.SumF32(s[c:min(c+reduceChunk, n)]))
			}
			want = float32(math.Copysign(0, -1) + vec.SumF64(partials))
			got = Must(Sum(Must(FromSlice(s, n)))).storageF32(t)
			if !same(got[0], want) {
				t.Fatalf("procs %d: Sum of %d float32 = %v, want %v", procs, n, got[0], want)
			}
		}
		for k, sh := range [][2]int{{1, 64}, {2, 100}, {3, 33}, {7, 1000}, {64, 257}, {301, 520}} {
			s := data(sh[0]*sh[1], k%2 == 0)
			got := Must(Prod(Must(FromSlice(s, sh[0], sh[1])), Axis(1))).storageF32(t)
			for i := range sh[0] {
				want := float32(vec.ProdF32(s[i*sh[1] : (i+1)*sh[1]]))
				if !same(got[i], want) {
					t.Fatalf("procs %d: row %d of %v over axis 1 = %v, want %v", procs, i, sh, got[i], want)
				}
			}
			sums := Must(Sum(Must(FromSlice(s, sh[0], sh[1])), Axis(1))).storageF32(t)
			for i := range sh[0] {
				want := float32(math.Copysign(0, -1) + vec.SumF32(s[i*sh[1]:(i+1)*sh[1]]))
				if !same(sums[i], want) {
					t.Fatalf("procs %d: row %d of %v summed over axis 1 = %v, want %v", procs, i, sh, sums[i], want)
				}
			}
		}
	}
}

// storageF32 returns a float32 tensor's elements in order.
func (x *Tensor) storageF32(t *testing.T) []float32 {
	t.Helper()
	v, err := Elements[float32](x)
	if err != nil {
		t.Fatal(fmt.Errorf("elements: %w", err))
	}
	return v
}

// TestSumComplex64Pairs checks complex64 sums, whose chunks and rows go
// through the complex pair kernel, against the order the engine defines,
// from vec's single-run functions: each chunk or row is SumC64 of it,
// added to -0, chunks combine in order with SumC128, and the result
// rounds once to complex64; one, two and three goroutines, odd counts, a
// short last chunk, specials.
func TestSumComplex64Pairs(t *testing.T) {
	defer func(c int) { reduceChunk = c }(reduceChunk)
	reduceChunk = 1000
	rng := rand.New(rand.NewPCG(23, 24))
	negZero := complex(math.Copysign(0, -1), math.Copysign(0, -1))
	data := func(n int) []complex64 {
		s := make([]complex64, n)
		for i := range s {
			s[i] = complex(float32(rng.NormFloat64()*1e3), float32(rng.NormFloat64()))
		}
		if n > 0 && rng.IntN(2) == 0 {
			s[rng.IntN(n)] = complex(float32(math.Inf(1)), float32(math.NaN()))
		}
		return s
	}
	sameF := func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b }
	same := func(a, b complex64) bool { return sameF(real(a), real(b)) && sameF(imag(a), imag(b)) }
	for _, procs := range []int{1, 2, 3} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		for _, n := range []int{1000, 1999, 3001, 70001, 300001, 301000} {
			s := data(n)
			var partials []complex128
			for c := 0; c < n; c += reduceChunk {
				partials = append(partials, negZero+vec.SumC64(s[c:min(c+reduceChunk, n)]))
			}
			want := complex64(negZero + vec.SumC128(partials))
			got, err := Elements[complex64](Must(Sum(Must(FromSlice(s, n)))))
			if err != nil {
				t.Fatal(err)
			}
			if !same(got[0], want) {
				t.Fatalf("procs %d: Sum of %d complex64 = %v, want %v", procs, n, got[0], want)
			}
		}
		for _, sh := range [][2]int{{2, 100}, {3, 33}, {7, 1000}, {301, 520}} {
			s := data(sh[0] * sh[1])
			got, err := Elements[complex64](Must(Sum(Must(FromSlice(s, sh[0], sh[1])), Axis(1))))
			if err != nil {
				t.Fatal(err)
			}
			for i := range sh[0] {
				want := complex64(negZero + vec.SumC64(s[i*sh[1]:(i+1)*sh[1]]))
				if !same(got[i], want) {
					t.Fatalf("procs %d: row %d of %v summed over axis 1 = %v, want %v", procs, i, sh, got[i], want)
				}
			}
		}
	}
}

// TestProdFloat64Pairs is TestProdFloat32Pairs for float64, whose chunks
// and rows go through vec.ProdF64Pair and vec.SumF64Pair: each chunk or
// row is ProdF64 (SumF64) of it, chunks combine in order with ProdF64
// (SumF64); odd chunk and row counts, rows shorter than a block and with
// every tail length near one, one, two and three goroutines, specials.
func TestProdFloat64Pairs(t *testing.T) {
	defer func(c int) { reduceChunk = c }(reduceChunk)
	reduceChunk = 1000
	rng := rand.New(rand.NewPCG(25, 26))
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, 5e-324}
	data := func(n int, special bool) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = math.Exp2((rng.Float64() - 0.5) / 64)
		}
		if special && n > 0 {
			s[rng.IntN(n)] = specials[rng.IntN(len(specials))]
		}
		return s
	}
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b }
	negZero := math.Copysign(0, -1)
	for _, procs := range []int{1, 2, 3} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		for k, n := range []int{1000, 1999, 2000, 3001, 8*1000 + 37, 70001, 300001, 301000} {
			s := data(n, k%2 == 1)
			var prods, sums []float64
			for c := 0; c < n; c += reduceChunk {
				prods = append(prods, vec.ProdF64(s[c:min(c+reduceChunk, n)]))
				sums = append(sums, negZero+vec.SumF64(s[c:min(c+reduceChunk, n)]))
			}
			if got, want := Must(Prod(Must(FromSlice(s, n)))).storageF64(t)[0], vec.ProdF64(prods); !same(got, want) {
				t.Fatalf("procs %d: Prod of %d float64 = %v, want %v", procs, n, got, want)
			}
			if got, want := Must(Sum(Must(FromSlice(s, n)))).storageF64(t)[0], negZero+vec.SumF64(sums); !same(got, want) {
				t.Fatalf("procs %d: Sum of %d float64 = %v, want %v", procs, n, got, want)
			}
		}
		shapes := [][2]int{{1, 64}, {2, 100}, {3, 33}, {7, 1000}, {64, 257}, {301, 520}, {4000, 3}}
		for w := 1; w <= 65; w++ {
			shapes = append(shapes, [2]int{5, w}) // every tail length, and the blocks around them
		}
		for k, sh := range shapes {
			s := data(sh[0]*sh[1], k%2 == 0)
			x := Must(FromSlice(s, sh[0], sh[1]))
			prods, sums := Must(Prod(x, Axis(1))).storageF64(t), Must(Sum(x, Axis(1))).storageF64(t)
			for i := range sh[0] {
				row := s[i*sh[1] : (i+1)*sh[1]]
				if want := vec.ProdF64(row); !same(prods[i], want) {
					t.Fatalf("procs %d: row %d of %v over axis 1 = %v, want %v", procs, i, sh, prods[i], want)
				}
				if want := negZero + vec.SumF64(row); !same(sums[i], want) {
					t.Fatalf("procs %d: row %d of %v summed over axis 1 = %v, want %v", procs, i, sh, sums[i], want)
				}
			}
		}
	}
}

// storageF64 returns a float64 tensor's elements in order.
func (x *Tensor) storageF64(t *testing.T) []float64 {
	t.Helper()
	v, err := Elements[float64](x)
	if err != nil {
		t.Fatal(fmt.Errorf("elements: %w", err))
	}
	return v
}

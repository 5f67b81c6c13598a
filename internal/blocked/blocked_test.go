package blocked

import (
	"math"
	"math/rand/v2"
	"testing"
)

// layout places an m×n matrix in a buffer with a guard region before and
// after it, in one of several stride patterns.
type layout int

const (
	rowMajor layout = iota
	colMajor
	stepped  // every other row and column, as a [::2, ::2] slice
	reversed // both strides negative, as a [::-1, ::-1] slice
	numLayouts
)

const guard = 5

// view returns a buffer and the view of an m×n matrix laid out as l.
func view[T any](m, n int, l layout) ([]T, Matrix[T]) {
	switch l {
	case colMajor:
		return make([]T, m*n+2*guard), Matrix[T]{Off: guard, RS: 1, CS: max(m, 1)}
	case stepped:
		return make([]T, 4*m*n+2*guard), Matrix[T]{Off: guard, RS: 4 * max(n, 1), CS: 2}
	case reversed:
		return make([]T, m*n+2*guard), Matrix[T]{Off: guard + m*n - 1, RS: -n, CS: -1}
	}
	return make([]T, m*n+2*guard), Matrix[T]{Off: guard, RS: n, CS: 1}
}

func (x Matrix[T]) idx(i, j int) int { return x.Off + i*x.RS + j*x.CS }

// naive is the textbook triple loop in the element type, summing in order
// from +0; for k ≤ kc the blocked kernel sums in exactly this order.
func naive[T Number](m, n, k int, a, b Matrix[T]) []T {
	out := make([]T, m*n)
	for i := range m {
		for j := range n {
			var s T
			for p := range k {
				s += T(a.Data[a.idx(i, p)] * b.Data[b.idx(p, j)])
			}
			out[i*n+j] = s
		}
	}
	return out
}

// sizes covers every edge of the micro-tile (mr, nr = 4) and of the blocks.
var sizes = []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 63, 64, 65}

func TestMulMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 300; trial++ {
		m, n := sizes[rng.IntN(len(sizes))], sizes[rng.IntN(len(sizes))]
		k := []int{0, 1, 3, 4, 5, 17, 255, 256}[rng.IntN(8)]
		la, lb, lc := layout(rng.IntN(int(numLayouts))), layout(rng.IntN(int(numLayouts))), layout(rng.IntN(int(numLayouts)))
		checkMul(t, rng, m, n, k, la, lb, lc, func(r *rand.Rand) int32 { return int32(r.Uint32()) })
		checkMul(t, rng, m, n, k, la, lb, lc, func(r *rand.Rand) uint8 { return uint8(r.Uint32()) })
		checkMul(t, rng, m, n, k, la, lb, lc, func(r *rand.Rand) float64 { return r.NormFloat64() })
		checkMul(t, rng, m, n, k, la, lb, lc, func(r *rand.Rand) float32 { return float32(r.NormFloat64()) })
		checkMul(t, rng, m, n, k, la, lb, lc, func(r *rand.Rand) complex64 {
			return complex(float32(r.NormFloat64()), float32(r.NormFloat64()))
		})
	}
}

// checkMul runs Mul on random operands and compares with naive bit for bit
// (k ≤ kc, so the summation order is the same), and checks that nothing
// outside C's view was written.
func checkMul[T Number](t *testing.T, rng *rand.Rand, m, n, k int, la, lb, lc layout, gen func(*rand.Rand) T) {
	t.Helper()
	abuf, a := view[T](m, k, la)
	bbuf, b := view[T](k, n, lb)
	cbuf, c := view[T](m, n, lc)
	for i := range abuf {
		abuf[i] = gen(rng)
	}
	for i := range bbuf {
		bbuf[i] = gen(rng)
	}
	sentinel := gen(rng)
	for i := range cbuf {
		cbuf[i] = sentinel
	}
	a.Data, b.Data, c.Data = abuf, bbuf, cbuf
	Mul(m, n, k, a, b, c, false)
	want := naive(m, n, k, a, b)
	inView := make(map[int]bool)
	for i := range m {
		for j := range n {
			inView[c.idx(i, j)] = true
			if got := cbuf[c.idx(i, j)]; got != want[i*n+j] {
				t.Fatalf("%T m,n,k=%d,%d,%d layouts %d,%d,%d: C[%d][%d] = %v, want %v", got, m, n, k, la, lb, lc, i, j, got, want[i*n+j])
			}
		}
	}
	for i, v := range cbuf {
		if !inView[i] && v != sentinel {
			t.Fatalf("%T m,n,k=%d,%d,%d layouts %d,%d,%d: element %d outside C was written", v, m, n, k, la, lb, lc, i)
		}
	}
}

// TestMulLongK crosses several k-blocks, where the order of the float sums
// changes; integer results must stay exact and floats close.
func TestMulLongK(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m, n, k := 5, 6, 3*kc+7
	ai, bi := make([]int64, m*k), make([]int64, k*n)
	af, bf := make([]float64, m*k), make([]float64, k*n)
	for i := range ai {
		ai[i] = int64(rng.Uint64())
		af[i] = rng.NormFloat64()
	}
	for i := range bi {
		bi[i] = int64(rng.Uint64())
		bf[i] = rng.NormFloat64()
	}
	ci, cf := make([]int64, m*n), make([]float64, m*n)
	Mul(m, n, k, Matrix[int64]{ai, 0, k, 1}, Matrix[int64]{bi, 0, n, 1}, Matrix[int64]{ci, 0, n, 1}, false)
	Mul(m, n, k, Matrix[float64]{af, 0, k, 1}, Matrix[float64]{bf, 0, n, 1}, Matrix[float64]{cf, 0, n, 1}, false)
	wi := naive(m, n, k, Matrix[int64]{ai, 0, k, 1}, Matrix[int64]{bi, 0, n, 1})
	for i := range m * n {
		if ci[i] != wi[i] {
			t.Errorf("int64 C[%d] = %d, want %d", i, ci[i], wi[i])
		}
		var bound float64
		var s float64
		for p := range k {
			s += af[i/n*k+p] * bf[p*n+i%n]
			bound += math.Abs(af[i/n*k+p] * bf[p*n+i%n])
		}
		if math.Abs(cf[i]-s) > 4*float64(k)*0x1p-53*bound {
			t.Errorf("float64 C[%d] = %v, want %v", i, cf[i], s)
		}
	}
}

func TestMulSpecialValues(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	negZero := math.Copysign(0, -1)
	// No zero skipping: 1*2 + 0*Inf is NaN.
	c := make([]float64, 1)
	Mul(1, 1, 2, Matrix[float64]{[]float64{1, 0}, 0, 2, 1}, Matrix[float64]{[]float64{2, inf}, 0, 1, 1}, Matrix[float64]{c, 0, 1, 1}, false)
	if !math.IsNaN(c[0]) {
		t.Errorf("[1 0]·[2 inf] = %v, want NaN", c[0])
	}
	// Sums start at +0: (-0)·1 is +0.
	Mul(1, 1, 1, Matrix[float64]{[]float64{negZero}, 0, 1, 1}, Matrix[float64]{[]float64{1}, 0, 1, 1}, Matrix[float64]{c, 0, 1, 1}, false)
	if c[0] != 0 || math.Signbit(c[0]) {
		t.Errorf("[-0]·[1] = %v, want +0", c[0])
	}
	// k = 0 overwrites C with zeros, even NaN.
	c2 := []float64{nan, nan, nan, nan}
	Mul(2, 2, 0, Matrix[float64]{nil, 0, 0, 1}, Matrix[float64]{nil, 0, 2, 1}, Matrix[float64]{c2, 0, 2, 1}, false)
	for i, v := range c2 {
		if v != 0 || math.Signbit(v) {
			t.Errorf("k=0: C[%d] = %v, want +0", i, v)
		}
	}
}

func TestMulBool(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, k := range []int{0, 1, 2, 7} {
		m, n := 3, 4
		a, b, c := make([]bool, m*k), make([]bool, k*n), make([]bool, m*n)
		for i := range a {
			a[i] = rng.IntN(3) == 0
		}
		for i := range b {
			b[i] = rng.IntN(3) == 0
		}
		for i := range c {
			c[i] = true // must be overwritten
		}
		// B is read transposed from a column-major buffer.
		MulBool(m, n, k, Matrix[bool]{a, 0, k, 1}, Matrix[bool]{b, 0, 1, k}, Matrix[bool]{c, 0, n, 1})
		for i := range m {
			for j := range n {
				want := false
				for p := range k {
					want = want || (a[i*k+p] && b[j*k+p])
				}
				if c[i*n+j] != want {
					t.Errorf("k=%d: C[%d][%d] = %v, want %v", k, i, j, c[i*n+j], want)
				}
			}
		}
	}
}

func TestRoundTF32(t *testing.T) {
	f := math.Float32frombits
	tests := []struct{ in, want float32 }{
		{1, 1},
		{f(0x3F800FFF), f(0x3F800000)}, // below half: down
		{f(0x3F801000), f(0x3F800000)}, // exactly half, even kept bit: down
		{f(0x3F803000), f(0x3F804000)}, // exactly half, odd kept bit: up
		{f(0x3F801001), f(0x3F802000)}, // above half: up
		{f(0xBF801001), f(0xBF802000)}, // negative, symmetric
		{f(0x7F7FFFFF), float32(math.Inf(1))},
		{float32(math.Inf(-1)), float32(math.Inf(-1))},
		{f(0x00000FFF), 0}, // subnormals round like any other value
		{f(0x80001000), f(0x80000000)},
	}
	for _, tc := range tests {
		if got := RoundTF32(tc.in); math.Float32bits(got) != math.Float32bits(tc.want) {
			t.Errorf("RoundTF32(%#x) = %#x, want %#x", math.Float32bits(tc.in), math.Float32bits(got), math.Float32bits(tc.want))
		}
	}
	for _, bits := range []uint32{0x7FC00000, 0x7F800001, 0xFFFFFFFF, 0x7FBFFFFF} {
		if got := RoundTF32(f(bits)); got == got {
			t.Errorf("RoundTF32(NaN %#x) = %v, not NaN", bits, got)
		}
	}
	// Every result has its low 13 mantissa bits clear and is within half a
	// TF32 ulp of the input.
	rng := rand.New(rand.NewPCG(7, 8))
	for range 10000 {
		x := f(rng.Uint32())
		r := RoundTF32(x)
		if x != x || math.IsInf(float64(r), 0) {
			continue
		}
		if math.Float32bits(r)&0x1FFF != 0 {
			t.Fatalf("RoundTF32(%#x) = %#x keeps low bits", math.Float32bits(x), math.Float32bits(r))
		}
		ulp := math.Abs(float64(math.Float32frombits(math.Float32bits(r)+0x2000)) - float64(r))
		if math.Abs(float64(x)-float64(r)) > ulp/2 {
			t.Fatalf("RoundTF32(%v) = %v, more than half an ulp away", x, r)
		}
	}
}

func TestMulTF32RoundsOperands(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	// Packed, direct (tiny) and vector shapes.
	for _, dims := range [][3]int{{7, 9, 300}, {3, 5, 7}, {1, 9, 300}, {12, 1, 40}} {
		m, n, k := dims[0], dims[1], dims[2]
		checkTF32(t, rng, m, n, k)
	}
}

func checkTF32(t *testing.T, rng *rand.Rand, m, n, k int) {
	a, b := make([]float32, m*k), make([]float32, k*n)
	ra, rb := make([]float32, m*k), make([]float32, k*n)
	for i := range a {
		a[i] = float32(rng.NormFloat64())
		ra[i] = RoundTF32(a[i])
	}
	for i := range b {
		b[i] = float32(rng.NormFloat64())
		rb[i] = RoundTF32(b[i])
	}
	c1, c2, c3 := make([]float32, m*n), make([]float32, m*n), make([]float32, m*n)
	Mul(m, n, k, Matrix[float32]{a, 0, k, 1}, Matrix[float32]{b, 0, n, 1}, Matrix[float32]{c1, 0, n, 1}, true)
	Mul(m, n, k, Matrix[float32]{ra, 0, k, 1}, Matrix[float32]{rb, 0, n, 1}, Matrix[float32]{c2, 0, n, 1}, false)
	Mul(m, n, k, Matrix[float32]{a, 0, k, 1}, Matrix[float32]{b, 0, n, 1}, Matrix[float32]{c3, 0, n, 1}, false)
	differ := 0
	for i := range c1 {
		if math.Float32bits(c1[i]) != math.Float32bits(c2[i]) {
			t.Fatalf("%dx%dx%d: TF32 C[%d] = %v, rounded operands give %v", m, n, k, i, c1[i], c2[i])
		}
		if c1[i] != c3[i] {
			differ++
		}
	}
	if differ == 0 {
		t.Errorf("%dx%dx%d: TF32 mode changed no result", m, n, k)
	}
}

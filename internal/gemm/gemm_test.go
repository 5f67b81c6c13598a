package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// layout names a way of laying an r×c matrix out in memory.
type layout int

const (
	rowMajor   layout = iota
	colMajor          // a transposed view
	stepped           // every other row and column of a bigger array
	reversed          // negative strides: rows and columns read backwards
	broadcast         // CS = 0: every column is the same
	upsideDown        // rows backwards (RS < 0), each row contiguous
	numLayouts
)

func (l layout) String() string {
	return [...]string{"row", "col", "step", "rev", "bcast", "flip"}[l]
}

// view returns an r×c view with layout l over fresh data (with slack around
// it) filled by gen.
func view[T any](r, c int, l layout, gen func(n int) []T) Matrix[T] {
	const slack = 3
	switch l {
	case colMajor:
		return Matrix[T]{gen(r*c + 2*slack), slack, 1, max(r, 1)}
	case stepped:
		return Matrix[T]{gen(4*r*c + 2*slack), slack, 4 * max(c, 1), 2}
	case reversed:
		n := r*c + 2*slack
		return Matrix[T]{gen(n), slack + r*c - 1, -max(c, 1), -1}
	case broadcast:
		return Matrix[T]{gen(r + 2*slack), slack, 1, 0}
	case upsideDown:
		return Matrix[T]{gen(r*c + 2*slack), slack + max(r-1, 0)*c, -c, 1}
	}
	return Matrix[T]{gen(r*c + 2*slack), slack, max(c, 1), 1}
}

// naive computes A·B with a triple loop: in T arithmetic (exact, wrapping)
// for integers, in float64 for floats; bound is Σ|a||b| per element, the
// scale of the rounding error a correct float32/float64 sum may have.
func naive[T Elem](m, n, k int, a, b Matrix[T]) (want []T, ref, bound []float64) {
	want = make([]T, m*n)
	ref = make([]float64, m*n)
	bound = make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s T
			var f, e float64
			for p := 0; p < k; p++ {
				x, y := a.at(i, p), b.at(p, j)
				s += x * y
				f += toFloat(x) * toFloat(y)
				e += math.Abs(toFloat(x) * toFloat(y))
			}
			want[i*n+j], ref[i*n+j], bound[i*n+j] = s, f, e
		}
	}
	return want, ref, bound
}

// epsilon is the unit roundoff of T (0 for integers, which must be exact).
func epsilon[T Elem]() float64 {
	var z T
	switch any(z).(type) {
	case float32:
		return 0x1p-24
	case float64:
		return 0x1p-53
	}
	return 0
}

// checkMul multiplies with Mul and compares against naive, with C laid out
// as cl and prefilled with NaN (or a sentinel for integers) that must not
// leak, and guard elements around C that must stay untouched.
func checkMul[T Elem](t *testing.T, rng *rand.Rand, m, n, k int, al, bl, cl layout, opt Options) {
	t.Helper()
	gen := func(n int) []T { return fill[T](rng, n, false) }
	a := view(m, k, al, gen)
	b := view(k, n, bl, gen)
	if cl == broadcast {
		cl = stepped
	}
	c := view(m, n, cl, func(n int) []T {
		s := make([]T, n)
		for i := range s {
			s[i] = fromFloat[T](math.NaN())
		}
		return s
	})
	before := append([]T(nil), c.Data...)
	Mul(m, n, k, a, b, c, opt)
	want, ref, bound := naive(m, n, k, a, b)
	touched := make([]bool, len(c.Data))
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			at := c.Off + i*c.RS + j*c.CS
			touched[at] = true
			got := c.Data[at]
			ok := got == want[i*n+j]
			if isFloat[T]() {
				tol := 2 * float64(k+1) * epsilon[T]() * bound[i*n+j]
				ok = math.Abs(toFloat(got)-ref[i*n+j]) <= tol
			}
			if !ok {
				t.Fatalf("%dx%dx%d A %v B %v C %v %+v: C[%d,%d] = %v, want %v", m, n, k, al, bl, cl, opt, i, j, got, ref[i*n+j])
			}
		}
	}
	for i, v := range c.Data {
		if !touched[i] && !(v == before[i] || v != v && before[i] != before[i]) {
			t.Fatalf("%dx%dx%d C %v: element %d outside C written", m, n, k, cl, i)
		}
	}
}

// forEachType runs f for every element type.
func forEachType(t *testing.T, f func(t *testing.T, typ string)) {
	for _, typ := range []string{"float32", "float64", "int32", "int64"} {
		t.Run(typ, func(t *testing.T) { f(t, typ) })
	}
}

func checkMulTyped(t *testing.T, typ string, rng *rand.Rand, m, n, k int, al, bl, cl layout, opt Options) {
	switch typ {
	case "float32":
		checkMul[float32](t, rng, m, n, k, al, bl, cl, opt)
	case "float64":
		checkMul[float64](t, rng, m, n, k, al, bl, cl, opt)
	case "int32":
		checkMul[int32](t, rng, m, n, k, al, bl, cl, opt)
	case "int64":
		checkMul[int64](t, rng, m, n, k, al, bl, cl, opt)
	}
}

// tileOf returns the tile shape of T's dispatched kernel.
func tileOf(typ string) (mr, nr int) {
	switch typ {
	case "float32":
		return active.f32.mr, active.f32.nr
	case "float64":
		return active.f64.mr, active.f64.nr
	case "int32":
		return active.i32.mr, active.i32.nr
	}
	return active.i64.mr, active.i64.nr
}

// TestMulSmallShapes covers every m, n, k from 0 to about three tiles + 1
// (sampled randomly to stay quick) with random layouts of A, B and C.
func TestMulSmallShapes(t *testing.T) {
	forEachType(t, func(t *testing.T, typ string) {
		rng := rand.New(rand.NewPCG(2, 3))
		mr, nr := tileOf(typ)
		trials := 400
		if quick() {
			trials = 100
		}
		for range trials {
			m := rng.IntN(3*mr + 2)
			n := rng.IntN(3*nr + 2)
			k := rng.IntN(3*8 + 2)
			checkMulTyped(t, typ, rng, m, n, k, layout(rng.IntN(int(numLayouts))), layout(rng.IntN(int(numLayouts))), layout(rng.IntN(int(numLayouts))), Options{Threads: 1})
		}
	})
}

// TestMulLayouts runs a product spanning several blocks in every layout.
func TestMulLayouts(t *testing.T) {
	m, n, k := 300, 257, 513
	if quick() {
		m, n, k = 70, 90, 400
	}
	forEachType(t, func(t *testing.T, typ string) {
		rng := rand.New(rand.NewPCG(4, 5))
		for l := range numLayouts {
			t.Run(fmt.Sprint(l), func(t *testing.T) {
				checkMulTyped(t, typ, rng, m, n, k, l, (l+1)%numLayouts, (l+2)%numLayouts, Options{Threads: 2})
			})
		}
	})
}

func TestMulZeroK(t *testing.T) {
	c := Matrix[float64]{[]float64{math.NaN(), math.NaN(), math.NaN(), math.NaN()}, 0, 2, 1}
	Mul(2, 2, 0, Matrix[float64]{}, Matrix[float64]{}, c, Options{})
	for i, v := range c.Data {
		if v != 0 || math.Signbit(v) {
			t.Fatalf("k=0: C[%d] = %v, want +0", i, v)
		}
	}
}

// TestMulSpecialValues checks NaN/Inf propagation without zero skipping and
// that −0 products sum to +0.
func TestMulSpecialValues(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, tc := range []struct {
		a, b float64
		want float64
	}{
		{0, math.Inf(1), math.NaN()},
		{math.NaN(), 0, math.NaN()},
		{negZero, 1, 0},
		{math.Inf(1), 2, math.Inf(1)},
	} {
		for _, size := range []int{1, 5, 40} {
			a := make([]float32, size*size)
			b := make([]float32, size*size)
			a[0], b[0] = float32(tc.a), float32(tc.b)
			// Every other product in C[0,0] is 0·0 = +0 except the first.
			c := make([]float32, size*size)
			Mul(size, size, size, Matrix[float32]{a, 0, size, 1}, Matrix[float32]{b, 0, size, 1}, Matrix[float32]{c, 0, size, 1}, Options{})
			got := float64(c[0])
			if !(got == tc.want && math.Signbit(got) == math.Signbit(tc.want) || math.IsNaN(got) && math.IsNaN(tc.want)) {
				t.Errorf("size %d: [%v]·[%v] = %v, want %v", size, tc.a, tc.b, got, tc.want)
			}
		}
	}
}

// TestMulThreadsIdentical checks that splitting the work changes no bit,
// on the blocked path (both A layouts; wide products cut by columns, by
// rows and with the strip in the last range), the small-kernel path and
// both matrix-vector paths.
func TestMulThreadsIdentical(t *testing.T) {
	checkThreadsIdentical[float32](t)
	checkThreadsIdentical[float64](t)
}

func checkThreadsIdentical[T float32 | float64](t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 7))
	for _, sz := range [][3]int{{300, 200, 700}, {50, 900, 130}, {256, 64, 200}, {1000, 100, 100}, {1600, 70, 40}, {96, 96, 200}, {94, 96, 220}, {40, 40, 1200}, {127, 129, 130}, {100, 100, 200}, {40, 200, 300}, {200, 200, 90}, {1000, 40, 64}, {2000, 8, 50}, {3000, 1, 300}, {1, 3000, 300}, {3000, 1, 401}, {1, 3000, 401}, {1, 1, 300001}, {20, 1, 140000}, {1, 20, 140000}, {37, 1, 150000}} {
		m, n, k := sz[0], sz[1], sz[2]
		gen := func(n int) []T { return fill[T](rng, n, false) }
		for _, al := range []layout{rowMajor, colMajor} {
			a, b := view(m, k, al, gen), view(k, n, rowMajor, gen)
			var first []T
			for _, th := range []int{1, 2, 3, 4} {
				c := Matrix[T]{make([]T, m*n), 0, n, 1}
				Mul(m, n, k, a, b, c, Options{Threads: th})
				if first == nil {
					first = c.Data
					continue
				}
				for i := range first {
					if math.Float64bits(float64(first[i])) != math.Float64bits(float64(c.Data[i])) {
						t.Fatalf("%v A %v threads=%d: element %d differs from 1 thread", sz, al, th, i)
					}
				}
			}
		}
	}
}

// TestMulEveryKernel switches to each kernel set this machine runs and
// checks whole products across block and tile edges.
func TestMulEveryKernel(t *testing.T) {
	defer func(saved kernelSet) { active = saved }(active)
	rng := rand.New(rand.NewPCG(18, 19))
	shapes := [][3]int{{13, 33, 17}, {40, 70, 600}, {100, 300, 50}}
	if quick() {
		shapes = [][3]int{{13, 33, 17}, {25, 40, 400}}
	}
	for _, v := range kernelSets.Variants() {
		active = v.K
		for _, s := range shapes {
			for l := range numLayouts {
				checkMul[float32](t, rng, s[0], s[1], s[2], l, (l+1)%numLayouts, (l+3)%numLayouts, Options{Threads: 2})
				checkMul[float64](t, rng, s[0], s[1], s[2], l, (l+2)%numLayouts, l, Options{Threads: 1})
				checkMul[int32](t, rng, s[0], s[1], s[2], (l+1)%numLayouts, l, rowMajor, Options{Threads: 2})
				checkMul[int64](t, rng, s[0], s[1], s[2], l, l, (l+4)%numLayouts, Options{Threads: 2})
			}
		}
	}
}

// quick reports whether tests should use their smaller sizes: with -short,
// and under the race detector.
func quick() bool { return testing.Short() || raceEnabled }

// TestMulRejectsViewsOutsideData checks the bounds check that protects the
// assembly from views reaching past their slices.
func TestMulRejectsViewsOutsideData(t *testing.T) {
	data := make([]float32, 16)
	ok := Matrix[float32]{data, 0, 4, 1}
	for name, bad := range map[string]Matrix[float32]{
		"past end":       {data, 1, 4, 1},
		"before start":   {data, 3, -4, 1},
		"wide stride":    {data, 0, 5, 1},
		"negative col":   {data, 2, 4, -1},
		"too short data": {data[:15], 0, 4, 1},
	} {
		for i, args := range [][3]Matrix[float32]{{bad, ok, ok}, {ok, bad, ok}, {ok, ok, bad}} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%s as operand %d: no panic", name, i)
					}
				}()
				Mul(4, 4, 4, args[0], args[1], args[2], Options{})
			}()
		}
	}
	Mul(4, 4, 4, ok, ok, Matrix[float32]{make([]float32, 16), 15, -4, -1}, Options{}) // reversed but inside
}

// TestMulStrips covers products whose last columns, fewer than a tile,
// go through the small kernel (job.strip): strips of one column and of a
// whole small-kernel vector, on split and unsplit products, against the
// naive product.
func TestMulStrips(t *testing.T) {
	forEachType(t, func(t *testing.T, typ string) {
		rng := rand.New(rand.NewPCG(46, 47))
		_, nr := tileOf(typ)
		for _, strip := range []int{1, 3, 8} {
			for _, size := range [][2]int{{29, 70}, {150, 300}} {
				m, k := size[0], size[1]
				n := 3*nr + strip
				opt := Options{Threads: 1 + rng.IntN(3)}
				checkMulTyped(t, typ, rng, m, n, k, layout(rng.IntN(int(numLayouts))), rowMajor, rowMajor, opt)
				checkMulTyped(t, typ, rng, n, m, k, rowMajor, layout(rng.IntN(int(numLayouts))), colMajor, opt)
			}
		}
	})
}

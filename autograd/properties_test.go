package autograd

import (
	"math/cmplx"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/tensor-go/tensor"
)

// mixed is a function touching every rule: broadcasting mul, a batched
// matmul with a 1-D operand, views, and a multi-axis prod.
func mixed(tp *Tape, xs []*tensor.Tensor) (*tensor.Tensor, error) {
	p, err := tp.Mul(xs[0], xs[1]) // (2,3,4) * (4,)
	if err != nil {
		return nil, err
	}
	q, err := tp.Matmul(p, xs[2]) // (2,3,4) @ (4,) → (2,3)
	if err != nil {
		return nil, err
	}
	r, err := tp.Transpose(q)
	if err != nil {
		return nil, err
	}
	s, err := tp.Prod(xs[0], tensor.Axis(0, 2), tensor.KeepDims(true)) // (1,3,1)
	if err != nil {
		return nil, err
	}
	s, err = tp.Reshape(s, 3, 1)
	if err != nil {
		return nil, err
	}
	return tp.Mul(r, s) // (3,2)
}

func mixedInputs(rng *rand.Rand, dt tensor.DType) []input {
	return []input{randInput(rng, dt, 2, 3, 4), randInput(rng, dt, 4), randInput(rng, dt, 4)}
}

func vjpOf(t *testing.T, f fn, ins []input, seed *tensor.Tensor, opts ...VJPOption) [][]complex128 {
	t.Helper()
	tp, xs, out := eval(t, f, ins)
	g, err := tp.VJP([]*tensor.Tensor{out}, []*tensor.Tensor{seed}, xs, opts...)
	if err != nil {
		t.Fatal(err)
	}
	vs := make([][]complex128, len(g))
	for i := range g {
		vs[i] = values(t, g[i])
	}
	return vs
}

func TestFDMixed(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	for _, dt := range []tensor.DType{tensor.Float64, tensor.Complex128} {
		checkFD(t, "mixed", mixed, mixedInputs(rng, dt)...)
	}
}

func TestZeroSeedAndLinearity(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 15))
	for _, dt := range []tensor.DType{tensor.Float64, tensor.Complex128} {
		ins := mixedInputs(rng, dt)
		zero := tensor.Must(tensor.Zeros(dt, 3, 2))
		for _, g := range vjpOf(t, mixed, ins, zero) {
			for _, v := range g {
				if v != 0 {
					t.Fatalf("%v: zero seed gives %v", dt, v)
				}
			}
		}
		s1, s2 := randInput(rng, dt, 3, 2), randInput(rng, dt, 3, 2)
		const a = 2.5
		comb := input{shape: s1.shape, dt: dt, data: make([]complex128, len(s1.data))}
		for i := range comb.data {
			comb.data[i] = a*s1.data[i] + s2.data[i]
		}
		g1, g2 := vjpOf(t, mixed, ins, s1.tensor(t)), vjpOf(t, mixed, ins, s2.tensor(t))
		gc := vjpOf(t, mixed, ins, comb.tensor(t))
		for i := range gc {
			for k := range gc[i] {
				want := a*g1[i][k] + g2[i][k]
				if cmplx.Abs(gc[i][k]-want) > 1e-12*(1+cmplx.Abs(want)) {
					t.Fatalf("%v: not linear in the seed: %v vs %v", dt, gc[i][k], want)
				}
			}
		}
	}
}

// Second derivatives by finite differences of the first: the function is
// the VJP itself, recorded with CreateGraph.
func TestFDSecondDerivatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 17))
	for _, dt := range []tensor.DType{tensor.Float64, tensor.Complex128} {
		for _, inner := range []struct {
			name string
			f    fn
			ins  []input
		}{
			{"prod", func(tp *Tape, xs []*tensor.Tensor) (*tensor.Tensor, error) {
				return tp.Prod(xs[0], tensor.Axis(1))
			}, []input{withZeros(rng, randInput(rng, dt, 3, 4), 2)}},
			{"prod two zeros", func(tp *Tape, xs []*tensor.Tensor) (*tensor.Tensor, error) {
				return tp.Prod(xs[0])
			}, []input{withZeros(rng, randInput(rng, dt, 4), 2)}},
			{"matmul", func(tp *Tape, xs []*tensor.Tensor) (*tensor.Tensor, error) {
				p, err := tp.Matmul(xs[0], xs[0])
				if err != nil {
					return nil, err
				}
				return tp.Mul(p, xs[0])
			}, []input{randInput(rng, dt, 2, 3, 3)}},
			{"mixed", mixed, mixedInputs(rng, dt)},
			{"sub neg", func(tp *Tape, xs []*tensor.Tensor) (*tensor.Tensor, error) {
				d, err := tp.Sub(xs[0], xs[1])
				if err != nil {
					return nil, err
				}
				n, err := tp.Neg(xs[0])
				if err != nil {
					return nil, err
				}
				return tp.Mul(d, n)
			}, []input{randInput(rng, dt, 3, 1), randInput(rng, dt, 4)}},
		} {
			_, _, out := eval(t, inner.f, inner.ins)
			seed := randInput(rng, dt, out.Shape()...)
			// The gradient with respect to the first input, as a function of
			// all of them.
			grad := func(tp *Tape, xs []*tensor.Tensor) (*tensor.Tensor, error) {
				y, err := inner.f(tp, xs)
				if err != nil {
					return nil, err
				}
				g, err := tp.VJP([]*tensor.Tensor{y}, []*tensor.Tensor{seed.tensor(t)}, xs[:1], CreateGraph())
				if err != nil {
					return nil, err
				}
				return g[0], nil
			}
			checkFD(t, "second derivative of "+inner.name, grad, inner.ins...)
		}
	}
}

func withZeros(rng *rand.Rand, in input, n int) input {
	for range n {
		in.data[rng.IntN(len(in.data))] = 0
	}
	return in
}

// Gradients are new tensors of their inputs' shape, dtype and layout, even
// for a view input and for one used twice.
func TestGradientLayouts(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3))
	v := x.Transpose() // a non-contiguous view as the input
	tp := New()
	y, err := tp.Reshape(v, 6)
	if err != nil {
		t.Fatal(err)
	}
	seed := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}))
	g, err := tp.VJP([]*tensor.Tensor{y}, []*tensor.Tensor{seed}, []*tensor.Tensor{v, v, y})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][]int{{3, 2}, {3, 2}, {6}} {
		if !slices.Equal(g[i].Shape(), want) || g[i].DType() != tensor.Float32 || !g[i].IsContiguous() {
			t.Fatalf("gradient %d: %v %v contiguous %v", i, g[i].Shape(), g[i].DType(), g[i].IsContiguous())
		}
	}
	if g[0] == g[1] || g[2] == seed {
		t.Fatal("a gradient shares its tensor with another result or with the seed")
	}
	if got := f32(t, g[0]); !slices.Equal(got, []float32{1, 2, 3, 4, 5, 6}) {
		t.Fatalf("gradient of a reshaped transpose = %v", got)
	}
	// Writing into a returned gradient changes nothing else.
	if err := tensor.MulInto(g[2], g[2], 0); err != nil {
		t.Fatal(err)
	}
	if got := f32(t, seed); got[5] != 6 {
		t.Fatal("the gradient aliased the seed")
	}
}

func f32(t testing.TB, x *tensor.Tensor) []float32 {
	t.Helper()
	v, err := tensor.ToSlice[float32](x)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestHalfGradients(t *testing.T) {
	for _, dt := range []tensor.DType{tensor.Float16, tensor.BFloat16} {
		x := tensor.Must(tensor.Must(tensor.FromSlice([]float32{2, 0, 4, 0.5})).AsType(dt))
		tp := New()
		y, _ := tp.Prod(x)
		g, err := tp.Grad(y, []*tensor.Tensor{x})
		if err != nil {
			t.Fatal(err)
		}
		if g[0].DType() != dt {
			t.Fatalf("gradient dtype %v, want %v", g[0].DType(), dt)
		}
		if got := f32(t, tensor.Must(g[0].AsType(tensor.Float32))); !slices.Equal(got, []float32{0, 4, 0, 0}) {
			t.Fatalf("%v: %v", dt, got)
		}
	}
}

func TestSparseGradients(t *testing.T) {
	dense := tensor.Must(tensor.FromSlice([]float64{1, 0, 2, 0, 0, 3}, 2, 3))
	b := tensor.Must(tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 3, 2))
	for _, csr := range []bool{false, true} {
		var a *tensor.Tensor
		if csr {
			a = tensor.Must(dense.ToSparseCSR())
		} else {
			a = tensor.Must(dense.ToSparseCOO())
		}
		tp := New()
		y, err := tp.Matmul(a, b)
		if err != nil {
			t.Fatal(err)
		}
		seed := tensor.Must(tensor.FromSlice([]float64{1, 0, 0, 1}, 2, 2))
		g, err := tp.VJP([]*tensor.Tensor{y}, []*tensor.Tensor{seed}, []*tensor.Tensor{a, b})
		if err != nil {
			t.Fatal(err)
		}
		if g[0].Layout() != a.Layout() || g[0].Nnz() != a.Nnz() {
			t.Fatalf("sparse gradient layout %v nnz %d, want %v %d", g[0].Layout(), g[0].Nnz(), a.Layout(), a.Nnz())
		}
		// seed @ bᵀ = [[1 3 5] [2 4 6]], sampled at (0,0), (0,2), (1,2).
		if got := f64(t, tensor.Must(g[0].ToDense())); !slices.Equal(got, []float64{1, 0, 5, 0, 0, 6}) {
			t.Fatalf("sparse gradient %v", got)
		}
		// aᵀ @ seed.
		if got := f64(t, g[1]); !slices.Equal(got, []float64{1, 0, 0, 0, 2, 3}) {
			t.Fatalf("dense gradient %v", got)
		}
	}
	// Through the conversions: to_sparse then to_dense is the identity at
	// the stored entries.
	tp := New()
	s, _ := tp.ToSparseCOO(dense)
	d, _ := tp.ToDense(s)
	w := tensor.Must(tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3))
	z, _ := tp.Mul(d, w)
	g, err := tp.VJP([]*tensor.Tensor{z}, []*tensor.Tensor{tensor.Must(tensor.Ones(tensor.Float64, 2, 3))}, []*tensor.Tensor{dense})
	if err != nil {
		t.Fatal(err)
	}
	if got := f64(t, g[0]); !slices.Equal(got, []float64{1, 0, 3, 0, 0, 6}) {
		t.Fatalf("gradient through to_sparse/to_dense %v", got)
	}
}

func TestTF32Backward(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 19))
	a := randInput(rng, tensor.Float32, 8, 16).tensor(t)
	b := randInput(rng, tensor.Float32, 16, 8).tensor(t)
	seed := randInput(rng, tensor.Float32, 8, 8).tensor(t)
	grads := func(opts ...tensor.MatmulOption) []*tensor.Tensor {
		tp := New()
		y, err := tp.Matmul(a, b, opts...)
		if err != nil {
			t.Fatal(err)
		}
		g, err := tp.VJP([]*tensor.Tensor{y}, []*tensor.Tensor{seed}, []*tensor.Tensor{a, b})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	tf := grads(tensor.WithPrecision(tensor.TF32))
	want := tensor.Must(tensor.Matmul(seed, b.Transpose(), tensor.WithPrecision(tensor.TF32)))
	if !slices.Equal(f32(t, tf[0]), f32(t, want)) {
		t.Fatal("the TF32 forward's backward is not the TF32 product g @ bᵀ")
	}
	exact := grads()
	if slices.Equal(f32(t, tf[0]), f32(t, exact[0])) {
		t.Fatal("TF32 and exact backward agree bit for bit: the mode did not carry")
	}
}

// VJPs on a finished tape run concurrently (go test -race), and results do
// not depend on GOMAXPROCS.
func TestConcurrentVJP(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 21))
	big := []input{randInput(rng, tensor.Float32, 64, 96), randInput(rng, tensor.Float32, 96, 80)}
	f := func(tp *Tape, xs []*tensor.Tensor) (*tensor.Tensor, error) {
		p, err := tp.Matmul(xs[0], xs[1])
		if err != nil {
			return nil, err
		}
		q, err := tp.Mul(p, p)
		if err != nil {
			return nil, err
		}
		if q, err = tp.Slice(q, tensor.Span(0, 4)); err != nil {
			return nil, err
		}
		return tp.Prod(q, tensor.Axis(0))
	}
	tp, xs, out := eval(t, f, big)
	seed := randInput(rng, tensor.Float32, out.Shape()...).tensor(t)
	run := func() [][]float32 {
		g, err := tp.VJP([]*tensor.Tensor{out}, []*tensor.Tensor{seed}, xs)
		if err != nil {
			t.Error(err)
			return nil
		}
		return [][]float32{f32(t, g[0]), f32(t, g[1])}
	}
	old := runtime.GOMAXPROCS(1)
	one := run()
	runtime.GOMAXPROCS(16)
	many := run()
	runtime.GOMAXPROCS(old)
	for i := range one {
		if slices.ContainsFunc(one[i], func(v float32) bool { return v != v }) {
			t.Fatal("NaN in the gradients: the comparison would fail")
		}
		if !slices.Equal(one[i], many[i]) {
			t.Fatalf("gradient %d differs between GOMAXPROCS 1 and 16", i)
		}
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got := run()
			for i := range got {
				if !slices.Equal(got[i], one[i]) {
					t.Errorf("concurrent VJP %d differs", i)
				}
			}
		}()
	}
	wg.Wait()
}

func TestSparseMatmulVector(t *testing.T) {
	dense := tensor.Must(tensor.FromSlice([]float64{1, 0, 2, 0, 0, 3}, 2, 3))
	a := tensor.Must(dense.ToSparseCSR())
	v := tensor.Must(tensor.FromSlice([]float64{1, 2, 3}))
	tp := New()
	y, err := tp.Matmul(a, v) // (2,)
	if err != nil {
		t.Fatal(err)
	}
	g, err := tp.VJP([]*tensor.Tensor{y}, []*tensor.Tensor{tensor.Must(tensor.FromSlice([]float64{1, 2}))}, []*tensor.Tensor{a, v})
	if err != nil {
		t.Fatal(err)
	}
	// seed ⊗ v at a's entries; aᵀ·seed.
	if got := f64(t, tensor.Must(g[0].ToDense())); !slices.Equal(got, []float64{1, 0, 3, 0, 0, 6}) {
		t.Fatalf("sparse gradient %v", got)
	}
	if got := f64(t, g[1]); !slices.Equal(got, []float64{1, 0, 8}) {
		t.Fatalf("vector gradient %v", got)
	}
}

// The fused product-sum of a broadcast operand's gradient (no recording,
// tensor.MulSum) agrees with the recorded path (Mul, then Sum) within the
// rounding of its float64 sums, for every broadcast pattern (a bias, a
// column, a scalar-like operand, an outer product, a batch), and leaves
// the other operand's gradient as it was.
func TestMulSumToFused(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 31))
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
		for _, cs := range [][2][]int{{{37, 4}, {4}}, {{5, 6, 8}, {1, 6, 8}}, {{64, 16}, {16}}, {{9, 3, 5}, {5}},
			{{300, 200}, {200}}, {{300, 200}, {300, 1}}, {{300, 200}, {1, 1}}, {{4, 30, 200}, {30, 200}}, {{4, 30, 200}, {4, 1, 200}}} {
			x := randInput(rng, tensor.Float64, cs[0]...).tensor(t)
			y := randInput(rng, tensor.Float64, cs[1]...).tensor(t)
			seed := randInput(rng, tensor.Float64, cs[0]...).tensor(t)
			x, y, seed = tensor.Must(x.AsType(dt)), tensor.Must(y.AsType(dt)), tensor.Must(seed.AsType(dt))
			tp := New()
			out, err := tp.Mul(x, y)
			if err != nil {
				t.Fatal(err)
			}
			fused, err := tp.VJP([]*tensor.Tensor{out}, []*tensor.Tensor{seed}, []*tensor.Tensor{x, y})
			if err != nil {
				t.Fatal(err)
			}
			recorded, err := tp.VJP([]*tensor.Tensor{out}, []*tensor.Tensor{seed}, []*tensor.Tensor{x, y}, CreateGraph())
			if err != nil {
				t.Fatal(err)
			}
			for i := range 2 {
				a, b := values(t, fused[i]), values(t, recorded[i])
				if !equalInts(fused[i].Shape(), recorded[i].Shape()) || fused[i].DType() != dt || len(a) != len(b) {
					t.Fatalf("%v %v: gradient %d is %v %v, want %v %v", dt, cs, i, fused[i].DType(), fused[i].Shape(), dt, recorded[i].Shape())
				}
				tol := 1e-12
				if dt == tensor.Float32 {
					tol = 2e-6
				}
				for k := range a {
					if cmplx.Abs(a[k]-b[k]) > tol*(1+cmplx.Abs(b[k])) {
						t.Fatalf("%v %v: gradient %d element %d = %v, recorded %v", dt, cs, i, k, a[k], b[k])
					}
				}
			}
		}
	}
}

package autograd

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/tensor-go/tensor"
)

// input is a differentiable argument of a function under test, kept as
// complex128 values so that it can be perturbed in any dtype.
type input struct {
	shape []int
	data  []complex128
	dt    tensor.DType
}

func randInput(rng *rand.Rand, dt tensor.DType, shape ...int) input {
	n := 1
	for _, d := range shape {
		n *= d
	}
	in := input{shape: shape, data: make([]complex128, n), dt: dt}
	for i := range in.data {
		re := rng.Float64()*2 - 1
		if dt.IsComplex() {
			in.data[i] = complex(re, rng.Float64()*2-1)
		} else {
			in.data[i] = complex(re, 0)
		}
	}
	return in
}

func (in input) tensor(t testing.TB) *tensor.Tensor {
	t.Helper()
	x, err := tensor.FromSlice(in.data, in.shape...)
	if err != nil {
		t.Fatal(err)
	}
	if x, err = x.AsType(in.dt); err != nil {
		t.Fatal(err)
	}
	return x
}

func values(t testing.TB, x *tensor.Tensor) []complex128 {
	t.Helper()
	if x.Layout() != tensor.Strided {
		var err error
		if x, err = x.ToDense(); err != nil {
			t.Fatal(err)
		}
	}
	c, err := x.AsType(tensor.Complex128)
	if err != nil {
		t.Fatal(err)
	}
	v, err := tensor.ToSlice[complex128](c)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

type fn func(tp *Tape, xs []*tensor.Tensor) (*tensor.Tensor, error)

// eval runs f on fresh tensors of the inputs.
func eval(t testing.TB, f fn, ins []input) (*Tape, []*tensor.Tensor, *tensor.Tensor) {
	t.Helper()
	tp := New()
	xs := make([]*tensor.Tensor, len(ins))
	for i, in := range ins {
		xs[i] = in.tensor(t)
	}
	out, err := f(tp, xs)
	if err != nil {
		t.Fatal(err)
	}
	return tp, xs, out
}

// loss is Re Σ conj(seed)·out, whose gradient VJP computes.
func loss(t testing.TB, seed []complex128, out *tensor.Tensor) float64 {
	var s float64
	for i, v := range values(t, out) {
		s += real(cmplx.Conj(seed[i]) * v)
	}
	return s
}

// checkFD compares VJP with central differences of the loss (gradcheck's
// eps and tolerances in float64 and complex128).
func checkFD(t *testing.T, name string, f fn, ins ...input) {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, uint64(len(name))))
	tp, xs, out := eval(t, f, ins)
	seedIn := randInput(rng, out.DType(), out.Shape()...)
	seed := seedIn.tensor(t)
	grads, err := tp.VJP([]*tensor.Tensor{out}, []*tensor.Tensor{seed}, xs)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	const eps, atol, rtol = 1e-6, 1e-5, 1e-3
	for i, in := range ins {
		g := grads[i]
		if !equalInts(g.Shape(), in.shape) || g.DType() != in.dt || !g.IsContiguous() {
			t.Fatalf("%s: gradient %d is %v %v (contiguous %v), want %v %v", name, i, g.DType(), g.Shape(), g.IsContiguous(), in.dt, in.shape)
		}
		got := values(t, g)
		for k := range in.data {
			num := complex(diff(t, f, ins, i, k, complex(eps, 0), seedIn.data), 0)
			if in.dt.IsComplex() {
				num += complex(0, diff(t, f, ins, i, k, complex(0, eps), seedIn.data))
			}
			if cmplx.Abs(got[k]-num) > atol+rtol*cmplx.Abs(num) {
				t.Errorf("%s: d/dx%d[%d] = %v, finite differences %v", name, i, k, got[k], num)
			}
		}
	}
}

func diff(t *testing.T, f fn, ins []input, i, k int, h complex128, seed []complex128) float64 {
	at := func(d complex128) float64 {
		moved := append([]input{}, ins...)
		moved[i].data = append([]complex128{}, ins[i].data...)
		moved[i].data[k] += d
		_, _, out := eval(t, f, moved)
		return loss(t, seed, out)
	}
	return (at(h) - at(-h)) / (2 * cmplx.Abs(h))
}

func equalInts(a, b []int) bool {
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

func randShape(rng *rand.Rand, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = 1 + rng.IntN(3)
	}
	return s
}

func TestFDMatmulRankCases(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	mm := func(tp *Tape, xs []*tensor.Tensor) (*tensor.Tensor, error) { return tp.Matmul(xs[0], xs[1]) }
	for _, dt := range []tensor.DType{tensor.Float64, tensor.Complex128} {
		for trial := 0; trial < 3; trial++ {
			m, k, n, b, c := 1+rng.IntN(3), 1+rng.IntN(4), 1+rng.IntN(3), 1+rng.IntN(3), 2
			cases := [][2][]int{
				{{k}, {k}},
				{{k}, {k, n}},
				{{m, k}, {k}},
				{{m, k}, {k, n}},
				{{b, m, k}, {k}},
				{{k}, {b, k, n}},
				{{b, m, k}, {k, n}},
				{{m, k}, {b, k, n}},
				{{b, 1, m, k}, {c, k, n}},
				{{c, m, k}, {b, 1, k, n}},
				{{b, m, k}, {b, k, n}},
			}
			for _, cs := range cases {
				checkFD(t, "matmul", mm, randInput(rng, dt, cs[0]...), randInput(rng, dt, cs[1]...))
			}
		}
	}
}

func TestFDMulBroadcast(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	mul := func(tp *Tape, xs []*tensor.Tensor) (*tensor.Tensor, error) { return tp.Mul(xs[0], xs[1]) }
	for _, dt := range []tensor.DType{tensor.Float64, tensor.Complex128} {
		for _, cs := range [][2][]int{{{3, 1}, {1, 4}}, {{2, 3, 4}, {4}}, {{4}, {2, 3, 4}}, {{2, 1, 3}, {4, 1}}, {{}, {2, 2}}, {{3}, {3}}} {
			checkFD(t, "mul", mul, randInput(rng, dt, cs[0]...), randInput(rng, dt, cs[1]...))
		}
		scalar := func(tp *Tape, xs []*tensor.Tensor) (*tensor.Tensor, error) { return tp.Mul(xs[0], 2.5) }
		checkFD(t, "mul scalar", scalar, randInput(rng, dt, 2, 3))
	}
}

func TestFDProd(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, dt := range []tensor.DType{tensor.Float64, tensor.Complex128} {
		for trial := 0; trial < 4; trial++ {
			s := randShape(rng, 3)
			s[0]++
			for _, axes := range [][]int{nil, {0}, {1}, {2}, {0, 2}, {-1, 0}, {0, 1, 2}, {}} {
				for _, keep := range []bool{false, true} {
					for zeros := 0; zeros <= 2; zeros++ {
						in := randInput(rng, dt, s...)
						for z := 0; z < zeros; z++ {
							in.data[rng.IntN(len(in.data))] = 0
						}
						opts := []tensor.ReduceOption{tensor.KeepDims(keep)}
						if axes != nil {
							opts = append(opts, tensor.Axis(axes...))
						}
						f := func(tp *Tape, xs []*tensor.Tensor) (*tensor.Tensor, error) { return tp.Prod(xs[0], opts...) }
						checkFD(t, "prod", f, in)
					}
				}
			}
		}
	}
}

func TestFDViews(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, dt := range []tensor.DType{tensor.Float64, tensor.Complex128} {
		// A reversed, stepped slice of a transposed operand times a
		// broadcast one, through a reshape and a product.
		f := func(tp *Tape, xs []*tensor.Tensor) (*tensor.Tensor, error) {
			a, err := tp.Transpose(xs[0])
			if err != nil {
				return nil, err
			}
			if a, err = tp.Slice(a, tensor.All().By(-1), tensor.From(1).By(2)); err != nil {
				return nil, err
			}
			bb, err := tp.BroadcastTo(xs[1], 4, 2)
			if err != nil {
				return nil, err
			}
			p, err := tp.Mul(a, bb)
			if err != nil {
				return nil, err
			}
			if p, err = tp.Permute(p, 1, 0); err != nil {
				return nil, err
			}
			if p, err = tp.Reshape(p, 8); err != nil {
				return nil, err
			}
			return tp.Prod(p, tensor.Axis(0))
		}
		checkFD(t, "views", f, randInput(rng, dt, 5, 4), randInput(rng, dt, 1, 2))
		g := func(tp *Tape, xs []*tensor.Tensor) (*tensor.Tensor, error) {
			a, err := tp.ExpandDims(xs[0], 1)
			if err != nil {
				return nil, err
			}
			if a, err = tp.MT(a); err != nil {
				return nil, err
			}
			if a, err = tp.Squeeze(a); err != nil {
				return nil, err
			}
			if a, err = tp.Contiguous(a); err != nil {
				return nil, err
			}
			if a, err = tp.Clone(a); err != nil {
				return nil, err
			}
			s, err := tp.Slice(xs[0], tensor.Index(1))
			if err != nil {
				return nil, err
			}
			return tp.Matmul(a, s)
		}
		checkFD(t, "views2", g, randInput(rng, dt, 3, 3))
	}
}

func TestFDAsType(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	f := func(tp *Tape, xs []*tensor.Tensor) (*tensor.Tensor, error) {
		c, err := tp.AsType(xs[0], tensor.Complex128)
		if err != nil {
			return nil, err
		}
		return tp.Mul(c, xs[1])
	}
	checkFD(t, "astype real→complex", f, randInput(rng, tensor.Float64, 3), randInput(rng, tensor.Complex128, 3))
	g := func(tp *Tape, xs []*tensor.Tensor) (*tensor.Tensor, error) {
		c, err := tp.Conj(xs[0])
		if err != nil {
			return nil, err
		}
		return tp.Mul(c, xs[0])
	}
	checkFD(t, "conj", g, randInput(rng, tensor.Complex128, 4))
	_ = math.Pi
}

func TestFDAddSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 23))
	add := func(tp *Tape, xs []*tensor.Tensor) (*tensor.Tensor, error) {
		s, err := tp.Add(xs[0], xs[1])
		if err != nil {
			return nil, err
		}
		s, err = tp.Add(s, 1.5) // a constant
		if err != nil {
			return nil, err
		}
		return tp.Mul(s, s)
	}
	for _, dt := range []tensor.DType{tensor.Float64, tensor.Complex128} {
		for _, cs := range [][2][]int{{{3, 1}, {1, 4}}, {{2, 3, 4}, {4}}, {{4}, {2, 3, 4}}, {{}, {2}}} {
			checkFD(t, "add", add, randInput(rng, dt, cs[0]...), randInput(rng, dt, cs[1]...))
		}
		for _, axes := range [][]int{nil, {0}, {-1}, {0, 2}, {}} {
			for _, keep := range []bool{false, true} {
				opts := []tensor.ReduceOption{tensor.KeepDims(keep)}
				if axes != nil {
					opts = append(opts, tensor.Axis(axes...))
				}
				f := func(tp *Tape, xs []*tensor.Tensor) (*tensor.Tensor, error) {
					p, err := tp.Mul(xs[0], xs[0])
					if err != nil {
						return nil, err
					}
					return tp.Sum(p, opts...)
				}
				checkFD(t, "sum", f, randInput(rng, dt, 2, 3, 4))
			}
		}
	}
}

func TestFDSubNeg(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 25))
	sub := func(tp *Tape, xs []*tensor.Tensor) (*tensor.Tensor, error) {
		d, err := tp.Sub(xs[0], xs[1])
		if err != nil {
			return nil, err
		}
		c, err := tp.Sub(1.5, xs[1]) // a constant on the left
		if err != nil {
			return nil, err
		}
		if c, err = tp.Neg(c); err != nil {
			return nil, err
		}
		return tp.Mul(d, c)
	}
	for _, dt := range []tensor.DType{tensor.Float64, tensor.Complex128} {
		for _, cs := range [][2][]int{{{3, 1}, {1, 4}}, {{2, 3, 4}, {4}}, {{4}, {2, 3, 4}}, {{}, {2}}} {
			checkFD(t, "sub", sub, randInput(rng, dt, cs[0]...), randInput(rng, dt, cs[1]...))
		}
	}
}

package autograd

import (
	"math"
	"testing"

	"github.com/tensor-go/tensor"
)

func f64(t testing.TB, x *tensor.Tensor) []float64 {
	t.Helper()
	v, err := tensor.ToSlice[float64](x)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// sameBits compares float64 results exactly: NaN equals NaN and −0 differs
// from +0.
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.IsNaN(a[i]) && math.IsNaN(b[i]) {
			continue
		}
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

func TestProdGradientExact(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	negz := math.Copysign(0, -1)
	cases := []struct{ x, want []float64 }{
		{[]float64{2, 0, 4}, []float64{0, 8, 0}},
		{[]float64{0, 3, 0}, []float64{0, 0, 0}},
		{[]float64{inf, 1, 2}, []float64{2, inf, inf}},
		{[]float64{negz, 3}, []float64{3, negz}},
		{[]float64{0, inf}, []float64{inf, 0}},
		{[]float64{nan, 2, 3}, []float64{6, nan, nan}},
		{[]float64{5}, []float64{1}},
		{[]float64{-inf, 0, 2}, []float64{0, -inf, nan}},
	}
	for _, dt := range []tensor.DType{tensor.Float64, tensor.Float32} {
		for _, c := range cases {
			x := tensor.Must(tensor.Must(tensor.FromSlice(c.x)).AsType(dt))
			tp := New()
			y, err := tp.Prod(x)
			if err != nil {
				t.Fatal(err)
			}
			g, err := tp.Grad(y, []*tensor.Tensor{x})
			if err != nil {
				t.Fatal(err)
			}
			got := f64(t, tensor.Must(g[0].AsType(tensor.Float64)))
			if !sameBits(got, c.want) {
				t.Errorf("%v: grad prod(%v) = %v, want %v", dt, c.x, got, c.want)
			}
		}
	}
}

// The Hessian of prod at x, row by row, from the gradient of the gradient.
func prodHessian(t *testing.T, xs []float64) [][]float64 {
	x := tensor.Must(tensor.FromSlice(xs))
	tp := New()
	y, err := tp.Prod(x)
	if err != nil {
		t.Fatal(err)
	}
	g, err := tp.Grad(y, []*tensor.Tensor{x}, CreateGraph())
	if err != nil {
		t.Fatal(err)
	}
	h := make([][]float64, len(xs))
	for i := range xs {
		e := make([]float64, len(xs))
		e[i] = 1
		seed := tensor.Must(tensor.FromSlice(e))
		row, err := tp.VJP([]*tensor.Tensor{g[0]}, []*tensor.Tensor{seed}, []*tensor.Tensor{x})
		if err != nil {
			t.Fatal(err)
		}
		h[i] = f64(t, row[0])
	}
	return h
}

func TestProdHessianExact(t *testing.T) {
	cases := []struct {
		x    []float64
		want [][]float64
	}{
		{[]float64{0, 3, 0}, [][]float64{{0, 0, 3}, {0, 0, 0}, {3, 0, 0}}},
		{[]float64{2, 0, 4}, [][]float64{{0, 4, 0}, {4, 0, 2}, {0, 2, 0}}},
		{[]float64{2, 3, 4}, [][]float64{{0, 4, 3}, {4, 0, 2}, {3, 2, 0}}},
		{[]float64{0, 0, 0}, [][]float64{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}},
		// The Hessian is [[0 2 1] [2 0 inf] [1 inf 0]]; a row taken as a
		// VJP with a one-hot seed adds 0·inf from the other rows, which
		// IEEE makes NaN, exactly as the sum Σᵢ seedᵢ·Hᵢₖ does.
		{[]float64{math.Inf(1), 1, 2}, [][]float64{{0, math.NaN(), math.NaN()}, {2, math.NaN(), math.Inf(1)}, {1, math.Inf(1), math.NaN()}}},
	}
	for _, c := range cases {
		h := prodHessian(t, c.x)
		for i := range h {
			if !sameBits(h[i], c.want[i]) {
				t.Errorf("hessian of prod at %v row %d = %v, want %v", c.x, i, h[i], c.want[i])
			}
		}
	}
}

// Third derivatives go through the same operation one order up:
// ∂³ prod(x,y,z) / ∂x∂y∂z = 1 even at zero.
func TestProdThirdDerivative(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float64{0, 0, 0}))
	tp := New()
	y, _ := tp.Prod(x)
	g, err := tp.Grad(y, []*tensor.Tensor{x}, CreateGraph())
	if err != nil {
		t.Fatal(err)
	}
	g0, _ := tp.Slice(g[0], tensor.Index(0))
	h, err := tp.Grad(g0, []*tensor.Tensor{x}, CreateGraph())
	if err != nil {
		t.Fatal(err)
	}
	h1, _ := tp.Slice(h[0], tensor.Index(1))
	d3, err := tp.Grad(h1, []*tensor.Tensor{x})
	if err != nil {
		t.Fatal(err)
	}
	if got := f64(t, d3[0]); !sameBits(got, []float64{0, 0, 1}) {
		t.Errorf("third derivative row = %v, want [0 0 1]", got)
	}
}

// Without CreateGraph, Prod's backward takes the cotangent in the suffix
// pass (tensor.ExclusiveProdMul); with it, the recorded exclusive products
// and product. Both give the same bits, for each axis, kept or not, and
// for the 16-bit floats computed in float32.
func TestProdGradientFusedMatchesRecorded(t *testing.T) {
	vals := []float64{0.75, -1.5, 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1.25, -0.5, 2}
	data := make([]float64, 7*33)
	for i := range data {
		data[i] = vals[(i*7+i/5)%len(vals)]
		if i%3 != 0 {
			data[i] = 1 + float64(i%11)/16
		}
	}
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64, tensor.Float16} {
		x := tensor.Must(tensor.Must(tensor.FromSlice(data, 7, 33)).AsType(dt))
		for _, axis := range []int{0, 1} {
			for _, keep := range []bool{false, true} {
				opts := []tensor.ReduceOption{tensor.Axis(axis), tensor.KeepDims(keep)}
				var grads [2][]float64
				for k, create := range []bool{false, true} {
					tp := New()
					y, err := tp.Prod(x, opts...)
					if err != nil {
						t.Fatal(err)
					}
					seed := tensor.Must(tensor.Rand(3, y.DType(), -2, 2, y.Shape()...))
					var vo []VJPOption
					if create {
						vo = append(vo, CreateGraph())
					}
					g, err := tp.VJP([]*tensor.Tensor{y}, []*tensor.Tensor{seed}, []*tensor.Tensor{x}, vo...)
					if err != nil {
						t.Fatal(err)
					}
					grads[k] = f64(t, tensor.Must(g[0].AsType(tensor.Float64)))
				}
				if !sameBits(grads[0], grads[1]) {
					t.Errorf("%v axis %d keep %v: fused gradient %v, recorded %v", dt, axis, keep, grads[0], grads[1])
				}
			}
		}
	}
}

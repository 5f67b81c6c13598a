package tensor

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/tensor-go/tensor/internal/ewise"
)

// mulSumCase is one MulSum call: operand makers and the options.
type mulSumCase struct {
	name string
	x, y func(t *testing.T, dt DType) *Tensor
	opts []ReduceOption
}

func mulSumRand(seed uint64, s ...int) func(t *testing.T, dt DType) *Tensor {
	return func(t *testing.T, dt DType) *Tensor {
		lo, hi := -2.0, 2.0
		if dt == Bool {
			lo, hi = 0, 1
		}
		if dt.IsInteger() && !dt.IsSigned() {
			lo = 0
		}
		x, err := Rand(seed, dt, lo, hi, s...)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
}

// mulSumView makes a transposed or reversed view of a random tensor.
func mulSumView(seed uint64, view func(*Tensor) (*Tensor, error), s ...int) func(t *testing.T, dt DType) *Tensor {
	make := mulSumRand(seed, s...)
	return func(t *testing.T, dt DType) *Tensor {
		v, err := view(make(t, dt))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func mulSumCases() []mulSumCase {
	mt := func(x *Tensor) (*Tensor, error) { return x.MT() }
	rev := func(x *Tensor) (*Tensor, error) { return x.Slice(All(), All().By(-1)) }
	return []mulSumCase{
		{"row bias axis 0", mulSumRand(1, 70, 300), mulSumRand(2, 300), []ReduceOption{Axis(0)}},
		{"row bias axis 0 keepdims", mulSumRand(1, 70, 300), mulSumRand(2, 300), []ReduceOption{Axis(0), KeepDims(true)}},
		{"row bias axis 1", mulSumRand(3, 70, 300), mulSumRand(4, 300), []ReduceOption{Axis(1)}},
		{"all", mulSumRand(5, 70, 300), mulSumRand(6, 70, 300), nil},
		{"all long", mulSumRand(5, 2, 40000), mulSumRand(6, 40000), nil},
		{"column", mulSumRand(7, 40, 513), mulSumRand(8, 40, 1), []ReduceOption{Axis(-1), KeepDims(true)}},
		{"outer axis 0", mulSumRand(9, 50, 1), mulSumRand(10, 1, 260), []ReduceOption{Axis(0)}},
		{"outer axis 1", mulSumRand(11, 50, 1), mulSumRand(12, 1, 260), []ReduceOption{Axis(1)}},
		{"batch", mulSumRand(13, 5, 12, 200), mulSumRand(14, 12, 200), []ReduceOption{Axis(0)}},
		{"batch two axes", mulSumRand(15, 5, 12, 200), mulSumRand(16, 5, 12, 200), []ReduceOption{Axis(0, 2)}},
		{"transposed", mulSumView(17, mt, 300, 40), mulSumRand(18, 40, 300), []ReduceOption{Axis(0)}},
		{"reversed", mulSumView(19, rev, 40, 300), mulSumRand(20, 300), []ReduceOption{Axis(0)}},
		{"scalar", mulSumRand(21, 40, 300), func(*testing.T, DType) *Tensor { return nil }, []ReduceOption{Axis(0)}},
		{"row bias shared", mulSumRand(26, 130, 600), mulSumRand(27, 600), []ReduceOption{Axis(0)}},
		{"column shared", mulSumRand(28, 130, 600), mulSumRand(29, 130, 1), []ReduceOption{Axis(1)}},
		{"batch shared", mulSumRand(30, 5, 60, 300), mulSumRand(31, 60, 300), []ReduceOption{Axis(0)}},
		{"batch tiled shared", mulSumRand(34, 2, 301, 220), mulSumRand(35, 301, 220), []ReduceOption{Axis(0)}},
		{"few kept", mulSumRand(32, 120, 3, 200), mulSumRand(33, 3, 1), []ReduceOption{Axis(0, 2)}},
		{"small", mulSumRand(22, 4, 5), mulSumRand(23, 5), []ReduceOption{Axis(0)}},
		{"short rows", mulSumRand(24, 3000, 3), mulSumRand(25, 3), []ReduceOption{Axis(0)}},
	}
}

// MulSum gives Sum(Mul(x, y)): the same shape and dtype, every integer
// and bool exactly, floats within the rounding of their accumulators
// (another order of additions), for every broadcast pattern, view and
// dtype, mixed ones included; with the vector kernels and without.
func TestMulSumMatchesMulThenSum(t *testing.T) {
	dts := [][2]DType{{Float32, Float32}, {Float64, Float64}, {Int32, Int32}, {Float32, Int32}, {Float16, Float16},
		{Int8, Int8}, {Uint16, Uint16}, {Bool, Bool}, {BFloat16, BFloat16}, {Complex64, Complex64}, {Complex128, Complex128},
		{Float64, Float32}, {Int8, Float16}}
	defer func(old bool) { ewise.UseVec = old }(ewise.UseVec)
	for _, useVec := range []bool{true, false} {
		if !useVec && mmRaceEnabled {
			continue // the plain loops are slow under -race, and the default lane runs them
		}
		ewise.UseVec = useVec
		for _, c := range mulSumCases() {
			for k, dt := range dts {
				if big := strings.Contains(c.name, "shared") || strings.Contains(c.name, "long") || c.name == "few kept"; big && (!useVec || k > 4) {
					continue // the large cases (several goroutines) in five dtype pairs, to keep -race short
				}
				x := c.x(t, dt[0])
				var y any = c.y(t, dt[1])
				if y.(*Tensor) == nil {
					y = 3
				}
				got, err := MulSum(x, y, c.opts...)
				if err != nil {
					t.Fatalf("%s %v: %v", c.name, dt, err)
				}
				p, err := Mul(x, y)
				if err != nil {
					t.Fatal(err)
				}
				want, err := Sum(p, c.opts...)
				if err != nil {
					t.Fatal(err)
				}
				compareMulSum(t, fmt.Sprintf("%s %v vec=%v", c.name, dt, useVec), got, want, p, c.opts)
			}
		}
	}
}

// compareMulSum checks got against want, the sum of the products p.
func compareMulSum(t *testing.T, name string, got, want, p *Tensor, opts []ReduceOption) {
	t.Helper()
	if got.DType() != want.DType() || !slices.Equal(got.Shape(), want.Shape()) {
		t.Fatalf("%s: %v %v, want %v %v", name, got.DType(), got.Shape(), want.DType(), want.Shape())
	}
	g, w := complexValues(t, got), complexValues(t, want)
	// The bound: the sum of the magnitudes, times the accumulator's or
	// result's epsilon.
	abs, err := p.AsType(Complex128)
	if err != nil {
		t.Fatal(err)
	}
	mags := complexValues(t, abs)
	for i := range mags {
		mags[i] = complex(cmplx.Abs(mags[i]), 0)
	}
	bound, err := Sum(Must(FromSlice(mags)).mustReshape(p.Shape()), opts...)
	if err != nil {
		t.Fatal(err)
	}
	b := complexValues(t, bound)
	eps := 0.0
	switch got.DType() {
	case Float32, Complex64:
		eps = 1.2e-7
	case Float64, Complex128:
		eps = 1e-15
	case Float16:
		eps = 1e-3
	case BFloat16:
		eps = 8e-3
	}
	for i := range g {
		if g[i] == w[i] {
			continue // infinities (a float16 sum past 65504) included
		}
		if d := cmplx.Abs(g[i] - w[i]); d > eps*real(b[i]) || math.IsNaN(d) {
			t.Fatalf("%s: element %d = %v, want %v (bound %v)", name, i, g[i], w[i], eps*real(b[i]))
		}
	}
}

func (t *Tensor) mustReshape(s []int) *Tensor { return Must(t.Reshape(s...)) }

func complexValues(t *testing.T, x *Tensor) []complex128 {
	t.Helper()
	c, err := x.AsType(Complex128)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ToSlice[complex128](c)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The order of MulSum's additions is fixed by the shapes: the same bits
// with one goroutine and with four.
func TestMulSumThreadIndependent(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, c := range mulSumCases() {
		x := c.x(t, Float32)
		var y any = c.y(t, Float32)
		if y.(*Tensor) == nil {
			y = 3
		}
		var res [2][]float32
		for i, procs := range []int{1, 4} {
			runtime.GOMAXPROCS(procs)
			got, err := MulSum(x, y, c.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if res[i], err = ToSlice[float32](got); err != nil {
				t.Fatal(err)
			}
		}
		for i := range res[0] {
			if math.Float32bits(res[0][i]) != math.Float32bits(res[1][i]) {
				t.Fatalf("%s: element %d is %v with one goroutine, %v with four", c.name, i, res[0][i], res[1][i])
			}
		}
	}
}

// MulSum's errors are Mul's and Sum's.
func TestMulSumErrors(t *testing.T) {
	x, y := Must(Zeros(Float32, 3, 4)), Must(Zeros(Float32, 5))
	if _, err := MulSum(x, y); !errors.Is(err, ErrShape) {
		t.Fatalf("shapes that do not broadcast: %v", err)
	}
	if _, err := MulSum(x, x, Axis(2)); !errors.Is(err, ErrAxis) {
		t.Fatalf("axis out of range: %v", err)
	}
	if _, err := MulSum(x, x, WithDType(Int32)); !errors.Is(err, ErrDType) {
		t.Fatalf("a lower accumulator: %v", err)
	}
	if _, err := MulSum((*Tensor)(nil), x); !errors.Is(err, ErrValue) {
		t.Fatalf("nil operand: %v", err)
	}
	// WithDType of another accumulator (int8 summed as float32, in
	// float64) forms the product and sums it.
	i8 := Must(Rand(1, Int8, -3, 3, 80, 100))
	got, err := MulSum(i8, i8, Axis(0), WithDType(Float32))
	if err != nil {
		t.Fatal(err)
	}
	want := Must(Sum(Must(Mul(i8, i8)), Axis(0), WithDType(Float32)))
	gv, _ := ToSlice[float32](got)
	wv, _ := ToSlice[float32](want)
	if got.DType() != Float32 || !slices.Equal(gv, wv) {
		t.Fatalf("WithDType(Float32): %v", got)
	}
}

// MulWithSum gives Mul(g, u) and MulSum(g, v) bit for bit, fused or not:
// a bias, a column, a scalar, a batch operand, views of g, other dtypes.
func TestMulWithSumMatchesSeparateCalls(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	mt := func(x *Tensor) (*Tensor, error) { return x.MT() }
	cases := []struct {
		name    string
		g, u, v func(t *testing.T, dt DType) *Tensor
		opts    []ReduceOption
	}{
		{"bias", mulSumRand(1, 130, 600), mulSumRand(2, 600), mulSumRand(3, 130, 600), []ReduceOption{Axis(0)}},
		{"bias small", mulSumRand(1, 30, 200), mulSumRand(2, 200), mulSumRand(3, 30, 200), []ReduceOption{Axis(0)}},
		{"column", mulSumRand(4, 130, 600), mulSumRand(5, 130, 600), mulSumRand(6, 130, 1), []ReduceOption{Axis(1), KeepDims(true)}},
		{"column of u", mulSumRand(4, 130, 600), mulSumRand(5, 130, 1), mulSumRand(6, 130, 600), []ReduceOption{Axis(1), KeepDims(true)}},
		{"scalar", mulSumRand(7, 130, 600), mulSumRand(8), mulSumRand(9, 130, 600), nil},
		{"batch", mulSumRand(10, 6, 60, 300), mulSumRand(11, 60, 300), mulSumRand(12, 6, 60, 300), []ReduceOption{Axis(0)}},
		{"transposed g", mulSumView(13, mt, 600, 130), mulSumRand(14, 600), mulSumRand(15, 130, 600), []ReduceOption{Axis(0)}},
		{"short rows", mulSumRand(16, 3000, 3), mulSumRand(17, 3), mulSumRand(18, 3000, 3), []ReduceOption{Axis(0)}},
	}
	defer func(old int) { ewise.StreamOutputBytes = old }(ewise.StreamOutputBytes)
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		ewise.StreamOutputBytes = math.MaxInt
		if procs == 2 {
			ewise.StreamOutputBytes = 0 // every side product streamed
		}
		for _, c := range cases {
			for _, dt := range []DType{Float32, Float64, Int32, Float16, Complex64} {
				g, u, v := c.g(t, dt), c.u(t, dt), c.v(t, dt)
				prod, sum, err := MulWithSum(g, u, v, c.opts...)
				if err != nil {
					t.Fatalf("%s %v: %v", c.name, dt, err)
				}
				wp, ws := Must(Mul(g, u)), Must(MulSum(g, v, c.opts...))
				for k, pair := range [][2]*Tensor{{prod, wp}, {sum, ws}} {
					a, b := pair[0], pair[1]
					if a.DType() != b.DType() || !slices.Equal(a.Shape(), b.Shape()) {
						t.Fatalf("%s %v: result %d is %v %v, want %v %v", c.name, dt, k, a.DType(), a.Shape(), b.DType(), b.Shape())
					}
					// Widening to complex128 is exact for every dtype here.
					if !slices.Equal(complexValues(t, a), complexValues(t, b)) {
						t.Fatalf("%s %v procs %d: result %d differs from the separate call's", c.name, dt, procs, k)
					}
				}
			}
		}
	}
}

// Accumulators kept in tile buffers and rounded tile by tile (a float32
// result) give the bits of accumulators kept whole (the float64 result of
// WithDType, rounded afterwards).
func TestMulSumTiledAccumulators(t *testing.T) {
	for _, c := range mulSumCases() {
		x := c.x(t, Float32)
		var y any = c.y(t, Float32)
		if y.(*Tensor) == nil {
			y = 3
		}
		got, err := MulSum(x, y, c.opts...)
		if err != nil {
			t.Fatal(err)
		}
		wide, err := MulSum(x, y, append(slices.Clone(c.opts), WithDType(Float64))...)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := ToSlice[float32](got)
		w, _ := ToSlice[float32](Must(wide.AsType(Float32)))
		for i := range g {
			if math.Float32bits(g[i]) != math.Float32bits(w[i]) {
				t.Fatalf("%s: element %d is %v, %v from the float64 accumulators", c.name, i, g[i], w[i])
			}
		}
	}
}

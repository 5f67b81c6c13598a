package tensor

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/cast"
	"github.com/tensor-go/tensor/internal/ewise"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/shape"
)

// mpProdRandom fills t's storage with values whose products stay in range:
// floats of magnitude in [0.5, 2) with random signs and a few zeros,
// infinities and NaNs; integers in [-8, 8] with a few large ones; bools
// mostly true.
func mpProdRandom(rng *rand.Rand, t *Tensor) {
	dt := t.dtype
	for i := range t.n {
		p := unsafe.Add(t.storage, i*dt.Size())
		var v complex128
		switch {
		case dt == Bool:
			v = complex(float64(min(1, rng.IntN(12))), 0)
		case dt.IsInteger():
			v = complex(float64(rng.IntN(17)-8), 0)
			if rng.IntN(10) == 0 {
				v = complex(float64(rng.Int32()), 0)
			}
		default:
			f := func() float64 {
				switch rng.IntN(60) {
				case 0:
					return math.NaN()
				case 1:
					return math.Inf(1 - 2*rng.IntN(2))
				case 2:
					return math.Copysign(0, float64(1-2*rng.IntN(2)))
				}
				return (0.5 + 1.5*rng.Float64()) * float64(1-2*rng.IntN(2))
			}
			v = complex(f(), 0)
			if dt.IsComplex() {
				v = complex(real(v), f())
			}
		}
		cast.Run(p, dt, 0, unsafe.Pointer(&v), Complex128, 0, 1)
	}
}

// mpProdRef returns the product over the masked dimensions of x at the
// output index of the kept dimensions (in x's rank), computed naively in
// row-major order: integers as wrapping uint64 (whose low bits are exact),
// floats in complex128.
func mpProdRef(x *Tensor, mask []bool, keptIndex []int) (ints uint64, floats complex128) {
	var rshape []int
	for i, d := range x.shape {
		if mask[i] {
			rshape = append(rshape, d)
		}
	}
	ints, floats = 1, 1
	first := true
	index := slices.Clone(keptIndex)
	mpForEachIndex(rshape, func(r []int) {
		k := 0
		for i := range index {
			if mask[i] {
				index[i] = r[k]
				k++
			}
		}
		v := mpLoad(x, index)
		if x.dtype.IsInteger() || x.dtype == Bool {
			w := mpConvert(Int64, x.dtype, v)
			if !x.dtype.IsSigned() {
				w = mpConvert(Uint64, x.dtype, v)
			}
			ints *= *(*uint64)(unsafe.Pointer(&w))
		} else {
			c := mpConvert(Complex128, x.dtype, v)
			z := *(*complex128)(unsafe.Pointer(&c))
			if first {
				floats, first = z, false // NumPy starts from the first element
				return
			}
			floats = complex(real(floats)*real(z)-imag(floats)*imag(z), real(floats)*imag(z)+imag(floats)*real(z))
			if !x.dtype.IsComplex() { // keep real products real: no 0·inf in a zero imaginary part
				floats = complex(real(floats), 0)
			}
		}
	})
	return ints, floats
}

// mpProdTolerance is the relative error allowed between a float product of
// dtype dt and the complex128 reference: the result's rounding plus one
// rounding per product in the accumulator.
func mpProdTolerance(dt DType, n int) float64 {
	switch dt {
	case Float16:
		return 1.0/1024 + float64(n)*1e-7
	case BFloat16:
		return 1.0/128 + float64(n)*1e-7
	case Float32, Complex64:
		return float64(n+1) * 2.4e-7
	}
	return float64(n+1) * 4.5e-16
}

// mpCheckProd checks got = prod(x) over mask against the naive reference.
func mpCheckProd(t *testing.T, got, x *Tensor, mask []bool) {
	t.Helper()
	kept := shape.Reduced(x.shape, mask, true)
	reduced := 1
	for i, d := range x.shape {
		if mask[i] {
			reduced *= d
		}
	}
	bad := 0
	mpForEachIndex(kept, func(index []int) {
		// got's index: kept dims only, or all when it kept the dims.
		gi := index
		if len(got.shape) != len(index) {
			gi = nil
			for i, v := range index {
				if !mask[i] {
					gi = append(gi, v)
				}
			}
		}
		g := mpLoad(got, gi)
		ints, floats := mpProdRef(x, mask, index)
		var ok bool
		var want string
		rd := got.dtype
		if x.dtype.IsInteger() || x.dtype == Bool {
			w := mpConvert(rd, Uint64, *(*mpValue)(unsafe.Pointer(&[2]uint64{ints})))
			ok, want = mpSame(rd, g, w), fmt.Sprint(ints)
		} else {
			gc := mpConvert(Complex128, rd, g)
			z := *(*complex128)(unsafe.Pointer(&gc))
			ok = mpClose(z, floats, mpProdTolerance(rd, reduced)) || mpClose(z, mpRoundTo(rd, floats), mpProdTolerance(rd, reduced))
			want = fmt.Sprint(floats)
		}
		if !ok && bad < 5 {
			bad++
			t.Errorf("prod of %v %v (strides %v) over %v at %v: got %s, want %s", x.dtype, x.shape, x.strides, mask, index, mpShow(rd, g), want)
		}
	})
}

// mpRoundTo rounds a reference value to dtype dt (for overflow to inf and
// underflow to 0, which a relative tolerance cannot see).
func mpRoundTo(dt DType, z complex128) complex128 {
	v := mpConvert(dt, Complex128, *(*mpValue)(unsafe.Pointer(&z)))
	c := mpConvert(Complex128, dt, v)
	return *(*complex128)(unsafe.Pointer(&c))
}

// mpClose compares floats within a relative tolerance, NaN equal to NaN and
// infinities (and zeros) exactly, with their signs.
func mpClose(got, want complex128, tol float64) bool {
	part := func(g, w float64) bool {
		switch {
		case math.IsNaN(w) || math.IsNaN(g):
			return math.IsNaN(w) && math.IsNaN(g)
		case math.IsInf(w, 0) || w == 0:
			return g == w && math.Signbit(g) == math.Signbit(w)
		}
		return math.Abs(g-w) <= tol*math.Abs(w)
	}
	finite := func(z complex128) bool { return !cmplx.IsNaN(z) && !cmplx.IsInf(z) }
	if finite(got) && finite(want) && want != 0 {
		// Relative to the modulus: a complex product's parts may cancel.
		return cmplx.Abs(got-want) <= tol*cmplx.Abs(want)
	}
	return part(real(got), real(want)) && part(imag(got), imag(want))
}

func TestProdResultDTypes(t *testing.T) {
	want := map[DType]DType{Bool: Int32, Int8: Int32, Int16: Int32, Uint8: Uint32, Uint16: Uint32,
		Int32: Int32, Int64: Int64, Uint32: Uint32, Uint64: Uint64, Float16: Float16, BFloat16: BFloat16,
		Float32: Float32, Float64: Float64, Complex64: Complex64, Complex128: Complex128}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, dt := range dtype.All {
		x := mpRandom(rng, dt, 2, 3)
		mpProdRandom(rng, x)
		for _, opts := range [][]ReduceOption{nil, {Axis()}, {Axis(1)}, {Axis(0, 1), KeepDims(true)}} {
			got, err := Prod(x, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if got.dtype != want[dt] {
				t.Errorf("prod of %v is %v, want %v", dt, got.dtype, want[dt])
			}
		}
	}
}

func TestProdShapesAndAxes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := mpRandom(rng, Int32, 2, 3, 4)
	cases := []struct {
		opts []ReduceOption
		want []int
	}{
		{nil, []int{}},
		{[]ReduceOption{KeepDims(true)}, []int{1, 1, 1}},
		{[]ReduceOption{Axis(0)}, []int{3, 4}},
		{[]ReduceOption{Axis(-1)}, []int{2, 3}},
		{[]ReduceOption{Axis(0, 2)}, []int{3}},
		{[]ReduceOption{Axis(2, -3), KeepDims(true)}, []int{1, 3, 1}},
		{[]ReduceOption{Axis()}, []int{2, 3, 4}},
		{[]ReduceOption{Axis(), KeepDims(true)}, []int{2, 3, 4}},
		{[]ReduceOption{Axis(1), KeepDims(true)}, []int{2, 1, 4}},
	}
	for _, c := range cases {
		got, err := Prod(x, c.opts...)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.shape, c.want) {
			t.Errorf("shape %v, want %v", got.shape, c.want)
		}
	}
}

func TestProdAxisErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 3))
	x := mpRandom(rng, Float32, 2, 3, 4)
	scalar := mpRandom(rng, Float32)
	cases := []struct {
		x    *Tensor
		axes []int
		msg  string
	}{
		{x, []int{3}, "tensor: prod: axis 3 is out of range for shape (2, 3, 4)"},
		{x, []int{-4}, "tensor: prod: axis -4 is out of range for shape (2, 3, 4)"},
		{x, []int{0, -3}, "tensor: prod: axis -3 is repeated in [0 -3] for shape (2, 3, 4)"},
		{x, []int{1, 1}, "tensor: prod: axis 1 is repeated"},
		{scalar, []int{0}, "tensor: prod: axis 0 is out of range for shape ()"},
		{scalar, []int{-1}, "tensor: prod: axis -1 is out of range for shape ()"},
	}
	for _, c := range cases {
		_, err := Prod(c.x, Axis(c.axes...))
		if !errors.Is(err, ErrAxis) || !strings.HasPrefix(err.Error(), c.msg) {
			t.Errorf("Prod(%v, Axis(%v)): %v, want ErrAxis %q", c.x.shape, c.axes, err, c.msg)
		}
	}
	// The 0-d tensor reduces fine without axes, or with an empty sequence.
	for _, opts := range [][]ReduceOption{nil, {Axis()}} {
		if _, err := Prod(scalar, opts...); err != nil {
			t.Errorf("0-d prod: %v", err)
		}
	}
	if _, err := Prod(nil); !errors.Is(err, ErrValue) {
		t.Errorf("nil tensor: %v, want ErrValue", err)
	}
}

func TestProdIntoErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 4))
	x := mpRandom(rng, Float32, 2, 3)
	if err := ProdInto(mpRandom(rng, Float32, 3), x, Axis(1)); !errors.Is(err, ErrShape) {
		t.Errorf("wrong output shape: %v", err)
	}
	if err := ProdInto(mpRandom(rng, Int64, 2), x, Axis(1)); !errors.Is(err, ErrDType) {
		t.Errorf("float into int64: %v", err)
	}
	bcast := &Tensor{dtype: Float32, shape: []int{2}, strides: []int{0}, storage: x.storage, n: x.n}
	if err := ProdInto(bcast, x, Axis(1)); !errors.Is(err, ErrLayout) {
		t.Errorf("broadcast output: %v, want ErrLayout", err)
	}
	xi := mpRandom(rng, Int8, 2, 3)
	mpProdRandom(rng, xi)
	for _, dt := range []DType{Int32, Int8, Int64, Float64, Float16, Complex64} {
		out := mpRandom(rng, dt, 2)
		if err := ProdInto(out, xi, Axis(1)); err != nil {
			t.Fatalf("int8 product into %v: %v", dt, err)
		}
		// The int32 product cast into dt.
		want, _ := Prod(xi, Axis(1))
		for i := range 2 {
			w := mpConvert(dt, Int32, mpLoad(want, []int{i}))
			if g := mpLoad(out, []int{i}); !mpSame(dt, g, w) {
				t.Errorf("into %v [%d]: %s, want %s", dt, i, mpShow(dt, g), mpShow(dt, w))
			}
		}
	}
}

func TestProdSpecialRules(t *testing.T) {
	f32 := func(vs ...float32) *Tensor { x, _ := FromSlice(vs); return x }
	scalarOf := func(x *Tensor) float64 { return mpFloatAt(x, 0) }
	// Empty product is 1, of the result dtype, whatever the input dtype.
	for _, dt := range dtype.All {
		x, _ := empty(dt, []int{0})
		got, err := Prod(x)
		if err != nil {
			t.Fatal(err)
		}
		one := mpConvert(got.dtype, Float64, *(*mpValue)(unsafe.Pointer(&[2]float64{1})))
		if g := mpLoad(got, nil); !mpSame(got.dtype, g, one) {
			t.Errorf("empty %v product = %s, want 1", dt, mpShow(got.dtype, g))
		}
	}
	// (2, 0) over axis 1 is [1, 1]; over axis 0 it has shape (0,).
	e, _ := empty(Float32, []int{2, 0})
	if got, _ := Prod(e, Axis(1)); !slices.Equal(got.shape, []int{2}) || mpFloatAt(got, 0) != 1 || mpFloatAt(got, 1) != 1 {
		t.Errorf("(2, 0) over axis 1: shape %v", got.shape)
	}
	if got, _ := Prod(e, Axis(0)); !slices.Equal(got.shape, []int{0}) {
		t.Errorf("(2, 0) over axis 0: shape %v, want (0,)", got.shape)
	}
	// NaN propagates, inf × 0 is NaN, signs multiply.
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	if g := scalarOf(Must(Prod(f32(1, nan, 2)))); !math.IsNaN(g) {
		t.Errorf("NaN does not propagate: %v", g)
	}
	if g := scalarOf(Must(Prod(f32(inf, 3, 0)))); !math.IsNaN(g) {
		t.Errorf("inf × 0 = %v, want NaN", g)
	}
	if g := scalarOf(Must(Prod(f32(-1, 2, float32(math.Copysign(0, 1)))))); g != 0 || !math.Signbit(g) {
		t.Errorf("-1 × 2 × 0 = %v, want -0", g)
	}
	if g := scalarOf(Must(Prod(f32(-inf, -2)))); !math.IsInf(g, 1) {
		t.Errorf("-inf × -2 = %v, want +inf", g)
	}
	// Integers wrap: int32 536870910^4 is 16.
	xi, _ := FromSlice([]int32{536870910, 536870910, 536870910, 536870910})
	if got := contiguousData[int32](Must(Prod(xi))); got[0] != 16 {
		t.Errorf("int32 536870910^4 = %d, want 16", got[0])
	}
	// int8 widens: 100 × 100 × 100 = 1000000 in int32.
	x8, _ := FromSlice([]int8{100, 100, 100})
	if got := contiguousData[int32](Must(Prod(x8))); got[0] != 1000000 {
		t.Errorf("int8 prod = %d, want 1000000", got[0])
	}
	// uint8 255^4 wraps in uint32: 4228250625.
	xu, _ := FromSlice([]uint8{255, 255, 255, 255})
	if got := contiguousData[uint32](Must(Prod(xu))); got[0] != 4228250625 {
		t.Errorf("uint8 prod = %d, want 4228250625", got[0])
	}
	// bool: true only if all are.
	xb, _ := FromSlice([]bool{true, false, true, true, true, true}, 2, 3)
	if got := contiguousData[int32](Must(Prod(xb, Axis(1)))); !slices.Equal(got, []int32{0, 1}) {
		t.Errorf("bool prod = %v, want [0 1]", got)
	}
	// float16 accumulates in float32: 256 × 256 overflows float16 on its
	// own, but the product 256 × 256 / 1024 = 64 does not.
	h := mpFromFloat64s(Float16, []float64{256, 256, 1.0 / 1024})
	if g := scalarOf(Must(Prod(h))); g != 64 {
		t.Errorf("float16 256·256/1024 = %v, want 64", g)
	}
	bh := mpFromFloat64s(BFloat16, []float64{1 + 1.0/128, 1 + 1.0/128, 1 + 1.0/128})
	// (1 + 2^-7)^3 = 1 + 3·2^-7 + 3·2^-14 + 2^-21 rounds once to 1 + 3·2^-7;
	// rounding after each product would give 1 + 2^-5 (ties to even).
	if g := scalarOf(Must(Prod(bh))); g != 1+3.0/128 {
		t.Errorf("bfloat16 (1+2^-7)^3 = %v, want %v", g, 1+3.0/128)
	}
	// Complex: (1+i)^4 = -4.
	xc, _ := FromSlice([]complex128{1 + 1i, 1 + 1i, 1 + 1i, 1 + 1i})
	if got := contiguousData[complex128](Must(Prod(xc))); got[0] != -4 {
		t.Errorf("(1+i)^4 = %v, want -4", got[0])
	}
}

func TestProdRandom(t *testing.T) {
	mpProdRandomCases(t)
	// Again with tiny chunks and blocks, so that small shapes take the
	// chunked whole reduction and the blocked outer reduction with many
	// pieces, partial last ones included.
	defer func(c, b int) { reduceChunk, reduceBlockElems = c, b }(reduceChunk, reduceBlockElems)
	reduceChunk, reduceBlockElems = 5, 7
	t.Run("small-chunks", mpProdRandomCases)
}

func mpProdRandomCases(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	mpWithFastPaths(t, func(t *testing.T) {
		for range 300 {
			rank := rng.IntN(5)
			shp := make([]int, rank)
			for i := range shp {
				shp[i] = rng.IntN(5) + 1
				if rng.IntN(15) == 0 {
					shp[i] = 0
				}
			}
			dt := dtype.All[rng.IntN(len(dtype.All))]
			x := mpRandomView(rng, dt, shp, 0.15)
			mpProdRandom(rng, x)
			var opts []ReduceOption
			mask := make([]bool, rank)
			switch rng.IntN(3) {
			case 0: // every axis
				for i := range mask {
					mask[i] = true
				}
			default: // a random set, as negative or positive axes, maybe empty
				var axes []int
				for i := range rank {
					if rng.IntN(2) == 0 {
						mask[i] = true
						a := i
						if rng.IntN(2) == 0 {
							a -= rank
						}
						axes = append(axes, a)
					}
				}
				rng.Shuffle(len(axes), func(i, j int) { axes[i], axes[j] = axes[j], axes[i] })
				opts = append(opts, Axis(axes...))
			}
			keep := rng.IntN(2) == 0
			opts = append(opts, KeepDims(keep))
			got, err := Prod(x, opts...)
			if err != nil {
				t.Fatalf("Prod(%v %v, mask %v): %v", dt, shp, mask, err)
			}
			if want := shape.Reduced(shp, mask, keep); !slices.Equal(got.shape, want) {
				t.Fatalf("Prod(%v, mask %v, keep %v) shape %v, want %v", shp, mask, keep, got.shape, want)
			}
			mpCheckProd(t, got, x, mask)
		}
	})
}

func TestProdLargeThreaded(t *testing.T) {
	// Large reductions of every path (all, inner axis, outer axis, two
	// axes, a view) with 1 and 2 threads: identical bits, and near the
	// reference.
	rng := rand.New(rand.NewPCG(7, 8))
	big := mpRandom(rng, Float32, 5*iter.MinParallel+3)
	mpProdRandomTame(rng, big)
	m := mpRandom(rng, Float64, 300, 500)
	mpProdRandomTame(rng, m)
	mt := &Tensor{dtype: Float64, shape: []int{500, 300}, strides: []int{1, 500}, storage: m.storage, n: m.n}
	cube := mpRandom(rng, Float32, 40, 50, 60)
	mpProdRandomTame(rng, cube)
	ints := mpRandom(rng, Int32, 3*iter.MinParallel)
	mpProdRandom(rng, ints)
	h := mpRandom(rng, Float16, 400, 300)
	mpProdRandomTame(rng, h)
	cases := []struct {
		x    *Tensor
		opts []ReduceOption
		mask []bool
	}{
		{big, nil, []bool{true}},
		{ints, nil, []bool{true}},
		{m, []ReduceOption{Axis(0)}, []bool{true, false}},
		{m, []ReduceOption{Axis(1)}, []bool{false, true}},
		{mt, []ReduceOption{Axis(1)}, []bool{false, true}},
		{mt, nil, []bool{true, true}},
		{cube, []ReduceOption{Axis(0, 2)}, []bool{true, false, true}},
		{h, []ReduceOption{Axis(0)}, []bool{true, false}},
		{h, nil, []bool{true, true}},
	}
	for _, c := range cases {
		var results []*Tensor
		for _, procs := range []int{1, 2} {
			old := runtime.GOMAXPROCS(procs)
			got, err := Prod(c.x, c.opts...)
			runtime.GOMAXPROCS(old)
			if err != nil {
				t.Fatal(err)
			}
			results = append(results, got)
		}
		if !mpBytesEqual(results[0], results[1]) {
			t.Errorf("prod of %v %v over %v: one and two threads differ", c.x.dtype, c.x.shape, c.mask)
		}
		mpCheckProd(t, results[1], c.x, c.mask)
	}
}

// TestProdRowsPath covers the blocked outer reduction that multiplies
// several rows per pass into the accumulators (ewise.ProdRows): blocks of
// a few rows, accumulator rows around the vector edges, rows with a gap
// between them (a column slice). The result must equal the row-by-row Go
// loops bit for bit (same order), be the same with one and two threads,
// and be near the naive reference.
func TestProdRowsPath(t *testing.T) {
	defer func(b int) { reduceBlockElems = b }(reduceBlockElems)
	rng := rand.New(rand.NewPCG(31, 32))
	for _, dt := range []DType{Float32, Float64} {
		for _, c := range []struct{ rows, cols, keep, blockRows int }{
			{700, 100, 100, 7},  // 2 threads: 70000 elements
			{800, 103, 97, 9},   // a column slice: rows 103 apart, 97 kept
			{33, 17, 17, 4},     // one masked vector
			{30, 48, 33, 6},     // a partial vector after full ones
			{2000, 40, 40, 128}, // long blocks, 2 threads
		} {
			full := mpRandom(rng, dt, c.rows, c.cols)
			mpProdRandomTame(rng, full)
			x := &Tensor{dtype: dt, shape: []int{c.rows, c.keep}, strides: []int{c.cols, 1}, storage: full.storage, n: full.n}
			reduceBlockElems = c.blockRows * c.keep
			var results []*Tensor
			for _, use := range []bool{true, false} {
				for _, procs := range []int{1, 2} {
					results = append(results, prodUnder(t, use, procs, x, Axis(0)))
				}
			}
			for i, r := range results[1:] {
				if !mpBytesEqual(results[0], r) {
					t.Errorf("%v %+v: result %d (vec, threads) differs from the four-row path with one thread", dt, c, i+1)
				}
			}
			mpCheckProd(t, results[0], x, []bool{true, false})
		}
	}
}

// TestProdMiddleAxisRows covers reductions over a middle axis whose kept
// inner axis is contiguous, which reduceKept hands to the several-rows
// kernel once per outer index: one outer dimension, and two that do not
// merge (a slice of the second). Results must be the same bit for bit
// with the vector kernels on and off and with one and two threads, and
// near the naive reference.
func TestProdMiddleAxisRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for _, c := range []struct {
		dt          DType
		full, shape []int
		strides     []int
		axis        int
	}{
		{Float32, []int{40, 60, 70}, []int{40, 60, 70}, []int{4200, 70, 1}, 1},
		{Float64, []int{7, 9, 100}, []int{7, 9, 100}, []int{900, 100, 1}, 1},
		{Float32, []int{6, 5, 30, 40}, []int{6, 4, 30, 33}, []int{6000, 1200, 40, 1}, 2},
	} {
		full := mpRandom(rng, c.dt, c.full...)
		mpProdRandomTame(rng, full)
		x := &Tensor{dtype: c.dt, shape: c.shape, strides: c.strides, storage: full.storage, n: full.n}
		var results []*Tensor
		for _, use := range []bool{true, false} {
			for _, procs := range []int{1, 2} {
				results = append(results, prodUnder(t, use, procs, x, Axis(c.axis)))
			}
		}
		for i, r := range results[1:] {
			if !mpBytesEqual(results[0], r) {
				t.Errorf("%v %v axis %d: result %d (vec, threads) differs from the rows path with one thread", c.dt, c.shape, c.axis, i+1)
			}
		}
		mask := make([]bool, len(c.shape))
		mask[c.axis] = true
		mpCheckProd(t, results[0], x, mask)
	}
}

// TestProdBlocksSplitsKeptSlabs pins down when a reduction into few
// accumulators goes in blocks along the reduced dimension r (reduceBlocks
// returns blocks > 0): not when reduceKept can give each goroutine whole
// slabs, that is when the kept dimension it splits lies outside r and
// holds two indices per goroutine; otherwise (only the fastest dimension
// to split, r outermost, a short outer dimension) it does.
func TestProdBlocksSplitsKeptSlabs(t *testing.T) {
	for _, c := range []struct {
		shape   []int
		mask    []bool
		blocked bool
	}{
		{[]int{700, 100}, []bool{true, false}, true},           // rows into one row of accumulators
		{[]int{80, 60, 70}, []bool{false, true, false}, false}, // a middle axis: split the outer kept one
		{[]int{3, 30000, 2}, []bool{false, true, false}, true}, // the outer kept one too short for two goroutines
		{[]int{1, 700, 100}, []bool{false, true, false}, true}, // a kept outer dimension of 1
		{[]int{60, 80, 70}, []bool{true, false, false}, true},  // r outermost: blocks are slabs already
	} {
		x := mpRandom(rand.New(rand.NewPCG(1, 2)), Float32, c.shape...)
		n := x.Size()
		for i, m := range c.mask {
			if m {
				n /= c.shape[i]
			}
		}
		if _, blocks := reduceBlocks(x, c.mask, n); (blocks > 0) != c.blocked {
			t.Errorf("reduceBlocks(%v, mask %v) = %d blocks, want blocked %v", c.shape, c.mask, blocks, c.blocked)
		}
	}
}

// TestProdTwoStage covers reductions whose fastest dimension is reduced
// along with dimensions outside every kept one, which go in two stages
// (reduceTwoStage): contiguous and permuted layouts, reversed strides,
// several outer dimensions, blocks of a few slabs. The result must be the
// same bit for bit with one and two threads (with the vector kernels on,
// and again off: they reduce a run in different orders), and near the
// naive reference.
func TestProdTwoStage(t *testing.T) {
	defer func(b int) { reduceBlockElems = b }(reduceBlockElems)
	rng := rand.New(rand.NewPCG(41, 42))
	for _, c := range []struct {
		shape, perm []int // x is a contiguous tensor of shape, viewed with its axes permuted
		axes        []int
		blockElems  int
	}{
		{[]int{64, 48, 40}, []int{0, 1, 2}, []int{0, 2}, 3 * 48 * 40},   // 22 blocks of 3 slabs
		{[]int{30, 20, 33}, []int{0, 1, 2}, []int{0, 2}, 1 << 20},       // one block
		{[]int{7, 9, 16, 24}, []int{0, 1, 2, 3}, []int{0, 1, 3}, 200},   // two outer dimensions
		{[]int{50, 40, 35}, []int{2, 1, 0}, []int{0, 2}, 5 * 40 * 35},   // transposed: reduce the outer and inner of memory
		{[]int{40, 6, 5, 70}, []int{3, 0, 2, 1}, []int{0, 1, 3}, 1000},  // permuted: outer dimensions 1 and 3, inner 0
		{[]int{20, 30, 200}, []int{0, 1, 2}, []int{0, 2}, 2 * 30 * 200}, // runs of 200, blocks of 2 slabs
	} {
		for _, dt := range []DType{Float32, Float64, Float16, Int32} {
			base := mpRandom(rng, dt, c.shape...)
			if dt.IsFloat() {
				mpProdRandomTame(rng, base)
			} else {
				mpProdRandom(rng, base)
			}
			x := mpPermuteView(base, c.perm)
			if dt == Float32 {
				// A reversed view: walk the first axis backwards.
				x.offset += (x.shape[0] - 1) * x.strides[0]
				x.strides[0] = -x.strides[0]
			}
			mask := make([]bool, len(x.shape))
			outputs := x.Size()
			for _, a := range c.axes {
				mask[a] = true
				outputs /= x.shape[a]
			}
			if outer, _ := reduceOuterDims(x, mask, outputs); outer == nil {
				t.Fatalf("%v %+v: not a two-stage reduction", dt, c)
			}
			reduceBlockElems = c.blockElems
			for _, use := range []bool{true, false} {
				var results []*Tensor
				for _, procs := range []int{1, 2} {
					results = append(results, prodUnder(t, use, procs, x, Axis(c.axes...)))
				}
				if !mpBytesEqual(results[0], results[1]) {
					t.Errorf("%v %+v (vector kernels %v): one and two threads differ", dt, c, use)
				}
				mpCheckProd(t, results[0], x, mask)
			}
		}
	}
}

// prodUnder returns Prod(x, opts...) computed with the vector kernels on
// or off (ewise.UseVec) and GOMAXPROCS set to procs, restoring both.
func prodUnder(t *testing.T, useVec bool, procs int, x *Tensor, opts ...ReduceOption) *Tensor {
	t.Helper()
	ewise.UseVec = useVec
	old := runtime.GOMAXPROCS(procs)
	got, err := Prod(x, opts...)
	runtime.GOMAXPROCS(old)
	ewise.UseVec = true
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// mpPermuteView returns x (contiguous) viewed with its axes in the order perm.
func mpPermuteView(x *Tensor, perm []int) *Tensor {
	v := *x
	v.shape, v.strides = make([]int, len(perm)), make([]int, len(perm))
	for i, p := range perm {
		v.shape[i], v.strides[i] = x.shape[p], x.strides[p]
	}
	return &v
}

// mpProdRandomTame fills t with values so close to ±1 that products of
// millions of them stay finite and nonzero: 1 + u·2^-12, |u| < 1.
func mpProdRandomTame(rng *rand.Rand, t *Tensor) {
	for i := range t.n {
		v := 1 + (2*rng.Float64()-1)/4096
		if rng.IntN(2) == 0 {
			v = -v
		}
		cast.Run(unsafe.Add(t.storage, i*t.dtype.Size()), t.dtype, 0, unsafe.Pointer(&v), Float64, 0, 1)
	}
}

func TestProdIntoAliasAndViews(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	x := mpRandom(rng, Float64, 4, 4)
	mpProdRandom(rng, x)
	orig := mpClone(x)
	// Reduce x's rows into its own first column.
	col := &Tensor{dtype: Float64, shape: []int{4}, strides: []int{4}, storage: x.storage, n: x.n}
	if err := ProdInto(col, x, Axis(1)); err != nil {
		t.Fatal(err)
	}
	mpCheckProd(t, col, orig, []bool{false, true})
	// A strided float16 output receiving a float32 accumulator.
	h := mpRandom(rng, Float16, 6, 5)
	mpProdRandom(rng, h)
	out := mpRandomView(rng, Float16, []int{5}, 0)
	if err := ProdInto(out, h, Axis(0)); err != nil {
		t.Fatal(err)
	}
	mpCheckProd(t, out, h, []bool{true, false})
}

// ---- Benchmarks: the prod/ workloads of /work/shared/bench/workloads.json ----

func benchProd(b *testing.B, x *Tensor, bytes int64, opts ...ReduceOption) {
	b.SetBytes(bytes)
	b.ResetTimer()
	for range b.N {
		if _, err := Prod(x, opts...); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkProdAll16MFloat32(b *testing.B) {
	benchProd(b, mpBenchRand(b, 1, Float32, n16M), 67108864)
}

func BenchmarkProdAxis0x4096Float32(b *testing.B) {
	benchProd(b, mpBenchRand(b, 1, Float32, 4096, 4096), 67108864, Axis(0))
}

func BenchmarkProdAxis1x4096Float32(b *testing.B) {
	benchProd(b, mpBenchRand(b, 1, Float32, 4096, 4096), 67108864, Axis(1))
}

func BenchmarkProdAll16MInt32(b *testing.B) {
	benchProd(b, mpBenchRand(b, 1, Int32, n16M), 67108864)
}

func BenchmarkProdAxes02x256Float64(b *testing.B) {
	benchProd(b, mpBenchRand(b, 1, Float64, 256, 256, 256), 134217728, Axis(0, 2))
}

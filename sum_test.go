package tensor

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/shape"
)

// mpSumRef returns the sum over the masked dimensions of x at the output
// index of the kept dimensions (in x's rank), computed naively: integers
// as wrapping uint64, floats in complex128 from -0 (exact for float32 and
// narrower inputs of the magnitudes the tests use), and the sum of the
// magnitudes, which bounds the rounding error of a float64 sum.
func mpSumRef(x *Tensor, mask []bool, keptIndex []int) (ints uint64, floats complex128, mag float64) {
	var rshape []int
	for i, d := range x.shape {
		if mask[i] {
			rshape = append(rshape, d)
		}
	}
	negZero := math.Copysign(0, -1)
	floats = complex(negZero, negZero)
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
			ints += *(*uint64)(unsafe.Pointer(&w))
			return
		}
		c := mpConvert(Complex128, x.dtype, v)
		z := *(*complex128)(unsafe.Pointer(&c))
		floats = complex(real(floats)+real(z), imag(floats)+imag(z))
		for _, f := range []float64{real(z), imag(z)} {
			if !math.IsNaN(f) && !math.IsInf(f, 0) {
				mag += math.Abs(f)
			}
		}
	})
	if !x.dtype.IsComplex() {
		floats = complex(real(floats), 0)
	}
	if len(rshape) > 0 && slices.Contains(rshape, 0) || x.Size() == 0 {
		floats = 0 // the empty sum is +0
	}
	return ints, floats, mag
}

// mpCheckSum checks got = sum(x) over mask against the naive reference:
// exactly (after the one rounding to the result dtype) for inputs of at
// most 32-bit floats, whose float64 sums are exact here; within n·2^-52
// of the magnitudes for float64 and complex128.
func mpCheckSum(t *testing.T, got, x *Tensor, mask []bool) {
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
		ints, floats, mag := mpSumRef(x, mask, index)
		rd := got.dtype
		var ok bool
		var want string
		switch {
		case x.dtype.IsInteger() || x.dtype == Bool:
			w := mpConvert(rd, Uint64, *(*mpValue)(unsafe.Pointer(&[2]uint64{ints})))
			ok, want = mpSame(rd, g, w), fmt.Sprint(ints)
		case x.dtype == Float64 || x.dtype == Complex128:
			gc := mpConvert(Complex128, rd, g)
			z := *(*complex128)(unsafe.Pointer(&gc))
			tol := float64(reduced+1) * 0x1p-52 * mag
			part := func(g, w float64) bool {
				return mpClose(complex(g, 0), complex(w, 0), 0) || math.Abs(g-w) <= tol
			}
			ok = part(real(z), real(floats)) && part(imag(z), imag(floats))
			want = fmt.Sprint(floats)
		default:
			w := mpConvert(rd, Complex128, *(*mpValue)(unsafe.Pointer(&floats)))
			ok, want = mpSame(rd, g, w), mpShow(rd, w)
		}
		if !ok && bad < 5 {
			bad++
			t.Errorf("sum of %v %v (strides %v) over %v at %v: got %s, want %s", x.dtype, x.shape, x.strides, mask, index, mpShow(rd, g), want)
		}
	})
}

func TestSumResultDTypes(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 1))
	for _, dt := range dtype.All {
		x := mpRandom(rng, dt, 2, 3)
		for _, opts := range [][]ReduceOption{nil, {Axis()}, {Axis(1)}, {Axis(0, 1), KeepDims(true)}} {
			got, err := Sum(x, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if want := dtype.ProdResult(dt); got.dtype != want {
				t.Errorf("sum of %v is %v, want %v", dt, got.dtype, want)
			}
		}
	}
}

func TestSumRandom(t *testing.T) {
	mpSumRandomCases(t)
	// Again with tiny chunks and blocks, so that small shapes take the
	// chunked whole reduction and the blocked outer reduction with many
	// pieces, partial last ones included.
	defer func(c, b int) { reduceChunk, reduceBlockElems = c, b }(reduceChunk, reduceBlockElems)
	reduceChunk, reduceBlockElems = 5, 7
	t.Run("small-chunks", mpSumRandomCases)
}

func mpSumRandomCases(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
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
			if rng.IntN(3) == 0 {
				for i := range mask {
					mask[i] = true
				}
			} else {
				var axes []int
				for i := range rank {
					if rng.IntN(2) == 0 {
						mask[i] = true
						axes = append(axes, i-rank*rng.IntN(2))
					}
				}
				opts = append(opts, Axis(axes...))
			}
			keep := rng.IntN(2) == 0
			opts = append(opts, KeepDims(keep))
			got, err := Sum(x, opts...)
			if err != nil {
				t.Fatalf("Sum(%v %v, mask %v): %v", dt, shp, mask, err)
			}
			if want := shape.Reduced(shp, mask, keep); !slices.Equal(got.shape, want) {
				t.Fatalf("Sum(%v, mask %v, keep %v) shape %v, want %v", shp, mask, keep, got.shape, want)
			}
			mpCheckSum(t, got, x, mask)
			// Into a random view of a random allowed dtype.
			var od DType
			for {
				od = dtype.All[rng.IntN(len(dtype.All))]
				if dtype.CanCastInto(got.dtype, od) {
					break
				}
			}
			out := mpRandomView(rng, od, got.shape, 0)
			if err := SumInto(out, x, opts...); err != nil {
				t.Fatalf("SumInto(%v): %v", od, err)
			}
			want := mpClone(got)
			wantIn, _ := empty(od, got.shape)
			_ = copyInto(wantIn, want)
			mpForEachIndex(got.shape, func(i []int) {
				if g, w := mpLoad(out, i), mpLoad(wantIn, i); !mpSame(od, g, w) {
					t.Fatalf("SumInto %v at %v: %s, want %s", od, i, mpShow(od, g), mpShow(od, w))
				}
			})
		}
	})
}

func TestSumSpecialRules(t *testing.T) {
	f32 := func(vs ...float32) *Tensor { x, _ := FromSlice(vs); return x }
	scalarOf := func(x *Tensor) float64 { return mpFloatAt(x, 0) }
	negZero := float32(math.Copysign(0, -1))
	// The empty sum is +0 of the result dtype, whatever the input dtype.
	for _, dt := range dtype.All {
		x, _ := empty(dt, []int{0})
		got := Must(Sum(x))
		zero := mpConvert(got.dtype, Float64, mpValue{})
		if g := mpLoad(got, nil); !mpSame(got.dtype, g, zero) || (dt.IsFloat() && math.Signbit(mpFloatAt(got, 0))) {
			t.Errorf("empty %v sum = %s, want +0", dt, mpShow(got.dtype, g))
		}
	}
	e, _ := empty(Float32, []int{2, 0})
	if got := Must(Sum(e, Axis(1))); !slices.Equal(got.shape, []int{2}) || mpFloatAt(got, 0) != 0 || mpFloatAt(got, 1) != 0 {
		t.Errorf("(2, 0) over axis 1: %v", got)
	}
	if got := Must(Sum(e, Axis(0))); !slices.Equal(got.shape, []int{0}) {
		t.Errorf("(2, 0) over axis 0: shape %v, want (0,)", got.shape)
	}
	if g := scalarOf(Must(Sum(f32(negZero, negZero, negZero)))); g != 0 || !math.Signbit(g) {
		t.Errorf("sum of -0 = %v, want -0", g)
	}
	if g := scalarOf(Must(Sum(f32(negZero, 0)))); g != 0 || math.Signbit(g) {
		t.Errorf("-0 + +0 = %v, want +0", g)
	}
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	if g := scalarOf(Must(Sum(f32(1, nan, 2)))); !math.IsNaN(g) {
		t.Errorf("NaN does not propagate: %v", g)
	}
	if g := scalarOf(Must(Sum(f32(inf, 3, -inf)))); !math.IsNaN(g) {
		t.Errorf("inf + -inf = %v, want NaN", g)
	}
	if g := scalarOf(Must(Sum(f32(inf, 3, inf)))); !math.IsInf(g, 1) {
		t.Errorf("inf + inf = %v, want inf", g)
	}
	// Integers wrap in the result dtype: int8 widens to int32, int32 wraps.
	x8, _ := FromSlice([]int8{100, 100, 100})
	if got := contiguousData[int32](Must(Sum(x8))); got[0] != 300 {
		t.Errorf("int8 sum = %d, want 300", got[0])
	}
	xi, _ := FromSlice([]int32{math.MaxInt32, 1})
	if got := contiguousData[int32](Must(Sum(xi))); got[0] != math.MinInt32 {
		t.Errorf("int32 max + 1 = %d, want min", got[0])
	}
	xu, _ := FromSlice([]uint8{255, 255})
	if got := Must(Sum(xu)); got.dtype != Uint32 || contiguousData[uint32](got)[0] != 510 {
		t.Errorf("uint8 sum = %v", got)
	}
	// bool counts its true elements.
	xb, _ := FromSlice([]bool{true, false, true, true, true, true}, 2, 3)
	if got := contiguousData[int32](Must(Sum(xb, Axis(1)))); !slices.Equal(got, []int32{2, 3}) {
		t.Errorf("bool sum = %v, want [2 3]", got)
	}
	// float16 accumulates wider and rounds once: 2048 + 1 + 1 is 2050 (a
	// float16 running sum would stay at 2048, ties to even).
	h := mpFromFloat64s(Float16, []float64{2048, 1, 1})
	if g := scalarOf(Must(Sum(h))); g != 2050 {
		t.Errorf("float16 2048+1+1 = %v, want 2050", g)
	}
	// float16 65504 + 65504 - 65504 does not overflow on the way.
	h2 := mpFromFloat64s(Float16, []float64{65504, 65504, -65504})
	if g := scalarOf(Must(Sum(h2))); g != 65504 {
		t.Errorf("float16 65504+65504-65504 = %v", g)
	}
	// float32: 1 + 2^-24 repeated 2^24 times... in small: 2^24 + 1 + 1
	// is 2^24 + 2, where a float32 running sum would lose both ones.
	if g := scalarOf(Must(Sum(f32(1<<24, 1, 1)))); g != 1<<24+2 {
		t.Errorf("float32 2^24+1+1 = %v, want %v", g, 1<<24+2)
	}
	xc, _ := FromSlice([]complex64{1 + 1i, 2 - 3i})
	if got := contiguousData[complex64](Must(Sum(xc))); got[0] != 3-2i {
		t.Errorf("complex sum = %v", got)
	}
}

func TestSumErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	x := mpRandom(rng, Float32, 2, 3)
	if _, err := Sum(x, Axis(2)); !errors.Is(err, ErrAxis) || err.Error()[:len("tensor: sum: axis 2")] != "tensor: sum: axis 2" {
		t.Errorf("axis 2: %v, want ErrAxis naming sum", err)
	}
	if _, err := Sum(x, Axis(0, -2)); !errors.Is(err, ErrAxis) {
		t.Errorf("repeated axis: %v", err)
	}
	if _, err := Sum(nil); !errors.Is(err, ErrValue) {
		t.Errorf("nil: %v", err)
	}
	if err := SumInto(mpRandom(rng, Float32, 3), x, Axis(1)); !errors.Is(err, ErrShape) {
		t.Errorf("wrong output shape: %v", err)
	}
	if err := SumInto(mpRandom(rng, Int64, 2), x, Axis(1)); !errors.Is(err, ErrDType) {
		t.Errorf("float into int64: %v", err)
	}
	// Into its own storage: computed into a temporary.
	orig := mpClone(x)
	col := &Tensor{dtype: Float32, shape: []int{2}, strides: []int{3}, storage: x.storage, n: x.n}
	if err := SumInto(col, x, Axis(1)); err != nil {
		t.Fatal(err)
	}
	mpCheckSum(t, col, orig, []bool{false, true})
}

// TestSumLargeThreaded: large sums of every schedule (all, inner axis,
// outer axis, two axes, a view), one and two threads, the same bits and
// near the reference.
func TestSumLargeThreaded(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 38))
	big := mpRandom(rng, Float32, 5*iter.MinParallel+3)
	m := mpRandom(rng, Float64, 300, 500)
	mt := &Tensor{dtype: Float64, shape: []int{500, 300}, strides: []int{1, 500}, storage: m.storage, n: m.n}
	cube := mpRandom(rng, Float32, 40, 50, 60)
	ints := mpRandom(rng, Int32, 3*iter.MinParallel)
	h := mpRandom(rng, Float16, 400, 300)
	f := mpRandom(rng, Float32, 700, 300)
	for _, x := range []*Tensor{big, m, cube, ints, h, f} {
		mpProdRandom(rng, x)
	}
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
		{cube, []ReduceOption{Axis(1)}, []bool{false, true, false}},
		{h, []ReduceOption{Axis(0)}, []bool{true, false}},
		{h, nil, []bool{true, true}},
		{f, []ReduceOption{Axis(0)}, []bool{true, false}},
	}
	for _, c := range cases {
		var results []*Tensor
		for _, procs := range []int{1, 2} {
			old := runtime.GOMAXPROCS(procs)
			got, err := Sum(c.x, c.opts...)
			runtime.GOMAXPROCS(old)
			if err != nil {
				t.Fatal(err)
			}
			results = append(results, got)
		}
		// The same values; NaN payloads aside, which x86 takes from one
		// operand or the other, as the assembly and its Go twin order them.
		same := true
		mpForEachIndex(results[0].shape, func(i []int) {
			same = same && mpSame(results[0].dtype, mpLoad(results[0], i), mpLoad(results[1], i))
		})
		if !same {
			t.Errorf("sum of %v %v over %v: one and two threads differ", c.x.dtype, c.x.shape, c.mask)
		}
		mpCheckSum(t, results[1], c.x, c.mask)
	}
}

// ---- Benchmarks: Prod's workloads (prod_test.go) for Sum, to compare ----

func benchSum(b *testing.B, x *Tensor, bytes int64, opts ...ReduceOption) {
	b.SetBytes(bytes)
	b.ResetTimer()
	for range b.N {
		if _, err := Sum(x, opts...); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSumAll16MFloat32(b *testing.B) {
	benchSum(b, mpBenchRand(b, 1, Float32, n16M), 67108864)
}

func BenchmarkSumAxis0x4096Float32(b *testing.B) {
	benchSum(b, mpBenchRand(b, 1, Float32, 4096, 4096), 67108864, Axis(0))
}

func BenchmarkSumAxis1x4096Float32(b *testing.B) {
	benchSum(b, mpBenchRand(b, 1, Float32, 4096, 4096), 67108864, Axis(1))
}

func BenchmarkSumAll16MInt32(b *testing.B) {
	benchSum(b, mpBenchRand(b, 1, Int32, n16M), 67108864)
}

func BenchmarkSumAxes02x256Float64(b *testing.B) {
	benchSum(b, mpBenchRand(b, 1, Float64, 256, 256, 256), 134217728, Axis(0, 2))
}

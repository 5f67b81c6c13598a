package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/cast"
	"github.com/tensor-go/tensor/internal/ewise"
)

// shortCase is a reduction the segments schedule takes: x is a view of
// fresh storage (shape base) with the given shape and element strides, at
// an offset, reduced over axes.
type shortCase struct {
	name     string
	base     []int
	shape    []int
	strides  []int
	offset   int
	axes     []int
	keepDims bool
}

// shortCases returns the views of TestReduceShortSameBits for a segment of
// length L: a last axis, two merged inner axes, a strided segment, kept
// dimensions reversed and transposed, and one large enough for threads.
func shortCases(L int) []shortCase {
	return []shortCase{
		{"last", []int{37, L}, []int{37, L}, []int{L, 1}, 0, []int{1}, false},
		{"last-keepdims-3d", []int{4, 5, L}, []int{4, 5, L}, []int{5 * L, L, 1}, 0, []int{2}, true},
		{"two-inner", []int{6, 2, L}, []int{6, 2, L}, []int{2 * L, L, 1}, 0, []int{1, 2}, false},
		{"strided-segment", []int{9, 2 * L}, []int{9, L}, []int{2 * L, 2}, 0, []int{-1}, false},
		{"reversed-kept", []int{11, L}, []int{11, L}, []int{-L, 1}, 10 * L, []int{1}, true},
		{"transposed-kept", []int{5, 7, L}, []int{7, 5, L}, []int{L, 7 * L, 1}, 0, []int{2}, false},
		{"threaded", []int{70000, L}, []int{70000, L}, []int{L, 1}, 0, []int{1}, false},
		// Middle and outer axes, which reduceRowsInto takes for float32.
		{"middle", []int{4, L, 37}, []int{4, L, 37}, []int{37 * L, 37, 1}, 0, []int{1}, false},
		{"middle-two-wide", []int{3, 2, L, 1100}, []int{3, 2, L, 1100}, []int{2200 * L, 1100 * L, 1100, 1}, 0, []int{1, 2}, true},
		{"outer", []int{L, 3000}, []int{L, 3000}, []int{3000, 1}, 0, []int{0}, false},
		{"middle-reversed-kept", []int{6, L, 40}, []int{6, L, 40}, []int{-40 * L, 40, 1}, 5 * 40 * L, []int{1}, false},
	}
}

func (c shortCase) view(rng *rand.Rand, dt DType, prod bool) *Tensor {
	b := mpRandom(rng, dt, c.base...)
	if prod {
		mpProdRandom(rng, b)
	} else if dt.IsFloat() || dt.IsComplex() {
		mpSumRandomWide(rng, b)
	}
	v := *b
	v.shape, v.strides, v.offset = c.shape, c.strides, c.offset
	return &v
}

// TestReduceShortSameBits: the segments schedule gives the direct walk's
// bits (NaN for NaN) for every dtype and segment length 1..17 (17 and
// the 2·L of two merged axes past ewise.MaxSegment take the direct walk
// both times), with the vector kernels on and off, on one and two
// threads. The cases the schedule should take are checked to take it.
func TestReduceShortSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 3))
	for L := 1; L <= 17; L++ {
		if mmRaceEnabled && L > 4 && L != 16 && L != 17 {
			continue // the race detector's lane: the written-out trees, the longest, the fallback
		}
		for _, c := range shortCases(L) {
			if c.name == "threaded" && L != 3 {
				continue // one length suffices for the threaded split
			}
			for _, dt := range dtype.All {
				if mmRaceEnabled && !slices.Contains([]DType{Bool, Int8, Float32, Float64, BFloat16, Complex64}, dt) {
					continue // under the race detector, one dtype of each kind of kernel
				}
				for _, r := range []*ewise.Reduction{ewise.Prod, ewise.Sum} {
					x := c.view(rng, dt, r == ewise.Prod)
					mask, _, _, err := reduceShape(r, x, []ReduceOption{Axis(c.axes...)})
					if err != nil {
						t.Fatal(err)
					}
					middle := strings.HasPrefix(c.name, "middle") || c.name == "outer"
					seg, _, ok := shortSegment(x, mask)
					if n := segLen(x, mask); ok != (!middle && n >= 2 && n <= ewise.MaxSegment) {
						t.Fatalf("%s L=%d: shortSegment says %v (seg %d)", c.name, L, ok, seg)
					}
					what := fmt.Sprintf("%s %s %v L=%d", r.Name, c.name, dt, L)
					// float64 results take reduceRowsInto where its
					// rows-into kernels do (up to ewise.RowsIntoMax rows, the reduced
					// axes together).
					if middle && L > 1 && (dt == Float32 || dt == Float64 && segLen(x, mask) <= ewise.RowsIntoMax) {
						out := Must(Zeros(dt, shapeOf(reduceShape(r, x, []ReduceOption{Axis(c.axes...), KeepDims(c.keepDims)}))...))
						if !reduceRowsInto(r, out, x, mask, Float64, dt) {
							t.Fatalf("%s: reduceRowsInto does not take it", what)
						}
					}
					for _, use := range []bool{true, false} {
						want := reduceUnder(t, r, false, use, 1, x, c)
						for _, procs := range []int{1, 2} {
							got := reduceUnder(t, r, true, use, procs, x, c)
							sameElements(t, fmt.Sprintf("%s vec=%v procs=%d", what, use, procs), got, want)
						}
					}
				}
			}
		}
	}
}

func shapeOf(_ []bool, s []int, _ DType, err error) []int {
	if err != nil {
		panic(err)
	}
	return s
}

// segLen is the product of the reduced dimensions' lengths.
func segLen(x *Tensor, mask []bool) int {
	n := 1
	for i, d := range x.shape {
		if mask[i] {
			n *= d
		}
	}
	return n
}

// reduceUnder reduces x by r as case c says, with the segments schedule,
// the vector kernels (ewise.UseVec) and GOMAXPROCS set as given.
func reduceUnder(t *testing.T, r *ewise.Reduction, short, useVec bool, procs int, x *Tensor, c shortCase) *Tensor {
	t.Helper()
	reduceShortOn, ewise.UseVec = short, useVec
	old := runtime.GOMAXPROCS(procs)
	got, err := reduction(r, x, []ReduceOption{Axis(c.axes...), KeepDims(c.keepDims)})
	runtime.GOMAXPROCS(old)
	reduceShortOn, ewise.UseVec = true, true
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// sameElements fails unless got and want have the same dtype, shape and
// element bits, any NaN matching any NaN (a NaN's payload is the
// hardware's choice between operands).
func sameElements(t *testing.T, what string, got, want *Tensor) {
	t.Helper()
	if got.dtype != want.dtype || fmt.Sprint(got.shape) != fmt.Sprint(want.shape) {
		t.Fatalf("%s: %v%v, want %v%v", what, got.dtype, got.shape, want.dtype, want.shape)
	}
	g, w := contiguousBytes(got), contiguousBytes(want)
	size := got.dtype.Size()
	for i := 0; i < len(g); i += size {
		if string(g[i:i+size]) == string(w[i:i+size]) {
			continue
		}
		var gv, wv complex128
		cast.Run(unsafe.Pointer(&gv), Complex128, 0, unsafe.Pointer(&g[i]), got.dtype, 0, 1)
		cast.Run(unsafe.Pointer(&wv), Complex128, 0, unsafe.Pointer(&w[i]), got.dtype, 0, 1)
		if (got.dtype.IsFloat() || got.dtype.IsComplex()) && sameOrNaN(real(gv), real(wv)) && sameOrNaN(imag(gv), imag(wv)) {
			continue
		}
		t.Fatalf("%s: element %d is %x, want %x (%v, want %v)", what, i/size, g[i:i+size], w[i:i+size], gv, wv)
	}
}

// sameOrNaN reports whether a and b are both NaN or the same value and sign.
func sameOrNaN(a, b float64) bool {
	return math.IsNaN(a) && math.IsNaN(b) || a == b && math.Signbit(a) == math.Signbit(b)
}

// contiguousBytes returns t's elements' bytes in row-major order.
func contiguousBytes(t *Tensor) []byte {
	c := t
	if !t.IsContiguous() {
		c = mpClone(t)
	}
	return unsafe.Slice((*byte)(firstElement(c)), c.Size()*c.dtype.Size())
}

// mpSumRandomWide fills t's storage with floats of magnitudes from 2^-40
// to 2^40, so that sums of a few of them round and their order shows, and
// a few zeros of both signs, infinities and NaNs.
func mpSumRandomWide(rng *rand.Rand, t *Tensor) {
	f := func() float64 {
		switch rng.IntN(40) {
		case 0:
			return math.NaN()
		case 1:
			return math.Inf(1 - 2*rng.IntN(2))
		case 2:
			return math.Copysign(0, float64(1-2*rng.IntN(2)))
		}
		return (2*rng.Float64() - 1) * math.Ldexp(1, rng.IntN(80)-40)
	}
	for i := range t.n {
		v := complex(f(), f())
		cast.Run(unsafe.Add(t.storage, i*t.dtype.Size()), t.dtype, 0, unsafe.Pointer(&v), Complex128, 0, 1)
	}
}

// ---- Benchmarks: short reduced axes (bench/sweep.json's lastaxis3) and a
// short middle axis, which the rows kernels take ----

func BenchmarkProdLastAxis3x1MFloat32(b *testing.B) {
	benchProd(b, mpBenchRand(b, 1, Float32, 1000000, 3), 12e6, Axis(-1))
}

func BenchmarkProdLastAxis3x1MFloat64(b *testing.B) {
	benchProd(b, mpBenchRand(b, 1, Float64, 1000000, 3), 24e6, Axis(-1))
}

func BenchmarkSumLastAxis3x1MFloat32(b *testing.B) {
	benchSum(b, mpBenchRand(b, 1, Float32, 1000000, 3), 12e6, Axis(-1))
}

func BenchmarkSumLastAxis8x1MInt8(b *testing.B) {
	benchSum(b, mpBenchRand(b, 1, Int8, 1000000, 8), 8e6, Axis(-1))
}

func BenchmarkSumLastAxis3x1MComplex64(b *testing.B) {
	benchSum(b, mpBenchRand(b, 1, Complex64, 1000000, 3), 24e6, Axis(-1))
}

func BenchmarkSumLastAxis3x1MBFloat16(b *testing.B) {
	benchSum(b, mpBenchRand(b, 1, BFloat16, 1000000, 3), 6e6, Axis(-1))
}

func BenchmarkSumMiddleAxis1000x3x1000Float32(b *testing.B) {
	benchSum(b, mpBenchRand(b, 1, Float32, 1000, 3, 1000), 12e6, Axis(1))
}

// BenchmarkReduceShortSchedule times the segments schedule against the
// direct walk it replaces, side by side (run with -count to alternate).
func BenchmarkReduceShortSchedule(b *testing.B) {
	for _, c := range []struct {
		name string
		r    *ewise.Reduction
		dt   DType
		shp  []int
	}{
		{"prod/float32/1Mx3", ewise.Prod, Float32, []int{1000000, 3}},
		{"prod/float64/1Mx3", ewise.Prod, Float64, []int{1000000, 3}},
		{"sum/float32/1Mx3", ewise.Sum, Float32, []int{1000000, 3}},
		{"sum/float64/100Kx12", ewise.Sum, Float64, []int{100000, 12}},
		{"sum/int8/1Mx3", ewise.Sum, Int8, []int{1000000, 3}},
		{"sum/bfloat16/1Mx3", ewise.Sum, BFloat16, []int{1000000, 3}},
		{"prod/complex64/1Mx3", ewise.Prod, Complex64, []int{1000000, 3}},
	} {
		x := mpBenchRand(b, 1, c.dt, c.shp...)
		for _, on := range []bool{false, true} {
			name := map[bool]string{false: "direct", true: "segments"}[on]
			b.Run(c.name+"/"+name, func(b *testing.B) {
				reduceShortOn = on
				defer func() { reduceShortOn = true }()
				for range b.N {
					if _, err := reduction(c.r, x, []ReduceOption{Axis(-1)}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestReduceSlabs checks the schedule of a reduction over the outermost
// axis of a large tensor (reduceSlabs blocks of whole rows, each folded in
// row order, the blocks then combined in order) against that order
// written out, bit for bit, with one goroutine and with several.
func TestReduceSlabs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, sh := range [][]int{{1000, 300}, {523, 600}} {
		rows, cols := sh[0], sh[1]
		data := make([]float64, rows*cols)
		for i := range data {
			data[i] = 1 + (rng.Float64()-0.5)/64
		}
		x := Must(Must(FromSlice(data)).Reshape(rows, cols))
		step := (rows + reduceSlabs - 1) / reduceSlabs
		for _, op := range []struct {
			name  string
			run   func(*Tensor, ...ReduceOption) (*Tensor, error)
			start float64
			f     func(a, b float64) float64
		}{
			{"sum", Sum, math.Copysign(0, -1), func(a, b float64) float64 { return a + b }},
			{"prod", Prod, 1, func(a, b float64) float64 { return a * b }},
		} {
			want := make([]float64, cols)
			for c := range cols {
				var acc float64
				for lo := 0; lo < rows; lo += step {
					b := op.start
					for r := lo; r < min(lo+step, rows); r++ {
						b = op.f(b, data[r*cols+c])
					}
					if lo == 0 {
						acc = b
					} else {
						acc = op.f(acc, b)
					}
				}
				want[c] = acc
			}
			for _, procs := range []int{1, 2, 3} {
				old := runtime.GOMAXPROCS(procs)
				got := contiguousData[float64](Must(op.run(x, Axis(0))))
				runtime.GOMAXPROCS(old)
				for c := range cols {
					if math.Float64bits(got[c]) != math.Float64bits(want[c]) {
						t.Fatalf("%s %v over axis 0, %d goroutines: [%d] = %v, want %v", op.name, sh, procs, c, got[c], want[c])
					}
				}
			}
		}
	}
}

// TestReduceShortHalfAllocations checks that a float16 or bfloat16
// reduction over a short last axis allocates the same whatever the number
// of rows: the widened batches are scratch kept between calls (on the
// stack they escaped, and every batch of 512 rows allocated 8 KiB).
func TestReduceShortHalfAllocations(t *testing.T) {
	if mmRaceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, dt := range []DType{BFloat16, Float16} {
		allocs := func(rows int) float64 {
			x, err := Ones(dt, rows, 3)
			if err != nil {
				t.Fatal(err)
			}
			out, err := Zeros(dt, rows)
			if err != nil {
				t.Fatal(err)
			}
			return testing.AllocsPerRun(5, func() {
				if err := SumInto(out, x, Axis(1)); err != nil {
					t.Fatal(err)
				}
				if err := ProdInto(out, x, Axis(1)); err != nil {
					t.Fatal(err)
				}
			})
		}
		if few, many := allocs(1024), allocs(32*1024); many > few {
			t.Errorf("%v: sum and product over the last axis of %d×3 allocate %v times, of 1024×3 %v", dt, 32*1024, many, few)
		}
	}
}

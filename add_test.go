package tensor

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/bfloat16"
	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/ewise"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/x448/float16"
)

// mpRefAdd adds two elements of dtype c the slow, obvious way: integers as
// wrapping 64-bit patterns, floats exactly in float64 (or componentwise)
// and rounded once.
func mpRefAdd(c DType, x, y mpValue) mpValue {
	var z mpValue
	px, py, pz := unsafe.Pointer(&x), unsafe.Pointer(&y), unsafe.Pointer(&z)
	switch c {
	case Bool:
		*(*bool)(pz) = *(*bool)(px) || *(*bool)(py)
	case Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64:
		var a, b uint64
		copy((*[8]byte)(unsafe.Pointer(&a))[:], x[:c.Size()])
		copy((*[8]byte)(unsafe.Pointer(&b))[:], y[:c.Size()])
		p := a + b
		copy(z[:c.Size()], (*[8]byte)(unsafe.Pointer(&p))[:])
	case Float16:
		a, b := float16.Frombits(*(*uint16)(px)).Float32(), float16.Frombits(*(*uint16)(py)).Float32()
		*(*uint16)(pz) = float16.Fromfloat32(float32(float64(a) + float64(b))).Bits()
	case BFloat16:
		a, b := bfloat16.BFloat16(*(*uint16)(px)).Float64(), bfloat16.BFloat16(*(*uint16)(py)).Float64()
		*(*uint16)(pz) = bfloat16.FromFloat64(a + b).Bits()
	case Float32:
		*(*float32)(pz) = float32(float64(*(*float32)(px)) + float64(*(*float32)(py)))
	case Float64:
		*(*float64)(pz) = *(*float64)(px) + *(*float64)(py)
	case Complex64:
		a, b := *(*complex64)(px), *(*complex64)(py)
		*(*complex64)(pz) = complex(float32(float64(real(a))+float64(real(b))), float32(float64(imag(a))+float64(imag(b))))
	case Complex128:
		a, b := *(*complex128)(px), *(*complex128)(py)
		*(*complex128)(pz) = complex(real(a)+real(b), imag(a)+imag(b))
	}
	return z
}

func mpCheckAdd(t *testing.T, out, a, b *Tensor, c DType) {
	t.Helper()
	mpCheckBinary(t, "+", mpRefAdd, out, a, b, c)
}

// TestAddRandomViewsAndDTypes is Mul's random test for Add: every dtype
// pair, broadcast shapes, random views (permuted, stepped, reversed,
// broadcast), into a new tensor and into a random view of any allowed
// dtype, with the vector kernels on and off.
func TestAddRandomViewsAndDTypes(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	mpWithFastPaths(t, func(t *testing.T) {
		for iter := range 400 {
			outShape, as, bs := mpBroadcastShapes(rng, 4, 5)
			da, db := dtype.All[rng.IntN(len(dtype.All))], dtype.All[rng.IntN(len(dtype.All))]
			if iter%2 == 0 {
				db = da
			}
			a, b := mpRandomView(rng, da, as, 0.3), mpRandomView(rng, db, bs, 0.3)
			c, perr := dtype.Promote(da, db)
			got, err := Add(a, b)
			if perr != nil {
				if !errors.Is(err, ErrDType) {
					t.Fatalf("%v + %v: error %v, want ErrDType", da, db, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("Add(%v %v, %v %v): %v", da, as, db, bs, err)
			}
			if got.dtype != c || !slices.Equal(got.shape, outShape) {
				t.Fatalf("Add(%v %v, %v %v) is %v %v, want %v %v", da, as, db, bs, got.dtype, got.shape, c, outShape)
			}
			mpCheckAdd(t, got, a, b, c)
			var od DType
			for {
				od = dtype.All[rng.IntN(len(dtype.All))]
				if dtype.CanCastInto(c, od) {
					break
				}
			}
			out := mpRandomView(rng, od, outShape, 0)
			if err := AddInto(out, a, b); err != nil {
				t.Fatalf("AddInto(%v %v): %v", od, outShape, err)
			}
			mpCheckAdd(t, out, a, b, c)
		}
	})
}

// TestAddSpecials checks the contract's examples: IEEE zeros, infinities
// and NaN, integer wrap, bool or, half rounding, weak scalars, complex.
func TestAddSpecials(t *testing.T) {
	negZero := math.Copysign(0, -1)
	inf := math.Inf(1)
	mpWithFastPaths(t, func(t *testing.T) {
		for _, dt := range []DType{Float16, BFloat16, Float32, Float64} {
			// Lengths past one vector, so that the body and the tail see each.
			a := mpFromFloat64s(dt, slices.Repeat([]float64{negZero, negZero, inf, math.NaN(), 1}, 9))
			b := mpFromFloat64s(dt, slices.Repeat([]float64{negZero, 0, -inf, 1, 2}, 9))
			got := Must(Add(a, b))
			for i := range got.Size() {
				g := mpFloatAt(got, i)
				switch i % 5 {
				case 0:
					if g != 0 || !math.Signbit(g) {
						t.Errorf("%v -0 + -0 = %v, want -0", dt, g)
					}
				case 1:
					if g != 0 || math.Signbit(g) {
						t.Errorf("%v -0 + +0 = %v, want +0", dt, g)
					}
				case 2, 3:
					if !math.IsNaN(g) {
						t.Errorf("%v inf + -inf, NaN + 1 = %v, want NaN", dt, g)
					}
				case 4:
					if g != 3 {
						t.Errorf("%v 1 + 2 = %v", dt, g)
					}
				}
			}
		}
		x8, _ := FromSlice(slices.Repeat([]int8{100, -128, 127}, 20))
		if got := contiguousData[int8](Must(Add(x8, x8))); got[0] != -56 || got[1] != 0 || got[2] != -2 {
			t.Errorf("int8 wrap: %v", got[:3])
		}
		if got := contiguousData[int8](Must(Add(x8, 1))); got[0] != 101 || got[1] != -127 || got[2] != -128 {
			t.Errorf("int8 + 1: %v", got[:3])
		}
		u64, _ := FromSlice([]uint64{math.MaxUint64})
		if got := contiguousData[uint64](Must(Add(u64, u64))); got[0] != math.MaxUint64-1 {
			t.Errorf("uint64 wrap: %v", got)
		}
		xb, _ := FromSlice([]bool{true, true, false, false})
		yb, _ := FromSlice([]bool{true, false, true, false})
		if got := Must(Add(xb, yb)); got.dtype != Bool || !slices.Equal(contiguousData[bool](got), []bool{true, true, true, false}) {
			t.Errorf("bool + bool = %v %v, want logical or", got.dtype, contiguousData[bool](got))
		}
		// float16 + 1e5 overflows to inf in float16 (the scalar is weak).
		h := mpFromFloat64s(Float16, []float64{1})
		if got := Must(Add(h, 1e5)); got.dtype != Float16 || !math.IsInf(mpFloatAt(got, 0), 1) {
			t.Errorf("float16 + 1e5 = %v %v, want float16 inf", got.dtype, mpFloatAt(got, 0))
		}
		// float16 sums round once: 2048 + 1 is a tie, to even (2048).
		h2 := mpFromFloat64s(Float16, []float64{2048, 2048})
		if got := Must(Add(h2, mpFromFloat64s(Float16, []float64{1, 3}))); mpFloatAt(got, 0) != 2048 || mpFloatAt(got, 1) != 2052 {
			t.Errorf("float16 2048+1, 2048+3 = %v %v, want 2048 2052", mpFloatAt(got, 0), mpFloatAt(got, 1))
		}
		// Weak scalars: int32 + 2 stays int32, int32 + 2.5 is float32,
		// float64 + 1i is complex128, two scalars give the default dtype.
		xi, _ := FromSlice([]int32{1, 2})
		if got := Must(Add(xi, 2)); got.dtype != Int32 {
			t.Errorf("int32 + 2 is %v", got.dtype)
		}
		if got := Must(Add(2.5, xi)); got.dtype != Float32 || mpFloatAt(got, 1) != 4.5 {
			t.Errorf("2.5 + int32 is %v", got.dtype)
		}
		xf, _ := FromSlice([]float64{1})
		if got := Must(Add(xf, 1i)); got.dtype != Complex128 || contiguousData[complex128](got)[0] != 1+1i {
			t.Errorf("float64 + 1i = %v", got)
		}
		if got := Must(Add(-3, -4)); got.dtype != Int32 || len(got.shape) != 0 || contiguousData[int32](got)[0] != -7 {
			t.Errorf("-3 + -4 = %v", got)
		}
		x8s, _ := FromSlice([]int8{1})
		if _, err := Add(x8s, 300); !errors.Is(err, ErrValue) {
			t.Errorf("int8 + 300: %v, want ErrValue", err)
		}
		c, _ := FromSlice([]complex64{1 + 2i, complex(float32(inf), 1)})
		if got := contiguousData[complex64](Must(Add(c, c))); got[0] != 2+4i || !math.IsInf(float64(real(got[1])), 1) || imag(got[1]) != 2 {
			t.Errorf("complex64 sums: %v", got)
		}
	})
}

func TestAddErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	a, b := mpRandom(rng, Float32, 2, 3), mpRandom(rng, Float32, 4)
	if _, err := Add(a, b); !errors.Is(err, ErrShape) {
		t.Errorf("(2, 3) + (4,): %v, want ErrShape", err)
	}
	u, i := mpRandom(rng, Uint64, 2), mpRandom(rng, Int8, 2)
	if _, err := Add(u, i); !errors.Is(err, ErrDType) {
		t.Errorf("uint64 + int8: %v, want ErrDType", err)
	}
	if err := AddInto(mpRandom(rng, Int32, 2, 3), a, 1); !errors.Is(err, ErrDType) {
		t.Errorf("float into int32: %v, want ErrDType", err)
	}
	if err := AddInto(mpRandom(rng, Float32, 3, 2), a, 1); !errors.Is(err, ErrShape) {
		t.Errorf("wrong output shape: %v, want ErrShape", err)
	}
	bcast := &Tensor{dtype: Float32, shape: []int{2, 3}, strides: []int{0, 1}, storage: a.storage, n: a.n}
	if err := AddInto(bcast, a, 1); !errors.Is(err, ErrLayout) {
		t.Errorf("broadcast output: %v, want ErrLayout", err)
	}
	if err := AddInto(nil, a, 1); !errors.Is(err, ErrValue) {
		t.Errorf("nil output: %v, want ErrValue", err)
	}
	sp := Must(Must(FromSlice([]float32{1, 0, 0, 2}, 2, 2)).ToSparseCSR())
	if _, err := Add(sp, 1); !errors.Is(err, ErrLayout) {
		t.Errorf("sparse + 1: %v, want ErrLayout", err)
	}
	r := mpRandom(rng, Float32, 2)
	r.Release()
	if _, err := Add(r, 1); !errors.Is(err, ErrReleased) {
		t.Errorf("released + 1: %v, want ErrReleased", err)
	}
}

func TestAddIntoAliasing(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	mpWithFastPaths(t, func(t *testing.T) {
		for _, dt := range []DType{Float32, Int16, Float16, Complex128, Bool} {
			x := mpRandom(rng, dt, 3, 4)
			y := mpRandom(rng, dt, 4)
			orig := mpClone(x)
			if err := AddInto(x, x, y); err != nil {
				t.Fatal(err)
			}
			mpCheckAdd(t, x, orig, y, dt)
			sq := mpRandom(rng, dt, 4, 4)
			orig = mpClone(sq)
			tr := &Tensor{dtype: dt, shape: []int{4, 4}, strides: []int{1, 4}, storage: sq.storage, n: sq.n}
			if err := AddInto(tr, sq, sq); err != nil {
				t.Fatal(err)
			}
			mpCheckAdd(t, tr, orig, orig, dt)
		}
	})
}

// TestAddLargeThreaded: above the parallel threshold, contiguous,
// promoted, broadcast, transposed and reversed, one and two threads give
// the same bytes, and the reference values; large broadcast outputs take
// the streaming kernels.
func TestAddLargeThreaded(t *testing.T) {
	defer func(s int) { ewise.StreamOutputBytes = s }(ewise.StreamOutputBytes)
	ewise.StreamOutputBytes = 1 << 16
	rng := rand.New(rand.NewPCG(23, 24))
	n := 3*iter.MinParallel + 17
	a := mpRandom(rng, Float32, n)
	b := mpRandom(rng, Int32, n)
	s := mpRandom(rng, Float32)
	m := mpRandom(rng, Float64, 300, 700)
	mt := &Tensor{dtype: Float64, shape: []int{700, 300}, strides: []int{1, 700}, storage: m.storage, n: m.n}
	m2 := mpRandom(rng, Float64, 700, 300)
	row := mpRandom(rng, Float64, 300)
	rev := &Tensor{dtype: Float32, shape: []int{n}, strides: []int{-1}, offset: n - 1, storage: a.storage, n: a.n}
	cases := [][2]*Tensor{{a, a}, {a, b}, {b, a}, {a, s}, {s, b}, {mt, m2}, {m2, row}, {mt, row}, {rev, a}}
	for _, c := range cases {
		var results []*Tensor
		for _, procs := range []int{1, 2} {
			old := runtime.GOMAXPROCS(procs)
			got, err := Add(c[0], c[1])
			runtime.GOMAXPROCS(old)
			if err != nil {
				t.Fatal(err)
			}
			results = append(results, got)
		}
		mpCheckAdd(t, results[1], c[0], c[1], results[1].dtype)
		if !mpBytesEqual(results[0], results[1]) {
			t.Errorf("%v + %v: one and two threads differ", c[0].shape, c[1].shape)
		}
	}
}

func TestAddIntoAllocatesNothing(t *testing.T) {
	if mpPoolsDrop() {
		t.Skip("sync.Pool drops items under the race detector")
	}
	rng := rand.New(rand.NewPCG(25, 26))
	a, b, out := mpRandom(rng, Float32, 1000), mpRandom(rng, Int32, 1000), mpRandom(rng, Float32, 1000)
	s := mpRandom(rng, Float32)
	if n := testing.AllocsPerRun(20, func() { _ = AddInto(out, a, b); _ = AddInto(out, out, s) }); n != 0 {
		t.Errorf("AddInto allocates %v times per call", n)
	}
}

// ---- Benchmarks: Mul's workloads (mul_test.go) for Add, to compare ----

func benchAdd(b *testing.B, x, y *Tensor, bytes int64) {
	b.SetBytes(bytes)
	b.ResetTimer()
	for range b.N {
		if _, err := Add(x, y); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAddContig16MFloat32(b *testing.B) {
	benchAdd(b, mpBenchRand(b, 1, Float32, n16M), mpBenchRand(b, 2, Float32, n16M), 201326592)
}

func BenchmarkAddContig16MFloat64(b *testing.B) {
	benchAdd(b, mpBenchRand(b, 1, Float64, n16M), mpBenchRand(b, 2, Float64, n16M), 402653184)
}

func BenchmarkAddContig16MInt32(b *testing.B) {
	benchAdd(b, mpBenchRand(b, 1, Int32, n16M), mpBenchRand(b, 2, Int32, n16M), 201326592)
}

func BenchmarkAddOuter4096Float32(b *testing.B) {
	benchAdd(b, mpBenchRand(b, 1, Float32, 4096, 1), mpBenchRand(b, 2, Float32, 1, 4096), 67141632)
}

func BenchmarkAddRowBcast4096Float32(b *testing.B) {
	benchAdd(b, mpBenchRand(b, 1, Float32, 4096, 4096), mpBenchRand(b, 2, Float32, 4096), 134234112)
}

func BenchmarkAddTransposed4096Float32(b *testing.B) {
	a := mpBenchRand(b, 1, Float32, 4096, 4096)
	at := &Tensor{dtype: Float32, shape: []int{4096, 4096}, strides: []int{1, 4096}, storage: a.storage, n: a.n}
	benchAdd(b, at, mpBenchRand(b, 2, Float32, 4096, 4096), 201326592)
}

func BenchmarkAddPromote16MFloat32Int32(b *testing.B) {
	benchAdd(b, mpBenchRand(b, 1, Float32, n16M), mpBenchRand(b, 2, Int32, n16M), 201326592)
}

package tensor

import (
	"runtime"
	"runtime/debug"
	"slices"
	"testing"

	"github.com/tensor-go/tensor/internal/gemm"
	"github.com/tensor-go/tensor/internal/storage"
)

// TestRecycledStorageKeepsViews drops results while views of them live on
// and allocates many more of the same size: a view's elements must never
// change, whichever buffers the pool hands out meanwhile.
func TestRecycledStorageKeepsViews(t *testing.T) {
	old := storage.MinPooled
	storage.MinPooled = 4 << 10
	defer func() { storage.MinPooled = old }()
	const n = 64 // 64×64 float32: 16 KiB, pooled here
	a := Must(Rand(1, Float32, 1, 2, n, n))
	b := Must(Rand(2, Float32, 1, 2, n, n))
	want := Must(Matmul(a, b))
	var views []*Tensor
	var copies [][]float32
	for i := range 20 {
		r := Must(Mul(want, float32(i+1)))
		v := Must(r.Slice(Span(i, i+3))).Transpose() // r itself is dropped
		views = append(views, v)
		copies = append(copies, Must(v.Contiguous()).toFloat32s())
		for range 10 {
			Must(Matmul(a, b)) // garbage of the same size class
		}
		runtime.GC()
	}
	for i, v := range views {
		got := Must(v.Contiguous()).toFloat32s()
		for j := range got {
			if got[j] != copies[i][j] {
				t.Fatalf("view %d changed at %d: %v, was %v", i, j, got[j], copies[i][j])
			}
		}
	}
}

func (t *Tensor) toFloat32s() []float32 {
	s, err := ToSlice[float32](t)
	if err != nil {
		panic(err)
	}
	return s
}

// TestSlabResultsNeverAlias makes results of every size the slabs serve
// (1-64 KiB, several dtypes), keeps them, writes into one with an into-form
// and into another through Elements, releases some (the last one made, whose
// memory the next result takes, and older ones, which stay with their slab)
// and makes more: every other result must keep its own values.
func TestSlabResultsNeverAlias(t *testing.T) {
	type kept struct {
		r    *Tensor
		want []float64
	}
	var all []kept
	check := func(when string) {
		t.Helper()
		for i, k := range all {
			if k.r.released {
				continue
			}
			if got := valuesOf(t, k.r); !slices.Equal(got, k.want) {
				t.Fatalf("%s: result %d (%v %v) changed", when, i, k.r.DType(), k.r.Shape())
			}
		}
	}
	result := func(round, n int, dt DType) *Tensor {
		x := Must(Full(float64(round%7+1), dt, n))
		r := Must(Mul(x, x))
		all = append(all, kept{r, valuesOf(t, r)})
		return r
	}
	for round := range 6 {
		for _, n := range []int{129, 256, 1000, 1023, 2048, 4096, 8191, 16384} {
			for _, dt := range []DType{Int8, Float32, Float64, Complex64} {
				if n*dt.Size() > 64<<10 {
					continue
				}
				result(round, n, dt)
			}
		}
	}
	check("after making them")
	target := all[len(all)/2].r
	if err := MulInto(target, Must(Full(3.0, target.DType(), target.Size())), Must(Full(5.0, target.DType(), target.Size()))); err != nil {
		t.Fatal(err)
	}
	all[len(all)/2].want = valuesOf(t, target)
	e, err := Elements[float32](all[1].r) // all[1] is float32
	if err != nil {
		t.Fatal(err)
	}
	for i := range e {
		e[i] = -2
	}
	all[1].want = valuesOf(t, all[1].r)
	check("after writing into two of them")
	for i := 0; i < len(all); i += 5 {
		all[i].r.Release() // old pieces: their slabs keep them
	}
	x := Must(Full(3.0, Float32, 3000))
	last := Must(Mul(x, x))
	p := last.storage
	last.Release()
	again := Must(Mul(x, x))
	if again.storage != p {
		t.Error("the result after releasing the last one did not reuse its memory")
	}
	all = append(all, kept{again, valuesOf(t, again)})
	for round := range 3 {
		for _, n := range []int{500, 3000, 9000} {
			result(round+20, n, Float32)
		}
		runtime.GC()
	}
	check("after releasing some and making more")
}

// valuesOf returns t's elements as float64 (complex ones as their real and
// imaginary parts), whatever its dtype.
func valuesOf(t *testing.T, x *Tensor) []float64 {
	t.Helper()
	if x.DType() == Complex64 {
		c, err := ToSlice[complex64](x)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]float64, 0, 2*len(c))
		for _, v := range c {
			out = append(out, float64(real(v)), float64(imag(v)))
		}
		return out
	}
	return floats(t, Must(x.AsType(Float64)))
}

// TestMatmulTemporariesReturnToThePool checks that a product's own
// temporaries (a half-precision product's float32 sums, operands converted
// to the result dtype, int8's widened int32 operands and sums, or only
// the sums where the int16 pairs take int8 as it is) go back to
// the pool when the call ends: with collections off, a second call of the
// same sizes takes them from the pool, which only a Release can have
// filled.
func TestMatmulTemporariesReturnToThePool(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for _, tc := range []struct {
		name   string
		a, b   DType
		minHit int
		m, k   int
	}{
		// K deeper than a tile block (1024), so that the amx set keeps
		// float32 sums too (a shallower product on the tiles has none).
		{"bfloat16 sums", BFloat16, BFloat16, 1, 64, 2048},
		{"int8 widened", Int8, Int8, 3, 256, 256}, // the fast path's: -slowpaths multiplies int8 as it is
		{"float32 operand converted", Float32, Float64, 1, 256, 256},
	} {
		if tc.a == Int8 && !useFastMatmul {
			continue
		}
		if tc.a == Int8 && gemm.Int16Pairs(tc.m, tc.m, tc.k) {
			tc.minHit = 1 // the pairs read int8 as it is: the int32 sums alone
		}
		a := Must(Must(Rand(1, Float32, -1, 1, tc.m, tc.k)).AsType(tc.a))
		b := Must(Must(Rand(2, Float32, -1, 1, tc.k, tc.m)).AsType(tc.b))
		Must(Matmul(a, b))
		before := storage.ReadStats().Hits
		Must(Matmul(a, b))
		if hits := storage.ReadStats().Hits - before; hits < tc.minHit {
			t.Errorf("%s: the second product took %d buffers from the pool, want at least %d (its temporaries)", tc.name, hits, tc.minHit)
		}
	}
}

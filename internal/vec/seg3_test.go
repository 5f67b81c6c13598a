package vec

import (
	"math/rand/v2"
	"testing"
)

// TestSeg3 checks the segments-of-three kernels under every kernel set,
// the Go twin included, against the loops their comments write out, bit
// for bit: every row count up to three blocks and beyond, every alignment
// of x, specials (NaN, ±Inf, ±0, denormals) among the elements, and guard
// elements around acc and x that must be left alone and not read.
func TestSeg3(t *testing.T) {
	defer func(saved seg3Kernels) { seg3Impl = saved }(seg3Impl)
	r := rand.New(rand.NewPCG(31, 32))
	f32 := func() float32 {
		if r.IntN(50) == 0 {
			return specialsF32[r.IntN(len(specialsF32))]
		}
		return float32(logNear1(r))
	}
	f64 := func() float64 {
		if r.IntN(50) == 0 {
			return specialsF64[r.IntN(len(specialsF64))]
		}
		return logNear1(r)
	}
	for _, v := range seg3Table.Variants() {
		seg3Impl = v.K
		for n := 0; n <= 3*16+1; n++ {
			for _, off := range []int{0, 1, 2, 5} {
				checkSeg3(t, v.Name()+"/prod f32", n, off, f32, f64, ProdSeg3F32, func(a float64, x []float32) float64 {
					return a * (float64(x[0]) * float64(x[2]) * float64(x[1]))
				})
				checkSeg3(t, v.Name()+"/sum f32", n, off, f32, f64, SumSeg3F32, func(a float64, x []float32) float64 {
					return a + (float64(x[0]) + float64(x[2]) + float64(x[1]))
				})
				checkSeg3(t, v.Name()+"/prod f64", n, off, f64, f64, ProdSeg3F64, func(a float64, x []float64) float64 {
					return a * (x[0] * x[2] * x[1])
				})
				checkSeg3(t, v.Name()+"/sum f64", n, off, f64, f64, SumSeg3F64, func(a float64, x []float64) float64 {
					return a + (x[0] + x[2] + x[1])
				})
			}
		}
		for range 20 {
			n := 49 + r.IntN(3000)
			checkSeg3(t, v.Name()+"/prod f64", n, r.IntN(8), f64, f64, ProdSeg3F64, func(a float64, x []float64) float64 {
				return a * (x[0] * x[2] * x[1])
			})
			checkSeg3(t, v.Name()+"/sum f32", n, r.IntN(8), f32, f64, SumSeg3F32, func(a float64, x []float32) float64 {
				return a + (float64(x[0]) + float64(x[2]) + float64(x[1]))
			})
		}
	}
}

func checkSeg3[T float32 | float64](t *testing.T, name string, n, off int, gen func() T, genAcc func() float64,
	kernel func(acc []float64, x []T), step func(a float64, x []T) float64) {
	t.Helper()
	x, xbuf := sliceAt(3*n, off, gen)
	acc, accBuf := sliceAt(n, off%3, genAcc)
	want := make([]float64, n)
	for i := range want {
		want[i] = step(acc[i], x[3*i:3*i+3])
	}
	saved := append([]float64(nil), accBuf...)
	savedX := append([]T(nil), xbuf...)
	kernel(acc, x)
	for i := range want {
		if !sameF64(acc[i], want[i]) {
			t.Fatalf("%s n=%d off=%d: acc[%d] = %v, want %v", name, n, off, i, acc[i], want[i])
		}
	}
	for i := range accBuf {
		if (i < guard+off%3 || i >= guard+off%3+n) && !sameF64(accBuf[i], saved[i]) {
			t.Fatalf("%s n=%d off=%d: guard element %d of acc changed", name, n, off, i)
		}
	}
	for i := range xbuf {
		if xbuf[i] != savedX[i] && (xbuf[i] == xbuf[i] || savedX[i] == savedX[i]) {
			t.Fatalf("%s n=%d off=%d: x changed at %d", name, n, off, i)
		}
	}
}

// BenchmarkSeg3 times the product of rows of three (4096 rows, in L1)
// under each kernel set; the generic entry is the Go loop.
func BenchmarkSeg3(b *testing.B) {
	defer func(saved seg3Kernels) { seg3Impl = saved }(seg3Impl)
	acc := filled(4096, 1.0)
	x32, x64 := filled(3*4096, float32(1)), filled(3*4096, 1.0)
	for _, v := range seg3Table.Variants() {
		b.Run("f32/"+v.Name(), func(b *testing.B) {
			seg3Impl = v.K
			for b.Loop() {
				ProdSeg3F32(acc, x32)
			}
		})
		b.Run("f64/"+v.Name(), func(b *testing.B) {
			seg3Impl = v.K
			for b.Loop() {
				ProdSeg3F64(acc, x64)
			}
		})
	}
}

package gemm

import (
	"math/rand/v2"
	"testing"
)

// checkDot compares a dot helper against dotGo at every length up to three
// unrolls (64 float32s) and every alignment offset within a vector.
func checkDot[T Elem](t *testing.T, name string, dot func(x, y []T) T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for n := 0; n <= 3*64+1; n++ {
		for off := 0; off < 16; off += 3 {
			x := fill[T](rng, n+off, n%5 == 0)[off:]
			y := fill[T](rng, n+off, n%7 == 0)[off:]
			got, want := dot(x, y), dotGo(x, y)
			if !sameValue(got, want, 1e-5*float64(n+1)) {
				t.Fatalf("%s n=%d off=%d: %v, Go twin %v", name, n, off, got, want)
			}
		}
	}
}

// checkAxpy compares an axpy helper against axpyGo with guard elements
// around y.
func checkAxpy[T Elem](t *testing.T, name string, axpy func(alpha T, x, y []T)) {
	rng := rand.New(rand.NewPCG(10, 11))
	for n := 0; n <= 3*64+1; n++ {
		for off := 0; off < 16; off += 5 {
			x := fill[T](rng, n+off, n%5 == 0)[off:]
			alpha := fill[T](rng, 1, false)[0]
			y := fill[T](rng, n+2*guard, n%3 == 0)
			y[0], y[len(y)-1] = sentinel[T](), sentinel[T]()
			want := append([]T(nil), y...)
			axpy(alpha, x, y[guard:guard+n])
			axpyGo(alpha, x, want[guard:guard+n])
			for i := range y {
				if !sameValue(y[i], want[i], 1e-5) {
					t.Fatalf("%s n=%d off=%d: y[%d] = %v, Go twin %v", name, n, off, i, y[i], want[i])
				}
			}
		}
	}
}

// checkDot4 compares a four-row dot helper against dot4Go at every length
// up to three unrolls, with row strides equal to and wider than the length.
func checkDot4[T Elem](t *testing.T, name string, dot4 func(a []T, lda int, x []T, out *[4]T)) {
	rng := rand.New(rand.NewPCG(28, 29))
	for n := 0; n <= 3*32+1; n++ {
		for _, extra := range []int{0, 1, 17} {
			lda := n + extra
			a := fill[T](rng, 3*lda+n, n%5 == 0)
			x := fill[T](rng, n, n%7 == 0)
			var got, want [4]T
			got = [4]T{7, 7, 7, 7} // must be overwritten, not added to
			dot4(a, lda, x, &got)
			dot4Go(a, lda, x, &want)
			for r := range got {
				if !sameValue(got[r], want[r], 1e-5*float64(n+1)) {
					t.Fatalf("%s n=%d lda=%d: row %d = %v, Go twin %v", name, n, lda, r, got[r], want[r])
				}
			}
		}
	}
}

// checkAxpy4 compares a four-row axpy helper against axpy4Go at every
// length up to three unrolls, with row strides equal to and wider than the
// length and guard elements around y.
func checkAxpy4[T Elem](t *testing.T, name string, axpy4 func(alpha *[4]T, x []T, ldx int, y []T)) {
	rng := rand.New(rand.NewPCG(30, 31))
	for n := 0; n <= 3*64+1; n++ {
		for _, extra := range []int{0, 1, 17} {
			ldx := n + extra
			x := fill[T](rng, 3*ldx+n, n%5 == 0)
			alpha := (*[4]T)(fill[T](rng, 4, false))
			y := fill[T](rng, n+2*guard, n%3 == 0)
			y[0], y[len(y)-1] = sentinel[T](), sentinel[T]()
			want := append([]T(nil), y...)
			axpy4(alpha, x, ldx, y[guard:guard+n])
			axpy4Go(alpha, x, ldx, want[guard:guard+n])
			for i := range y {
				if !sameValue(y[i], want[i], 1e-5) {
					t.Fatalf("%s n=%d ldx=%d: y[%d] = %v, Go twin %v", name, n, ldx, i, y[i], want[i])
				}
			}
		}
	}
}

// TestGemv covers matrix-vector products long enough for the assembly
// helpers, in every layout (row-major A uses dot products, column-major A
// column multiples, the rest the generic loop), as m == 1 and n == 1.
func TestGemv(t *testing.T) {
	forEachType(t, func(t *testing.T, typ string) {
		rng := rand.New(rand.NewPCG(12, 13))
		for range 60 {
			long := 1 + rng.IntN(300)
			k := rng.IntN(200)
			al, bl, cl := layout(rng.IntN(int(numLayouts))), layout(rng.IntN(int(numLayouts))), layout(rng.IntN(int(numLayouts)))
			opt := Options{Threads: 1 + rng.IntN(3)}
			checkMulTyped(t, typ, rng, long, 1, k, al, bl, cl, opt)
			checkMulTyped(t, typ, rng, 1, long, k, al, bl, cl, opt)
		}
	})
}

// TestGemvHalves covers the column-major matrix-vector products large
// enough to be summed in two halves (gemvHalves), with odd column counts,
// contiguous and strided outputs, on one to three goroutines, against the
// naive product.
// TestGemvPieces checks products of few, long rows, which are summed in
// pieces of K, against the naive product: dot products, and a vector
// times a matrix of few columns, with either layout.
func TestGemvPieces(t *testing.T) {
	forEachType(t, func(t *testing.T, typ string) {
		rng := rand.New(rand.NewPCG(44, 45))
		for _, sz := range [][2]int{{1, 2 * kPiece}, {3, 2*kPiece + 17}, {9, 3*kPiece - 1}} {
			m, k := sz[0], sz[1]
			for _, al := range []layout{rowMajor, colMajor} {
				opt := Options{Threads: 1 + rng.IntN(3)}
				checkMulTyped(t, typ, rng, m, 1, k, al, rowMajor, rowMajor, opt)
				checkMulTyped(t, typ, rng, 1, m, k, rowMajor, al, rowMajor, opt)
			}
		}
	})
}

func TestGemvHalves(t *testing.T) {
	forEachType(t, func(t *testing.T, typ string) {
		rng := rand.New(rand.NewPCG(42, 43))
		for _, sz := range [][2]int{{1100, 1001}, {2049, 513}, {700, 1600}} {
			m, k := sz[0], sz[1]
			if m*k < minHalvedColumns {
				t.Fatalf("%v is below minHalvedColumns", sz)
			}
			for _, cl := range []layout{rowMajor, colMajor} {
				opt := Options{Threads: 1 + rng.IntN(3)}
				checkMulTyped(t, typ, rng, m, 1, k, colMajor, rowMajor, cl, opt)
				checkMulTyped(t, typ, rng, 1, m, k, rowMajor, rowMajor, cl, opt)
			}
		}
	})
}

// TestGemvHelperSets checks every ISA's streaming helpers against the Go
// twins at every length up to three steps of each loop, and against the
// first set (AVX-512) bit for bit.
func TestGemvHelperSets(t *testing.T) {
	names, f32 := gemvSetsF32()
	for i, h := range f32 {
		checkGemvHelpers(t, names[i], h)
		if i > 0 {
			checkSameGemvBits(t, names[i], h, f32[0])
		}
	}
	names, f64 := gemvSetsF64()
	for i, h := range f64 {
		checkGemvHelpers(t, names[i], h)
		if i > 0 {
			checkSameGemvBits(t, names[i], h, f64[0])
		}
	}
}

func checkGemvHelpers[T float32 | float64](t *testing.T, name string, h gemvHelpers[T]) {
	checkDot(t, name+" dot", h.dot)
	checkAxpy(t, name+" axpy", h.axpy)
	checkDot4(t, name+" dot4", h.dot4)
	checkAxpy4(t, name+" axpy4", h.axpy4)
}

// checkSameGemvBits runs two sets of helpers on the same inputs, with NaN,
// ±Inf and −0 among them, and requires the same bits from both.
func checkSameGemvBits[T float32 | float64](t *testing.T, name string, h, ref gemvHelpers[T]) {
	rng := rand.New(rand.NewPCG(47, 48))
	for n := 0; n <= 3*64+1; n++ {
		specials := n%4 == 0
		lda := n + n%3
		a := fill[T](rng, 3*lda+n, specials)
		x := fill[T](rng, n, specials)
		if got, want := h.dot(a[:n], x), ref.dot(a[:n], x); !sameBits(got, want) {
			t.Fatalf("%s dot n=%d: %v, reference %v", name, n, got, want)
		}
		var got4, want4 [4]T
		h.dot4(a, lda, x, &got4)
		ref.dot4(a, lda, x, &want4)
		for r := range got4 {
			if !sameBits(got4[r], want4[r]) {
				t.Fatalf("%s dot4 n=%d: row %d = %v, reference %v", name, n, r, got4[r], want4[r])
			}
		}
		alpha := fill[T](rng, 4, specials)
		y := fill[T](rng, n, specials)
		y1, y2 := append([]T(nil), y...), append([]T(nil), y...)
		h.axpy(alpha[0], x, y1)
		ref.axpy(alpha[0], x, y2)
		sameRun(t, name+" axpy", n, y1, y2)
		h.axpy4((*[4]T)(alpha), a, lda, y1)
		ref.axpy4((*[4]T)(alpha), a, lda, y2)
		sameRun(t, name+" axpy4", n, y1, y2)
	}
}

// sameRun fails unless got and want hold the same bits.
func sameRun[T Elem](t *testing.T, name string, n int, got, want []T) {
	t.Helper()
	for i := range got {
		if !sameBits(got[i], want[i]) {
			t.Fatalf("%s n=%d: y[%d] = %v, reference %v", name, n, i, got[i], want[i])
		}
	}
}

// BenchmarkGemvSets times each ISA's helpers and the Go twins on one
// goroutine: dot4 over the rows and axpy4 over the columns of a 4096²
// float32 matrix (the gemv workload, A row-major and column-major), to
// compare ISAs on one machine.
func BenchmarkGemvSets(b *testing.B) {
	names, sets := gemvSetsF32()
	names = append([]string{"go"}, names...)
	sets = append([]gemvHelpers[float32]{{dotGo[float32], axpyGo[float32], dot4Go[float32], axpy4Go[float32]}}, sets...)
	const n = 4096
	a, x, y := ones[float32](n*n), ones[float32](n), make([]float32, n)
	for i, h := range sets {
		b.Run(names[i]+"/dot4/f32/4096", func(b *testing.B) {
			var out [4]float32
			cpu := cpuSeconds()
			for b.Loop() {
				for r := 0; r < n; r += 4 {
					h.dot4(a[r*n:], n, x, &out)
				}
			}
			reportBytes(b, n*n*4, cpu)
		})
		b.Run(names[i]+"/axpy4/f32/4096", func(b *testing.B) {
			cpu := cpuSeconds()
			for b.Loop() {
				for p := 0; p < n; p += 4 {
					h.axpy4((*[4]float32)(x[p:p+4]), a[p*n:], n, y)
				}
			}
			reportBytes(b, n*n*4, cpu)
		})
	}
}

// reportBytes reports the rate of bytesPerOp per wall-second and per
// CPU-second (since cpu0), as reportFlops does for flops.
func reportBytes(b *testing.B, bytesPerOp int, cpu0 float64) {
	total := float64(bytesPerOp) * float64(b.N)
	b.ReportMetric(total/b.Elapsed().Seconds()/1e9, "GB/s")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(total/cpu/1e9, "GB/cpu-s")
	}
}

// TestDot4TailRowOrder checks that dot4Tail, which runs its four rows side
// by side, adds each row's products in index order from n on: the bits of
// one row after the other, with NaN, ±Inf and −0 among the inputs.
func TestDot4TailRowOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(50, 51))
	for k := 0; k <= 70; k++ {
		for _, n := range []int{0, k / 2, k} {
			lda := k + k%3
			a := fill[float32](rng, 3*lda+k, k%4 == 0)
			x := fill[float32](rng, k, k%4 == 0)
			start := [4]float32{1, -0.5, 0, 3}
			got, want := start, start
			dot4Tail(a, lda, x, n, &got)
			for r := range want {
				for p := n; p < k; p++ {
					want[r] += float32(a[r*lda+p] * x[p])
				}
			}
			for r := range got {
				if !sameBits(got[r], want[r]) {
					t.Fatalf("k=%d n=%d: row %d = %v, row by row %v", k, n, r, got[r], want[r])
				}
			}
		}
	}
}

package gemm

import (
	"fmt"
	"testing"
	"unsafe"
)

// benchMul reports GFLOP/s of one m×n×k product (row-major operands).
func benchMul[T Elem](b *testing.B, m, n, k, threads int) {
	a := Matrix[T]{ones[T](m * k), 0, k, 1}
	bb := Matrix[T]{ones[T](k * n), 0, n, 1}
	c := Matrix[T]{make([]T, m*n), 0, n, 1}
	opt := Options{Threads: threads}
	b.ResetTimer()
	cpu := cpuSeconds()
	for b.Loop() {
		Mul(m, n, k, a, bb, c, opt)
	}
	reportFlops(b, 2*float64(m)*float64(n)*float64(k), cpu)
}

// reportFlops reports the rate of flopsPerOp per wall-second and per
// CPU-second (since cpu0, the process CPU time when the loop started).
func reportFlops(b *testing.B, flopsPerOp, cpu0 float64) {
	total := flopsPerOp * float64(b.N)
	b.ReportMetric(total/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(total/cpu/1e9, "GFLOP/cpu-s")
	}
}

func ones[T Elem](n int) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

func BenchmarkMul(b *testing.B) {
	for _, size := range []int{64, 256, 1024, 2048} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("f32/%d/t%d", size, threads), func(b *testing.B) { benchMul[float32](b, size, size, size, threads) })
			b.Run(fmt.Sprintf("f64/%d/t%d", size, threads), func(b *testing.B) { benchMul[float64](b, size, size, size, threads) })
		}
	}
	for _, th := range []int{1, 2} {
		b.Run(fmt.Sprintf("i32/256/t%d", th), func(b *testing.B) { benchMul[int32](b, 256, 256, 256, th) })
		b.Run(fmt.Sprintf("i64/256/t%d", th), func(b *testing.B) { benchMul[int64](b, 256, 256, 256, th) })
		b.Run(fmt.Sprintf("f32/gemv4096/t%d", th), func(b *testing.B) { benchMul[float32](b, 4096, 1, 4096, th) })
		b.Run(fmt.Sprintf("f32/tall100000x64x64/t%d", th), func(b *testing.B) { benchMul[float32](b, 100000, 64, 64, th) })
		// Few long rows (gemvPieces): the pieces of x must stay in L1.
		b.Run(fmt.Sprintf("f64/gemv64x100000/t%d", th), func(b *testing.B) { benchMul[float64](b, 64, 1, 100000, th) })
		b.Run(fmt.Sprintf("f64/gemv64x16384/t%d", th), func(b *testing.B) { benchMul[float64](b, 64, 1, 16384, th) })
	}
}

// naiveBlocked is the plain i-p-j loop the kernels replace, for scale at
// small sizes.
func naiveBlocked(m, n, k int, a, b, c []float32) {
	clear(c[:m*n])
	for i := 0; i < m; i++ {
		crow := c[i*n : i*n+n]
		for p := 0; p < k; p++ {
			av := a[i*k+p]
			for j, bv := range b[p*n : p*n+n] {
				crow[j] += av * bv
			}
		}
	}
}

func BenchmarkNaive(b *testing.B) {
	for _, size := range []int{64, 256} {
		b.Run(fmt.Sprintf("f32/%d", size), func(b *testing.B) {
			a, bb, c := ones[float32](size*size), ones[float32](size*size), make([]float32, size*size)
			for b.Loop() {
				naiveBlocked(size, size, size, a, bb, c)
			}
			b.ReportMetric(2*float64(size*size*size)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// benchBatch reports GFLOP/s of MulBatch over contiguous stacked matrices;
// shareB makes every B_i the same matrix (a broadcast batch).
func benchBatch(b *testing.B, batch, m, n, k int, shareB bool, threads int) {
	a := Matrix[float32]{ones[float32](batch * m * k), 0, k, 1}
	bb := Matrix[float32]{ones[float32](batch * k * n), 0, n, 1}
	c := Matrix[float32]{make([]float32, batch*m*n), 0, n, 1}
	aOffs, bOffs, cOffs := make([]int, batch), make([]int, batch), make([]int, batch)
	for i := range batch {
		aOffs[i], cOffs[i] = i*m*k, i*m*n
		if !shareB {
			bOffs[i] = i * k * n
		}
	}
	cpu := cpuSeconds()
	for b.Loop() {
		MulBatch(batch, m, n, k, a, bb, c, aOffs, bOffs, cOffs, Options{Threads: threads})
	}
	reportFlops(b, 2*float64(batch*m*n*k), cpu)
}

func BenchmarkMulBatch(b *testing.B) {
	for _, th := range []int{1, 2} {
		b.Run(fmt.Sprintf("f32/16384x8x8/t%d", th), func(b *testing.B) { benchBatch(b, 16384, 8, 8, 8, false, th) })
		b.Run(fmt.Sprintf("f32/512x64x64@64x64/t%d", th), func(b *testing.B) { benchBatch(b, 512, 64, 64, 64, true, th) })
		b.Run(fmt.Sprintf("f32/512x64x64@512x64x64/t%d", th), func(b *testing.B) { benchBatch(b, 512, 64, 64, 64, false, th) })
	}
}

// benchBatchStrided is benchBatch through MulBatchStrided.
func benchBatchStrided(b *testing.B, batch, m, n, k int, shareB bool, threads int) {
	a := Matrix[float32]{ones[float32](batch * m * k), 0, k, 1}
	bb := Matrix[float32]{ones[float32](batch * k * n), 0, n, 1}
	c := Matrix[float32]{make([]float32, batch*m*n), 0, n, 1}
	bStride := k * n
	if shareB {
		bStride = 0
	}
	cpu := cpuSeconds()
	for b.Loop() {
		MulBatchStrided(batch, m, n, k, a, bb, c, m*k, bStride, m*n, Options{Threads: threads})
	}
	reportFlops(b, 2*float64(batch*m*n*k), cpu)
}

func BenchmarkMulBatchStrided(b *testing.B) {
	for _, th := range []int{1, 2} {
		b.Run(fmt.Sprintf("f32/16384x8x8/t%d", th), func(b *testing.B) { benchBatchStrided(b, 16384, 8, 8, 8, false, th) })
		b.Run(fmt.Sprintf("f32/512x64x64@512x64x64/t%d", th), func(b *testing.B) { benchBatchStrided(b, 512, 64, 64, 64, false, th) })
	}
}

// BenchmarkMulBatchCold times 16384 8×8 products per call, as
// benchBatchStrided does, with C cycling through sixteen 4 MiB buffers as
// the storage pool's results do in a plain loop, so that it is in no cache:
// written in place and streamed (Options.Cold, smallCall.streamed).
func BenchmarkMulBatchCold(b *testing.B) {
	for _, cold := range []bool{false, true} {
		b.Run(fmt.Sprintf("f32/16384x8x8/cold=%v", cold), func(b *testing.B) { benchBatchCold[float32](b, 16384, 8, 16, cold) })
		b.Run(fmt.Sprintf("f64/16384x8x8/cold=%v", cold), func(b *testing.B) { benchBatchCold[float64](b, 16384, 8, 16, cold) })
	}
}

// benchBatchCold times a batch of s×s products on one goroutine, each call
// into the next of bufs result buffers, with Options.Cold set to cold.
func benchBatchCold[T Elem](b *testing.B, batch, s, bufs int, cold bool) {
	a := Matrix[T]{ones[T](batch * s * s), 0, s, 1}
	bb := Matrix[T]{ones[T](batch * s * s), 0, s, 1}
	cs := make([]Matrix[T], bufs)
	for i := range cs {
		cs[i] = Matrix[T]{make([]T, batch*s*s), 0, s, 1}
	}
	opt := Options{Threads: 1, Cold: cold}
	cpu := cpuSeconds()
	i := 0
	for b.Loop() {
		MulBatchStrided(batch, s, s, s, a, bb, cs[i%bufs], s*s, s*s, s*s, opt)
		i++
	}
	reportFlops(b, 2*float64(batch*s*s*s), cpu)
}

// BenchmarkMulComplex reports complex GFLOP/s counting 8 real flops per
// complex multiply-add, as NumPy's figures do.
func BenchmarkMulComplex(b *testing.B) {
	for _, size := range []int{256, 1024} {
		for _, th := range []int{1, 2} {
			b.Run(fmt.Sprintf("c64/%d/t%d", size, th), func(b *testing.B) {
				a := Matrix[complex64]{make([]complex64, size*size), 0, size, 1}
				c := Matrix[complex64]{make([]complex64, size*size), 0, size, 1}
				cpu := cpuSeconds()
				for b.Loop() {
					MulComplex(size, size, size, a, a, c, Options{Threads: th})
				}
				reportFlops(b, 8*float64(size*size*size), cpu)
			})
		}
	}
}

// BenchmarkMulTransposed times the three layouts of a backward pass at
// 512³ and 1024³ float32 beside the plain product: nn is A·B, tn is Aᵀ·B (A stored
// k×m, as in dB = Aᵀ·G) and nt is A·Bᵀ (B stored n×k, as in dA = G·Bᵀ).
func BenchmarkMulTransposed(b *testing.B) {
	for _, size := range []int{512, 1024} {
		benchMulTransposed(b, size)
	}
}

func benchMulTransposed(b *testing.B, size int) {
	for _, th := range []int{1, 2} {
		for _, layout := range []string{"nn", "tn", "nt", "tt"} {
			b.Run(fmt.Sprintf("f32/%d/%s/t%d", size, layout, th), func(b *testing.B) {
				x := Matrix[float32]{ones[float32](size * size), 0, size, 1}
				y := Matrix[float32]{ones[float32](size * size), 0, size, 1}
				if layout[0] == 't' {
					x = x.transpose()
				}
				if layout[1] == 't' {
					y = y.transpose()
				}
				c := Matrix[float32]{make([]float32, size*size), 0, size, 1}
				opt := Options{Threads: th}
				b.ResetTimer()
				cpu := cpuSeconds()
				for b.Loop() {
					Mul(size, size, size, x, y, c, opt)
				}
				reportFlops(b, 2*float64(size*size*size), cpu)
			})
		}
	}
}

// BenchmarkPackColumns packs a 1024² float32 Aᵀ (column-major) in the
// AVX-512 kernel's 144×344 blocks of 12-row slivers, the AVX2 kernel's
// 72×256 blocks of 6-row slivers and the Go twins' 128×256 of 4-row
// slivers: packColumnsFast's cases.
func BenchmarkPackColumns(b *testing.B) {
	const n = 1024
	for _, c := range []struct{ mc, kc, mr int }{{144, 344, 12}, {72, 256, 6}, {128, 256, 4}} {
		b.Run(fmt.Sprintf("mr%d", c.mr), func(b *testing.B) {
			a := Matrix[float32]{ones[float32](n * n), 0, n, 1}.transpose()
			dst := make([]float32, c.mc*c.kc)
			for b.Loop() {
				for i0 := 0; i0+c.mc <= n; i0 += c.mc {
					packA(dst, a, i0, c.mc, 0, c.kc, c.mr)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n/c.mc*c.mc*c.kc), "ns/elem")
		})
	}
}

// BenchmarkPackTransposed packs a 344×512 panel of a column-major float32
// B (A·Bᵀ) in 32-wide slivers: packTransposed's case.
func BenchmarkPackTransposed(b *testing.B) {
	const n, nc, kc = 1024, 512, 344
	bm := Matrix[float32]{ones[float32](n * n), 0, n, 1}.transpose()
	dst := make([]float32, nc*kc)
	for b.Loop() {
		packB(dst, bm, 0, kc, 0, nc, 32)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nc*kc), "ns/elem")
}

// BenchmarkPackPanel packs the B panels of a 1024² float32 B in the
// AVX-512 kernel's 344×512 blocks (a 1024³ product on two goroutines),
// sliver by sliver down the rows and row by row (panelPacking).
func BenchmarkPackPanel(b *testing.B) {
	const n, kc, nc, nr = 1024, 344, 512, 32
	bm := Matrix[float32]{ones[float32](n * n), 0, n, 1}
	dst := make([]float32, kc*nc)
	for _, rows := range []bool{false, true} {
		b.Run(fmt.Sprintf("rowByRow=%v", rows), func(b *testing.B) {
			saved := panelPacking
			panelPacking = rows
			defer func() { panelPacking = saved }()
			for b.Loop() {
				for p0 := 0; p0+kc <= n; p0 += kc {
					for j0 := 0; j0 < n; j0 += nc {
						packB(dst, bm, p0, kc, j0, nc, nr)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n/kc*kc*n), "ns/elem")
		})
	}
}

// BenchmarkMicroF32 times each kernel set's float32 micro-kernel alone,
// row after row of tiles over one packed B panel with A's sliver fixed:
// "l1" a kc 128 panel four tiles wide that stays in L1, "l2" the kernel's
// own kc×nc panel in L2. Against an FMA loop's peak (docs/kernels.md) this
// separates the kernel from the packing, blocking and threading around it.
func BenchmarkMicroF32(b *testing.B) {
	for _, v := range kernelSets.Variants() {
		benchMicro(b, v.Name(), v.K.f32)
	}
}

// BenchmarkMicroF64 is BenchmarkMicroF32 for the float64 kernels.
func BenchmarkMicroF64(b *testing.B) {
	for _, v := range kernelSets.Variants() {
		benchMicro(b, v.Name(), v.K.f64)
	}
}

func benchMicro[T Elem](b *testing.B, name string, k *kernel[T]) {
	for _, place := range []string{"l1", "l2"} {
		kc, nc := 128, 4*k.nr
		if place == "l2" {
			kc, nc = k.kc, k.nc
		}
		b.Run(name+"/"+place, func(b *testing.B) {
			ap := ones[T](k.mr * kc)
			bp := ones[T](kc * nc)
			c := make([]T, k.mr*nc)
			cpu := cpuSeconds()
			for b.Loop() {
				for jr := 0; jr < nc; jr += k.nr {
					k.micro(kc, &ap[0], &bp[jr*kc], &c[jr], nc, false)
				}
			}
			reportFlops(b, 2*float64(k.mr*nc*kc), cpu)
		})
	}
}

// BenchmarkDot4 times each kernel set's four-row dot helper over whole
// matrices, one goroutine, four rows a call as gemvRows makes them: rows
// of 384, 512 and 1024 elements (where the AVX2 helper prefetches the next
// call's rows, or just does not), and matrices from L2 (256²), L3 (1000×3000,
// 512×4096) and memory (4096²). Why the AVX2 helper reads four rows in one
// pass (docs/kernels.md, session 24).
func BenchmarkDot4(b *testing.B) {
	shapes := [][2]int{{256, 256}, {384, 384}, {512, 512}, {1024, 1024}, {1000, 3000}, {512, 4096}, {4096, 4096}}
	for _, v := range kernelSets.Variants() {
		for _, s := range shapes {
			m, k := s[0], s[1]
			b.Run(fmt.Sprintf("%s/f32/%dx%d", v.Name(), m, k), func(b *testing.B) { benchDot4(b, v.K.gemvF32.dot4, m, k) })
			b.Run(fmt.Sprintf("%s/f64/%dx%d", v.Name(), m, k), func(b *testing.B) { benchDot4(b, v.K.gemvF64.dot4, m, k) })
		}
	}
}

func benchDot4[T float32 | float64](b *testing.B, dot4 func(a []T, lda int, x []T, out *[4]T), m, k int) {
	a, x := ones[T](m*k), ones[T](k)
	var out [4]T
	b.SetBytes(int64(len(a)) * int64(unsafe.Sizeof(a[0])))
	for b.Loop() {
		for i := 0; i+4 <= m; i += 4 {
			dot4(a[i*k:], k, x, &out)
		}
	}
}

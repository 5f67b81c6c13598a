//go:build tune

// Tuning benchmarks, built only with -tags tune: block sizes of the AVX-512
// kernels, and whether batches of tiny products are bound by compute (a
// batch that fits L2) or by memory (16384 of them). Run with
//
//	go test -tags tune -run XXX -bench Tune
package gemm

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tensor-go/tensor/internal/scratch"
)

func BenchmarkTuneF64(b *testing.B) {
	for _, p := range [][3]int{{256, 96, 480}, {384, 96, 320}, {192, 96, 640}, {256, 48, 480}, {256, 192, 480}, {320, 96, 400}} {
		k := newKernel("t", 12, 16, p[0], p[1], p[2], avx512KernelF64.micro)
		k.withRowA(avx512KernelF64.microRowA, avx512KernelF64.microRowA4)
		b.Run(fmt.Sprint(p), func(b *testing.B) {
			saved := active.f64
			active.f64 = k
			defer func() { active.f64 = saved }()
			benchMul[float64](b, 1024, 1024, 1024, 1)
		})
	}
}

func BenchmarkTuneF32(b *testing.B) {
	for _, p := range [][3]int{{384, 144, 640}, {256, 144, 960}, {320, 144, 768}, {192, 144, 1280}, {256, 144, 480}} {
		k := newKernel("t", 12, 32, p[0], p[1], p[2], avx512KernelF32.micro)
		k.withRowA(avx512KernelF32.microRowA, avx512KernelF32.microRowA4)
		b.Run(fmt.Sprint(p), func(b *testing.B) {
			saved := active.f32
			active.f32 = k
			defer func() { active.f32 = saved }()
			benchMul[float32](b, 1024, 1024, 1024, 1)
		})
	}
}

func BenchmarkTuneSmall(b *testing.B) {
	b.Run("8x8x8", func(b *testing.B) { benchBatch(b, 16384, 8, 8, 8, false, 2) })
	b.Run("8x16x8", func(b *testing.B) { benchBatch(b, 16384, 8, 16, 8, false, 2) })
	b.Run("8x8x8-t1", func(b *testing.B) { benchBatchT(b, 16384, 8, 8, 8, 1) })
}

func benchBatchT(b *testing.B, batch, m, n, k, th int) {
	a := Matrix[float32]{ones[float32](batch * m * k), 0, k, 1}
	bb := Matrix[float32]{ones[float32](batch * k * n), 0, n, 1}
	c := Matrix[float32]{make([]float32, batch*m*n), 0, n, 1}
	aOffs, bOffs, cOffs := make([]int, batch), make([]int, batch), make([]int, batch)
	for i := range batch {
		aOffs[i], cOffs[i], bOffs[i] = i*m*k, i*m*n, i*k*n
	}
	for b.Loop() {
		MulBatch(batch, m, n, k, a, bb, c, aOffs, bOffs, cOffs, Options{Threads: th})
	}
	b.ReportMetric(2*float64(batch*m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

func BenchmarkTuneSmallHot(b *testing.B) {
	b.Run("1024x8x8x8-t1", func(b *testing.B) { benchBatchT(b, 1024, 8, 8, 8, 1) })
	b.Run("16384x8x8x8-t1", func(b *testing.B) { benchBatchT(b, 16384, 8, 8, 8, 1) })
}

func BenchmarkTuneCopy(b *testing.B) {
	src := make([]float32, 16384*64*3)
	dst := make([]float32, 16384*64*3)
	for b.Loop() {
		copy(dst, src)
	}
	b.ReportMetric(float64(len(src)*8)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}

// BenchmarkTunePackA measures packing a 144×384 block of a row-major A
// (2048 columns wide) into 12-row slivers.
func BenchmarkTunePackA(b *testing.B) {
	a := Matrix[float32]{ones[float32](2048 * 2048), 0, 2048, 1}
	dst := make([]float32, 144*384)
	for b.Loop() {
		packA(dst, a, 0, 144, 0, 384, 12)
	}
	b.ReportMetric(float64(144*384)*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gelem/s")
}

// BenchmarkTunePanels compares batches of small products computed in
// small-kernel column panels with the blocked path, to place
// maxSmallPanels and maxPanelWork.
func BenchmarkTunePanels(b *testing.B) {
	for _, s := range []int{12, 16, 20, 24, 32, 40, 48, 56, 64} {
		for _, panels := range []int{1, 8} {
			b.Run(fmt.Sprintf("f64/%d/panels%d", s, panels), func(b *testing.B) { benchPanels[float64](b, 65536/s/s*64, s, panels) })
			b.Run(fmt.Sprintf("f32/%d/panels%d", s, panels), func(b *testing.B) { benchPanels[float32](b, 65536/s/s*64, s, panels) })
			b.Run(fmt.Sprintf("f64/%d/one/panels%d", s, panels), func(b *testing.B) { benchPanels[float64](b, 1, s, panels) })
			b.Run(fmt.Sprintf("f32/%d/one/panels%d", s, panels), func(b *testing.B) { benchPanels[float32](b, 1, s, panels) })
		}
	}
}

func benchPanels[T float32 | float64](b *testing.B, batch, s, panels int) {
	old, oldA := maxSmallPanels, maxPanelA
	maxSmallPanels = panels
	maxPanelA = 1 << 30
	defer func() { maxSmallPanels, maxPanelA = old, oldA }()
	a := Matrix[T]{ones[T](batch * s * s), 0, s, 1}
	bb := Matrix[T]{ones[T](batch * s * s), 0, s, 1}
	c := Matrix[T]{make([]T, batch*s*s), 0, s, 1}
	aOffs, bOffs, cOffs := make([]int, batch), make([]int, batch), make([]int, batch)
	for i := range batch {
		aOffs[i], bOffs[i], cOffs[i] = i*s*s, i*s*s, i*s*s
	}
	for b.Loop() {
		MulBatch(batch, s, s, s, a, bb, c, aOffs, bOffs, cOffs, Options{Threads: 2})
	}
	b.ReportMetric(2*float64(batch*s*s*s)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkTuneStrips compares products whose last columns are fewer than
// a tile, with those columns through the small kernel and through padded
// tiles.
func BenchmarkTuneStrips(b *testing.B) {
	for _, s := range []int{40, 56, 100, 120, 200, 250, 500} {
		for _, strips := range []bool{false, true} {
			b.Run(fmt.Sprintf("f32/%d/strips=%v", s, strips), func(b *testing.B) {
				defer func(old bool) { smallStrips = old }(smallStrips)
				smallStrips = strips
				benchMul[float32](b, s, s, s, stripThreads)
			})
			b.Run(fmt.Sprintf("f64/%d/strips=%v", s, strips), func(b *testing.B) {
				defer func(old bool) { smallStrips = old }(smallStrips)
				smallStrips = strips
				benchMul[float64](b, s, s, s, stripThreads)
			})
		}
	}
}

// stripThreads is the goroutines BenchmarkTuneStrips gives each product.
var stripThreads = 1

// BenchmarkTuneVecMat times x·W (a column-major matrix-vector product) on
// one and two goroutines.
func BenchmarkTuneVecMat(b *testing.B) {
	for _, s := range []int{1024, 2048, 4096} {
		for _, th := range []int{1, 2} {
			b.Run(fmt.Sprintf("f32/%d/t%d", s, th), func(b *testing.B) { benchMul[float32](b, 1, s, s, th) })
			b.Run(fmt.Sprintf("f64/%d/t%d", s, th), func(b *testing.B) { benchMul[float64](b, 1, s, s, th) })
		}
	}
}

// BenchmarkTuneThreads compares one and two goroutines on the sizes where
// minFlopsPerThread starts splitting products.
func BenchmarkTuneThreads(b *testing.B) {
	for _, s := range []int{64, 80, 96, 112, 128, 160} {
		for _, th := range []int{1, 2} {
			b.Run(fmt.Sprintf("f32/%d/t%d", s, th), func(b *testing.B) { benchMul[float32](b, s, s, s, th) })
			b.Run(fmt.Sprintf("f64/%d/t%d", s, th), func(b *testing.B) { benchMul[float64](b, s, s, s, th) })
		}
	}
}

// BenchmarkTuneAVX2 times the AVX2 kernels' blocks ([kc mc nc]) at 1024³
// on one goroutine, reading A in place (the default) and packed ("/packA").
func BenchmarkTuneAVX2(b *testing.B) {
	run := func(name string, k32 *kernel[float32], k64 *kernel[float64], rowA bool) {
		if rowA {
			k32.withRowA(avx2KernelF32.microRowA, avx2KernelF32.microRowA4)
			k64.withRowA(avx2KernelF64.microRowA, avx2KernelF64.microRowA4)
		} else {
			name += "/packA"
		}
		for _, size := range []int{256, 1024, 2048} {
			b.Run(fmt.Sprintf("f32/%d/%s", size, name), func(b *testing.B) {
				saved := active.f32
				active.f32 = k32
				defer func() { active.f32 = saved }()
				benchMul[float32](b, size, size, size, 1)
			})
			b.Run(fmt.Sprintf("f64/%d/%s", size, name), func(b *testing.B) {
				saved := active.f64
				active.f64 = k64
				defer func() { active.f64 = saved }()
				benchMul[float64](b, size, size, size, 1)
			})
		}
	}
	for _, p := range [][3]int{{512, 120, 512}, {384, 144, 640}, {256, 168, 960}} {
		for _, rowA := range []bool{true} {
			k32 := newKernel("t", 6, 16, p[0], p[1], p[2], avx2KernelF32.micro)
			k64 := newKernel("t", 6, 8, p[0]/2*2, p[1], p[2], avx2KernelF64.micro)
			run(fmt.Sprint(p), k32, k64, rowA)
		}
	}
}

// BenchmarkTuneThreadsForced is BenchmarkTuneThreads with the threshold
// lifted, so that t2 really splits every product.
func BenchmarkTuneThreadsForced(b *testing.B) {
	saved := active.minFlopsPerThread
	active.minFlopsPerThread = 1
	defer func() { active.minFlopsPerThread = saved }()
	for _, s := range []int{48, 64, 80, 88, 96, 100, 112} {
		for _, th := range []int{1, 2} {
			b.Run(fmt.Sprintf("f32/%d/t%d", s, th), func(b *testing.B) { benchMul[float32](b, s, s, s, th) })
			b.Run(fmt.Sprintf("f64/%d/t%d", s, th), func(b *testing.B) { benchMul[float64](b, s, s, s, th) })
		}
	}
}

// BenchmarkTuneOdd times odd sizes on one goroutine, to compare their
// GFLOP per CPU-second with the even ones' (edge tiles, strips, blocks).
func BenchmarkTuneOdd(b *testing.B) {
	for _, s := range [][3]int{{100, 100, 100}, {127, 129, 65}, {384, 384, 384}, {1000, 1000, 1000}, {1024, 1024, 1024}, {1000, 64, 1000}} {
		b.Run(fmt.Sprintf("f32/%dx%dx%d", s[0], s[1], s[2]), func(b *testing.B) { benchMul[float32](b, s[0], s[1], s[2], 1) })
		b.Run(fmt.Sprintf("f64/%dx%dx%d", s[0], s[1], s[2]), func(b *testing.B) { benchMul[float64](b, s[0], s[1], s[2], 1) })
	}
}

// BenchmarkTunePieces times matrix-vector products of few, long rows
// (gemvPieces) on two goroutines.
func BenchmarkTunePieces(b *testing.B) {
	for _, s := range [][2]int{{64, 100000}, {8, 1 << 18}, {1, 1 << 20}, {3, 150000}, {64, 16384}, {16, 40000}} {
		b.Run(fmt.Sprintf("f64/%dx%d", s[0], s[1]), func(b *testing.B) { benchMul[float64](b, s[0], 1, s[1], 2) })
		b.Run(fmt.Sprintf("f32/%dx%d", s[0], s[1]), func(b *testing.B) { benchMul[float32](b, s[0], 1, s[1], 2) })
	}
}

// BenchmarkTuneCuts times each range of a two-goroutine cut of C alone,
// one after the other (best of 400 each), and reports the busiest
// goroutine's time with the ranges claimed in order, for the cut before
// split.go (a wide C's column ranges dividing n, strip included, in whole
// tiles; a tall C's eight ranges of whole slivers) and for split.go's, so
// that the cuts compare without the noise of a second core.
func BenchmarkTuneCuts(b *testing.B) {
	for _, s := range [][3]int{{96, 96, 96}, {100, 100, 100}, {112, 112, 112}, {127, 129, 65}, {128, 128, 128}, {160, 160, 160}, {200, 200, 200},
		{256, 64, 64}, {1000, 100, 100}, {2000, 100, 100}} {
		b.Run(fmt.Sprintf("f32/%dx%dx%d", s[0], s[1], s[2]), func(b *testing.B) { benchCuts[float32](b, s[0], s[1], s[2]) })
		b.Run(fmt.Sprintf("f64/%dx%dx%d", s[0], s[1], s[2]), func(b *testing.B) { benchCuts[float64](b, s[0], s[1], s[2]) })
	}
}

func benchCuts[T Elem](b *testing.B, m, n, k int) {
	a := Matrix[T]{ones[T](m * k), 0, k, 1}
	bb := Matrix[T]{ones[T](k * n), 0, n, 1}
	c := Matrix[T]{make([]T, m*n), 0, n, 1}
	j, _ := plan(kernelFor[T](), m, n, k, a, bb, c, Options{Threads: 2})
	var old, cut [][4]int
	rows := func(step int) (r [][4]int) {
		for i0 := 0; i0 < m; i0 += step {
			r = append(r, [4]int{i0, min(i0+step, m), 0, n})
		}
		return r
	}
	if m > n {
		// Tall: eight ranges of whole slivers against splitTall's.
		old = rows(roundUp(ceilDiv(m, 2*partsPerThread), j.kern.mr))
		cut = rows(roundUp(ceilDiv(m, 2*max(1, min(partsPerThread, m/(minPartRows*2)))), 4))
		for b.Loop() {
			b.ReportMetric(busiestOf(&j, old).Seconds()*1e6, "old-µs")
			b.ReportMetric(busiestOf(&j, cut).Seconds()*1e6, "cut-µs")
		}
		return
	}
	byN := roundUp(ceilDiv(n, 2), j.kern.nr)
	for j0 := 0; j0 < n; j0 += byN {
		old = append(old, [4]int{0, m, j0, min(j0+byN, n)})
	}
	step, parts, cols := j.columnCut(2)
	if j.rowShare(2)+rowSplitCost < cols {
		cut = rows(roundUp(ceilDiv(m, 2), 4))
	} else {
		for i := range parts {
			cut = append(cut, [4]int{0, m, i * step, min((i+1)*step, n)})
		}
		cut[parts-1][3] = n
	}
	for b.Loop() {
		b.ReportMetric(busiestOf(&j, old).Seconds()*1e6, "old-µs")
		b.ReportMetric(busiestOf(&j, cut).Seconds()*1e6, "cut-µs")
	}
}

// busiestOf times each range of rs alone and returns the busiest of two
// goroutines claiming them in order.
func busiestOf[T Elem](j *job[T], rs [][4]int) time.Duration {
	best := make([]time.Duration, len(rs))
	for i := range best {
		best[i] = time.Hour
	}
	for range 400 {
		for i, r := range rs {
			t := time.Now()
			j.runPooled(r[0], r[1], r[2], r[3])
			best[i] = min(best[i], time.Since(t))
		}
	}
	var g [2]time.Duration
	for _, d := range best {
		if g[0] <= g[1] {
			g[0] += d
		} else {
			g[1] += d
		}
	}
	return max(g[0], g[1])
}

// withBlocks returns a copy of k with blocks kc, mc and nc as given (not
// scaled to the caches) and its own workspaces.
func withBlocks[T Elem](k *kernel[T], kc, mc, nc int) *kernel[T] {
	c := *k
	c.kc, c.mc, c.nc = kc, mc, nc
	c.spare = &scratch.List[workspace[T]]{New: func() *workspace[T] {
		return &workspace[T]{a: make([]T, mc*kc), b: make([]T, kc*nc), tile: make([]T, c.mr*c.nr)}
	}}
	return &c
}

// BenchmarkTuneAVX2Blocks times the AVX2 kernels at 1024³ and 2048³ with
// the blocks of TUNE_BLOCKS ("kc,mc,nc;kc,mc,nc", as used, not scaled),
// beside the set's own ("set"), on TUNE_THREADS goroutines (1); TUNE_SET
// avx512 times the AVX-512 kernels instead.
func BenchmarkTuneAVX2Blocks(b *testing.B) {
	threads := 1
	if s := os.Getenv("TUNE_THREADS"); s != "" {
		threads, _ = strconv.Atoi(s)
	}
	type blocks struct{ kc, mc, nc int }
	list := []blocks{{}}
	for _, f := range strings.Split(os.Getenv("TUNE_BLOCKS"), ";") {
		var p blocks
		if _, err := fmt.Sscanf(f, "%d,%d,%d", &p.kc, &p.mc, &p.nc); err == nil {
			list = append(list, p)
		}
	}
	sizes := []int{1024, 2048}
	if s := os.Getenv("TUNE_SIZES"); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			v, _ := strconv.Atoi(f)
			sizes = append(sizes, v)
		}
	}
	for _, size := range sizes {
		for _, p := range list {
			k32, k64, name := avx2KernelF32, avx2KernelF64, "set"
			if os.Getenv("TUNE_SET") == "avx512" {
				k32, k64 = avx512KernelF32, avx512KernelF64
			}
			if p.kc > 0 {
				k32, k64 = withBlocks(k32, p.kc, p.mc, p.nc), withBlocks(k64, p.kc, p.mc, p.nc)
				name = fmt.Sprint(p.kc, "x", p.mc, "x", p.nc)
			}
			b.Run(fmt.Sprintf("f32/%d/%s", size, name), func(b *testing.B) {
				saved := active.f32
				active.f32 = k32
				defer func() { active.f32 = saved }()
				benchMul[float32](b, size, size, size, threads)
			})
			b.Run(fmt.Sprintf("f64/%d/%s", size, name), func(b *testing.B) {
				saved := active.f64
				active.f64 = k64
				defer func() { active.f64 = saved }()
				benchMul[float64](b, size, size, size, threads)
			})
		}
	}
}

// BenchmarkTuneGemvShapes times A·x for row-major A of the sweep's shapes,
// whose K is not a multiple of dot4's step (3000 leaves 24), on one
// goroutine and two.
func BenchmarkTuneGemvShapes(b *testing.B) {
	for _, s := range [][2]int{{1000, 3000}, {384, 384}, {4096, 4096}} {
		for _, th := range []int{1, 2} {
			b.Run(fmt.Sprintf("f32/%dx%d/t%d", s[0], s[1], th), func(b *testing.B) { benchMul[float32](b, s[0], 1, s[1], th) })
			b.Run(fmt.Sprintf("f64/%dx%d/t%d", s[0], s[1], th), func(b *testing.B) { benchMul[float64](b, s[0], 1, s[1], th) })
		}
	}
}

// BenchmarkTuneAVX2Unscaled times the AVX2 kernels at 1024³ and 2048³ on
// one goroutine with the blocks given unscaled (kc-mc-nc), reading A in
// place: the blocks scaled to a small L2 (the first) against larger ones.
func BenchmarkTuneAVX2Unscaled(b *testing.B) {
	f32 := [][3]int{{336, 42, 192}, {512, 120, 512}, {336, 120, 512}, {256, 72, 2048}, {256, 144, 4080}, {336, 72, 1024}, {384, 96, 1024}}
	f64 := [][3]int{{168, 42, 192}, {256, 120, 512}, {168, 120, 512}, {256, 72, 2048}, {256, 72, 1024}, {192, 96, 1024}, {128, 72, 2048}}
	for _, size := range []int{1024, 2048} {
		for i := range f32 {
			p, q := f32[i], f64[i]
			k32 := newKernelBlocks("t", 6, 16, p[0], p[1], p[2], avx2KernelF32.micro).withRowA(avx2KernelF32.microRowA, avx2KernelF32.microRowA4)
			k64 := newKernelBlocks("t", 6, 8, q[0], q[1], q[2], avx2KernelF64.micro).withRowA(avx2KernelF64.microRowA, avx2KernelF64.microRowA4)
			b.Run(fmt.Sprintf("f32/%d/%d-%d-%d", size, p[0], p[1], p[2]), func(b *testing.B) {
				defer func(saved *kernel[float32]) { active.f32 = saved }(active.f32)
				active.f32 = k32
				benchMul[float32](b, size, size, size, 1)
			})
			b.Run(fmt.Sprintf("f64/%d/%d-%d-%d", size, q[0], q[1], q[2]), func(b *testing.B) {
				defer func(saved *kernel[float64]) { active.f64 = saved }(active.f64)
				active.f64 = k64
				benchMul[float64](b, size, size, size, 1)
			})
		}
	}
}

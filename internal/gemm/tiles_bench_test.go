package gemm

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkMulBF16 times bfloat16 products through MulHalf on the active
// set (tiles where it has them), through the widening path and, where the
// processor has VDPBF16PS, through that kernel ("dp", whether or not the
// set takes it: dpFasterOn is decided from this), A/B in one run since the
// machine is shared.
func BenchmarkMulBF16(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{16, 24, 32, 64, 256, 1024, 2048} {
		m, n, k := size, size, size
		a, bb := Matrix[uint16]{randomBF16(rng, m*k), 0, k, 1}, Matrix[uint16]{randomBF16(rng, k*n), 0, n, 1}
		c := Matrix[float32]{make([]float32, m*n), 0, n, 1}
		for _, path := range []string{"active", "widen", "dp"} {
			if path == "dp" && (dpAsmKernel == nil || dpAsmKernel.kc != active.f32.kc) {
				continue
			}
			for _, threads := range []int{1, 2} {
				b.Run(fmt.Sprintf("%d/%s/threads=%d", size, path, threads), func(b *testing.B) {
					switch path {
					case "widen":
						defer func(k *tileKernel) { active.bf16 = k }(active.bf16)
						active.bf16 = nil
					case "dp":
						defer func(k *tileKernel) { active.bf16 = k }(active.bf16)
						active.bf16 = dpAsmKernel
					}
					cpu := cpuSeconds()
					for b.Loop() {
						MulHalf(BFloat16, m, n, k, a, bb, c, Options{Threads: threads})
					}
					reportFlops(b, 2*float64(m)*float64(n)*float64(k), cpu)
				})
			}
		}
	}
}

// BenchmarkTileBlocks times the active set's tile kernel under other block
// sizes (kc, mc, nc), one goroutine, to choose its blocking.
func BenchmarkTileBlocks(b *testing.B) {
	if active.bf16 == nil {
		b.Skip("no tile kernel in the active set")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{1024, 2048} {
		m, n, k := size, size, size
		a, bb := Matrix[uint16]{randomBF16(rng, m*k), 0, k, 1}, Matrix[uint16]{randomBF16(rng, k*n), 0, n, 1}
		c := Matrix[float32]{make([]float32, m*n), 0, n, 1}
		for _, bl := range [][3]int{{256, 256, 1024}, {512, 256, 1024}, {512, 128, 512}, {1024, 128, 512}, {1024, 256, 256}, {2048, 64, 256}, {384, 128, 512}, {384, 64, 512}, {384, 128, 1024}, {384, 64, 1024}, {384, 32, 1024}, {384, 256, 1024}} {
			kern := newTileKernel("tune", bl[0], bl[1], bl[2], active.bf16.tiles, active.bf16.pack, active.bf16.minFlopsPerThread)
			kern.kUnit, kern.prepare = active.bf16.kUnit, active.bf16.prepare
			b.Run(fmt.Sprintf("%d/kc=%d,mc=%d,nc=%d", size, bl[0], bl[1], bl[2]), func(b *testing.B) {
				cpu := cpuSeconds()
				for b.Loop() {
					mulTiles(kern, m, n, k, a, bb, c, 1)
				}
				reportFlops(b, 2*float64(m)*float64(n)*float64(k), cpu)
			})
		}
	}
}

// BenchmarkMulBF16Tiles times MulBF16Tiles (bfloat16 C rounded in the
// kernel) for the operand layouts of A·B, A·Bᵀ, Aᵀ·B and Aᵀ·Bᵀ, C and the
// partial sums reused, to see packing's share apart from page faults.
func BenchmarkMulBF16Tiles(b *testing.B) {
	if active.bf16 == nil {
		b.Skip("no tile kernel in the active set")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{256, 512, 1024} {
		m, n, k := size, size, size
		a, bb := Matrix[uint16]{randomBF16(rng, m*k), 0, k, 1}, Matrix[uint16]{randomBF16(rng, k*n), 0, n, 1}
		c := Matrix[uint16]{make([]uint16, m*n), 0, n, 1}
		np, _ := BF16Tiles(m, n, k)
		partial := make([]float32, np)
		for _, lay := range []string{"ab", "abT", "aTb", "aTbT"} {
			x, y := a, bb
			if lay == "aTb" || lay == "aTbT" {
				x = x.transpose() // a square matrix read as its transpose
			}
			if lay == "abT" || lay == "aTbT" {
				y = y.transpose()
			}
			for _, threads := range []int{1, 2} {
				b.Run(fmt.Sprintf("%d/%s/threads=%d", size, lay, threads), func(b *testing.B) {
					cpu := cpuSeconds()
					for b.Loop() {
						MulBF16Tiles(m, n, k, x, y, c, partial, Options{Threads: threads})
					}
					reportFlops(b, 2*float64(m)*float64(n)*float64(k), cpu)
				})
			}
		}
	}
}

package gemm

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkMulFloat16 times float16 products (widened to float32 while
// packed: there is no float16 dot product without AVX512-FP16) beside
// float32 products of the same shape, one goroutine, in one run since the
// machine is shared: what the widening costs over the float32 kernel.
func BenchmarkMulFloat16(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, size := range []int{64, 256, 1024} {
		m, n, k := size, size, size
		h := func(n int) []uint16 {
			s := make([]uint16, n)
			for i := range s {
				s[i] = 0x3c00 | uint16(rng.IntN(1024)) | uint16(rng.IntN(2))<<15 // ±[1, 2)
			}
			return s
		}
		a, bb := Matrix[uint16]{h(m * k), 0, k, 1}, Matrix[uint16]{h(k * n), 0, n, 1}
		af, bf := Matrix[float32]{ones[float32](m * k), 0, k, 1}, Matrix[float32]{ones[float32](k * n), 0, n, 1}
		c := Matrix[float32]{make([]float32, m*n), 0, n, 1}
		for _, path := range []string{"float16", "float32"} {
			b.Run(fmt.Sprintf("%d/%s", size, path), func(b *testing.B) {
				cpu := cpuSeconds()
				for b.Loop() {
					if path == "float16" {
						MulHalf(Float16, m, n, k, a, bb, c, Options{Threads: 1})
					} else {
						Mul(m, n, k, af, bf, c, Options{Threads: 1})
					}
				}
				reportFlops(b, 2*float64(m)*float64(n)*float64(k), cpu)
			})
		}
	}
}

//go:build tune

package gemm

import (
	"fmt"
	"testing"
)

func BenchmarkTuneF64(b *testing.B) {
	for _, p := range [][3]int{{256, 96, 480}, {384, 96, 320}, {192, 96, 640}, {256, 48, 480}, {256, 192, 480}, {320, 96, 400}} {
		k := newKernel("t", 12, 16, p[0], p[1], p[2], avx512KernelF64.micro)
		k.microRowA = avx512KernelF64.microRowA
		b.Run(fmt.Sprint(p), func(b *testing.B) {
			saved := kernelF64
			kernelF64 = k
			defer func() { kernelF64 = saved }()
			benchMul[float64](b, 1024, 1024, 1024, 1)
		})
	}
}

func BenchmarkTuneF32(b *testing.B) {
	for _, p := range [][3]int{{384, 144, 640}, {256, 144, 960}, {512, 144, 480}, {384, 72, 640}, {384, 288, 640}} {
		k := newKernel("t", 12, 32, p[0], p[1], p[2], avx512KernelF32.micro)
		k.microRowA = avx512KernelF32.microRowA
		b.Run(fmt.Sprint(p), func(b *testing.B) {
			saved := kernelF32
			kernelF32 = k
			defer func() { kernelF32 = saved }()
			benchMul[float32](b, 2048, 2048, 2048, 1)
		})
	}
}

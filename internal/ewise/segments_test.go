package ewise

import (
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
)

func benchSegments(b *testing.B, k SegmentsKernel, x unsafe.Pointer, xsize, accSize, n, seg int) {
	acc := make([]byte, n*accSize)
	b.SetBytes(int64(n * seg * xsize))
	for range b.N {
		k(unsafe.Pointer(&acc[0]), x, accSize, seg*xsize, n, seg, xsize)
	}
}

func BenchmarkSegmentsKernel(b *testing.B) {
	const n, seg = 1 << 16, 3
	c64 := make([]complex64, n*seg)
	f32 := make([]float32, n*seg)
	bf := make([]uint16, n*seg)
	for i := range c64 {
		c64[i], f32[i], bf[i] = complex(1.0001, 0.0001), 1.0001, 0x3f80
	}
	b.Run("prod/complex64", func(b *testing.B) {
		benchSegments(b, Prod.Segments(dtype.Complex64), unsafe.Pointer(&c64[0]), 8, 16, n, seg)
	})
	b.Run("sum/float32", func(b *testing.B) {
		benchSegments(b, Sum.Segments(dtype.Float32), unsafe.Pointer(&f32[0]), 4, 8, n, seg)
	})
	b.Run("prod/float32", func(b *testing.B) {
		benchSegments(b, Prod.Segments(dtype.Float32), unsafe.Pointer(&f32[0]), 4, 8, n, seg)
	})
	b.Run("sum/bfloat16", func(b *testing.B) {
		benchSegments(b, Sum.Segments(dtype.BFloat16), unsafe.Pointer(&bf[0]), 2, 8, n, seg)
	})
}

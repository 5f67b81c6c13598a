package cast

import (
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
)

// BenchmarkRun measures contiguous runs of 64Ki elements (in L2), bytes
// counted as read plus written; "memmove" is the same-size copy for scale.
func BenchmarkRun(b *testing.B) {
	const n = 1 << 16
	pairs := []struct{ to, from dtype.DType }{
		{dtype.Float32, dtype.Float32}, {dtype.Float32, dtype.Int32}, {dtype.Float64, dtype.Float32},
		{dtype.Float32, dtype.Float64}, {dtype.Int32, dtype.Float64}, {dtype.Int64, dtype.Int8},
		{dtype.Float32, dtype.Float16}, {dtype.Float16, dtype.Float32}, {dtype.Float32, dtype.BFloat16},
		{dtype.BFloat16, dtype.Float32}, {dtype.Float16, dtype.Float64}, {dtype.BFloat16, dtype.Int64},
		{dtype.Complex64, dtype.Float32}, {dtype.Float64, dtype.Complex128}, {dtype.Bool, dtype.Float32},
	}
	for _, p := range pairs {
		src := words(n * p.from.Size())
		dst := words(n * p.to.Size())
		b.Run(p.from.String()+"_to_"+p.to.String(), func(b *testing.B) {
			b.SetBytes(int64(n * (p.from.Size() + p.to.Size())))
			for b.Loop() {
				Run(unsafe.Pointer(&dst[0]), p.to, p.to.Size(), unsafe.Pointer(&src[0]), p.from, p.from.Size(), n)
			}
		})
	}
	src := words(n * 8)
	dst := words(n * 8)
	b.Run("strided_float32_to_float64", func(b *testing.B) {
		b.SetBytes(int64(n / 2 * 12))
		for b.Loop() {
			Run(unsafe.Pointer(&dst[0]), dtype.Float64, 8, unsafe.Pointer(&src[0]), dtype.Float32, 8, n/2)
		}
	})
	b.Run("strided_float32_to_float16", func(b *testing.B) {
		b.SetBytes(int64(n / 2 * 6))
		for b.Loop() {
			Run(unsafe.Pointer(&dst[0]), dtype.Float16, 2, unsafe.Pointer(&src[0]), dtype.Float32, 8, n/2)
		}
	})
	b.Run("short_runs_float16_to_float32", func(b *testing.B) { // staging overhead
		b.SetBytes(int64(n * 6))
		for b.Loop() {
			for i := 0; i < n; i += 8 {
				Run(unsafe.Pointer(&dst[i*4]), dtype.Float32, 4, unsafe.Pointer(&src[i*2]), dtype.Float16, 2, 8)
			}
		}
	})
	b.Run("short_runs_int64_to_float16", func(b *testing.B) { // staged: pool per call
		b.SetBytes(int64(n * 10))
		for b.Loop() {
			for i := 0; i < n/2; i += 8 {
				Run(unsafe.Pointer(&dst[i*2]), dtype.Float16, 2, unsafe.Pointer(&src[i*8]), dtype.Int64, 8, 8)
			}
		}
	})
}

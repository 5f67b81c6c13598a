package gonum

import (
	"fmt"
	"testing"

	"github.com/tensor-go/tensor"
	"gonum.org/v1/gonum/blas"
	gonumblas "gonum.org/v1/gonum/blas/gonum"
)

// BenchmarkGemm1024 times a 1024³ product through tensor.Matmul beside
// gonum's own Sgemm and Dgemm on the same data, plain loops with a new
// tensor result each call (gonum writes into one C). Issue 15's pure-Go
// target compares them built with -tags purego,noasm (gonum in pure Go, as
// on arm64, and the library's Go twins): tensor at least 1.5× gonum.
func BenchmarkGemm1024(b *testing.B) {
	const n = 1024
	impl := gonumblas.Implementation{}
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
		x, err := tensor.Rand(1, dt, -1, 1, n, n)
		if err != nil {
			b.Fatal(err)
		}
		y, err := tensor.Rand(2, dt, -1, 1, n, n)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%v/tensor", dt), func(b *testing.B) {
			for b.Loop() {
				if _, err := tensor.Matmul(x, y); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(2*n*n*n*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(fmt.Sprintf("%v/gonum", dt), func(b *testing.B) {
			if dt == tensor.Float32 {
				xs, ys, zs := elements[float32](b, x), elements[float32](b, y), make([]float32, n*n)
				for b.Loop() {
					impl.Sgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, xs, n, ys, n, 0, zs, n)
				}
			} else {
				xs, ys, zs := elements[float64](b, x), elements[float64](b, y), make([]float64, n*n)
				for b.Loop() {
					impl.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, xs, n, ys, n, 0, zs, n)
				}
			}
			b.ReportMetric(2*n*n*n*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

func elements[T float32 | float64](b *testing.B, t *tensor.Tensor) []T {
	s, err := tensor.ToSlice[T](t)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

package autograd

import (
	"testing"

	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/internal/storage"
)

// Each benchmark pairs a forward with the backward of the same operation,
// so that their ratio comes from one run (go test -bench . -count 5 and
// compare alternately; the targets are backward/forward ≤ 2.3 for matmul,
// ≤ 3 for a broadcasting mul, ≤ 4 for prod over one axis).

func benchRand(b *testing.B, seed uint64, shape ...int) *tensor.Tensor {
	x, err := tensor.Rand(seed, tensor.Float32, 0.5, 1.5, shape...)
	if err != nil {
		b.Fatal(err)
	}
	return x
}

// benchPair runs forward as the "forward" sub-benchmark and a VJP of its
// recorded result with respect to every input as "backward".
func benchPair(b *testing.B, inputs []*tensor.Tensor, f func(tp *Tape) (*tensor.Tensor, error)) {
	b.Run("forward", func(b *testing.B) {
		cpu := cpuSeconds()
		for range b.N {
			if _, err := f(nil); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, cpu)
	})
	b.Run("backward", func(b *testing.B) {
		tp := New()
		out, err := f(tp)
		if err != nil {
			b.Fatal(err)
		}
		seed := benchRand(b, 99, out.Shape()...)
		b.ResetTimer()
		cpu, pages := cpuSeconds(), storage.ReadStats().Populated
		for range b.N {
			if _, err := tp.VJP([]*tensor.Tensor{out}, []*tensor.Tensor{seed}, inputs); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, cpu)
		// Pages of fresh (or returned) memory mapped for streamed
		// gradients: a plain loop's results come from the pool or not,
		// which moves the backward's CPU time by more than its kernels.
		b.ReportMetric(float64(storage.ReadStats().Populated-pages)/float64(b.N), "mapped-pages/op")
	})
}

// reportCPU reports the process's CPU time per call since cpu (the
// machine is shared: descheduled time inflates wall time, not CPU time).
func reportCPU(b *testing.B, cpu float64) {
	if now := cpuSeconds(); now > 0 {
		b.ReportMetric((now-cpu)*1e9/float64(b.N), "cpu-ns/op")
	}
}

func BenchmarkMatmul1024(b *testing.B) {
	x, y := benchRand(b, 1, 1024, 1024), benchRand(b, 2, 1024, 1024)
	benchPair(b, []*tensor.Tensor{x, y}, func(tp *Tape) (*tensor.Tensor, error) { return tp.Matmul(x, y) })
}

func BenchmarkMulBroadcast(b *testing.B) {
	x, y := benchRand(b, 3, 2048, 2048), benchRand(b, 4, 2048)
	benchPair(b, []*tensor.Tensor{x, y}, func(tp *Tape) (*tensor.Tensor, error) { return tp.Mul(x, y) })
}

// BenchmarkBroadcastPatterns: the other broadcasts users write, each of
// 4M float32 products (a bias is BenchmarkMulBroadcast), and Add's
// backward, whose gradients are sums only.
func BenchmarkBroadcastPatterns(b *testing.B) {
	cases := []struct {
		name string
		x, y []int
		add  bool
	}{
		{"column", []int{2048, 2048}, []int{2048, 1}, false},
		{"scalar", []int{2048, 2048}, []int{}, false},
		{"outer", []int{2048, 1}, []int{1, 2048}, false},
		{"batch", []int{8, 512, 1024}, []int{512, 1024}, false},
		{"addbias", []int{2048, 2048}, []int{2048}, true},
		{"addcolumn", []int{2048, 2048}, []int{2048, 1}, true},
	}
	for _, c := range cases {
		x, y := benchRand(b, 3, c.x...), benchRand(b, 4, c.y...)
		b.Run(c.name, func(b *testing.B) {
			benchPair(b, []*tensor.Tensor{x, y}, func(tp *Tape) (*tensor.Tensor, error) {
				if c.add {
					return tp.Add(x, y)
				}
				return tp.Mul(x, y)
			})
		})
	}
}

func BenchmarkProd4096(b *testing.B) {
	// Values near 1 keep the products of 4096 of them finite.
	x, err := tensor.Rand(5, tensor.Float32, 0.999, 1.001, 4096, 4096)
	if err != nil {
		b.Fatal(err)
	}
	for _, axis := range []int{0, 1} {
		b.Run([]string{"axis0", "axis1"}[axis], func(b *testing.B) {
			benchPair(b, []*tensor.Tensor{x}, func(tp *Tape) (*tensor.Tensor, error) { return tp.Prod(x, tensor.Axis(axis)) })
		})
	}
}

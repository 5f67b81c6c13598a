package tensor

import "testing"

// The element-wise operations on the mul/ shapes of bench/workloads.json,
// and the reductions on the prod/ shapes, side by side in one benchmark so
// that their ratios come from one run (Add and Sum are to be within 10% of
// Mul and Prod): go test -run X -bench Pairs -count 5, compare the best of
// each. Each op's sub-benchmarks are adjacent, shape by shape.
func BenchmarkElementwisePairs(b *testing.B) {
	at := mpBenchRand(b, 1, Float32, 4096, 4096)
	shapes := []struct {
		name string
		x, y *Tensor
	}{
		{"contig16M-f32", mpBenchRand(b, 1, Float32, n16M), mpBenchRand(b, 2, Float32, n16M)},
		{"contig16M-f64", mpBenchRand(b, 1, Float64, n16M), mpBenchRand(b, 2, Float64, n16M)},
		{"contig16M-i32", mpBenchRand(b, 1, Int32, n16M), mpBenchRand(b, 2, Int32, n16M)},
		{"outer4096", mpBenchRand(b, 1, Float32, 4096, 1), mpBenchRand(b, 2, Float32, 1, 4096)},
		{"rowbcast4096", mpBenchRand(b, 1, Float32, 4096, 4096), mpBenchRand(b, 2, Float32, 4096)},
		{"transposed4096", at.Transpose(), mpBenchRand(b, 2, Float32, 4096, 4096)},
		{"promote16M", mpBenchRand(b, 1, Float32, n16M), mpBenchRand(b, 2, Int32, n16M)},
	}
	ops := []struct {
		name string
		f    func(x, y any) (*Tensor, error)
	}{{"mul", Mul}, {"add", Add}, {"sub", Sub}}
	for _, s := range shapes {
		for _, op := range ops {
			b.Run(s.name+"/"+op.name, func(b *testing.B) {
				for range b.N {
					if _, err := op.f(s.x, s.y); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkReductionPairs(b *testing.B) {
	shapes := []struct {
		name string
		x    *Tensor
		opts []ReduceOption
	}{
		{"all16M-f32", mpBenchRand(b, 1, Float32, n16M), nil},
		{"axis0-4096-f32", mpBenchRand(b, 1, Float32, 4096, 4096), []ReduceOption{Axis(0)}},
		{"axis1-4096-f32", mpBenchRand(b, 1, Float32, 4096, 4096), []ReduceOption{Axis(1)}},
		{"all16M-i32", mpBenchRand(b, 1, Int32, n16M), nil},
		{"axes02-256-f64", mpBenchRand(b, 1, Float64, 256, 256, 256), []ReduceOption{Axis(0, 2)}},
	}
	ops := []struct {
		name string
		f    func(x *Tensor, opts ...ReduceOption) (*Tensor, error)
	}{{"prod", Prod}, {"sum", Sum}}
	for _, s := range shapes {
		for _, op := range ops {
			b.Run(s.name+"/"+op.name, func(b *testing.B) {
				for range b.N {
					if _, err := op.f(s.x, s.opts...); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

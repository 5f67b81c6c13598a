package tensor

import (
	"fmt"
	"testing"

	"github.com/tensor-go/tensor/dtype"
)

// The sweep: shapes beyond the benchmark suite's workloads, which hidden
// workloads measure too (odd and small sizes, tiny calls where per-call
// cost decides, transposed operands, vector-matrix and other matrix-vector
// shapes, broadcast and tiny batches, float64, complex64, int8, bfloat16,
// short reduction axes). Each is a plain loop dropping its result, as
// users and the peers' runner call the library; compare kernel sets with
// TENSOR_KERNELS=avx2 or generic and -count=1, and benchstat.

// sweepMatmul is one matrix product of the sweep: operand shapes, dtype,
// and whether each operand is the transposed view of a stored matrix.
type sweepMatmul struct {
	as, bs []int
	dt     dtype.DType
	ta, tb bool
}

func (s sweepMatmul) name() string {
	t := func(sh []int, tr bool) string {
		n := fmt.Sprint(sh)
		if tr {
			n += "T"
		}
		return n
	}
	return fmt.Sprintf("%v/%s@%s", s.dt, t(s.as, s.ta), t(s.bs, s.tb))
}

var sweepMatmuls = []sweepMatmul{
	// odd and medium sizes
	{as: []int{100, 100}, bs: []int{100, 100}, dt: Float32},
	{as: []int{384, 384}, bs: []int{384, 384}, dt: Float32},
	{as: []int{1000, 1000}, bs: []int{1000, 1000}, dt: Float32},
	{as: []int{100, 100}, bs: []int{100, 100}, dt: Float64},
	{as: []int{384, 384}, bs: []int{384, 384}, dt: Float64},
	{as: []int{127, 65}, bs: []int{65, 129}, dt: Float32},
	// tiny calls
	{as: []int{4, 4}, bs: []int{4, 4}, dt: Float32},
	{as: []int{16, 16}, bs: []int{16, 16}, dt: Float32},
	{as: []int{24, 24}, bs: []int{24, 24}, dt: Float64},
	// transposed operands
	{as: []int{512, 512}, bs: []int{512, 512}, dt: Float32, ta: true},
	{as: []int{512, 512}, bs: []int{512, 512}, dt: Float32, tb: true},
	{as: []int{512, 512}, bs: []int{512, 512}, dt: Float64, ta: true, tb: true},
	// vector-matrix and matrix-vector of other shapes
	{as: []int{4096}, bs: []int{4096, 4096}, dt: Float32},
	{as: []int{1000, 3000}, bs: []int{3000}, dt: Float32},
	{as: []int{64, 100000}, bs: []int{100000}, dt: Float64},
	{as: []int{4096, 4096}, bs: []int{4096}, dt: Float32, ta: true},
	// batches: broadcast, float64 and tiny
	{as: []int{8, 256, 256}, bs: []int{256, 256}, dt: Float32},
	{as: []int{16384, 8, 8}, bs: []int{16384, 8, 8}, dt: Float64},
	{as: []int{65536, 4, 4}, bs: []int{65536, 4, 4}, dt: Float32},
	{as: []int{4096, 16, 16}, bs: []int{4096, 16, 16}, dt: Float32},
	// other dtypes
	{as: []int{256, 256}, bs: []int{256, 256}, dt: Complex64},
	{as: []int{256, 256}, bs: []int{256, 256}, dt: Int8},
	{as: []int{256, 256}, bs: []int{256, 256}, dt: BFloat16},
	{as: []int{256, 256}, bs: []int{256, 256}, dt: Float16},
}

// BenchmarkMatmulSweep times Matmul on the sweep's products.
func BenchmarkMatmulSweep(b *testing.B) {
	for _, s := range sweepMatmuls {
		b.Run(s.name(), func(b *testing.B) {
			x, y := sweepOperand(b, 1, s.dt, s.as, s.ta), sweepOperand(b, 2, s.dt, s.bs, s.tb)
			for b.Loop() {
				if _, err := Matmul(x, y); err != nil {
					b.Fatal(err)
				}
			}
			mmReportFlops(b, s.as, s.bs)
		})
	}
}

// sweepOperand returns random data of shape sh, or with transposed, the
// transposed view of random data of the reversed shape (so its view has
// shape sh).
func sweepOperand(b *testing.B, seed uint64, dt dtype.DType, sh []int, transposed bool) *Tensor {
	b.Helper()
	stored := sh
	if transposed {
		stored = []int{sh[1], sh[0]}
	}
	x, err := Rand(seed, dt, 1, 3, stored...)
	if err != nil {
		b.Fatal(err)
	}
	if transposed {
		x = x.Transpose()
	}
	return x
}

// BenchmarkMulSweep times element-wise multiplies of the sweep: tiny
// calls, odd lengths, broadcast rows and columns, and other dtypes.
func BenchmarkMulSweep(b *testing.B) {
	for _, s := range []struct {
		as, bs []int
		dt     dtype.DType
	}{
		{[]int{4096}, []int{4096}, Float32},
		{[]int{1000}, []int{1000}, Float64},
		{[]int{1000, 1000}, []int{1000, 1000}, Float32},
		{[]int{1000, 1000}, []int{1000, 1}, Float32},
		{[]int{1000000, 3}, []int{3}, Float32},
		{[]int{1 << 20}, []int{1 << 20}, Complex64},
		{[]int{1 << 20}, []int{1 << 20}, Int8},
		{[]int{1 << 20}, []int{1 << 20}, BFloat16},
	} {
		b.Run(fmt.Sprintf("%v/%v*%v", s.dt, s.as, s.bs), func(b *testing.B) {
			x, y := mpBenchRand(b, 1, s.dt, s.as...), mpBenchRand(b, 2, s.dt, s.bs...)
			for b.Loop() {
				if _, err := Mul(x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkProdSweep times product reductions of the sweep: a short last
// axis over a million rows, tiny and odd sizes, and other dtypes.
func BenchmarkProdSweep(b *testing.B) {
	for _, s := range []struct {
		sh   []int
		axes []int
		dt   dtype.DType
	}{
		{[]int{1000000, 3}, []int{1}, Float32},
		{[]int{1000000, 3}, []int{0}, Float32},
		{[]int{4096}, nil, Float32},
		{[]int{1000, 1000}, []int{1}, Float64},
		{[]int{1000, 1000}, []int{0}, Float64},
		{[]int{1 << 20}, nil, Int8},
		{[]int{1 << 20}, nil, BFloat16},
		{[]int{1 << 20}, nil, Complex64},
	} {
		b.Run(fmt.Sprintf("%v/%v/axes%v", s.dt, s.sh, s.axes), func(b *testing.B) {
			x := mpBenchRand(b, 1, s.dt, s.sh...)
			var opts []ReduceOption
			if s.axes != nil {
				opts = append(opts, Axis(s.axes...))
			}
			for b.Loop() {
				if _, err := Prod(x, opts...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

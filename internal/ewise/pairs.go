package ewise

import (
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/vec"
)

// PairKernel folds two contiguous runs of n elements, x0 and x1, into the
// single accumulators acc0 and acc1, as the run kernel folds each run
// (acc op= the run's reduction), bit for bit: it only reads the two runs
// side by side, two streams of memory at once, where one run at a time
// leaves a core's loads too few in flight (see vec.ProdF32Pair). The
// reduction engine passes it pairs of the equal runs it has many of: the
// chunks of a reduction to one element, the rows of a reduction over the
// last axis.
type PairKernel func(acc0, acc1, x0, x1 unsafe.Pointer, n int)

// Pairs returns the PairKernel for input dtype dt, or nil when dt has none
// (or UseVec is off).
func (r *Reduction) Pairs(dt dtype.DType) PairKernel {
	if !UseVec || !dt.Valid() || r.pairs == nil {
		return nil
	}
	return r.pairs[dt]
}

// withPairs fills r's table of pair kernels from table.
func (r *Reduction) withPairs(table func(dtype.DType) PairKernel) *Reduction {
	r.pairs = new([numDTypes]PairKernel)
	for _, dt := range dtype.All {
		r.pairs[dt] = table(dt)
	}
	return r
}

// sumPairs is Sum's table of pair kernels (see prodPairs): float32 and
// float64, and complex64, whose sums are float32 sums of the parts.
func sumPairs(dt dtype.DType) PairKernel {
	switch dt {
	case dtype.Float64:
		return func(acc0, acc1, x0, x1 unsafe.Pointer, n int) {
			s0, s1 := vec.SumF64Pair(run[float64](x0, n), run[float64](x1, n))
			*(*float64)(acc0) += s0
			*(*float64)(acc1) += s1
		}
	case dtype.Float32:
		return func(acc0, acc1, x0, x1 unsafe.Pointer, n int) {
			s0, s1 := vec.SumF32Pair(run[float32](x0, n), run[float32](x1, n))
			*(*float64)(acc0) += s0
			*(*float64)(acc1) += s1
		}
	case dtype.Complex64:
		return func(acc0, acc1, x0, x1 unsafe.Pointer, n int) {
			s0, s1 := vec.SumC64Pair(run[complex64](x0, n), run[complex64](x1, n))
			*(*complex128)(acc0) += s0
			*(*complex128)(acc1) += s1
		}
	}
	return nil
}

// prodPairs is Prod's table of pair kernels: float32, whose widening loads
// make one run at a time the slowest, and float64, whose pair kernel
// (AVX-512) does a run's tail and fold in registers where one run at a
// time returns its lanes to Go (vec.ProdF64Pair).
func prodPairs(dt dtype.DType) PairKernel {
	switch dt {
	case dtype.Float32:
		return func(acc0, acc1, x0, x1 unsafe.Pointer, n int) {
			p0, p1 := vec.ProdF32Pair(run[float32](x0, n), run[float32](x1, n))
			*(*float64)(acc0) *= p0
			*(*float64)(acc1) *= p1
		}
	case dtype.Float64:
		return func(acc0, acc1, x0, x1 unsafe.Pointer, n int) {
			p0, p1 := vec.ProdF64Pair(run[float64](x0, n), run[float64](x1, n))
			*(*float64)(acc0) *= p0
			*(*float64)(acc1) *= p1
		}
	}
	return nil
}

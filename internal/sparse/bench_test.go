package sparse

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// The benchmarks reproduce the spmm/ and spgemm/ workloads of
// shared/bench/workloads.json: nnz distinct positions drawn uniformly, in
// random order, values and dense elements uniform in [0.9999, 1.0001).

// workloadCOO returns a rows×cols COO matrix of nnz distinct uniformly
// random positions in random order (as SciPy's coo_matrix of the peers).
func workloadCOO[T float32 | float64](seed uint64, rows, cols, nnz int) *COO[T] {
	rng := rand.New(rand.NewPCG(seed, 0))
	total := int64(rows) * int64(cols)
	flat := make([]int64, 0, nnz)
	for len(flat) < nnz {
		for len(flat) < nnz {
			flat = append(flat, rng.Int64N(total))
		}
		slices.Sort(flat)
		flat = slices.Compact(flat)
	}
	rng.Shuffle(len(flat), func(i, j int) { flat[i], flat[j] = flat[j], flat[i] })
	r, c, v := make([]int64, nnz), make([]int64, nnz), make([]T, nnz)
	for p, f := range flat {
		r[p], c[p] = f/int64(cols), f%int64(cols)
		v[p] = T(0.9999 + 0.0002*rng.Float64())
	}
	m, err := NewCOO(rows, cols, r, c, v)
	if err != nil {
		panic(err)
	}
	return m
}

func workloadDense[T float32 | float64](seed uint64, rows, cols int) Dense[T] {
	rng := rand.New(rand.NewPCG(seed, 1))
	data := make([]T, rows*cols)
	for e := range data {
		data[e] = T(0.9999 + 0.0002*rng.Float64())
	}
	return Dense[T]{Data: data, RS: cols, CS: 1, Rows: rows, Cols: cols}
}

var spmmCSRFixture = sync.OnceValues(func() (*CSR[float32], Dense[float32]) {
	return workloadCOO[float32](1, 100000, 100000, 1000000).ToCSR(), workloadDense[float32](2, 100000, 64)
})

var spmmCOOFixture = sync.OnceValues(func() (*COO[float64], Dense[float64]) {
	return workloadCOO[float64](3, 20000, 20000, 400000), workloadDense[float64](4, 20000, 128)
})

var spgemmFixture = sync.OnceValues(func() (*CSR[float64], *CSR[float64]) {
	return workloadCOO[float64](5, 20000, 20000, 200000).ToCSR(), workloadCOO[float64](6, 20000, 20000, 200000).ToCSR()
})

// spmm/float32/csr100000x100000-nnz1M@64
func BenchmarkSpMMCSR(b *testing.B) {
	a, x := spmmCSRFixture()
	c := Dense[float32]{Data: make([]float32, a.Rows*x.Cols), RS: x.Cols, CS: 1, Rows: a.Rows, Cols: x.Cols}
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			cpu := processCPU()
			for b.Loop() {
				SpMM(a, x, c, threads)
			}
			b.ReportMetric(float64(processCPU()-cpu)/1e6/float64(b.N), "cpu-ms/op")
		})
	}
}

// The spmm/ sweep workloads of other widths of b, and of a transposed b
// (bench/sweep.json), on two threads.
func BenchmarkSpMMShapes(b *testing.B) {
	a := workloadCOO[float32](7, 50000, 50000, 500000).ToCSR()
	for _, n := range []int{1, 3, 17, 1000} {
		x := workloadDense[float32](8, 50000, n)
		c := Dense[float32]{Data: make([]float32, a.Rows*n), RS: n, CS: 1, Rows: a.Rows, Cols: n}
		b.Run(fmt.Sprintf("@%d", n), func(b *testing.B) {
			cpu := processCPU()
			for b.Loop() {
				SpMM(a, x, c, 2)
			}
			b.ReportMetric(float64(processCPU()-cpu)/1e6/float64(b.N), "cpu-ms/op")
		})
	}
	x := workloadDense[float32](8, 64, 50000)
	xT := Dense[float32]{Data: x.Data, RS: 1, CS: 50000, Rows: 50000, Cols: 64}
	c := Dense[float32]{Data: make([]float32, a.Rows*64), RS: 64, CS: 1, Rows: a.Rows, Cols: 64}
	b.Run("@bT64", func(b *testing.B) {
		cpu := processCPU()
		for b.Loop() {
			SpMM(a, xT, c, 2)
		}
		b.ReportMetric(float64(processCPU()-cpu)/1e6/float64(b.N), "cpu-ms/op")
	})
}

// spmm/float64/coo20000x20000-nnz400k@128, from entries in random order (as
// the workload's SciPy operand) and from a coalesced COO (as PyTorch's).
func BenchmarkSpMMCOO(b *testing.B) {
	a, x := spmmCOOFixture()
	sorted := a.Coalesce()
	c := Dense[float64]{Data: make([]float64, a.Rows*x.Cols), RS: x.Cols, CS: 1, Rows: a.Rows, Cols: x.Cols}
	for _, op := range []struct {
		name string
		a    *COO[float64]
	}{{"unordered", a}, {"coalesced", sorted}} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", op.name, threads), func(b *testing.B) {
				cpu := processCPU()
				for b.Loop() {
					SpMMCOO(op.a, x, c, threads)
				}
				b.ReportMetric(float64(processCPU()-cpu)/1e6/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

// spgemm/float64/csr20000x20000-nnz200k@csr
func BenchmarkSpGEMM(b *testing.B) {
	x, y := spgemmFixture()
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			cpu := processCPU()
			for b.Loop() {
				SpGEMM(x, y, threads)
			}
			// The machine is shared: CPU time per call sees through the
			// waits that other processes add to the wall clock.
			b.ReportMetric(float64(processCPU()-cpu)/1e6/float64(b.N), "cpu-ms/op")
		})
	}
}

// Conversions the wiring runs on every COO operand and SciPy file.
func BenchmarkCoalesce(b *testing.B) {
	a, _ := spmmCOOFixture()
	for b.Loop() {
		a.Coalesce()
	}
}

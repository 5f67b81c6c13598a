package sparse

import (
	"fmt"
	"testing"
)

// The narrow spmm/ sweep workloads (bench/sweep.json): a matrix-vector
// product and three columns, where SciPy's plain loops beat ours at the
// start of session 12 (Emerald Rapids).
func BenchmarkSpMMNarrow(b *testing.B) {
	a32 := workloadCOO[float32](11, 100000, 100000, 1000000).ToCSR()
	x32 := workloadDense[float32](12, 100000, 1)
	c32 := Dense[float32]{Data: make([]float32, a32.Rows), RS: 1, CS: 1, Rows: a32.Rows, Cols: 1}
	a64 := workloadCOO[float64](13, 50000, 50000, 500000).ToCSR()
	x64 := workloadDense[float64](14, 50000, 3)
	c64 := Dense[float64]{Data: make([]float64, a64.Rows*3), RS: 3, CS: 1, Rows: a64.Rows, Cols: 3}
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("f32@1/threads=%d", threads), func(b *testing.B) {
			cpu := processCPU()
			for b.Loop() {
				SpMM(a32, x32, c32, threads)
			}
			b.ReportMetric(float64(processCPU()-cpu)/1e6/float64(b.N), "cpu-ms/op")
		})
		b.Run(fmt.Sprintf("f64@3/threads=%d", threads), func(b *testing.B) {
			cpu := processCPU()
			for b.Loop() {
				SpMM(a64, x64, c64, threads)
			}
			b.ReportMetric(float64(processCPU()-cpu)/1e6/float64(b.N), "cpu-ms/op")
		})
	}
}

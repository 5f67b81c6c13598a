package sparse

import (
	"fmt"
	"testing"
)

// SpMM with narrow b, one goroutine: the spmm/ sweep rows @1 (float32,
// 100000² with 1M entries) and @3 (float64, 50000² with 500k), where
// SciPy's plain loops beat ours at the start of session 12, and the widths
// around the narrow loops and the multi-row kernels.
func BenchmarkSpMMNarrow(b *testing.B) {
	a32 := workloadCOO[float32](11, 100000, 100000, 1000000).ToCSR()
	a64 := workloadCOO[float64](13, 50000, 50000, 500000).ToCSR()
	for _, n := range []int{1, 2, 3, 4, 5, 8, 16, 17, 32} {
		x32 := workloadDense[float32](12, 100000, n)
		c32 := Dense[float32]{Data: make([]float32, a32.Rows*n), RS: n, CS: 1, Rows: a32.Rows, Cols: n}
		b.Run(fmt.Sprintf("f32@%d", n), func(b *testing.B) {
			cpu := processCPU()
			for b.Loop() {
				SpMM(a32, x32, c32, 1)
			}
			b.ReportMetric(float64(processCPU()-cpu)/1e6/float64(b.N), "cpu-ms/op")
		})
		if n > 16 {
			continue
		}
		x64 := workloadDense[float64](14, 50000, n)
		c64 := Dense[float64]{Data: make([]float64, a64.Rows*n), RS: n, CS: 1, Rows: a64.Rows, Cols: n}
		b.Run(fmt.Sprintf("f64@%d", n), func(b *testing.B) {
			cpu := processCPU()
			for b.Loop() {
				SpMM(a64, x64, c64, 1)
			}
			b.ReportMetric(float64(processCPU()-cpu)/1e6/float64(b.N), "cpu-ms/op")
		})
	}
}

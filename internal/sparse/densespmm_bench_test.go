package sparse

import (
	"fmt"
	"testing"
)

// The spmm/float64/dense256x20000@csr20000x20000-nnz200k sweep row and
// fewer rows of a, through DenseSpMM and through its direct scatter, one
// goroutine: where transposedMinRows is set.
func BenchmarkDenseSpMM(b *testing.B) {
	sp := workloadCOO[float64](15, 20000, 20000, 200000).ToCSR()
	for _, m := range []int{1, 4, 8, 16, 64, 256} {
		a := workloadDense[float64](16, m, 20000)
		c := Dense[float64]{Data: make([]float64, m*20000), RS: 20000, CS: 1, Rows: m, Cols: 20000}
		for _, path := range []string{"direct", "DenseSpMM"} {
			b.Run(fmt.Sprintf("m=%d/%s", m, path), func(b *testing.B) {
				cpu := processCPU()
				for b.Loop() {
					if path == "direct" {
						denseSpmmDirect(a, sp, c, 1)
					} else {
						DenseSpMM(a, sp, c, 1)
					}
				}
				b.ReportMetric(float64(processCPU()-cpu)/1e6/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

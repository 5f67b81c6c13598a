package sparse

import (
	"fmt"
	"testing"
)

// SpMMCOO of 1M entries in random order over 100000 rows (the spmm/ COO
// sweep row's matrix) with narrow b, two threads: where cooDirectMax is
// set.
func BenchmarkSpMMCOONarrow(b *testing.B) {
	a := workloadCOO[float32](17, 100000, 100000, 1000000)
	for _, n := range []int{1, 2, 3, 4, 6, 8, 16} {
		x := workloadDense[float32](18, 100000, n)
		c := Dense[float32]{Data: make([]float32, a.Rows*n), RS: n, CS: 1, Rows: a.Rows, Cols: n}
		for _, direct := range []bool{false, true} {
			b.Run(fmt.Sprintf("@%d/direct=%v", n, direct), func(b *testing.B) {
				defer func(old int) { cooDirectMax = old }(cooDirectMax)
				cooDirectMax = 0
				if direct {
					cooDirectMax = n // float32: within cooDirectBytes to 8
				}
				cpu := processCPU()
				for b.Loop() {
					SpMMCOO(a, x, c, 2)
				}
				b.ReportMetric(float64(processCPU()-cpu)/1e6/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

//go:build unix

package tensor

import "testing"

// BenchmarkTransposedInto times MulInto of 1000×1000 operands into a warm
// output with the second operand contiguous and transposed, per dtype, the
// two alternating call by call in rounds: each reports its best round's
// CPU time per call (the process's, all goroutines), and "ratio" is the
// transposed call's over the contiguous one's, the tiled walk's cost
// (docs/kernels.md quotes it per kernel set; the machine may be shared).
func BenchmarkTransposedInto(b *testing.B) {
	for _, dt := range []DType{Int8, Float32, Float64} {
		b.Run(dt.String(), func(b *testing.B) {
			x, y := mpBenchRand(b, 1, dt, 1000, 1000), mpBenchRand(b, 2, dt, 1000, 1000)
			out := Must(Zeros(dt, 1000, 1000))
			cases := []*Tensor{y, y.Transpose()}
			best := make([]float64, len(cases))
			const calls = 10
			for b.Loop() {
				for k, yk := range cases {
					c0 := processCPU(b)
					for range calls {
						if err := MulInto(out, x, yk); err != nil {
							b.Fatal(err)
						}
					}
					if u := float64(processCPU(b)-c0) / calls; best[k] == 0 || u < best[k] {
						best[k] = u
					}
				}
			}
			b.ReportMetric(best[0]/1e3, "contiguous-cpuµs")
			b.ReportMetric(best[1]/1e3, "transposed-cpuµs")
			b.ReportMetric(best[1]/best[0], "ratio")
		})
	}
}

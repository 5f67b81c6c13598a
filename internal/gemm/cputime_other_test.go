//go:build !unix

package gemm

// cpuSeconds is unavailable here; benchmarks then report no CPU-time rate.
func cpuSeconds() float64 { return 0 }

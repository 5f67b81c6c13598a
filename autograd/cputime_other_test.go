//go:build !unix

package autograd

// cpuSeconds is unavailable here; benchmarks then report no CPU-time rate.
func cpuSeconds() float64 { return 0 }

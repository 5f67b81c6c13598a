//go:build unix

package tensor

import "testing"

// reportCPU reports, beside ns/op, the process's CPU time (every thread's,
// the collector's too) and minor page faults per call since the marks
// cpu0 and faults0 (cpuMarks): on a shared machine wall time per call
// counts the time other processes held the cores, CPU time does not.
func reportCPU(b *testing.B, cpu0, faults0 int64) {
	n := float64(b.N)
	b.ReportMetric(float64(int64(processCPU(b))-cpu0)/n, "cpu-ns/op")
	b.ReportMetric(float64(pageFaults(b)-faults0)/n, "faults/op")
}

// cpuMarks returns the process's CPU time and page faults so far.
func cpuMarks(b *testing.B) (cpu, faults int64) {
	return int64(processCPU(b)), pageFaults(b)
}

//go:build unix

package autograd

import "syscall"

// cpuSeconds returns the CPU time (user + system) this process has used.
// Benchmarks report work per CPU-second beside work per wall-second because
// the benchmark machine is shared: descheduled time inflates wall time but
// not CPU time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

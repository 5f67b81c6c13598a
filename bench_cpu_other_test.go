//go:build !unix

package tensor

import "testing"

// reportCPU reports nothing where getrusage is missing.
func reportCPU(*testing.B, int64, int64) {}

// cpuMarks returns zeros where getrusage is missing.
func cpuMarks(*testing.B) (cpu, faults int64) { return 0, 0 }

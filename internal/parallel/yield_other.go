//go:build !linux

package parallel

import "runtime"

// osYield lets other goroutines run; without a portable way to yield the
// thread, the polling loops of parallel.go give way within the Go scheduler
// only.
func osYield() { runtime.Gosched() }

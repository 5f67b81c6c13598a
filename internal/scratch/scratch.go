// Package scratch keeps a kernel's scratch buffers between calls.
package scratch

import (
	"runtime"
	"sync"
)

// List keeps idle scratch values of one kind between calls, at most one per
// processor. It is not a sync.Pool because every garbage collection empties
// those, and a program that collects every few hundred calls (for the
// results it drops) would allocate, clear and fault in its scratch memory
// again each time: half a millisecond for a GEMM workspace here. Like the
// per-thread buffers of a BLAS library, the values stay for the life of the
// program.
type List[T any] struct {
	New func() *T // makes a value when none is idle

	mu   sync.Mutex
	idle []*T
}

// Get returns an idle value, or a new one.
func (l *List[T]) Get() *T {
	l.mu.Lock()
	if n := len(l.idle); n > 0 {
		v := l.idle[n-1]
		l.idle[n-1] = nil
		l.idle = l.idle[:n-1]
		l.mu.Unlock()
		return v
	}
	l.mu.Unlock()
	return l.New()
}

// Put makes v idle again, unless as many are idle as there are processors
// to use them.
func (l *List[T]) Put(v *T) {
	l.mu.Lock()
	if len(l.idle) < runtime.GOMAXPROCS(0) {
		l.idle = append(l.idle, v)
	}
	l.mu.Unlock()
}

// Idle reports how many values are idle.
func (l *List[T]) Idle() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.idle)
}

// Grow returns s with length n, reallocated only when its capacity is
// short: a kept scratch buffer resized for this call.
func Grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

package iter

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestParallelWorkers checks that the ranges cover [0, n) once each and that
// a worker number is never in use by two calls at once.
func TestParallelWorkers(t *testing.T) {
	for _, c := range []struct{ n, w int }{{0, 2}, {1, 4}, {5, 1}, {7, 3}, {100, 2}, {1000, 8}} {
		seen := make([]int, c.n)
		busy := make([]bool, max(1, min(c.n, c.w)))
		var mu sync.Mutex
		ParallelWorkers(c.n, c.w, func(worker, lo, hi int) {
			mu.Lock()
			if worker < 0 || worker >= len(busy) || busy[worker] {
				mu.Unlock()
				t.Errorf("n=%d w=%d: worker %d out of range or already busy", c.n, c.w, worker)
				return
			}
			busy[worker] = true
			mu.Unlock()
			for i := lo; i < hi; i++ {
				seen[i]++ // ranges are disjoint, so no lock is needed
			}
			mu.Lock()
			busy[worker] = false
			mu.Unlock()
		})
		for i, k := range seen {
			if k != 1 {
				t.Errorf("n=%d w=%d: item %d visited %d times", c.n, c.w, i, k)
			}
		}
	}
}

// TestParallelEnds checks that ParallelEnds calls f once for every index,
// whatever the count and the goroutines (more of them than indices, than
// processors, one), with a goroutine that stalls on its first index so
// that the others take what is left of its segment.
func TestParallelEnds(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, w := range []int{1, 2, 3, 4, 7} {
		for n := range 40 {
			calls := make([]atomic.Int32, n)
			var first atomic.Bool
			ParallelEnds(n, w, func(i int) {
				if first.CompareAndSwap(false, true) {
					time.Sleep(time.Millisecond)
				}
				calls[i].Add(1)
			})
			for i := range calls {
				if c := calls[i].Load(); c != 1 {
					t.Fatalf("ParallelEnds(%d, %d): f(%d) called %d times", n, w, i, c)
				}
			}
		}
	}
}

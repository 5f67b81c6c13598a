package iter

import (
	"sync"
	"testing"
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

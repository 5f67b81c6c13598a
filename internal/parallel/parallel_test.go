package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestForEachPartOnce checks that every part runs exactly once,
// whatever the number of goroutines and parts, and that For
// returns only after all of them have finished.
func TestForEachPartOnce(t *testing.T) {
	for _, threads := range []int{0, 1, 2, 3, 8} {
		for _, parts := range []int{0, 1, 2, 5, 64} {
			counts := make([]atomic.Int32, parts)
			For(parts, threads, func(_, i int) { counts[i].Add(1) })
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Errorf("threads %d, parts %d: part %d ran %d times", threads, parts, i, c)
				}
			}
		}
	}
}

// TestForConcurrentCallers runs many parallel loops at once, some
// nested inside others' parts: every loop must still run each of its parts
// once, with helpers shared between callers (or busy elsewhere).
func TestForConcurrentCallers(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for round := range 20 {
				parts := 1 + (g+round)%9
				var sum atomic.Int64
				For(parts, 3, func(_, i int) {
					var inner atomic.Int64
					For(4, 2, func(_, j int) { inner.Add(int64(j + 1)) })
					if inner.Load() != 10 {
						t.Errorf("nested loop summed %d, want 10", inner.Load())
					}
					sum.Add(int64(i + 1))
				})
				if want := int64(parts * (parts + 1) / 2); sum.Load() != want {
					t.Errorf("goroutine %d round %d: parts summed %d, want %d", g, round, sum.Load(), want)
				}
			}
		})
	}
	wg.Wait()
}

// TestForWorkers checks the worker numbers: in [0, min(threads, parts,
// GOMAXPROCS)), and no two calls of one worker overlap.
func TestForWorkers(t *testing.T) {
	for _, threads := range []int{1, 2, 4} {
		limit := min(threads, 40, runtime.GOMAXPROCS(0))
		busy := make([]atomic.Int32, 64)
		For(40, threads, func(worker, part int) {
			if worker < 0 || worker >= limit {
				t.Errorf("threads %d: worker %d outside [0, %d)", threads, worker, limit)
				return
			}
			if busy[worker].Add(1) != 1 {
				t.Errorf("threads %d: two calls of worker %d at once", threads, worker)
			}
			runtime.Gosched() // give another worker the chance to overlap
			busy[worker].Add(-1)
		})
	}
}

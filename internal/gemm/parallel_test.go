package gemm

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// TestParallelForEachPartOnce checks that every part runs exactly once,
// whatever the number of goroutines and parts, and that parallelFor
// returns only after all of them have finished.
func TestParallelForEachPartOnce(t *testing.T) {
	for _, threads := range []int{0, 1, 2, 3, 8} {
		for _, parts := range []int{0, 1, 2, 5, 64} {
			counts := make([]atomic.Int32, parts)
			parallelFor(parts, threads, func(i int) { counts[i].Add(1) })
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Errorf("threads %d, parts %d: part %d ran %d times", threads, parts, i, c)
				}
			}
		}
	}
}

// TestParallelForConcurrentCallers runs many parallel loops at once, some
// nested inside others' parts: every loop must still run each of its parts
// once, with helpers shared between callers (or busy elsewhere).
func TestParallelForConcurrentCallers(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for round := range 20 {
				parts := 1 + (g+round)%9
				var sum atomic.Int64
				parallelFor(parts, 3, func(i int) {
					var inner atomic.Int64
					parallelFor(4, 2, func(j int) { inner.Add(int64(j + 1)) })
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

// TestSplitCoversRange checks that split's ranges tile [0, n) in order,
// start at multiples of unit and are cut at most threads·partsPerThread
// ways.
func TestSplitCoversRange(t *testing.T) {
	for _, tc := range []struct{ n, unit, threads int }{
		{1, 1, 2}, {7, 1, 2}, {100, 4, 2}, {4096, 64, 2}, {4096, 64, 3}, {33, 32, 4}, {1000, 12, 1},
	} {
		t.Run(fmt.Sprint(tc), func(t *testing.T) {
			var mu sync.Mutex
			seen := make([]int, tc.n)
			calls := 0
			split(tc.n, tc.unit, tc.threads, func(i0, i1 int) {
				mu.Lock()
				defer mu.Unlock()
				calls++
				if i0%tc.unit != 0 || i0 >= i1 {
					t.Errorf("range [%d, %d) is empty or not aligned to %d", i0, i1, tc.unit)
				}
				for i := i0; i < i1; i++ {
					seen[i]++
				}
			})
			for i, c := range seen {
				if c != 1 {
					t.Fatalf("index %d covered %d times", i, c)
				}
			}
			if calls > max(1, tc.threads*partsPerThread) {
				t.Errorf("%d ranges, want at most %d", calls, tc.threads*partsPerThread)
			}
		})
	}
}

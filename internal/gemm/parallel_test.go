package gemm

import (
	"fmt"
	"sync"
	"testing"
)

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

package ewise

import (
	"runtime"
	"sync"
)

// MinParallel is the number of elements below which an operation runs on
// the calling goroutine: under it, starting goroutines costs more than the
// work saves.
const MinParallel = 1 << 16

// Workers returns how many goroutines should share work on n elements:
// one below MinParallel, else up to GOMAXPROCS with at least MinParallel/2
// elements each.
func Workers(n int) int {
	if n < MinParallel {
		return 1
	}
	return max(1, min(runtime.GOMAXPROCS(0), n/(MinParallel/2)))
}

// Parallel splits the items [0, n) into w contiguous ranges and calls f on
// each, the first on the calling goroutine and the rest on their own, and
// returns when all are done. Which goroutine runs a range never changes
// what is computed, only when.
func Parallel(n, w int, f func(lo, hi int)) {
	w = min(w, n)
	if w <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for i := 1; i < w; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(n*i/w, n*(i+1)/w)
		}()
	}
	f(0, n/w)
	wg.Wait()
}

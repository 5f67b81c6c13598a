package iter

import (
	"sync"
	"sync/atomic"
)

// ParallelWorkers is Parallel that also tells f which goroutine calls it:
// worker is in [0, min(w, n)), and no two calls with the same worker run at
// once. A reduction uses it to give each goroutine scratch accumulators of
// its own, allocated once per goroutine rather than once per range. As with
// Parallel, which goroutine runs a range never changes what is computed.
func ParallelWorkers(n, w int, f func(worker, lo, hi int)) {
	w = min(w, n)
	if w <= 1 {
		if n > 0 {
			f(0, 0, n)
		}
		return
	}
	piece := max(1, n/(8*w)) // as Parallel, for the same reason
	var next atomic.Int64
	work := func(worker int) {
		for {
			lo := int(next.Add(int64(piece))) - piece
			if lo >= n {
				return
			}
			f(worker, lo, min(lo+piece, n))
		}
	}
	var wg sync.WaitGroup
	for k := 1; k < w; k++ {
		wg.Go(func() { work(k) })
	}
	work(0)
	wg.Wait()
}

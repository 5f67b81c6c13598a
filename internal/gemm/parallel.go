package gemm

import "sync"

// split runs f over [0, n) cut into at most parts ranges whose lengths are
// multiples of unit (except the last), the first range on the calling
// goroutine and the others on new ones, and returns when all are done.
// Working on the caller's goroutine saves one hand-off, which matters for
// products of a few tens of microseconds.
func split(n, unit, parts int, f func(i0, i1 int)) {
	step := roundUp(ceilDiv(n, max(parts, 1)), unit)
	if step >= n {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for i0 := step; i0 < n; i0 += step {
		wg.Go(func() { f(i0, min(i0+step, n)) })
	}
	f(0, step)
	wg.Wait()
}

package iter

import (
	"runtime"
	"sync"
	"sync/atomic"
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

// Parallel calls f on ranges that together cover the items [0, n) once
// each, on up to w goroutines (the caller's among them), and returns when
// all are done. The ranges are handed out from a shared counter in about
// 8·w pieces, so that a goroutine the scheduler holds back (the machine
// may be shared) delays the others' work by one piece, not by a whole
// share. Which goroutine runs a range never changes what is computed.
func Parallel(n, w int, f func(lo, hi int)) {
	w = min(w, n)
	if w <= 1 {
		f(0, n)
		return
	}
	piece := max(1, n/(8*w))
	var next atomic.Int64
	work := func() {
		for {
			lo := int(next.Add(int64(piece))) - piece
			if lo >= n {
				return
			}
			f(lo, min(lo+piece, n))
		}
	}
	var wg sync.WaitGroup
	for range w - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
}

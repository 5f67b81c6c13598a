package iter

import (
	"runtime"

	"github.com/tensor-go/tensor/internal/parallel"
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
// each, on up to w goroutines (the caller's and package parallel's
// polling helpers, which start at once where a goroutine started per call
// often waits 80 µs for a core), and returns when all are done. The
// ranges are handed out from a shared counter in about 8·w pieces, so
// that a goroutine the scheduler holds back (the machine may be shared)
// delays the others' work by one piece, not by a whole share. Which
// goroutine runs a range never changes what is computed.
func Parallel(n, w int, f func(lo, hi int)) {
	if min(w, n) <= 1 {
		f(0, n)
		return
	}
	ParallelWorkers(n, w, func(_, lo, hi int) { f(lo, hi) })
}

// ParallelWorkers is Parallel that also tells f which goroutine calls it:
// worker is in [0, min(w, n)), and no two calls with the same worker run at
// once. A reduction uses it to give each goroutine scratch accumulators of
// its own, allocated once per goroutine rather than once per range.
func ParallelWorkers(n, w int, f func(worker, lo, hi int)) {
	w = min(w, n)
	if w <= 1 {
		if n > 0 {
			f(0, 0, n)
		}
		return
	}
	piece := max(1, n/(8*w))
	parallel.For((n+piece-1)/piece, w, func(worker, i int) {
		lo := i * piece
		f(worker, lo, min(lo+piece, n))
	})
}

package iter

import (
	"runtime"
	"sync/atomic"

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

// ParallelEnds calls f(i) once for every i in [0, n), on up to w
// goroutines, so that the same goroutine takes the same part of [0, n) call
// after call: goroutine k starts on the k-th of w equal segments, from its
// front, and once that is done takes what is left of the others from
// their backs. A reduction of a few MiB (the sum of 1M float32) then finds
// each goroutine's part of x still in its core's L2 from the previous call,
// where claiming from one shared counter interleaved the goroutines
// differently each call: 90-170 -> 71-76 µs for that sum, the best of
// 60 rounds each, the same run (two threads, Sapphire Rapids under KVM,
// load about 11). A goroutine that is descheduled holds up at most its
// current index, as with one counter. Which goroutine computes which i
// changes no bit of the result.
func ParallelEnds(n, w int, f func(i int)) {
	if w = min(w, n); w <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	// claimed[k] holds the indices taken from the front of segment k in
	// its high 32 bits and from the back in its low 32 (n < 2^31: n counts
	// chunks of at least MinParallel/2 elements, or is small).
	claimed := make([]atomic.Uint64, w)
	claim := func(k int, front bool) (int, bool) {
		lo, hi := k*n/w, (k+1)*n/w
		for {
			s := claimed[k].Load()
			fr, bk := int(s>>32), int(s&(1<<32-1))
			if lo+fr+bk >= hi {
				return 0, false
			}
			if front && claimed[k].CompareAndSwap(s, s+1<<32) {
				return lo + fr, true
			}
			if !front && claimed[k].CompareAndSwap(s, s+1) {
				return hi - 1 - bk, true
			}
		}
	}
	ParallelWorkers(w, w, func(_, lo, hi int) {
		for home := lo; home < hi; home++ {
			for d := range w {
				k := (home + d) % w
				for {
					i, ok := claim(k, d == 0)
					if !ok {
						break
					}
					f(i)
				}
			}
		}
	})
}

package gemm

import "github.com/tensor-go/tensor/internal/parallel"

// partsPerThread is how many parts split cuts a range into per goroutine:
// enough that a goroutine that starts late or runs on a busy core hands
// most of its share to the others, few enough that the per-part cost
// (a closure call, a pooled workspace, re-reading the shared operand) stays
// small.
const partsPerThread = 4

// split runs f over [0, n) cut into ranges whose lengths are multiples of
// unit (except the last), about partsPerThread of them per goroutine, on up
// to threads goroutines, and returns when all are done.
func split(n, unit, threads int, f func(i0, i1 int)) {
	splitParts(n, unit, threads, threads*partsPerThread, f)
}

// splitParts is split with the number of ranges (at most parts) chosen by
// the caller.
func splitParts(n, unit, threads, parts int, f func(i0, i1 int)) {
	step := roundUp(ceilDiv(n, max(parts, 1)), unit)
	if step >= n || threads <= 1 {
		f(0, n)
		return
	}
	parallel.For(ceilDiv(n, step), threads, func(_, i int) {
		i0 := i * step
		f(i0, min(i0+step, n))
	})
}

package gemm

import "github.com/tensor-go/tensor/internal/parallel"

// How a product at least as wide as tall is cut between goroutines: into
// one column range of whole tiles per goroutine (job.split says why), or
// into row ranges of equal height when those are more even. The column
// ranges are counted in the tiles left of the strip (which rides with the
// last range), so that a 129-column float32 C is cut 64 + 65 rather than
// 96 + 33; but a C only a few tiles wide cannot always be cut evenly by
// columns (96 float32 columns are three 32-wide tiles), and its rows can. A row range packs the whole of B where a column range packs its
// own part, which rowSplitCost stands for. Every element is still summed
// over the whole of K by one kernel in the same order, so the cut changes
// no bit.
//
// The busiest goroutine's time, from the time of each range alone (in L2,
// best of 400, two ranges; the cut by n -> this one; BenchmarkTuneCuts):
// float32 96³ 6.96 -> 5.73 µs (by rows), 127×129×65 10.6 -> 8.9, 200³
// 55.7 -> 49.3; float64 100³ 14.9 -> 13.2, 127×129×65 16.7 -> 15.6, 200³
// 97.9 -> 92.5; 64³, 100³ float32, 112³, 128³ and 160³ are cut as before.

// A tall C (m > n) is cut into row ranges, each packing the whole of B:
// partsPerThread of them per goroutine, so that a late helper's share
// goes to the others, but none shorter than minPartRows rows, below which
// packing B again costs more than the balance saves. The busiest of two
// goroutines, each range timed alone (BenchmarkTuneCuts; eight ranges ->
// two): float32 256×64×64 7.47 -> 6.13 µs, 1000×100×100 67.2 -> 61.3,
// float64 256×64×64 15.9 -> 12.1, 1000×100×100 127 -> 115; from 1536
// rows (four and more ranges) level, 2000×100×100 128 against 129.
const minPartRows = 384

// splitTall computes a C with m > n on threads goroutines.
func (j *job[T]) splitTall(threads int) {
	jc := *j
	parts := threads * max(1, min(partsPerThread, jc.m/(minPartRows*threads)))
	splitParts(jc.m, 4, threads, parts, func(i0, i1 int) { jc.runPooled(i0, i1, 0, jc.n) })
}

// rowSplitCost is the share of a product's time that the extra packing of
// B by every row range costs, against a cut by columns: float32 100³ cut by
// rows took 8% more time in all than by columns, and by either its
// busiest range took 56% of the whole.
const rowSplitCost = 0.15

// splitWide computes a C with n ≥ m on threads goroutines.
func (j *job[T]) splitWide(threads int) {
	jc := *j
	step, parts, colShare := jc.columnCut(threads)
	if jc.rowShare(threads)+rowSplitCost < colShare {
		splitParts(jc.m, 4, threads, threads, func(i0, i1 int) { jc.runPooled(i0, i1, 0, jc.n) })
		return
	}
	if parts == 1 {
		jc.runPooled(0, jc.m, 0, jc.n)
		return
	}
	parallel.For(parts, threads, func(_, i int) {
		j0, j1 := i*step, (i+1)*step
		if i == parts-1 {
			j1 = jc.n
		}
		jc.runPooled(0, jc.m, j0, j1)
	})
}

// columnCut returns the width of the column ranges (whole tiles, the last
// range taking the rest) of a cut for threads goroutines, how many there
// are, and the share of C's columns in the widest.
func (j *job[T]) columnCut(threads int) (step, parts int, share float64) {
	tiles := ceilDiv(j.n-j.strip, j.kern.nr)
	per := ceilDiv(tiles, threads)
	step, parts = per*j.kern.nr, ceilDiv(tiles, per)
	widest := max(step, j.n-(parts-1)*step)
	return step, parts, min(1, float64(widest)/float64(j.n))
}

// rowShare is the share of C's rows in the tallest range when C is cut
// into threads row ranges of equal height (multiples of 4 rows, so that
// the 4-row kernels take their ends).
func (j *job[T]) rowShare(threads int) float64 {
	return float64(min(j.m, roundUp(ceilDiv(j.m, threads), 4))) / float64(j.m)
}

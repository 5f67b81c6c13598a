package sparse

import (
	"math/bits"
	"sort"
	"sync"
)

// minWorkPerThread is the work (roughly, multiply-adds) below which an
// extra goroutine costs more than it saves. A variable so that tests can
// split tiny products.
var minWorkPerThread int64 = 1 << 15

// splitRows cuts rows [0, rows) into at most threads contiguous chunks of
// about equal work, where cost(i) is the work of rows [0, i): monotone,
// cost(0) = 0. It returns the chunk boundaries, first 0 and last rows.
// The split only decides which goroutine computes a row, never how, so it
// cannot change results.
func splitRows(rows, threads int, cost func(i int) int64) []int {
	total := cost(rows)
	if threads > rows {
		threads = rows
	}
	if limit := total / minWorkPerThread; int64(threads) > limit {
		threads = int(max(limit, 1))
	}
	if threads < 1 {
		threads = 1
	}
	bounds := make([]int, 1, threads+1)
	for t := 1; t < threads; t++ {
		// total·t/threads in 128 bits: the product may not fit in 64.
		hi, lo := bits.Mul64(uint64(total), uint64(t))
		q, _ := bits.Div64(hi, lo, uint64(threads))
		target := int64(q)
		prev := bounds[len(bounds)-1]
		b := prev + sort.Search(rows-prev, func(k int) bool { return cost(prev+k) >= target })
		if b > prev && b < rows {
			bounds = append(bounds, b)
		}
	}
	return append(bounds, rows)
}

// runChunks calls work(t, lo, hi) for every chunk t of bounds, each on its
// own goroutine except the last, which runs on the caller's.
func runChunks(bounds []int, work func(t, lo, hi int)) {
	n := len(bounds) - 1
	var wg sync.WaitGroup
	for t := 0; t < n-1; t++ {
		wg.Go(func() { work(t, bounds[t], bounds[t+1]) })
	}
	if n > 0 {
		work(n-1, bounds[n-1], bounds[n])
	}
	wg.Wait()
}

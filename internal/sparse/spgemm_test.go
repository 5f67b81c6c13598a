package sparse

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestShiftLeft checks the parallel move against a plain copy for gaps
// smaller than, equal to and larger than the pieces, with the elements
// around the moved range checked untouched.
func TestShiftLeft(t *testing.T) {
	defer func(old int64) { minShiftPiece = old }(minShiftPiece)
	minShiftPiece = 1
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int64{0, 1, 2, 3, 7, 64, 1000} {
		for _, d := range []int64{0, 1, 2, 5, 33, 500, 2000} {
			for _, threads := range []int{1, 2, 3, 4, 8} {
				to := rng.Int64N(10)
				from := to + d
				buf := make([]int32, from+n+10)
				for p := range buf {
					buf[p] = rng.Int32()
				}
				want := slices.Clone(buf)
				copy(want[to:to+n], want[from:from+n])
				shiftLeft(buf, from, to, n, threads)
				// Beyond to+n the source may keep its old values either
				// way: compare everything.
				if !slices.Equal(buf, want) {
					t.Fatalf("n=%d d=%d threads=%d: %v, want %v", n, d, threads, buf, want)
				}
			}
		}
	}
}

// TestSpGEMMThreadsBitIdentical multiplies matrices with repeated and
// cancelling products on 1 to 5 threads, split however small, and
// requires identical results.
func TestSpGEMMThreadsBitIdentical(t *testing.T) {
	defer func(old int64, block int) { minWorkPerThread, placeBlock = old, block }(minWorkPerThread, placeBlock)
	minWorkPerThread, placeBlock = 1, 1
	rng := rand.New(rand.NewPCG(5, 6))
	random := func(rows, cols, nnz int) *CSR[float64] {
		r, c, v := make([]int64, nnz), make([]int64, nnz), make([]float64, nnz)
		for p := range v {
			r[p], c[p] = rng.Int64N(int64(rows)), rng.Int64N(int64(cols))
			v[p] = float64(rng.IntN(5) - 2) // small integers: sums cancel exactly
		}
		m, err := NewCOO(rows, cols, r, c, v)
		if err != nil {
			t.Fatal(err)
		}
		return m.ToCSR()
	}
	for _, size := range []int{1, 5, 40, 200} {
		a, b := random(size, size, 4*size), random(size, size, 4*size)
		want := SpGEMM(a, b, 1)
		checkCanonical(t, fmt.Sprintf("size %d", size), want)
		for threads := 2; threads <= 5; threads++ {
			got := SpGEMM(a, b, threads)
			if !slices.Equal(got.RowPtr, want.RowPtr) || !slices.Equal(got.ColIdx, want.ColIdx) || !sameBits(got.Values, want.Values) {
				t.Fatalf("size %d: %d threads differ from 1", size, threads)
			}
		}
	}
}

// TestSpGEMMHelpers runs the chunks of the placed product one after the
// other, in several orders, so that the chunk run first in each pair
// computes its partner's half too, and those rows must be moved into
// place; the results must equal those of one thread. (Other tests run
// the threads at once, with single-row blocks, for partial help.)
func TestSpGEMMHelpers(t *testing.T) {
	defer func(old int64, sched func([]int, func(t, lo, hi int))) {
		minWorkPerThread, placeSchedule = old, sched
	}(minWorkPerThread, placeSchedule)
	minWorkPerThread = 1
	rng := rand.New(rand.NewPCG(9, 10))
	gen := func(r *rand.Rand) float64 { return float64(r.IntN(7) - 3) }
	for _, size := range []int{3, 40, 300} {
		a := randomCOO(rng, size, size, 5*size, gen).ToCSR()
		b := randomCOO(rng, size, size, 5*size, gen).ToCSR()
		want := SpGEMM(a, b, 1)
		for threads := 2; threads <= 4; threads++ {
			for _, order := range [][]int{{0, 1, 2, 3}, {3, 2, 1, 0}, {1, 0, 3, 2}, {1, 3, 0, 2}} {
				placeSchedule = func(bounds []int, work func(t, lo, hi int)) {
					for _, t := range order {
						if t < len(bounds)-1 {
							work(t, bounds[t], bounds[t+1])
						}
					}
				}
				got := SpGEMM(a, b, threads)
				if !slices.Equal(got.RowPtr, want.RowPtr) || !slices.Equal(got.ColIdx, want.ColIdx) || !sameBits(got.Values, want.Values) {
					t.Fatalf("size %d threads %d order %v: differs from 1 thread", size, threads, order)
				}
			}
		}
	}
}

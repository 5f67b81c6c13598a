package sparse

import (
	"math/rand/v2"
	"testing"
)

// TestGatherMatchesTwin runs the row-gather kernel of every kernel set
// this machine runs against its Go twin (the generic set's), bit for bit:
// rows of every width around the edges of the 8-, 4-, 2- and 1-vector
// blocks and their masked last vectors, rows of no entry to many, b's rows
// at every offset in a cache line and at positive, zero and negative row
// strides, look-ahead entries past the row (which only prefetch), special
// values, and guard elements around out that must stay untouched.
func TestGatherMatchesTwin(t *testing.T) {
	for _, v := range kernelSets.Variants() {
		t.Run(v.Name(), func(t *testing.T) {
			checkGather(t, v.K.f32.gather, goKernels[float32]().gather, 16, func(r *rand.Rand) float32 { return float32(special(r)) })
			checkGather(t, v.K.f64.gather, goKernels[float64]().gather, 8, special)
		})
	}
	t.Run("narrow", func(t *testing.T) {
		checkGather(t, gatherNarrow[float32], goKernels[float32]().gather, 16, func(r *rand.Rand) float32 { return float32(special(r)) })
		checkGather(t, gatherNarrow[float64], goKernels[float64]().gather, 8, special)
	})
}

// TestContiguousRows copies transposed and strided views, on several
// thread counts, and checks every element and that the source is intact.
func TestContiguousRows(t *testing.T) {
	defer func(old int64) { minWorkPerThread = old }(minWorkPerThread)
	minWorkPerThread = 1 // split even tiny copies
	for _, sh := range [][2]int{{1, 1}, {1, 5}, {5, 1}, {15, 3}, {16, 7}, {17, 2}, {100, 33}} {
		rows, cols := sh[0], sh[1]
		src := make([]float64, rows*cols*2+3)
		for e := range src {
			src[e] = float64(e)
		}
		for _, b := range []Dense[float64]{
			{Data: src, Off: 3, RS: 1, CS: rows, Rows: rows, Cols: cols},                   // transposed
			{Data: src, Off: 1, RS: 2 * cols, CS: 2, Rows: rows, Cols: cols},               // every other element
			{Data: src, Off: 3 + rows*cols - 1, RS: -1, CS: -rows, Rows: rows, Cols: cols}, // both reversed
		} {
			for _, threads := range []int{1, 2, 3} {
				p := contiguousRows(b, threads)
				if p.CS != 1 || p.RS != cols || p.Rows != rows || p.Cols != cols {
					t.Fatalf("%dx%d: copy is %+v", rows, cols, p)
				}
				for i := range rows {
					for j := range cols {
						if p.At(i, j) != b.At(i, j) {
							t.Fatalf("%dx%d strides %d,%d threads %d: (%d,%d) = %v, want %v", rows, cols, b.RS, b.CS, threads, i, j, p.At(i, j), b.At(i, j))
						}
					}
				}
			}
		}
		for e := range src {
			if src[e] != float64(e) {
				t.Fatalf("source changed at %d", e)
			}
		}
	}
}

func checkGather[T float32 | float64](t *testing.T, got, twin func([]T, Dense[T], []int64, []T), lanes int, gen func(*rand.Rand) T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const guard = 16
	sentinel := T(-12345.5)
	var widths []int
	for n := 0; n <= 17*lanes+1; n++ {
		widths = append(widths, n)
	}
	for range 10 {
		widths = append(widths, rng.IntN(40*lanes))
	}
	for _, n := range widths {
		for _, m := range []int{0, 1, 2, 3, 4, 5, 9, 33} {
			const k = 23 // rows of b
			off := rng.IntN(lanes)
			rs := []int{n + rng.IntN(lanes), 0, -(n + 3)}[rng.IntN(3)]
			if n == 0 && rs < 0 {
				rs = 0
			}
			// b's element (0, 0) sits at bOff; with a negative stride the
			// last row comes first in data.
			bOff := off
			if rs < 0 {
				bOff = off - (k-1)*rs
			}
			data := make([]T, bOff+max(rs, 0)*(k-1)+n+lanes)
			for e := range data {
				data[e] = gen(rng)
			}
			b := Dense[T]{Data: data, Off: bOff, RS: rs, CS: 1, Rows: k, Cols: n}
			cols := make([]int64, m+rng.IntN(20))
			for p := range cols {
				cols[p] = rng.Int64N(k)
			}
			vals := make([]T, m)
			for p := range vals {
				vals[p] = gen(rng)
			}
			run := func(g func([]T, Dense[T], []int64, []T)) []T {
				buf := make([]T, guard+off+n+guard)
				for e := range buf {
					buf[e] = sentinel
				}
				out := buf[guard+off : guard+off+n]
				for j := range out {
					out[j] = gen(rng) // stale contents must not leak
				}
				g(out, b, cols, vals)
				for e, v := range buf {
					if (e < guard+off || e >= guard+off+n) && v != sentinel {
						t.Fatalf("n=%d m=%d rs=%d: wrote outside out at %d", n, m, rs, e-guard-off)
					}
				}
				return out
			}
			want, have := run(twin), run(got)
			for j := range want {
				if !sameFloat(have[j], want[j]) {
					t.Fatalf("n=%d m=%d rs=%d: out[%d] = %v, twin %v", n, m, rs, j, have[j], want[j])
				}
			}
		}
	}
}

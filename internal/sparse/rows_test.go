package sparse

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestSpMMRowsMatchTwin runs SpMM with every kernel set this machine runs
// against the Go twin of the row gather applied row by row, bit for bit,
// at every width from 1 to past three vectors (the narrow Go loops and
// the kernels that loop over rows themselves), rows of no entry to many,
// b's rows at every offset in a cache line with positive, zero and
// negative row strides, results at positive and negative row strides with
// guard elements around them, special values, and chunks split over
// threads.
func TestSpMMRowsMatchTwin(t *testing.T) {
	defer func(old int64) { minWorkPerThread = old }(minWorkPerThread)
	minWorkPerThread = 1
	for _, v := range kernelSets.Variants() {
		t.Run(v.Name(), func(t *testing.T) {
			restore := kernelSets.Use(v.Set)
			defer restore()
			checkSpMMRows(t, 16, func(r *rand.Rand) float32 { return float32(special(r)) })
			checkSpMMRows(t, 8, special)
		})
	}
}

func checkSpMMRows[T float32 | float64](t *testing.T, lanes int, gen func(*rand.Rand) T) {
	rng := rand.New(rand.NewPCG(21, 22))
	const guard = 7
	sentinel := T(-12345.5)
	twin := goKernels[T]().gather
	for n := 1; n <= 3*lanes+1; n++ {
		for trial := range 4 {
			const k = 29 // rows of b
			m := 1 + rng.IntN(40)
			// Rows of 0 to about 12 entries, some empty, some long.
			rowPtr := make([]int64, m+1)
			for i := range m {
				e := rng.IntN(8)
				if rng.IntN(6) == 0 {
					e = rng.IntN(40)
				}
				if rng.IntN(5) == 0 {
					e = 0
				}
				rowPtr[i+1] = rowPtr[i] + int64(e)
			}
			nnz := int(rowPtr[m])
			cols, vals := make([]int64, nnz), make([]T, nnz)
			for p := range cols {
				cols[p], vals[p] = rng.Int64N(k), gen(rng)
			}
			a := &CSR[T]{Rows: m, Cols: k, RowPtr: rowPtr, ColIdx: cols, Values: vals}
			off := rng.IntN(lanes)
			rs := []int{n + rng.IntN(lanes), 0, -(n + 3)}[trial%3]
			if n == 1 && trial == 3 {
				rs = 1 // a contiguous column
			}
			bOff := off
			if rs < 0 {
				bOff = off - (k-1)*rs
			}
			data := make([]T, bOff+max(rs, 0)*(k-1)+n+lanes)
			for e := range data {
				data[e] = gen(rng)
			}
			b := Dense[T]{Data: data, Off: bOff, RS: rs, CS: 1, Rows: k, Cols: n}
			want := make([]T, m*n)
			for i := range m {
				s, e := rowPtr[i], rowPtr[i+1]
				twin(want[i*n:(i+1)*n], b, cols[s:e], vals[s:e])
			}
			// c's rows n+gap apart, forwards or backwards, guards around.
			gap := rng.IntN(3)
			crs := n + gap
			cData := make([]T, 2*guard+m*crs)
			for e := range cData {
				cData[e] = sentinel
			}
			c := Dense[T]{Data: cData, Off: guard, RS: crs, CS: 1, Rows: m, Cols: n}
			if trial%2 == 1 {
				c.Off, c.RS = guard+(m-1)*crs, -crs
			}
			for _, threads := range []int{1, 3} {
				for i := range m {
					for j := range n {
						c.Data[c.Off+i*c.RS+j] = gen(rng) // stale contents must not leak
					}
				}
				SpMM(a, b, c, threads)
				label := fmt.Sprintf("n=%d m=%d rs=%d crs=%d threads=%d", n, m, rs, c.RS, threads)
				for i := range m {
					for j := range n {
						if got := c.At(i, j); !sameFloat(got, want[i*n+j]) {
							t.Fatalf("%s: c[%d,%d] = %v, twin %v", label, i, j, got, want[i*n+j])
						}
					}
				}
				inside := make([]bool, len(cData))
				for i := range m {
					for j := range n {
						inside[c.Off+i*c.RS+j] = true
					}
				}
				for e, v := range cData {
					if !inside[e] && v != sentinel {
						t.Fatalf("%s: wrote outside c at %d", label, e)
					}
				}
			}
		}
	}
}

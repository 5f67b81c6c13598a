package sparse

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// TestPrefetchRows runs the prefetch kernel and its twin on rows at both
// ends of small and large arrays, over every element size, and checks
// that neither changes any input (a prefetch is only a hint; the test
// mostly guards against the assembly faulting or writing).
func TestPrefetchRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, kernel := range []struct {
		name string
		f    func(rowPtr, cols []int64, vals unsafe.Pointer, valSize uintptr, ks []int64)
	}{{"dispatched", prefetchRows}, {"twin", prefetchRowsGo}} {
		for _, rows := range []int{1, 2, 3, 17, 1000} {
			for _, valSize := range []uintptr{1, 2, 4, 8, 16} {
				rowPtr := make([]int64, rows+1)
				for i := 1; i <= rows; i++ {
					rowPtr[i] = rowPtr[i-1] + rng.Int64N(20)
				}
				nnz := rowPtr[rows]
				cols := make([]int64, nnz)
				for p := range cols {
					cols[p] = rng.Int64()
				}
				vals := make([]byte, int(nnz)*int(valSize)+1)
				for p := range vals {
					vals[p] = byte(rng.Uint32())
				}
				// Every row including the last one (whose start may be the
				// end of cols), in random order with repeats.
				ks := []int64{0, int64(rows - 1), int64(rows)}
				for range 50 {
					ks = append(ks, rng.Int64N(int64(rows)+1))
				}
				wantPtr, wantCols, wantVals, wantKs := slices.Clone(rowPtr), slices.Clone(cols), slices.Clone(vals), slices.Clone(ks)
				for n := range ks {
					kernel.f(rowPtr, cols, unsafe.Pointer(unsafe.SliceData(vals)), valSize, ks[:n])
				}
				if !slices.Equal(rowPtr, wantPtr) || !slices.Equal(cols, wantCols) || !slices.Equal(vals, wantVals) || !slices.Equal(ks, wantKs) {
					t.Fatalf("%s rows=%d valSize=%d: an input changed", kernel.name, rows, valSize)
				}
			}
		}
	}
}

//go:build !purego

package sparse

// AVX-512 multi-row gather kernels, in gather_rows_amd64.s: gatherRowsWm
// computes rows [lo, hi) of SpMM's result for a b of at most W vectors of
// columns, each row as gatherWm would, looping over the rows itself.

//go:noescape
func gatherRows1mF32AVX512(out *float32, ors int, b *float32, rs int, rowPtr *int64, rows int, cols []int64, vals *float32, mask uint64, ahead int)

//go:noescape
func gatherRows2mF32AVX512(out *float32, ors int, b *float32, rs int, rowPtr *int64, rows int, cols []int64, vals *float32, mask uint64, ahead int)

//go:noescape
func gatherRows1mF64AVX512(out *float64, ors int, b *float64, rs int, rowPtr *int64, rows int, cols []int64, vals *float64, mask uint64, ahead int)

//go:noescape
func gatherRows2mF64AVX512(out *float64, ors int, b *float64, rs int, rowPtr *int64, rows int, cols []int64, vals *float64, mask uint64, ahead int)

// rowsBlock is the signature of the multi-row gather kernels.
type rowsBlock[T float32 | float64] func(out *T, ors int, b *T, rs int, rowPtr *int64, rows int, cols []int64, vals *T, mask uint64, ahead int)

// rowsMinCols is the narrowest b that the multi-row kernels take: at one
// and two columns spmmNarrow's Go loops were level or faster (float32 @1
// 0.8x, @2 0.85x the kernel's CPU; float64 level), at three and four the
// kernel took 0.7-0.9x theirs, and from five to 32 columns 0.4-0.6x the
// CPU of a per-row kernel call (BenchmarkSpMMNarrow, one goroutine, in
// process A/B, Intel Xeon family 6 model 207 Emerald Rapids, load 13-16).
const rowsMinCols = 3

// asmGatherRows wraps the multi-row kernels of one and two vectors of
// lanes elements in the signature of rowKernels.rows: it takes a b of
// rowsMinCols to two vectors of columns, with contiguous rows, and a
// result with contiguous rows.
func asmGatherRows[T float32 | float64](lanes, size int, one, two rowsBlock[T]) func(a *CSR[T], b, c Dense[T], lo, hi int) bool {
	return func(a *CSR[T], b, c Dense[T], lo, hi int) bool {
		n := b.Cols
		if n < rowsMinCols || n > 2*lanes || b.CS != 1 || c.CS != 1 || c.Cols != n {
			return false
		}
		if hi <= lo {
			return true
		}
		end := a.RowPtr[hi]
		if end == 0 {
			for i := lo; i < hi; i++ {
				clear(c.row(i))
			}
			return true
		}
		if hi > a.Rows || lo < 0 || c.Rows < hi || b.Rows != a.Cols || int64(len(a.ColIdx)) < end || int64(len(a.Values)) < end {
			panic("sparse: gather of rows outside their operands")
		}
		kernel, last := one, n
		if n > lanes {
			kernel, last = two, n-lanes
		}
		kernel(&c.Data[c.Off+lo*c.RS], c.RS*size, &b.Data[b.Off], b.RS*size, &a.RowPtr[lo], hi-lo,
			a.ColIdx[:end], &a.Values[0], uint64(1)<<last-1, gatherAhead(n*size))
		return true
	}
}

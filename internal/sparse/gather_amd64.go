//go:build !purego

package sparse

// AVX-512 row-gather kernels, in gather_amd64.s: gatherWT computes a block
// of W vectors of one row of SpMM's result,
//
//	out[j] = +0 + vals[0]·b[cols[0]·rs + j] + … + vals[m-1]·b[cols[m-1]·rs + j]
//
// for the W·lanes elements j of the block (rs in bytes here); in the
// gatherWm kernels the last vector is masked to the lanes set in mask. While on entry p they prefetch
// the block of the row of entry p+ahead (or of cols' last entry): they
// read cols[m:] too, only for that.

//go:noescape
func gather8F32AVX512(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, mask uint64, ahead int)

//go:noescape
func gather8mF32AVX512(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, mask uint64, ahead int)

//go:noescape
func gather4F32AVX512(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, mask uint64, ahead int)

//go:noescape
func gather4mF32AVX512(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, mask uint64, ahead int)

//go:noescape
func gather2F32AVX512(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, mask uint64, ahead int)

//go:noescape
func gather2mF32AVX512(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, mask uint64, ahead int)

//go:noescape
func gather1F32AVX512(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, mask uint64, ahead int)

//go:noescape
func gather1mF32AVX512(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, mask uint64, ahead int)

//go:noescape
func gather8F64AVX512(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, mask uint64, ahead int)

//go:noescape
func gather8mF64AVX512(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, mask uint64, ahead int)

//go:noescape
func gather4F64AVX512(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, mask uint64, ahead int)

//go:noescape
func gather4mF64AVX512(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, mask uint64, ahead int)

//go:noescape
func gather2F64AVX512(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, mask uint64, ahead int)

//go:noescape
func gather2mF64AVX512(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, mask uint64, ahead int)

//go:noescape
func gather1F64AVX512(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, mask uint64, ahead int)

//go:noescape
func gather1mF64AVX512(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, mask uint64, ahead int)

// gatherBlock is the signature of the assembly gather kernels.
type gatherBlock[T float32 | float64] func(out *T, b *T, rs int, cols []int64, m int, vals *T, mask uint64, ahead int)

// gatherAhead is how many entries ahead a gather kernel prefetches, for
// blocks of the given bytes: about 8 KiB of b ahead, which keeps enough
// misses in flight for rows drawn from across the L3 or memory (the
// spmm/ CSR workload, 256-byte rows, took about a fifth less CPU at 32
// entries than at 16, Zen 5) without fetching so far ahead that lines are
// evicted before use.
func gatherAhead(blockBytes int) int { return min(max(8192/blockBytes, 8), 64) }

// asmGather wraps the block kernels of widths 8, 4, 2 and 1 vectors of
// lanes elements, unmasked and masked, in the signature of
// rowKernels.gather: it covers out with the widest blocks that fit, the
// last one masked if out ends inside a vector, so a row of up to eight
// vectors (128 float32, 64 float64) is one pass over its entries.
func asmGather[T float32 | float64](lanes, size int, k [4][2]gatherBlock[T]) func(out []T, b Dense[T], cols []int64, vals []T) {
	return func(out []T, b Dense[T], cols []int64, vals []T) {
		n, m := len(out), len(vals)
		if n == 0 {
			return
		}
		if m == 0 {
			clear(out)
			return
		}
		if b.Cols < n || (b.CS != 1 && n > 1) || len(cols) < m {
			panic("sparse: gather of a row outside its operands")
		}
		for j := 0; j < n; {
			vecs := (n - j + lanes - 1) / lanes
			w, kernels := 1, k[3]
			switch {
			case vecs >= 8:
				w, kernels = 8, k[0]
			case vecs >= 4:
				w, kernels = 4, k[1]
			case vecs >= 2:
				w, kernels = 2, k[2]
			}
			width := min(w*lanes, n-j)
			last := width - (w-1)*lanes
			kernel := kernels[0]
			if last < lanes {
				kernel = kernels[1]
			}
			kernel(&out[j], &b.Data[b.Off+j], b.RS*size, cols, m, &vals[0], uint64(1)<<last-1, gatherAhead(width*size))
			j += width
		}
	}
}

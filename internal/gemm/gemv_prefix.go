//go:build !purego && (amd64 || arm64)

package gemm

import "unsafe"

// prefixDot and prefixAxpy wrap an assembly dot or axpy helper that takes
// a multiple of 256 bytes: it computes the longest such prefix and the Go
// twin the rest. Every architecture's helpers use the same step, so the
// split, and with it every bit, depends on the length alone.
func prefixDot[T float32 | float64](dot func(n int, x, y *T) T) func(x, y []T) T {
	long := 256 / int(unsafe.Sizeof(T(0))) // elements in 256 bytes
	return func(x, y []T) T {
		n := len(x) &^ (long - 1)
		var s T
		if n > 0 {
			s = dot(n, &x[0], &y[0])
		}
		return s + dotGo(x[n:], y[n:len(x)])
	}
}

func prefixAxpy[T float32 | float64](axpy func(n int, alpha T, x, y *T)) func(alpha T, x, y []T) {
	long := 256 / int(unsafe.Sizeof(T(0)))
	return func(alpha T, x, y []T) {
		n := len(x) &^ (long - 1)
		if n > 0 {
			axpy(n, alpha, &x[0], &y[0])
		}
		axpyGo(alpha, x[n:], y[n:len(x)])
	}
}

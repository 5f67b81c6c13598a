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

// gemvAsm wraps assembly helpers: each takes the longest prefix whose
// length is a multiple of its step (dot and axpy 256 bytes, dot4 128, the
// AVX-512 loops' steps, which the AVX2 and NEON ones keep so that all
// compute the same bits) and the Go tails finish the rest.
func gemvAsm[T float32 | float64](
	dot func(n int, x, y *T) T,
	axpy func(n int, alpha T, x, y *T),
	dot4 func(n int, a *T, lda int, x *T, out *[4]T),
	axpy4 func(n int, alpha *[4]T, x *T, ldx int, y *T),
) gemvHelpers[T] {
	long := 256 / int(unsafe.Sizeof(T(0))) // elements in 256 bytes
	return gemvHelpers[T]{
		dot:  prefixDot(dot),
		axpy: prefixAxpy(axpy),
		dot4: func(a []T, lda int, x []T, out *[4]T) {
			n := len(x) &^ (long/2 - 1)
			if n > 0 {
				dot4(n, &a[0], lda, &x[0], out)
			} else {
				*out = [4]T{}
			}
			dot4Tail(a, lda, x, n, out)
		},
		axpy4: func(alpha *[4]T, x []T, ldx int, y []T) {
			n := len(y) &^ (long - 1)
			if n > 0 {
				axpy4(n, alpha, &x[0], ldx, &y[0])
			}
			axpy4Tail(alpha, x, ldx, y, n)
		},
	}
}

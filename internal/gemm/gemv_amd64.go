//go:build !purego

package gemm

import "unsafe"

// The AVX-512 streaming helpers (gemv_amd64.s) handle the longest prefix
// whose length is a multiple of their unroll; the Go wrappers finish the
// tail, so they compute the same as dotGo, axpyGo and axpy4Go up to
// summation order and fused rounding.

//go:noescape
func sdotAVX512(n int, x, y *float32) float32

//go:noescape
func ddotAVX512(n int, x, y *float64) float64

//go:noescape
func saxpyAVX512(n int, alpha float32, x, y *float32)

//go:noescape
func daxpyAVX512(n int, alpha float64, x, y *float64)

//go:noescape
func saxpy4AVX512(n int, alpha *[4]float32, x *float32, ldx int, y *float32)

//go:noescape
func daxpy4AVX512(n int, alpha *[4]float64, x *float64, ldx int, y *float64)

//go:noescape
func sdot4AVX512(n int, a *float32, lda int, x *float32, out *[4]float32)

//go:noescape
func ddot4AVX512(n int, a *float64, lda int, x *float64, out *[4]float64)

//go:noescape
func sdotAVX2(n int, x, y *float32) float32

//go:noescape
func ddotAVX2(n int, x, y *float64) float64

//go:noescape
func saxpyAVX2(n int, alpha float32, x, y *float32)

//go:noescape
func daxpyAVX2(n int, alpha float64, x, y *float64)

//go:noescape
func saxpy4AVX2(n int, alpha *[4]float32, x *float32, ldx int, y *float32)

//go:noescape
func daxpy4AVX2(n int, alpha *[4]float64, x *float64, ldx int, y *float64)

//go:noescape
func sdot4AVX2(n int, a *float32, lda int, x *float32, out *[4]float32)

//go:noescape
func ddot4AVX2(n int, a *float64, lda int, x *float64, out *[4]float64)

// gemvAsm wraps assembly helpers: each takes the longest prefix whose
// length is a multiple of its step (dot and axpy 256 bytes, dot4 128, the
// AVX-512 loops' steps, which the AVX2 ones keep so that both compute the
// same bits) and the Go tails finish the rest.
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

// The helpers of each ISA.
var (
	gemvAVX512F32 = gemvAsm(sdotAVX512, saxpyAVX512, sdot4AVX512, saxpy4AVX512)
	gemvAVX512F64 = gemvAsm(ddotAVX512, daxpyAVX512, ddot4AVX512, daxpy4AVX512)
	gemvAVX2F32   = gemvAsm(sdotAVX2, saxpyAVX2, sdot4AVX2, saxpy4AVX2)
	gemvAVX2F64   = gemvAsm(ddotAVX2, daxpyAVX2, ddot4AVX2, daxpy4AVX2)
)

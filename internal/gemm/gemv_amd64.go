//go:build !purego

package gemm

import "github.com/tensor-go/tensor/internal/cpufeat"

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

func dot4F32AVX512(a []float32, lda int, x []float32, out *[4]float32) {
	n := len(x) &^ 31
	if n > 0 {
		sdot4AVX512(n, &a[0], lda, &x[0], out)
	} else {
		*out = [4]float32{}
	}
	dot4Tail(a, lda, x, n, out)
}

func dot4F64AVX512(a []float64, lda int, x []float64, out *[4]float64) {
	n := len(x) &^ 15
	if n > 0 {
		ddot4AVX512(n, &a[0], lda, &x[0], out)
	} else {
		*out = [4]float64{}
	}
	dot4Tail(a, lda, x, n, out)
}

func dotF32AVX512(x, y []float32) float32 {
	n := len(x) &^ 63
	var s float32
	if n > 0 {
		s = sdotAVX512(n, &x[0], &y[0])
	}
	return s + dotGo(x[n:], y[n:len(x)])
}

func dotF64AVX512(x, y []float64) float64 {
	n := len(x) &^ 31
	var s float64
	if n > 0 {
		s = ddotAVX512(n, &x[0], &y[0])
	}
	return s + dotGo(x[n:], y[n:len(x)])
}

func axpyF32AVX512(alpha float32, x, y []float32) {
	n := len(x) &^ 63
	if n > 0 {
		saxpyAVX512(n, alpha, &x[0], &y[0])
	}
	axpyGo(alpha, x[n:], y[n:len(x)])
}

func axpyF64AVX512(alpha float64, x, y []float64) {
	n := len(x) &^ 31
	if n > 0 {
		daxpyAVX512(n, alpha, &x[0], &y[0])
	}
	axpyGo(alpha, x[n:], y[n:len(x)])
}

func axpy4F32AVX512(alpha *[4]float32, x []float32, ldx int, y []float32) {
	n := len(y) &^ 63
	if n > 0 {
		saxpy4AVX512(n, alpha, &x[0], ldx, &y[0])
	}
	axpy4Tail(alpha, x, ldx, y, n)
}

func axpy4F64AVX512(alpha *[4]float64, x []float64, ldx int, y []float64) {
	n := len(y) &^ 31
	if n > 0 {
		daxpy4AVX512(n, alpha, &x[0], ldx, &y[0])
	}
	axpy4Tail(alpha, x, ldx, y, n)
}

func init() {
	if cpufeat.AVX512 {
		axpy4F32, axpy4F64 = axpy4F32AVX512, axpy4F64AVX512
		dotF32, dotF64 = dotF32AVX512, dotF64AVX512
		axpyF32, axpyF64 = axpyF32AVX512, axpyF64AVX512
		dot4F32, dot4F64 = dot4F32AVX512, dot4F64AVX512
	}
}

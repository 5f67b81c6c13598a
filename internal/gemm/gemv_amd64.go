//go:build !purego

package gemm

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

// The helpers of each ISA.
var (
	gemvAVX512F32 = gemvAsm(sdotAVX512, saxpyAVX512, sdot4AVX512, saxpy4AVX512)
	gemvAVX512F64 = gemvAsm(ddotAVX512, daxpyAVX512, ddot4AVX512, daxpy4AVX512)
	gemvAVX2F32   = gemvAsm(sdotAVX2, saxpyAVX2, sdot4AVX2, saxpy4AVX2)
	gemvAVX2F64   = gemvAsm(ddotAVX2, daxpyAVX2, ddot4AVX2, daxpy4AVX2)
)

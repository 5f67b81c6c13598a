//go:build !purego

package gemm

// The NEON streaming helpers (gemv_arm64.s): the same bits as the AVX-512
// and AVX2 ones for the same length (the same prefixes, fused
// multiply-adds, partial sums and reduction trees).

//go:noescape
func sdotNEON(n int, x, y *float32) float32

//go:noescape
func ddotNEON(n int, x, y *float64) float64

//go:noescape
func saxpyNEON(n int, alpha float32, x, y *float32)

//go:noescape
func daxpyNEON(n int, alpha float64, x, y *float64)

//go:noescape
func sdot4NEON(n int, a *float32, lda int, x *float32, out *[4]float32)

//go:noescape
func ddot4NEON(n int, a *float64, lda int, x *float64, out *[4]float64)

//go:noescape
func saxpy4NEON(n int, alpha *[4]float32, x *float32, ldx int, y *float32)

//go:noescape
func daxpy4NEON(n int, alpha *[4]float64, x *float64, ldx int, y *float64)

var (
	gemvNEONF32 = gemvAsm(sdotNEON, saxpyNEON, sdot4NEON, saxpy4NEON)
	gemvNEONF64 = gemvAsm(ddotNEON, daxpyNEON, ddot4NEON, daxpy4NEON)
)

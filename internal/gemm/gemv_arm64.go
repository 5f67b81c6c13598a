//go:build !purego

package gemm

// The NEON dot and axpy helpers (gemv_arm64.s): the same bits as the
// AVX-512 and AVX2 ones for the same length. The four-row helpers are the
// Go twins on arm64.

//go:noescape
func sdotNEON(n int, x, y *float32) float32

//go:noescape
func ddotNEON(n int, x, y *float64) float64

//go:noescape
func saxpyNEON(n int, alpha float32, x, y *float32)

//go:noescape
func daxpyNEON(n int, alpha float64, x, y *float64)

var (
	gemvNEONF32 = gemvNEON(sdotNEON, saxpyNEON)
	gemvNEONF64 = gemvNEON(ddotNEON, daxpyNEON)
)

func gemvNEON[T float32 | float64](dot func(n int, x, y *T) T, axpy func(n int, alpha T, x, y *T)) gemvHelpers[T] {
	h := gemvGo[T]()
	h.dot, h.axpy = prefixDot(dot), prefixAxpy(axpy)
	return h
}

//go:build !purego

package gemm

// f16ToF32NEON widens n float16 (a multiple of 32) to float32 with
// FCVTL/FCVTL2: exact, signalling NaNs quietened with their payload kept,
// as f16ToF32sGo does, so the same bits.
//
//go:noescape
func f16ToF32NEON(n int, dst *float32, src *uint16)

// f16ToF32sNEON converts with NEON, finishing the tail in Go.
func f16ToF32sNEON(dst []float32, src []uint16) {
	n := len(src) &^ 31
	if n > 0 {
		f16ToF32NEON(n, &dst[:n][0], &src[0])
	}
	f16ToF32sGo(dst[n:len(src)], src[n:])
}

//go:build !purego

package gemm

//go:noescape
func f16ToF32F16C(n int, dst *float32, src *uint16)

// f16ToF32sF16C converts with F16C, finishing the tail in Go.
func f16ToF32sF16C(dst []float32, src []uint16) {
	n := len(src) &^ 31
	if n > 0 {
		f16ToF32F16C(n, &dst[0], &src[0])
	}
	f16ToF32sGo(dst[n:len(src)], src[n:])
}

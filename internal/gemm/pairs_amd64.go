//go:build !purego

package gemm

//go:noescape
func pairBytesSignedAVX512(dst *int32, src *byte, n int)

//go:noescape
func pairBytesUnsignedAVX512(dst *int32, src *byte, n int)

//go:noescape
func interleaveBytesSignedAVX512(dst *int32, lo, hi *byte, n int)

//go:noescape
func interleaveBytesUnsignedAVX512(dst *int32, lo, hi *byte, n int)

// pairBytesAVX512 is pairBytes with the whole 32 bytes in assembly and
// the rest in Go.
func pairBytesAVX512(dst []int32, src []byte, signed bool) {
	whole := len(src) &^ 31
	if whole > 0 {
		_ = dst[whole/2-1]
		if signed {
			pairBytesSignedAVX512(&dst[0], &src[0], whole)
		} else {
			pairBytesUnsignedAVX512(&dst[0], &src[0], whole)
		}
	}
	pairBytes(dst[whole/2:], src[whole:], signed)
}

// interleaveBytesAVX512 is interleaveBytes with the whole 16 bytes in
// assembly and the rest in Go.
func interleaveBytesAVX512(dst []int32, lo, hi []byte, signed bool) {
	whole := len(lo) &^ 15
	if whole > 0 {
		_, _ = dst[whole-1], hi[whole-1]
		if signed {
			interleaveBytesSignedAVX512(&dst[0], &lo[0], &hi[0], whole)
		} else {
			interleaveBytesUnsignedAVX512(&dst[0], &lo[0], &hi[0], whole)
		}
	}
	interleaveBytes(dst[whole:], lo[whole:], hi[whole:], signed)
}

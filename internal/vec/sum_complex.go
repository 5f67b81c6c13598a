package vec

import "unsafe"

// SumC64 returns the sum of a in complex128, in the canonical order of
// its parts: a is summed as the float32 run of its 2·len(a) parts, part i
// into float64 lane i%32 (so even lanes hold real parts, odd ones
// imaginary parts), and the lanes folded pairwise as SumF32 folds them
// but for the last step, which would add the real sum to the imaginary
// one: the 16 complex lanes (2k, 2k+1) fold pairwise down to one. It is
// the float kernels' speed for complex sums, which one element after
// another spent four cycles of latency per element.
func SumC64(a []complex64) complex128 { return sumPartsC64(partsOf(a)) }

// SumC64Pair returns SumC64(a) and SumC64(b), bit for bit, reading runs of
// equal length side by side where the kernel set can (see ProdF32Pair).
func SumC64Pair(a, b []complex64) (complex128, complex128) {
	if len(a) != len(b) || sumImpl.c64Pair == nil {
		return SumC64(a), SumC64(b)
	}
	return sumImpl.c64Pair(partsOf(a), partsOf(b))
}

// partsOf returns the float32 parts of a, real and imaginary in turn.
func partsOf(a []complex64) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(a))), 2*len(a))
}

// sumPartsC64 is SumC64 of the complex64 run whose parts are parts.
func sumPartsC64(parts []float32) complex128 {
	full := len(parts) &^ (lanes8 - 1)
	lane := sumImpl.f32(parts[:full])
	for j, v := range parts[full:] {
		lane[j] += float64(v)
	}
	return complexFold(&lane)
}

// SumC128 is SumC64 for complex128: the float64 run of its parts.
func SumC128(a []complex128) complex128 {
	parts := unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(a))), 2*len(a))
	full := len(parts) &^ (lanes8 - 1)
	lane := sumImpl.f64(parts[:full])
	for j, v := range parts[full:] {
		lane[j] += v
	}
	return complexFold(&lane)
}

// complexFold folds 32 float64 lanes, 16 complex ones, pairwise into a
// complex sum: sumFold32 without its last addition.
func complexFold(l *[lanes8]float64) complex128 {
	fold32To2(l)
	return complex(l[0], l[1])
}

package cast

import (
	"math"
	"math/bits"
	"unsafe"
)

// Go's float32(x) of an int64 or uint64 rounds twice on 386 (through an
// intermediate that keeps more than 24 bits but not all 64): 129594147562521
// became 129594153762816 instead of 129594145374208, one float32 ulp off.
// These conversions round once, to nearest even, on every architecture.

// int64ToFloat32 is float32(v) rounded once.
func int64ToFloat32(v int64) float32 {
	if v >= -1<<53 && v <= 1<<53 {
		return float32(float64(v)) // exact in float64, then one rounding
	}
	if v < 0 {
		return -float32(sticky53(-uint64(v)))
	}
	return float32(sticky53(uint64(v)))
}

// uint64ToFloat32 is float32(v) rounded once.
func uint64ToFloat32(v uint64) float32 {
	if v <= 1<<53 {
		return float32(float64(v))
	}
	return float32(sticky53(v))
}

// sticky53 returns u (at least 2^53) as a float64 that rounds to float32
// as u does: u's leading 53 bits, the last of them set when any bit below
// is (a sticky bit, far below float32's 24), so the float64 is exact and
// the one rounding to float32 sees whether u lay above a tie.
func sticky53(u uint64) float64 {
	s := bits.Len64(u) - 53
	r := u >> s
	if u&(1<<s-1) != 0 {
		r |= 1
	}
	return math.Ldexp(float64(r), s)
}

// convertWith is convert with the element conversion f.
func convertWith[D, S any](f func(S) D) kernel {
	return func(dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
		for i := range n {
			*(*D)(unsafe.Add(dst, i*ds)) = f(*(*S)(unsafe.Add(src, i*ss)))
		}
	}
}

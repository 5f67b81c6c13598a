package cast

import (
	"math"
	"math/bits"
)

// indefinite is the 64-bit pattern a float → integer conversion gives for
// NaN and values out of range: x86's "integer indefinite", int64 min.
const indefinite = 1 << 63

// truncSigned truncates f toward zero to an int64. NaN and values outside
// [-2^63, 2^63) give int64 min; Go leaves those to the architecture (amd64
// gives int64 min, arm64 saturates), so they are settled here.
func truncSigned(f float64) int64 {
	if f >= -0x1p63 && f < 0x1p63 {
		return int64(f)
	}
	return math.MinInt64
}

// truncUnsigned truncates f toward zero to 64 bits for an unsigned
// destination: [0, 2^64) converts directly, [-2^63, 0) wraps like the
// signed conversion (-1.5 → 2^64-1, so uint8 255), and NaN and the rest
// give 1<<63.
func truncUnsigned(f float64) uint64 {
	switch {
	case f >= 0 && f < 0x1p64:
		return uint64(f)
	case f >= -0x1p63 && f < 0:
		return uint64(int64(f))
	}
	return indefinite
}

// Rounding twice, first to float32 and then to a 16-bit float, can differ
// from rounding once: 1 + 2^-11 + 2^-40 rounds to float32 1 + 2^-11, exactly
// halfway between two float16 values, and then to even 1, although it lies
// above the midpoint and must round to 1 + 2^-10. Rounding to odd in the
// first step avoids that: truncate toward zero and, when anything was cut
// off, set the last bit. An inexact result is then never a float32 value
// with the last bit clear, so never a midpoint of a format at least two
// bits narrower, and it lies on the same side of every such midpoint as the
// exact value. Both 16-bit formats are at least 13 bits narrower than
// float32 over their whole range, subnormals included.

// oddFloat64 rounds f to float32 by rounding to odd. NaN stays NaN; values
// beyond float32's range become ±Inf, as they would in either 16-bit
// format.
func oddFloat64(f float64) float32 {
	r := float32(f)
	if float64(r) == f || r != r || math.IsInf(float64(r), 0) {
		return r
	}
	b := math.Float32bits(r)
	if math.Abs(float64(r)) > math.Abs(f) {
		b-- // rounded away from zero: step the magnitude back
	}
	return math.Float32frombits(b | 1)
}

// oddUint64 rounds u to float32 by rounding to odd.
func oddUint64(u uint64) float32 {
	const keep = 24 // float32's significand bits
	n := bits.Len64(u)
	if n <= keep {
		return float32(u) // exact
	}
	shift := n - keep
	m := u >> shift
	if u&(1<<shift-1) != 0 {
		m |= 1
	}
	// m has 24 bits and the scale is a power of two: both steps are exact.
	return float32(m) * float32(uint64(1)<<shift)
}

// oddInt64 rounds i to float32 by rounding to odd.
func oddInt64(i int64) float32 {
	if i < 0 {
		// uint64(-i) is right even for int64 min, whose negation wraps to
		// itself and reads as 2^63.
		return -oddUint64(uint64(-i))
	}
	return oddUint64(uint64(i))
}

// Package bfloat16 implements the bfloat16 ("brain float") format: the upper
// 16 bits of an IEEE-754 binary32, with 8 exponent bits and 7 mantissa bits.
//
// Conversion from float32 rounds to nearest, ties to even, and keeps NaN a
// NaN: simply truncating the low half would turn some NaNs into infinities
// and bias every rounding toward zero.
package bfloat16

import "math"

// BFloat16 holds the bits of a bfloat16 number.
type BFloat16 uint16

// FromFloat32 rounds f to the nearest bfloat16, ties to even.
func FromFloat32(f float32) BFloat16 {
	bits := math.Float32bits(f)
	if f != f {
		// Keep the sign and the top of the payload, and force the quiet bit
		// so that the NaN never rounds into the infinity encoding.
		return BFloat16(bits>>16 | 0x0040)
	}
	// Adding 0x7FFF plus the lowest kept bit rounds half to even: a low half
	// above 0x8000 carries, exactly 0x8000 carries only when the kept part is
	// odd. Overflow carries into the exponent and yields infinity, as it should.
	rounding := uint32(0x7FFF) + (bits>>16)&1
	return BFloat16((bits + rounding) >> 16)
}

// FromFloat64 rounds f to the nearest bfloat16 with a single rounding.
func FromFloat64(f float64) BFloat16 {
	// Rounding first to float32 and then to bfloat16 could round twice; do
	// it on the float64 bits directly instead (same rule, wider fraction).
	if f != f {
		return FromFloat32(float32(f))
	}
	f32 := float32(f)
	if math.IsInf(float64(f32), 0) || f32 == 0 || float64(f32) == f {
		return FromFloat32(f32)
	}
	// float32(f) rounded; recover the exact direction by truncating toward
	// zero to float32 and marking any discarded bits as sticky.
	t := math.Float32bits(f32)
	if math.Abs(float64(f32)) > math.Abs(f) {
		t-- // step back toward zero: now |t| < |f| < |t+1ulp|
	}
	t |= 1 // sticky: f is not exactly t, so it lies strictly above it
	return FromFloat32(math.Float32frombits(t))
}

// Float32 returns the exact float32 value of b.
func (b BFloat16) Float32() float32 { return math.Float32frombits(uint32(b) << 16) }

// Float64 returns the exact float64 value of b.
func (b BFloat16) Float64() float64 { return float64(b.Float32()) }

// IsNaN reports whether b is a NaN.
func (b BFloat16) IsNaN() bool { return b&0x7F80 == 0x7F80 && b&0x007F != 0 }

// Bits returns the raw encoding of b.
func (b BFloat16) Bits() uint16 { return uint16(b) }

// String formats b as its float32 value.
func (b BFloat16) String() string {
	return formatFloat32(b.Float32())
}

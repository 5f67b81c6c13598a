package gemm

import "math"

// f16ToF32sGo is the Go twin of the F16C conversion: every value, including
// subnormals, is exact in float32; signalling NaNs come out quiet, as F16C
// makes them.
func f16ToF32sGo(dst []float32, src []uint16) {
	dst = dst[:len(src)]
	for i, h := range src {
		dst[i] = f16ToF32(h)
	}
}

// f16ToF32 converts one float16 to float32.
func f16ToF32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f && mant != 0: // NaN, quietened, payload kept
		return math.Float32frombits(sign | 0x7fc00000 | mant<<13)
	case exp == 0x1f: // ±Inf
		return math.Float32frombits(sign | 0x7f800000)
	case exp == 0: // zero or subnormal: mant·2⁻²⁴, exact in float32
		f := float32(mant) * 0x1p-24
		return math.Float32frombits(sign | math.Float32bits(f))
	}
	// Normal: rebias the exponent from 15 to 127.
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}

// bf16ToF32s converts bfloat16 bits to float32: they are its upper half.
func bf16ToF32s(dst []float32, src []uint16) {
	dst = dst[:len(src)]
	for i, h := range src {
		dst[i] = math.Float32frombits(uint32(h) << 16)
	}
}

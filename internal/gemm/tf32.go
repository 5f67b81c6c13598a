package gemm

import "math"

// roundTF32 rounds x to TF32, the 19-bit format of tensor cores: float32's
// sign and 8-bit exponent with 10 of its 23 mantissa bits. Ties go to even;
// NaN and ±Inf are returned unchanged; a finite value whose rounding
// overflows becomes ±Inf, as IEEE rounding would.
func roundTF32(x float32) float32 {
	u := math.Float32bits(x)
	if u&0x7f800000 == 0x7f800000 { // NaN or Inf: keep payload and sign
		return x
	}
	const drop = 13                 // mantissa bits removed
	half := uint32(1)<<(drop-1) - 1 // just below half an ulp of the result
	u += half + (u>>drop)&1         // round half to even
	return math.Float32frombits(u &^ (1<<drop - 1))
}

// roundTF32Slice rounds every element of s to TF32 in place; it runs over
// freshly packed blocks while they are still in cache.
func roundTF32Slice(s []float32) {
	for i, v := range s {
		s[i] = roundTF32(v)
	}
}

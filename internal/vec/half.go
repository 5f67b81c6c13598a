package vec

import (
	"math"

	"github.com/x448/float16"
)

// f16ToF32 widens IEEE binary16 bits to float32 (exact).
func f16ToF32(h uint16) float32 { return float16.Frombits(h).Float32() }

// f32ToF16 rounds float32 to binary16 bits, to nearest even.
func f32ToF16(f float32) uint16 { return float16.Fromfloat32(f).Bits() }

// bf16ToF32 widens bfloat16 bits to float32: they are its upper half.
func bf16ToF32(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// f32ToBF16 rounds float32 to bfloat16 bits, to nearest even. Adding
// 0x7fff plus the lowest kept bit carries into the kept half exactly when
// the dropped half is above the midpoint, or at it with the kept half odd.
// A NaN is kept a quiet NaN instead: rounding could carry it into Inf.
func f32ToBF16(f float32) uint16 {
	u := math.Float32bits(f)
	if u&0x7fffffff > 0x7f800000 {
		return uint16(u>>16) | 0x40
	}
	return uint16((u + 0x7fff + (u>>16)&1) >> 16)
}

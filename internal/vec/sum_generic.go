package vec

import (
	"math"

	"github.com/tensor-go/tensor/internal/kernels"
)

// sumGo is the Go twin of every sum block kernel.
var sumGo = sumKernels{
	f32: sumBlocksF64[float32], f64: sumBlocksF64[float64],
	f32Pair: sumF32PairGo, c64Pair: sumC64PairGo, f64Pair: sumF64PairGo,
	i32: sumBlocks4[int32], i64: sumBlocks8[int64],
	i8: sumBlocksWiden[int8], u8: sumBlocksWiden[uint8],
	i16: sumBlocksWiden[int16], u16: sumBlocksWiden[uint16],
	f16: sumBlocksHalf(f16ToF32), bf16: sumBlocksHalf(bf16ToF32),
	foldF64: sumFoldGoF64,
}

// sumF32PairGo is the Go twin of the sum pair kernel: SumF32's twin of
// each run.
func sumF32PairGo(a, b []float32) (float64, float64) {
	return sumOneGo(a), sumOneGo(b[:len(a)])
}

// sumC64PairGo is the Go twin of the complex pair kernel: SumC64's twin of
// the parts of each run.
func sumC64PairGo(a, b []float32) (complex128, complex128) {
	return sumPartsGoC64(a), sumPartsGoC64(b[:len(a)])
}

// sumPartsGoC64 is sumPartsC64 with the Go twins.
func sumPartsGoC64(parts []float32) complex128 {
	full := len(parts) &^ (lanes8 - 1)
	lane := sumBlocksF64(parts[:full])
	for j, v := range parts[full:] {
		lane[j] += float64(v)
	}
	return complexFold(&lane)
}

// sumF64PairGo is sumF32PairGo for float64: SumF64's twin of each run.
func sumF64PairGo(a, b []float64) (float64, float64) {
	return sumOneGo(a), sumOneGo(b[:len(a)])
}

// sumOneGo is SumF32 or SumF64 with the Go twins.
func sumOneGo[T float32 | float64](a []T) float64 {
	full := len(a) &^ (lanes8 - 1)
	lane := sumBlocksF64(a[:full])
	for j, v := range a[full:] {
		lane[j] += float64(v)
	}
	return sumFoldGoF64(lane)
}

// sumImpl is the active kernel set's entry, which the exported functions
// use; architecture files add their entries to sumTable in init.
var (
	sumImpl  sumKernels
	sumTable = kernels.NewTable(&sumImpl, sumGo)
)

// negZero is -0, where float sums start.
var negZero = math.Copysign(0, -1)

// sumBlocksF64 adds the full 32-element blocks of a into 32 float64 lanes:
//
//	lane[j] = -0; for i, v := range a { lane[i%32] += float64(v) }
func sumBlocksF64[T float32 | float64](a []T) (lane [lanes8]float64) {
	for j := range lane {
		lane[j] = negZero
	}
	for ; len(a) >= lanes8; a = a[lanes8:] {
		for j, v := range a[:lanes8] {
			lane[j] += float64(v)
		}
	}
	return lane
}

// sumBlocksHalf returns sumBlocksF64 for a 16-bit float type widened by
// widen.
func sumBlocksHalf(widen func(uint16) float32) func(a []uint16) [lanes8]float64 {
	return func(a []uint16) (lane [lanes8]float64) {
		for j := range lane {
			lane[j] = negZero
		}
		for ; len(a) >= lanes8; a = a[lanes8:] {
			for j, v := range a[:lanes8] {
				lane[j] += float64(widen(v))
			}
		}
		return lane
	}
}

// sumBlocks4 adds the full 64-element blocks of a into 64 lanes.
func sumBlocks4[T number](a []T) (lane [lanes4]T) {
	for ; len(a) >= lanes4; a = a[lanes4:] {
		for j, v := range a[:lanes4] {
			lane[j] += v
		}
	}
	return lane
}

// sumBlocks8 adds the full 32-element blocks of a into 32 lanes.
func sumBlocks8[T number](a []T) (lane [lanes8]T) {
	for ; len(a) >= lanes8; a = a[lanes8:] {
		for j, v := range a[:lanes8] {
			lane[j] += v
		}
	}
	return lane
}

// sumBlocksWiden is sumBlocks4 for narrow integers extended to int32.
func sumBlocksWiden[E small](a []E) (lane [lanes4]int32) {
	for ; len(a) >= lanes4; a = a[lanes4:] {
		for j, v := range a[:lanes4] {
			lane[j] += int32(v)
		}
	}
	return lane
}

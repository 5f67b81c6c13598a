package vec

import "github.com/tensor-go/tensor/internal/kernels"

// prodGo is the Go twin of every block kernel.
var prodGo = prodKernels{
	f32: blocksF64[float32], f64: blocks8[float64],
	f32Pair: prodF32PairGo, f64Pair: prodF64PairGo,
	i32: blocks4[int32], i64: blocks8[int64],
	i8: blocksWiden[int8], u8: blocksWiden[uint8],
	i16: blocksWiden[int16], u16: blocksWiden[uint16],
	f16: blocksHalf(f16ToF32), bf16: blocksHalf(bf16ToF32),
	c64: blocksC64, c128: blocksC128,
	foldF64: foldGoF64,
}

// prodImpl is the active kernel set's entry, which the exported functions
// use; architecture files add their entries to prodTable in init.
var (
	prodImpl  prodKernels
	prodTable = kernels.NewTable(&prodImpl, prodGo)
)

// blocks4 multiplies the full 64-element blocks of a into 64 lanes:
//
//	lane[j] = 1; for i, v := range a { lane[i%64] *= v }
func blocks4[T number](a []T) (lane [lanes4]T) {
	for j := range lane {
		lane[j] = 1
	}
	for ; len(a) >= lanes4; a = a[lanes4:] {
		for j, v := range a[:lanes4] {
			lane[j] *= v
		}
	}
	return lane
}

// blocks8 multiplies the full 32-element blocks of a into 32 lanes:
//
//	lane[j] = 1; for i, v := range a { lane[i%32] *= v }
func blocks8[T number](a []T) (lane [lanes8]T) {
	for j := range lane {
		lane[j] = 1
	}
	for ; len(a) >= lanes8; a = a[lanes8:] {
		for j, v := range a[:lanes8] {
			lane[j] *= v
		}
	}
	return lane
}

// blocksWiden is blocks4 for narrow integers extended to int32.
func blocksWiden[E small](a []E) (lane [lanes4]int32) {
	for j := range lane {
		lane[j] = 1
	}
	for ; len(a) >= lanes4; a = a[lanes4:] {
		for j, v := range a[:lanes4] {
			lane[j] *= int32(v)
		}
	}
	return lane
}

// blocksF64 multiplies the full 32-element blocks of a into 32 float64
// lanes:
//
//	lane[j] = 1; for i, v := range a { lane[i%32] *= float64(v) }
func blocksF64[T float32 | float64](a []T) (lane [lanes8]float64) {
	for j := range lane {
		lane[j] = 1
	}
	for ; len(a) >= lanes8; a = a[lanes8:] {
		for j, v := range a[:lanes8] {
			lane[j] *= float64(v)
		}
	}
	return lane
}

// prodF32PairGo is the Go twin of the pair kernel: ProdF32's twin of
// each run.
func prodF32PairGo(a, b []float32) (float64, float64) {
	return prodOneGo(a), prodOneGo(b[:len(a)])
}

// prodF64PairGo is prodF32PairGo for float64: ProdF64's twin of each run.
func prodF64PairGo(a, b []float64) (float64, float64) {
	return prodOneGo(a), prodOneGo(b[:len(a)])
}

// prodOneGo is ProdF32 or ProdF64 with the Go twins.
func prodOneGo[T float32 | float64](a []T) float64 {
	full := len(a) &^ (lanes8 - 1)
	lane := blocksF64(a[:full])
	for j, v := range a[full:] {
		lane[j] *= float64(v)
	}
	return fold32(&lane)
}

// blocksHalf returns blocksF64 for a 16-bit float type widened by widen.
func blocksHalf(widen func(uint16) float32) func(a []uint16) [lanes8]float64 {
	return func(a []uint16) (lane [lanes8]float64) {
		for j := range lane {
			lane[j] = 1
		}
		for ; len(a) >= lanes8; a = a[lanes8:] {
			for j, v := range a[:lanes8] {
				lane[j] *= float64(widen(v))
			}
		}
		return lane
	}
}

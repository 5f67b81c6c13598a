//go:build !purego

package vec

import "github.com/tensor-go/tensor/internal/kernels"

//go:noescape
func prodF32AVX512(a []float32) [lanes8]float64

//go:noescape
func prodF64AVX512(a []float64) [lanes8]float64

//go:noescape
func prodI32AVX512(a []int32) [lanes4]int32

//go:noescape
func prodI64AVX512(a []int64) [lanes8]int64

//go:noescape
func prodI8AVX512(a []int8) [lanes4]int32

//go:noescape
func prodU8AVX512(a []uint8) [lanes4]int32

//go:noescape
func prodI16AVX512(a []int16) [lanes4]int32

//go:noescape
func prodU16AVX512(a []uint16) [lanes4]int32

//go:noescape
func prodF16AVX512(a []uint16) [lanes8]float64

//go:noescape
func prodBF16AVX512(a []uint16) [lanes8]float64

// prodF32PairAVX512 is ProdF32 of a and of b (as long as a), whole runs,
// side by side.
//
//go:noescape
func prodF32PairAVX512(a, b []float32) (pa, pb float64)

// prodF32PairAVX2 is prodF32PairAVX512 for runs of whole blocks.
//
//go:noescape
func prodF32PairAVX2(a, b []float32) (pa, pb float64)

// prodF64PairAVX512 is ProdF64 of a and of b (as long as a), whole runs,
// side by side.
//
//go:noescape
func prodF64PairAVX512(a, b []float64) (pa, pb float64)

// sumF64PairAVX512 is SumF64 of a and of b (as long as a) side by side.
//
//go:noescape
func sumF64PairAVX512(a, b []float64) (pa, pb float64)

// sumF32PairAVX512 is SumF32 of a and of b (as long as a) side by side.
//
//go:noescape
func sumF32PairAVX512(a, b []float32) (pa, pb float64)

// sumF32PairAVX2 is sumF32PairAVX512 for runs of whole blocks.
//
//go:noescape
func sumF32PairAVX2(a, b []float32) (pa, pb float64)

// sumC64PairAVX512 is SumC64 of two complex64 runs of equal length, side
// by side, given as their parts.
//
//go:noescape
func sumC64PairAVX512(a, b []float32) (pa, pb complex128)

// sumC64PairAVX2 is sumC64PairAVX512 for runs of whole blocks of parts.
//
//go:noescape
func sumC64PairAVX2(a, b []float32) (pa, pb complex128)

// sumPairC64AVX2 is the AVX2 set's complex pair kernel: runs of whole
// blocks through sumC64PairAVX2, others one after the other.
func sumPairC64AVX2(a, b []float32) (complex128, complex128) {
	if len(a)%lanes8 != 0 {
		return sumPartsC64(a), sumPartsC64(b)
	}
	return sumC64PairAVX2(a, b[:len(a)])
}

// sumPairF32AVX2 is pairF32AVX2 for sums.
func sumPairF32AVX2(a, b []float32) (float64, float64) {
	if len(a)%lanes8 != 0 {
		return SumF32(a), SumF32(b)
	}
	return sumF32PairAVX2(a, b[:len(a)])
}

// pairF32AVX2 is the AVX2 set's pair kernel: runs of whole blocks (the
// chunks and rows the engine pairs mostly are) through prodF32PairAVX2,
// others one after the other.
func pairF32AVX2(a, b []float32) (float64, float64) {
	if len(a)%lanes8 != 0 {
		return ProdF32(a), ProdF32(b)
	}
	return prodF32PairAVX2(a, b[:len(a)])
}

//go:noescape
func prodF32AVX2(a []float32) [lanes8]float64

//go:noescape
func prodF64AVX2(a []float64) [lanes8]float64

//go:noescape
func prodI32AVX2(a []int32) [lanes4]int32

//go:noescape
func prodI8AVX2(a []int8) [lanes4]int32

//go:noescape
func prodU8AVX2(a []uint8) [lanes4]int32

//go:noescape
func prodI16AVX2(a []int16) [lanes4]int32

//go:noescape
func prodU16AVX2(a []uint16) [lanes4]int32

//go:noescape
func prodF16AVX2(a []uint16) [lanes8]float64

//go:noescape
func prodBF16AVX2(a []uint16) [lanes8]float64

// foldF64AVX512 is fold32 for float64 lanes, the same products in
// registers:
//
//	for half := 16; half > 0; half /= 2 { for j := range half { l[j] *= l[j+half] } }; return l[0]
func foldF64AVX512(l [lanes8]float64) float64

// prodC64AVX512 and prodC64AVX2 are the complex64 block kernels (see
// ProdC64): the full blocks of a, at least one, into planar lanes.
//
//go:noescape
func prodC64AVX512(a []complex64) [lanes8]float64

//go:noescape
func prodC64AVX2(a []complex64) [lanes8]float64

// prodC128AVX512 and prodC128AVX2 are the complex128 block kernels (see
// ProdC128), with the same planar lanes.
//
//go:noescape
func prodC128AVX512(a []complex128) [lanes8]float64

//go:noescape
func prodC128AVX2(a []complex128) [lanes8]float64

//go:noescape
func sumF32AVX512(a []float32) [lanes8]float64

//go:noescape
func sumF64AVX512(a []float64) [lanes8]float64

//go:noescape
func sumF16AVX512(a []uint16) [lanes8]float64

//go:noescape
func sumBF16AVX512(a []uint16) [lanes8]float64

//go:noescape
func sumI32AVX512(a []int32) [lanes4]int32

//go:noescape
func sumI64AVX512(a []int64) [lanes8]int64

//go:noescape
func sumI8AVX512(a []int8) [lanes4]int32

//go:noescape
func sumU8AVX512(a []uint8) [lanes4]int32

//go:noescape
func sumI16AVX512(a []int16) [lanes4]int32

//go:noescape
func sumU16AVX512(a []uint16) [lanes4]int32

//go:noescape
func sumF32AVX2(a []float32) [lanes8]float64

//go:noescape
func sumF64AVX2(a []float64) [lanes8]float64

//go:noescape
func sumF16AVX2(a []uint16) [lanes8]float64

//go:noescape
func sumBF16AVX2(a []uint16) [lanes8]float64

//go:noescape
func sumI32AVX2(a []int32) [lanes4]int32

//go:noescape
func sumI64AVX2(a []int64) [lanes8]int64

//go:noescape
func sumI8AVX2(a []int8) [lanes4]int32

//go:noescape
func sumU8AVX2(a []uint8) [lanes4]int32

//go:noescape
func sumI16AVX2(a []int16) [lanes4]int32

//go:noescape
func sumU16AVX2(a []uint16) [lanes4]int32

// sumFoldF64AVX512 is sumFold32 for float64 lanes, the same sums in
// registers.
func sumFoldF64AVX512(l [lanes8]float64) float64

// foldF64AVX2 is foldF64AVX512 in ymm registers: the same products, so
// the same bits.
func foldF64AVX2(l [lanes8]float64) float64

// sumFoldF64AVX2 is sumFoldF64AVX512 in ymm registers.
func sumFoldF64AVX2(l [lanes8]float64) float64

var prodAVX512 = prodKernels{
	f32: prodF32AVX512, f64: prodF64AVX512,
	f32Pair: prodF32PairAVX512, f64Pair: prodF64PairAVX512,
	i32: prodI32AVX512, i64: prodI64AVX512,
	i8: prodI8AVX512, u8: prodU8AVX512,
	i16: prodI16AVX512, u16: prodU16AVX512,
	f16: prodF16AVX512, bf16: prodBF16AVX512,
	c64: prodC64AVX512, c128: prodC128AVX512,
	foldF64: foldF64AVX512,
}

// prodAVX2 reduces int64 in Go: AVX2 has no 64-bit multiply. It has no
// float64 pair kernel (ProdF64Pair reduces the runs one after the other):
// without masks the tails of the rows it is for (a thousand elements)
// would go back to Go.
var prodAVX2 = prodKernels{
	f32: prodF32AVX2, f64: prodF64AVX2,
	f32Pair: pairF32AVX2,
	i32:     prodI32AVX2, i64: blocks8[int64],
	i8: prodI8AVX2, u8: prodU8AVX2,
	i16: prodI16AVX2, u16: prodU16AVX2,
	f16: prodF16AVX2, bf16: prodBF16AVX2,
	c64: prodC64AVX2, c128: prodC128AVX2,
	foldF64: foldF64AVX2,
}

var sumAVX512 = sumKernels{
	f32: sumF32AVX512, f64: sumF64AVX512,
	f32Pair: sumF32PairAVX512, c64Pair: sumC64PairAVX512,
	f64Pair: sumF64PairAVX512,
	i32:     sumI32AVX512, i64: sumI64AVX512,
	i8: sumI8AVX512, u8: sumU8AVX512,
	i16: sumI16AVX512, u16: sumU16AVX512,
	f16: sumF16AVX512, bf16: sumBF16AVX512,
	foldF64: sumFoldF64AVX512,
}

// sumAVX2 has every kernel: AVX2 adds 64-bit integers.
var sumAVX2 = sumKernels{
	f32: sumF32AVX2, f64: sumF64AVX2,
	f32Pair: sumPairF32AVX2, c64Pair: sumPairC64AVX2,
	i32: sumI32AVX2, i64: sumI64AVX2,
	i8: sumI8AVX2, u8: sumU8AVX2,
	i16: sumI16AVX2, u16: sumU16AVX2,
	f16: sumF16AVX2, bf16: sumBF16AVX2,
	foldF64: sumFoldF64AVX2,
}

func init() {
	prodTable.Add(kernels.AVX512, prodAVX512)
	prodTable.Add(kernels.AVX2, prodAVX2)
	sumTable.Add(kernels.AVX512, sumAVX512)
	sumTable.Add(kernels.AVX2, sumAVX2)
}

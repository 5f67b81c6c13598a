//go:build !purego

package vec

import "github.com/tensor-go/tensor/internal/kernels"

// NEON reduction kernels, in reduce_arm64.s: per 256-byte block of lanes
// sixteen FMUL, MUL, FADD or ADD (one per accumulator register), after
// four 64-byte loads for same-width elements; two loads and sixteen
// widening instructions (FCVTL, SHLL, SXTL, UXTL) for elements of half the
// lanes' width; one load and twenty-four widenings for a quarter. They are
// bound by load bandwidth in cache and by memory bandwidth beyond it (see
// the file's comment). The order is the canonical one of the package
// comment, so the results are the Go twins' bits.

//go:noescape
func prodF32NEON(a []float32) [lanes8]float64

//go:noescape
func prodF64NEON(a []float64) [lanes8]float64

//go:noescape
func prodI32NEON(a []int32) [lanes4]int32

//go:noescape
func prodI8NEON(a []int8) [lanes4]int32

//go:noescape
func prodU8NEON(a []uint8) [lanes4]int32

//go:noescape
func prodI16NEON(a []int16) [lanes4]int32

//go:noescape
func prodU16NEON(a []uint16) [lanes4]int32

//go:noescape
func prodF16NEON(a []uint16) [lanes8]float64

//go:noescape
func prodBF16NEON(a []uint16) [lanes8]float64

//go:noescape
func sumF32NEON(a []float32) [lanes8]float64

//go:noescape
func sumF64NEON(a []float64) [lanes8]float64

//go:noescape
func sumF16NEON(a []uint16) [lanes8]float64

//go:noescape
func sumBF16NEON(a []uint16) [lanes8]float64

//go:noescape
func sumI32NEON(a []int32) [lanes4]int32

//go:noescape
func sumI64NEON(a []int64) [lanes8]int64

//go:noescape
func sumI8NEON(a []int8) [lanes4]int32

//go:noescape
func sumU8NEON(a []uint8) [lanes4]int32

//go:noescape
func sumI16NEON(a []int16) [lanes4]int32

//go:noescape
func sumU16NEON(a []uint16) [lanes4]int32

// foldF64NEON is fold32 for float64 lanes in registers: 15 FMUL on two
// lanes and one scalar.
func foldF64NEON(l [lanes8]float64) float64

// sumFoldF64NEON is sumFold32 for float64 lanes in registers, FADD for
// FMUL.
func sumFoldF64NEON(l [lanes8]float64) float64

// prodNEON reduces int64 in Go: NEON has no 64-bit vector multiply.
var prodNEON = prodKernels{
	f32: prodF32NEON, f64: prodF64NEON,
	i32: prodI32NEON, i64: blocks8[int64],
	i8: prodI8NEON, u8: prodU8NEON,
	i16: prodI16NEON, u16: prodU16NEON,
	f16: prodF16NEON, bf16: prodBF16NEON,
	c64:     blocksC64, // the Go twins: no NEON complex kernels yet
	c128:    blocksC128,
	foldF64: foldF64NEON,
}

var sumNEON = sumKernels{
	f32: sumF32NEON, f64: sumF64NEON,
	i32: sumI32NEON, i64: sumI64NEON,
	i8: sumI8NEON, u8: sumU8NEON,
	i16: sumI16NEON, u16: sumU16NEON,
	f16: sumF16NEON, bf16: sumBF16NEON,
	foldF64: sumFoldF64NEON,
}

func init() {
	prodTable.Add(kernels.NEON, prodNEON)
	sumTable.Add(kernels.NEON, sumNEON)
}

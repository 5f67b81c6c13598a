//go:build !purego

package vec

import "github.com/tensor-go/tensor/internal/kernels"

// NEON kernels, in binary_arm64.s. Each handles whole 16-byte vectors,
// four per iteration and then one at a time; tailed gives the last partial
// vector to the Go twin. Every kernel is bound by memory bandwidth, not
// arithmetic: an iteration of the same-type kernels is two 64-byte loads,
// four vector instructions and one 64-byte store, 192 bytes moved for four
// instructions that a core with two or more vector pipes retires in two
// cycles or less, while even an L1-resident run moves at most 64 to 128
// bytes a cycle. The products and sums round once per element, as the Go
// twins' do; nothing fuses.

// Same-type multiplies: per iteration (64 bytes of dst) two four-register
// loads (LD1), four FMUL or MUL and one four-register store (ST1).

//go:noescape
func mulF32NEON(dst, a, b []float32)

//go:noescape
func mulF64NEON(dst, a, b []float64)

//go:noescape
func mulI8NEON(dst, a, b []int8)

//go:noescape
func mulI16NEON(dst, a, b []int16)

//go:noescape
func mulI32NEON(dst, a, b []int32)

// Scalar multiplies: per iteration one four-register load, four FMUL or
// MUL against the broadcast scalar and one four-register store.

//go:noescape
func mulScalarF32NEON(dst, a []float32, s float32)

//go:noescape
func mulScalarF64NEON(dst, a []float64, s float64)

//go:noescape
func mulScalarI8NEON(dst, a []int8, s int8)

//go:noescape
func mulScalarI16NEON(dst, a []int16, s int16)

//go:noescape
func mulScalarI32NEON(dst, a []int32, s int32)

// mulF32I32NEON: per iteration two four-register loads, four SCVTF
// (rounding to nearest even, as Go's conversion), four FMUL, one store.
//
//go:noescape
func mulF32I32NEON(dst, a []float32, b []int32)

// mulF64F32NEON: per iteration (eight float64) a four-register load of a,
// a two-register load of b, four FCVTL/FCVTL2 (exact), four FMUL, one
// four-register store.
//
//go:noescape
func mulF64F32NEON(dst, a []float64, b []float32)

// mulF16NEON: per iteration (32 halves) two four-register loads, sixteen
// FCVTL/FCVTL2, eight FMUL on float32, eight FCVTN/FCVTN2 (one rounding,
// to nearest even, of an exact product) and one four-register store: 32
// instructions for 192 bytes, still at memory speed beyond L1.
//
//go:noescape
func mulF16NEON(dst, a, b []uint16)

// mulScalarF16NEON is mulF16NEON with the scalar's float32 value: one
// load, eight FCVTL/FCVTL2, eight FMUL, eight FCVTN/FCVTN2, one store.
//
//go:noescape
func mulScalarF16NEON(dst, a []uint16, s float32)

// mulBF16NEON and mulScalarBF16NEON: per iteration (32 bfloat16) the
// loads and stores of mulF16NEON, sixteen (eight) SHLL/SHLL2, eight FMUL,
// eight BF16ROUNDs of seven integer and compare instructions and four
// UZP2: about 90 instructions for 192 bytes, so bound by the vector pipes
// in L1 (some 22 cycles on four) and by memory bandwidth beyond it, where
// the Go twin's branchy scalar rounding is not.
//
//go:noescape
func mulBF16NEON(dst, a, b []uint16)

//go:noescape
func mulScalarBF16NEON(dst, a []uint16, s float32)

// The add kernels are the multiplies' counterparts, FADD or ADD in place of
// FMUL or MUL, with the same counts; NEON also adds 64-bit integers.

//go:noescape
func addF32NEON(dst, a, b []float32)

//go:noescape
func addF64NEON(dst, a, b []float64)

//go:noescape
func addI8NEON(dst, a, b []int8)

//go:noescape
func addI16NEON(dst, a, b []int16)

//go:noescape
func addI32NEON(dst, a, b []int32)

//go:noescape
func addI64NEON(dst, a, b []int64)

//go:noescape
func addScalarF32NEON(dst, a []float32, s float32)

//go:noescape
func addScalarF64NEON(dst, a []float64, s float64)

//go:noescape
func addScalarI8NEON(dst, a []int8, s int8)

//go:noescape
func addScalarI16NEON(dst, a []int16, s int16)

//go:noescape
func addScalarI32NEON(dst, a []int32, s int32)

//go:noescape
func addScalarI64NEON(dst, a []int64, s int64)

//go:noescape
func addF32I32NEON(dst, a []float32, b []int32)

//go:noescape
func addF64F32NEON(dst, a []float64, b []float32)

//go:noescape
func addF16NEON(dst, a, b []uint16)

//go:noescape
func addScalarF16NEON(dst, a []uint16, s float32)

//go:noescape
func addBF16NEON(dst, a, b []uint16)

//go:noescape
func addScalarBF16NEON(dst, a []uint16, s float32)

// mulNEON has no int64 kernels (NEON has no 64-bit vector multiply): those
// are the Go twins. bfloat16 rounds with integer instructions, BFCVTN
// being an extension (BF16) that not every arm64 processor has.
var mulNEON = binaryKernels{
	f32: tailed(4, mulF32NEON, mulNumbers[float32]),
	f64: tailed(2, mulF64NEON, mulNumbers[float64]),
	i8:  tailed(16, mulI8NEON, mulNumbers[int8]),
	i16: tailed(8, mulI16NEON, mulNumbers[int16]),
	i32: tailed(4, mulI32NEON, mulNumbers[int32]),
	i64: mulNumbers[int64],

	scalarF32: tailedScalar(4, mulScalarF32NEON, mulScalarNumbers[float32]),
	scalarF64: tailedScalar(2, mulScalarF64NEON, mulScalarNumbers[float64]),
	scalarI8:  tailedScalar(16, mulScalarI8NEON, mulScalarNumbers[int8]),
	scalarI16: tailedScalar(8, mulScalarI16NEON, mulScalarNumbers[int16]),
	scalarI32: tailedScalar(4, mulScalarI32NEON, mulScalarNumbers[int32]),
	scalarI64: mulScalarNumbers[int64],

	f32i32:     tailed(4, mulF32I32NEON, mulF32I32Go),
	f64f32:     tailed(2, mulF64F32NEON, mulF64F32Go),
	f16:        tailed(8, mulF16NEON, mulF16Go),
	bf16:       tailed(8, mulBF16NEON, mulBF16Go),
	scalarF16:  tailedScalar(8, mulScalarF16NEON, mulScalarF16Go),
	scalarBF16: tailedScalar(8, mulScalarBF16NEON, mulScalarBF16Go),
}

// addNEON is mulNEON's counterpart for addition, int64 included.
var addNEON = binaryKernels{
	f32: tailed(4, addF32NEON, addNumbers[float32]),
	f64: tailed(2, addF64NEON, addNumbers[float64]),
	i8:  tailed(16, addI8NEON, addNumbers[int8]),
	i16: tailed(8, addI16NEON, addNumbers[int16]),
	i32: tailed(4, addI32NEON, addNumbers[int32]),
	i64: tailed(2, addI64NEON, addNumbers[int64]),

	scalarF32: tailedScalar(4, addScalarF32NEON, addScalarNumbers[float32]),
	scalarF64: tailedScalar(2, addScalarF64NEON, addScalarNumbers[float64]),
	scalarI8:  tailedScalar(16, addScalarI8NEON, addScalarNumbers[int8]),
	scalarI16: tailedScalar(8, addScalarI16NEON, addScalarNumbers[int16]),
	scalarI32: tailedScalar(4, addScalarI32NEON, addScalarNumbers[int32]),
	scalarI64: tailedScalar(2, addScalarI64NEON, addScalarNumbers[int64]),

	f32i32:     tailed(4, addF32I32NEON, addF32I32Go),
	f64f32:     tailed(2, addF64F32NEON, addF64F32Go),
	f16:        tailed(8, addF16NEON, addF16Go),
	bf16:       tailed(8, addBF16NEON, addBF16Go),
	scalarF16:  tailedScalar(8, addScalarF16NEON, addScalarF16Go),
	scalarBF16: tailedScalar(8, addScalarBF16NEON, addScalarBF16Go),
}

// The Streaming kernels store normally on NEON: Go 1.26's assembler has no
// non-temporal pair store (STNP), and an ordinary store at memory speed is
// what the plain kernels already reach.
var (
	mulStreamNEON = streamKernels{f32: mulNEON.f32, f64: mulNEON.f64, scalarF32: mulNEON.scalarF32, scalarF64: mulNEON.scalarF64,
		i8: mulNEON.i8, i16: mulNEON.i16, i32: mulNEON.i32, i64: mulNEON.i64, scalarI32: mulNEON.scalarI32}
	addStreamNEON = streamKernels{f32: addNEON.f32, f64: addNEON.f64, scalarF32: addNEON.scalarF32, scalarF64: addNEON.scalarF64,
		i8: addNEON.i8, i16: addNEON.i16, i32: addNEON.i32, i64: addNEON.i64, scalarI32: addNEON.scalarI32}
)

func init() {
	mulTable.Add(kernels.NEON, mulNEON)
	addTable.Add(kernels.NEON, addNEON)
	mulStreamTable.Add(kernels.NEON, mulStreamNEON)
	addStreamTable.Add(kernels.NEON, addStreamNEON)
}

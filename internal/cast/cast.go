// Package cast converts runs of elements between the fifteen dtypes with
// NumPy's conversion rules. It is the one place where values change type:
// AsType, the into-forms of operations, scalar materialisation and the
// product kernels' widening all come here.
//
// # Rules
//
//   - integer → integer wraps: the value is truncated to the destination's
//     width in two's complement (int32 300 → int8 44, int8 -1 → uint8 255,
//     uint8 255 → int8 -1), after sign or zero extension by the source's
//     signedness.
//   - integer → float rounds to nearest, ties to even, once (uint64 max →
//     float32 2^64, int32 16777217 → float32 16777216).
//   - float → float rounds to nearest, ties to even, once, also from float64
//     to float16 and bfloat16; NaN stays NaN, ±Inf and −0 are kept, overflow
//     gives ±Inf.
//   - float → integer truncates toward zero and then wraps to the width
//     (float32 300.5 → int8 44, -1.5 → uint8 255). Values whose truncation
//     does not fit in 64 bits, and NaN, become the bit pattern 1<<63 (x86's
//     "integer indefinite" value) before wrapping: int64 min for int64 and
//     uint64, 0 for narrower types. Unsigned destinations accept the whole
//     range [-2^63, 2^64). This is what NumPy gives on x86 for int64, and
//     unlike Go's own conversion it is the same on every architecture.
//   - complex → real drops the imaginary part, then converts the real part
//     as a float; real → complex sets the imaginary part to 0.
//   - anything → bool is x != 0 (NaN → true, −0 → false; a complex value is
//     true when either part is nonzero); bool → number is 0 or 1.
//
// # Speed
//
// Run looks the kernel for a dtype pair up once per call in a 16×16 table,
// never per element. Pairs among the ten plain Go number types (integers,
// float32, float64) are single generic loops that compile to one machine
// conversion per element; a same-dtype contiguous run is a memmove.
// Contiguous int32 → float32, float32 ↔ float64, float16 ↔ float32 and
// bfloat16 ↔ float32 runs use AVX, AVX2 or F16C assembly on amd64 and NEON
// on arm64 (see kernels_generic.go). Other pairs involving float16,
// bfloat16 or complex types are staged through a small float32 or float64
// buffer, composing the direct kernels, so they reach the assembly too.
package cast

import (
	"fmt"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
)

// kernel converts n elements: element i is read at src+i*ss and written at
// dst+i*ds (strides in bytes, possibly zero or negative).
type kernel func(dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int)

// numDTypes bounds the dtype enum, Invalid included.
const numDTypes = 16

// table[dst][src] converts from src's dtype to dst's.
var table [numDTypes][numDTypes]kernel

func init() { buildTable() }

// Run converts n elements from src (dtype st, byte stride ss) into dst
// (dtype dt, byte stride ds): element i is read at src+i*ss and written at
// dst+i*ds. Strides may be 0 (a broadcast source) or negative. The source
// and destination must not overlap unless they are the same dtype and the
// same run.
//
// Run panics if a dtype is not one of the fifteen element types; callers
// validate dtypes at their public boundary.
func Run(dst unsafe.Pointer, dt dtype.DType, ds int, src unsafe.Pointer, st dtype.DType, ss int, n int) {
	if n <= 0 {
		return
	}
	if !dt.Valid() || !st.Valid() {
		panic(fmt.Sprintf("cast.Run: invalid dtype pair %v <- %v", dt, st))
	}
	table[dt][st](dst, ds, src, ss, n)
}

// HalfToFloat32 widens len(dst) float16 bit patterns from src (at least
// as long) to float32 through the active kernel set (F16C, NEON FCVTL or
// the twin, all the same bits): exact, a NaN quietened with its payload
// kept. internal/gemm widens its packed float16 blocks with it.
func HalfToFloat32(dst []float32, src []uint16) { active.halfToFloat32(dst, src) }

// BrainToFloat32 is HalfToFloat32 for bfloat16 bit patterns (exact: they
// are a float32's upper half).
func BrainToFloat32(dst []float32, src []uint16) { active.brainToFloat32(dst, src) }

// Kernel returns the conversion for one dtype pair, for callers that run
// many short runs of the same pair and want to skip the lookup; it is the
// function Run calls. It panics on an invalid dtype, like Run.
func Kernel(dt, st dtype.DType) func(dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	if !dt.Valid() || !st.Valid() {
		panic(fmt.Sprintf("cast.Kernel: invalid dtype pair %v <- %v", dt, st))
	}
	return table[dt][st]
}

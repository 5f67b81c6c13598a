// Package ewise holds the dtype-generic kernels of the element-wise multiply
// and the product reduction. Each kernel is an iter.Kernel: it processes one
// 1-D run of its operands, with any byte strides (including 0 for a
// broadcast operand and negative ones for reversed views). Runs that are
// contiguous, or contiguous against one broadcast operand, go to the SIMD
// kernels of internal/vec when UseVec is set; everything else, and every
// dtype vec does not cover, runs the plain Go loops written here.
package ewise

import (
	"unsafe"

	"github.com/tensor-go/tensor/bfloat16"
	"github.com/x448/float16"
)

// UseVec routes contiguous runs to internal/vec. Tests turn it off to check
// the plain Go loops against the same expectations.
var UseVec = true

// integer is every integer element type; multiplication wraps for all.
type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// number is every element type whose product is Go's * operator.
type number interface {
	integer | ~float32 | ~float64
}

// run returns the n elements at p as a slice. The caller has checked that
// the run is contiguous.
func run[T any](p unsafe.Pointer, n int) []T { return unsafe.Slice((*T)(p), n) }

// at returns the address of element i of a run at p with byte stride s.
// Kernels index from the run's start instead of advancing a pointer, so
// no pointer ever steps past the run's ends, where the garbage collector
// could find it pointing into another object.
func at[T any](p unsafe.Pointer, i, s int) *T { return (*T)(unsafe.Add(p, i*s)) }

// as reinterprets a slice as one of another element type of the same size,
// which is how unsigned runs reach vec's wrapping signed kernels.
func as[T, S any](s []S) []T { return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(s))), len(s)) }

// The half-precision conversions: widening is exact, narrowing rounds to
// nearest even and keeps NaN a NaN.

func f16ToF32(h uint16) float32  { return float16.Frombits(h).Float32() }
func f32ToF16(f float32) uint16  { return float16.Fromfloat32(f).Bits() }
func bf16ToF32(h uint16) float32 { return bfloat16.BFloat16(h).Float32() }
func f32ToBF16(f float32) uint16 { return bfloat16.FromFloat32(f).Bits() }

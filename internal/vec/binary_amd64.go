//go:build !purego

package vec

import (
	"unsafe"

	"github.com/tensor-go/tensor/internal/kernels"
)

// Assembly kernels, in binary_amd64.s. The AVX-512 ones handle any length
// (their last vector is masked); the AVX2 ones stop at the last full vector.
// The Stream ones store around the cache and need dst 64-byte aligned.

//go:noescape
func mulF32AVX512(dst, a, b []float32)

//go:noescape
func mulScalarF32AVX512(dst, a []float32, s float32)

//go:noescape
func mulF64AVX512(dst, a, b []float64)

//go:noescape
func mulScalarF64AVX512(dst, a []float64, s float64)

//go:noescape
func mulI8AVX512(dst, a, b []int8)

//go:noescape
func mulScalarI8AVX512(dst, a []int8, s int8)

//go:noescape
func mulI16AVX512(dst, a, b []int16)

//go:noescape
func mulScalarI16AVX512(dst, a []int16, s int16)

//go:noescape
func mulI32AVX512(dst, a, b []int32)

//go:noescape
func mulScalarI32AVX512(dst, a []int32, s int32)

//go:noescape
func mulI64AVX512(dst, a, b []int64)

//go:noescape
func mulScalarI64AVX512(dst, a []int64, s int64)

//go:noescape
func mulF32I32AVX512(dst, a []float32, b []int32)

//go:noescape
func mulF64F32AVX512(dst, a []float64, b []float32)

//go:noescape
func mulF16AVX512(dst, a, b []uint16)

//go:noescape
func mulScalarF16AVX512(dst, a []uint16, s float32)

//go:noescape
func mulBF16AVX512(dst, a, b []uint16)

//go:noescape
func mulScalarBF16AVX512(dst, a []uint16, s float32)

//go:noescape
func mulF32AVX2(dst, a, b []float32)

//go:noescape
func mulScalarF32AVX2(dst, a []float32, s float32)

//go:noescape
func mulF64AVX2(dst, a, b []float64)

//go:noescape
func mulScalarF64AVX2(dst, a []float64, s float64)

//go:noescape
func mulI8AVX2(dst, a, b []int8)

//go:noescape
func mulScalarI8AVX2(dst, a []int8, s int8)

//go:noescape
func mulI16AVX2(dst, a, b []int16)

//go:noescape
func mulScalarI16AVX2(dst, a []int16, s int16)

//go:noescape
func mulI32AVX2(dst, a, b []int32)

//go:noescape
func mulScalarI32AVX2(dst, a []int32, s int32)

//go:noescape
func mulF32I32AVX2(dst, a []float32, b []int32)

//go:noescape
func mulF64F32AVX2(dst, a []float64, b []float32)

//go:noescape
func mulF16AVX2(dst, a, b []uint16)

//go:noescape
func mulScalarF16AVX2(dst, a []uint16, s float32)

//go:noescape
func mulBF16AVX2(dst, a, b []uint16)

//go:noescape
func mulScalarBF16AVX2(dst, a []uint16, s float32)

//go:noescape
func mulF32StreamAVX512(dst, a, b []float32)

//go:noescape
func mulScalarF32StreamAVX512(dst, a []float32, s float32)

//go:noescape
func mulF64StreamAVX512(dst, a, b []float64)

//go:noescape
func mulScalarF64StreamAVX512(dst, a []float64, s float64)

//go:noescape
func mulI8StreamAVX512(dst, a, b []int8)

//go:noescape
func mulI16StreamAVX512(dst, a, b []int16)

//go:noescape
func mulI32StreamAVX512(dst, a, b []int32)

//go:noescape
func mulScalarI32StreamAVX512(dst, a []int32, s int32)

//go:noescape
func mulI64StreamAVX512(dst, a, b []int64)

//go:noescape
func mulF32I32StreamAVX512(dst, a []float32, b []int32)

//go:noescape
func addF32AVX512(dst, a, b []float32)

//go:noescape
func addScalarF32AVX512(dst, a []float32, s float32)

//go:noescape
func addF64AVX512(dst, a, b []float64)

//go:noescape
func addScalarF64AVX512(dst, a []float64, s float64)

//go:noescape
func addI8AVX512(dst, a, b []int8)

//go:noescape
func addScalarI8AVX512(dst, a []int8, s int8)

//go:noescape
func addI16AVX512(dst, a, b []int16)

//go:noescape
func addScalarI16AVX512(dst, a []int16, s int16)

//go:noescape
func addI32AVX512(dst, a, b []int32)

//go:noescape
func addScalarI32AVX512(dst, a []int32, s int32)

//go:noescape
func addI64AVX512(dst, a, b []int64)

//go:noescape
func addScalarI64AVX512(dst, a []int64, s int64)

//go:noescape
func addF32I32AVX512(dst, a []float32, b []int32)

//go:noescape
func addF64F32AVX512(dst, a []float64, b []float32)

//go:noescape
func addF16AVX512(dst, a, b []uint16)

//go:noescape
func addScalarF16AVX512(dst, a []uint16, s float32)

//go:noescape
func addBF16AVX512(dst, a, b []uint16)

//go:noescape
func addScalarBF16AVX512(dst, a []uint16, s float32)

//go:noescape
func addF32AVX2(dst, a, b []float32)

//go:noescape
func addScalarF32AVX2(dst, a []float32, s float32)

//go:noescape
func addF64AVX2(dst, a, b []float64)

//go:noescape
func addScalarF64AVX2(dst, a []float64, s float64)

//go:noescape
func addI8AVX2(dst, a, b []int8)

//go:noescape
func addScalarI8AVX2(dst, a []int8, s int8)

//go:noescape
func addI16AVX2(dst, a, b []int16)

//go:noescape
func addScalarI16AVX2(dst, a []int16, s int16)

//go:noescape
func addI32AVX2(dst, a, b []int32)

//go:noescape
func addScalarI32AVX2(dst, a []int32, s int32)

//go:noescape
func addI64AVX2(dst, a, b []int64)

//go:noescape
func addScalarI64AVX2(dst, a []int64, s int64)

//go:noescape
func addF32I32AVX2(dst, a []float32, b []int32)

//go:noescape
func addF64F32AVX2(dst, a []float64, b []float32)

//go:noescape
func addF16AVX2(dst, a, b []uint16)

//go:noescape
func addScalarF16AVX2(dst, a []uint16, s float32)

//go:noescape
func addBF16AVX2(dst, a, b []uint16)

//go:noescape
func addScalarBF16AVX2(dst, a []uint16, s float32)

//go:noescape
func addF32StreamAVX512(dst, a, b []float32)

//go:noescape
func addScalarF32StreamAVX512(dst, a []float32, s float32)

//go:noescape
func addF64StreamAVX512(dst, a, b []float64)

//go:noescape
func addScalarF64StreamAVX512(dst, a []float64, s float64)

//go:noescape
func addI8StreamAVX512(dst, a, b []int8)

//go:noescape
func addI16StreamAVX512(dst, a, b []int16)

//go:noescape
func addI32StreamAVX512(dst, a, b []int32)

//go:noescape
func addScalarI32StreamAVX512(dst, a []int32, s int32)

//go:noescape
func addI64StreamAVX512(dst, a, b []int64)

//go:noescape
func addF32I32StreamAVX512(dst, a []float32, b []int32)

//go:noescape
func mulF32StreamAVX2(dst, a, b []float32)

//go:noescape
func mulScalarF32StreamAVX2(dst, a []float32, s float32)

//go:noescape
func mulF64StreamAVX2(dst, a, b []float64)

//go:noescape
func mulScalarF64StreamAVX2(dst, a []float64, s float64)

//go:noescape
func mulI8StreamAVX2(dst, a, b []int8)

//go:noescape
func mulI16StreamAVX2(dst, a, b []int16)

//go:noescape
func mulI32StreamAVX2(dst, a, b []int32)

//go:noescape
func mulScalarI32StreamAVX2(dst, a []int32, s int32)

//go:noescape
func mulF32I32StreamAVX2(dst, a []float32, b []int32)

//go:noescape
func addF32StreamAVX2(dst, a, b []float32)

//go:noescape
func addScalarF32StreamAVX2(dst, a []float32, s float32)

//go:noescape
func addF64StreamAVX2(dst, a, b []float64)

//go:noescape
func addScalarF64StreamAVX2(dst, a []float64, s float64)

//go:noescape
func addI8StreamAVX2(dst, a, b []int8)

//go:noescape
func addI16StreamAVX2(dst, a, b []int16)

//go:noescape
func addI32StreamAVX2(dst, a, b []int32)

//go:noescape
func addScalarI32StreamAVX2(dst, a []int32, s int32)

//go:noescape
func addF32I32StreamAVX2(dst, a []float32, b []int32)

// mulAVX512 streams large outputs (see streamThreshold).
var mulAVX512 = binaryKernels{
	f32:       streamed(mulF32AVX512, mulF32StreamAVX512),
	f64:       streamed(mulF64AVX512, mulF64StreamAVX512),
	i8:        streamed(mulI8AVX512, mulI8StreamAVX512),
	i16:       streamed(mulI16AVX512, mulI16StreamAVX512),
	i32:       streamed(mulI32AVX512, mulI32StreamAVX512),
	i64:       streamed(mulI64AVX512, mulI64StreamAVX512),
	scalarF32: streamedScalar(mulScalarF32AVX512, mulScalarF32StreamAVX512),
	scalarF64: streamedScalar(mulScalarF64AVX512, mulScalarF64StreamAVX512),
	scalarI8:  mulScalarI8AVX512, scalarI16: mulScalarI16AVX512,
	scalarI32: streamedScalar(mulScalarI32AVX512, mulScalarI32StreamAVX512),
	scalarI64: mulScalarI64AVX512,
	f32i32:    streamed(mulF32I32AVX512, mulF32I32StreamAVX512),
	f64f32:    mulF64F32AVX512,
	f16:       mulF16AVX512, bf16: mulBF16AVX512,
	scalarF16: mulScalarF16AVX512, scalarBF16: mulScalarBF16AVX512,
}

// mulAVX2 finishes each run's last partial vector in Go and streams large
// outputs as mulAVX512 does. It has no int64 kernels: AVX2 has no 64-bit
// multiply, and building one from 32-bit halves gains little over scalar
// IMUL at memory speed.
var mulAVX2 = binaryKernels{
	f32: streamed(tailed(8, mulF32AVX2, mulNumbers[float32]), tailed(8, mulF32StreamAVX2, mulNumbers[float32])),
	f64: streamed(tailed(4, mulF64AVX2, mulNumbers[float64]), tailed(4, mulF64StreamAVX2, mulNumbers[float64])),
	i8:  streamed(tailed(32, mulI8AVX2, mulNumbers[int8]), tailed(32, mulI8StreamAVX2, mulNumbers[int8])),
	i16: streamed(tailed(16, mulI16AVX2, mulNumbers[int16]), tailed(16, mulI16StreamAVX2, mulNumbers[int16])),
	i32: streamed(tailed(8, mulI32AVX2, mulNumbers[int32]), tailed(8, mulI32StreamAVX2, mulNumbers[int32])),
	i64: mulNumbers[int64],

	scalarF32: streamedScalar(tailedScalar(8, mulScalarF32AVX2, mulScalarNumbers[float32]), tailedScalar(8, mulScalarF32StreamAVX2, mulScalarNumbers[float32])),
	scalarF64: streamedScalar(tailedScalar(4, mulScalarF64AVX2, mulScalarNumbers[float64]), tailedScalar(4, mulScalarF64StreamAVX2, mulScalarNumbers[float64])),
	scalarI8:  tailedScalar(32, mulScalarI8AVX2, mulScalarNumbers[int8]),
	scalarI16: tailedScalar(16, mulScalarI16AVX2, mulScalarNumbers[int16]),
	scalarI32: streamedScalar(tailedScalar(8, mulScalarI32AVX2, mulScalarNumbers[int32]), tailedScalar(8, mulScalarI32StreamAVX2, mulScalarNumbers[int32])),
	scalarI64: mulScalarNumbers[int64],

	f32i32:     streamed(tailed(8, mulF32I32AVX2, mulF32I32Go), tailed(8, mulF32I32StreamAVX2, mulF32I32Go)),
	f64f32:     tailed(4, mulF64F32AVX2, mulF64F32Go),
	f16:        tailed(8, mulF16AVX2, mulF16Go),
	bf16:       tailed(16, mulBF16AVX2, mulBF16Go),
	scalarF16:  tailedScalar(8, mulScalarF16AVX2, mulScalarF16Go),
	scalarBF16: tailedScalar(16, mulScalarBF16AVX2, mulScalarBF16Go),
}

// addAVX512 is mulAVX512's counterpart for addition.
var addAVX512 = binaryKernels{
	f32:       streamed(addF32AVX512, addF32StreamAVX512),
	f64:       streamed(addF64AVX512, addF64StreamAVX512),
	i8:        streamed(addI8AVX512, addI8StreamAVX512),
	i16:       streamed(addI16AVX512, addI16StreamAVX512),
	i32:       streamed(addI32AVX512, addI32StreamAVX512),
	i64:       streamed(addI64AVX512, addI64StreamAVX512),
	scalarF32: streamedScalar(addScalarF32AVX512, addScalarF32StreamAVX512),
	scalarF64: streamedScalar(addScalarF64AVX512, addScalarF64StreamAVX512),
	scalarI8:  addScalarI8AVX512, scalarI16: addScalarI16AVX512,
	scalarI32: streamedScalar(addScalarI32AVX512, addScalarI32StreamAVX512),
	scalarI64: addScalarI64AVX512,
	f32i32:    streamed(addF32I32AVX512, addF32I32StreamAVX512),
	f64f32:    addF64F32AVX512,
	f16:       addF16AVX512, bf16: addBF16AVX512,
	scalarF16: addScalarF16AVX512, scalarBF16: addScalarBF16AVX512,
}

// addAVX2 is mulAVX2's counterpart for addition; AVX2 does add 64-bit
// integers.
var addAVX2 = binaryKernels{
	f32: streamed(tailed(8, addF32AVX2, addNumbers[float32]), tailed(8, addF32StreamAVX2, addNumbers[float32])),
	f64: streamed(tailed(4, addF64AVX2, addNumbers[float64]), tailed(4, addF64StreamAVX2, addNumbers[float64])),
	i8:  streamed(tailed(32, addI8AVX2, addNumbers[int8]), tailed(32, addI8StreamAVX2, addNumbers[int8])),
	i16: streamed(tailed(16, addI16AVX2, addNumbers[int16]), tailed(16, addI16StreamAVX2, addNumbers[int16])),
	i32: streamed(tailed(8, addI32AVX2, addNumbers[int32]), tailed(8, addI32StreamAVX2, addNumbers[int32])),
	i64: tailed(4, addI64AVX2, addNumbers[int64]),

	scalarF32: streamedScalar(tailedScalar(8, addScalarF32AVX2, addScalarNumbers[float32]), tailedScalar(8, addScalarF32StreamAVX2, addScalarNumbers[float32])),
	scalarF64: streamedScalar(tailedScalar(4, addScalarF64AVX2, addScalarNumbers[float64]), tailedScalar(4, addScalarF64StreamAVX2, addScalarNumbers[float64])),
	scalarI8:  tailedScalar(32, addScalarI8AVX2, addScalarNumbers[int8]),
	scalarI16: tailedScalar(16, addScalarI16AVX2, addScalarNumbers[int16]),
	scalarI32: streamedScalar(tailedScalar(8, addScalarI32AVX2, addScalarNumbers[int32]), tailedScalar(8, addScalarI32StreamAVX2, addScalarNumbers[int32])),
	scalarI64: tailedScalar(4, addScalarI64AVX2, addScalarNumbers[int64]),

	f32i32:     streamed(tailed(8, addF32I32AVX2, addF32I32Go), tailed(8, addF32I32StreamAVX2, addF32I32Go)),
	f64f32:     tailed(4, addF64F32AVX2, addF64F32Go),
	f16:        tailed(8, addF16AVX2, addF16Go),
	bf16:       tailed(16, addBF16AVX2, addBF16Go),
	scalarF16:  tailedScalar(8, addScalarF16AVX2, addScalarF16Go),
	scalarBF16: tailedScalar(16, addScalarBF16AVX2, addScalarBF16Go),
}

// streamSplit returns how many leading elements of dst to store normally:
// all of them below streamThreshold, else those before the first 64-byte
// boundary, where the streaming kernel (which needs aligned stores) starts.
func streamSplit[D any](dst []D) int {
	size := int(unsafe.Sizeof(*new(D)))
	if len(dst)*size < streamThreshold {
		return len(dst)
	}
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(dst)))
	return min(int(-addr&63)/size, len(dst)) // Go aligns D to its size, a power of two
}

// streamed picks between an ordinary and a streaming kernel by streamSplit.
func streamed[D, A, B any](body, stream func(dst []D, a []A, b []B)) func(dst []D, a []A, b []B) {
	return func(dst []D, a []A, b []B) {
		head := streamSplit(dst)
		body(dst[:head], a[:head], b[:head])
		if head < len(dst) {
			stream(dst[head:], a[head:], b[head:])
			fenceStores() // a kernel that streams on its own fences on its own
		}
	}
}

// streamedScalar is streamed for the scalar kernels.
func streamedScalar[D, S any](body, stream func(dst, a []D, s S)) func(dst, a []D, s S) {
	return func(dst, a []D, s S) {
		head := streamSplit(dst)
		body(dst[:head], a[:head], s)
		if head < len(dst) {
			stream(dst[head:], a[head:], s)
			fenceStores()
		}
	}
}

func init() {
	mulTable.Add(kernels.AVX512, mulAVX512)
	mulTable.Add(kernels.AVX2, mulAVX2)
	addTable.Add(kernels.AVX512, addAVX512)
	addTable.Add(kernels.AVX2, addAVX2)
	mulStreamTable.Add(kernels.AVX512, mulStreamAVX512)
	mulStreamTable.Add(kernels.AVX2, mulStreamAVX2)
	addStreamTable.Add(kernels.AVX512, addStreamAVX512)
	addStreamTable.Add(kernels.AVX2, addStreamAVX2)
}

// mulStreamAVX512 streams dst from its first 64-byte boundary on, whatever
// its length.
var mulStreamAVX512 = streamKernels{
	f32:       alwaysStreamed(mulF32AVX512, mulF32StreamAVX512),
	f64:       alwaysStreamed(mulF64AVX512, mulF64StreamAVX512),
	scalarF32: alwaysStreamedScalar(mulScalarF32AVX512, mulScalarF32StreamAVX512),
	scalarF64: alwaysStreamedScalar(mulScalarF64AVX512, mulScalarF64StreamAVX512),
	i8:        alwaysStreamed(mulI8AVX512, mulI8StreamAVX512),
	i16:       alwaysStreamed(mulI16AVX512, mulI16StreamAVX512),
	i32:       alwaysStreamed(mulI32AVX512, mulI32StreamAVX512),
	i64:       alwaysStreamed(mulI64AVX512, mulI64StreamAVX512),
	scalarI32: alwaysStreamedScalar(mulScalarI32AVX512, mulScalarI32StreamAVX512),
}

// addStreamAVX512 is mulStreamAVX512's counterpart for addition.
var addStreamAVX512 = streamKernels{
	f32:       alwaysStreamed(addF32AVX512, addF32StreamAVX512),
	f64:       alwaysStreamed(addF64AVX512, addF64StreamAVX512),
	scalarF32: alwaysStreamedScalar(addScalarF32AVX512, addScalarF32StreamAVX512),
	scalarF64: alwaysStreamedScalar(addScalarF64AVX512, addScalarF64StreamAVX512),
	i8:        alwaysStreamed(addI8AVX512, addI8StreamAVX512),
	i16:       alwaysStreamed(addI16AVX512, addI16StreamAVX512),
	i32:       alwaysStreamed(addI32AVX512, addI32StreamAVX512),
	i64:       alwaysStreamed(addI64AVX512, addI64StreamAVX512),
	scalarI32: alwaysStreamedScalar(addScalarI32AVX512, addScalarI32StreamAVX512),
}

// mulStreamAVX2 and addStreamAVX2 are the AVX-512 sets with the AVX2
// kernels; int64 stores normally (AVX2 has no 64-bit multiply, and the
// int64 sum has no streaming kernel).
var (
	mulStreamAVX2 = streamKernels{
		f32:       alwaysStreamed(tailed(8, mulF32AVX2, mulNumbers[float32]), tailed(8, mulF32StreamAVX2, mulNumbers[float32])),
		f64:       alwaysStreamed(tailed(4, mulF64AVX2, mulNumbers[float64]), tailed(4, mulF64StreamAVX2, mulNumbers[float64])),
		scalarF32: alwaysStreamedScalar(tailedScalar(8, mulScalarF32AVX2, mulScalarNumbers[float32]), tailedScalar(8, mulScalarF32StreamAVX2, mulScalarNumbers[float32])),
		scalarF64: alwaysStreamedScalar(tailedScalar(4, mulScalarF64AVX2, mulScalarNumbers[float64]), tailedScalar(4, mulScalarF64StreamAVX2, mulScalarNumbers[float64])),
		i8:        alwaysStreamed(tailed(32, mulI8AVX2, mulNumbers[int8]), tailed(32, mulI8StreamAVX2, mulNumbers[int8])),
		i16:       alwaysStreamed(tailed(16, mulI16AVX2, mulNumbers[int16]), tailed(16, mulI16StreamAVX2, mulNumbers[int16])),
		i32:       alwaysStreamed(tailed(8, mulI32AVX2, mulNumbers[int32]), tailed(8, mulI32StreamAVX2, mulNumbers[int32])),
		i64:       mulNumbers[int64],
		scalarI32: alwaysStreamedScalar(tailedScalar(8, mulScalarI32AVX2, mulScalarNumbers[int32]), tailedScalar(8, mulScalarI32StreamAVX2, mulScalarNumbers[int32])),
	}
	addStreamAVX2 = streamKernels{
		f32:       alwaysStreamed(tailed(8, addF32AVX2, addNumbers[float32]), tailed(8, addF32StreamAVX2, addNumbers[float32])),
		f64:       alwaysStreamed(tailed(4, addF64AVX2, addNumbers[float64]), tailed(4, addF64StreamAVX2, addNumbers[float64])),
		scalarF32: alwaysStreamedScalar(tailedScalar(8, addScalarF32AVX2, addScalarNumbers[float32]), tailedScalar(8, addScalarF32StreamAVX2, addScalarNumbers[float32])),
		scalarF64: alwaysStreamedScalar(tailedScalar(4, addScalarF64AVX2, addScalarNumbers[float64]), tailedScalar(4, addScalarF64StreamAVX2, addScalarNumbers[float64])),
		i8:        alwaysStreamed(tailed(32, addI8AVX2, addNumbers[int8]), tailed(32, addI8StreamAVX2, addNumbers[int8])),
		i16:       alwaysStreamed(tailed(16, addI16AVX2, addNumbers[int16]), tailed(16, addI16StreamAVX2, addNumbers[int16])),
		i32:       alwaysStreamed(tailed(8, addI32AVX2, addNumbers[int32]), tailed(8, addI32StreamAVX2, addNumbers[int32])),
		i64:       tailed(4, addI64AVX2, addNumbers[int64]),
		scalarI32: alwaysStreamedScalar(tailedScalar(8, addScalarI32AVX2, addScalarNumbers[int32]), tailedScalar(8, addScalarI32StreamAVX2, addScalarNumbers[int32])),
	}
)

// alignedSplit returns how many leading elements of dst come before its
// first 64-byte boundary, where a streaming kernel can start.
func alignedSplit[D any](dst []D) int {
	size := int(unsafe.Sizeof(*new(D)))
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(dst)))
	return min(int(-addr&63)/size, len(dst)) // Go aligns D to its size, a power of two
}

// alwaysStreamed runs body up to dst's first 64-byte boundary and stream
// from there.
func alwaysStreamed[D, A, B any](body, stream func(dst []D, a []A, b []B)) func(dst []D, a []A, b []B) {
	return func(dst []D, a []A, b []B) {
		head := alignedSplit(dst)
		body(dst[:head], a[:head], b[:head])
		if head < len(dst) {
			stream(dst[head:], a[head:], b[head:])
		}
	}
}

// alwaysStreamedScalar is alwaysStreamed for the scalar kernels.
func alwaysStreamedScalar[D, S any](body, stream func(dst, a []D, s S)) func(dst, a []D, s S) {
	return func(dst, a []D, s S) {
		head := alignedSplit(dst)
		body(dst[:head], a[:head], s)
		if head < len(dst) {
			stream(dst[head:], a[head:], s)
		}
	}
}

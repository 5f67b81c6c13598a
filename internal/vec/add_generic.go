package vec

import "github.com/tensor-go/tensor/internal/kernels"

// addGo is the Go twin of every add kernel: the loops their doc comments
// show. Integer addition in Go wraps, which is the contract.
var addGo = binaryKernels{
	f32: addNumbers[float32], f64: addNumbers[float64],
	i8: addNumbers[int8], i16: addNumbers[int16],
	i32: addNumbers[int32], i64: addNumbers[int64],
	scalarF32: addScalarNumbers[float32], scalarF64: addScalarNumbers[float64],
	scalarI8: addScalarNumbers[int8], scalarI16: addScalarNumbers[int16],
	scalarI32: addScalarNumbers[int32], scalarI64: addScalarNumbers[int64],
	f32i32:    addF32I32Go,
	f64f32:    addF64F32Go,
	f16:       addF16Go,
	bf16:      addBF16Go,
	scalarF16: addScalarF16Go, scalarBF16: addScalarBF16Go,
}

// addImpl is the active kernel set's add entry; architecture files add
// their entries to addTable in init.
var (
	addImpl  binaryKernels
	addTable = kernels.NewTable(&addImpl, addGo)
)

// addStreamGo is the Go twin of the add Streaming kernels.
var addStreamGo = streamKernels{
	f32: addNumbers[float32], f64: addNumbers[float64],
	i8: addNumbers[int8], i16: addNumbers[int16], i32: addNumbers[int32], i64: addNumbers[int64],
	scalarF32: addScalarNumbers[float32], scalarF64: addScalarNumbers[float64],
	scalarI32: addScalarNumbers[int32],
}

// addStreamImpl is the add Streaming kernel set in use; init in the
// architecture file may replace it.
var (
	addStreamImpl  streamKernels
	addStreamTable = kernels.NewTable(&addStreamImpl, addStreamGo)
)

func addNumbers[T number](dst, a, b []T) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] + b[i]
	}
}

func addScalarNumbers[T number](dst, a []T, s T) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] + s
	}
}

func addF32I32Go(dst, a []float32, b []int32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] + float32(b[i])
	}
}

func addF64F32Go(dst, a []float64, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] + float64(b[i])
	}
}

// The half-precision sums are computed in float32 and rounded once. A sum
// of two halves is not always exact in float32 (exponents far apart), but
// rounding it to float32 first and then to the half type gives the
// correctly rounded half sum: float32 has more than twice the half types'
// precision plus two bits (24 ≥ 2·11+2 for float16; for bfloat16 the
// exponent range is float32's own), which makes double rounding innocuous.

func addF16Go(dst, a, b []uint16) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = f32ToF16(f16ToF32(a[i]) + f16ToF32(b[i]))
	}
}

func addBF16Go(dst, a, b []uint16) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = f32ToBF16(bf16ToF32(a[i]) + bf16ToF32(b[i]))
	}
}

func addScalarF16Go(dst, a []uint16, s float32) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = f32ToF16(f16ToF32(a[i]) + s)
	}
}

func addScalarBF16Go(dst, a []uint16, s float32) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = f32ToBF16(bf16ToF32(a[i]) + s)
	}
}

package vec

// binaryKernels is one implementation of every kernel of one element-wise
// operation (multiply or add). The exported functions call through mulImpl
// and addImpl, which init points at the fastest sets the processor
// supports; tests swap them to compare implementations.
type binaryKernels struct {
	f32        binary[float32]
	f64        binary[float64]
	i8         binary[int8]
	i16        binary[int16]
	i32        binary[int32]
	i64        binary[int64]
	scalarF32  scalar[float32, float32]
	scalarF64  scalar[float64, float64]
	scalarI8   scalar[int8, int8]
	scalarI16  scalar[int16, int16]
	scalarI32  scalar[int32, int32]
	scalarI64  scalar[int64, int64]
	f32i32     func(dst, a []float32, b []int32)
	f64f32     func(dst, a []float64, b []float32)
	f16, bf16  binary[uint16]
	scalarF16  scalar[uint16, float32]
	scalarBF16 scalar[uint16, float32]
}

// binary is a kernel dst[i] = a[i] op b[i].
type binary[T any] func(dst, a, b []T)

// scalar is a kernel dst[i] = a[i] op s.
type scalar[T, S any] func(dst, a []T, s S)

// MulF32 computes
//
//	for i := range dst { dst[i] = a[i] * b[i] }
func MulF32(dst, a, b []float32) { mulImpl.f32(dst, a[:len(dst)], b[:len(dst)]) }

// MulF64 computes
//
//	for i := range dst { dst[i] = a[i] * b[i] }
func MulF64(dst, a, b []float64) { mulImpl.f64(dst, a[:len(dst)], b[:len(dst)]) }

// MulI8 computes, wrapping (also serves uint8),
//
//	for i := range dst { dst[i] = a[i] * b[i] }
func MulI8(dst, a, b []int8) { mulImpl.i8(dst, a[:len(dst)], b[:len(dst)]) }

// MulI16 computes, wrapping (also serves uint16),
//
//	for i := range dst { dst[i] = a[i] * b[i] }
func MulI16(dst, a, b []int16) { mulImpl.i16(dst, a[:len(dst)], b[:len(dst)]) }

// MulI32 computes, wrapping (also serves uint32),
//
//	for i := range dst { dst[i] = a[i] * b[i] }
func MulI32(dst, a, b []int32) { mulImpl.i32(dst, a[:len(dst)], b[:len(dst)]) }

// MulI64 computes, wrapping (also serves uint64),
//
//	for i := range dst { dst[i] = a[i] * b[i] }
func MulI64(dst, a, b []int64) { mulImpl.i64(dst, a[:len(dst)], b[:len(dst)]) }

// MulScalarF32 computes
//
//	for i := range dst { dst[i] = a[i] * s }
func MulScalarF32(dst, a []float32, s float32) {
	mulImpl.scalarF32(dst, a[:len(dst)], s)
}

// MulScalarF64 computes
//
//	for i := range dst { dst[i] = a[i] * s }
func MulScalarF64(dst, a []float64, s float64) {
	mulImpl.scalarF64(dst, a[:len(dst)], s)
}

// MulScalarI8 computes, wrapping (also serves uint8),
//
//	for i := range dst { dst[i] = a[i] * s }
func MulScalarI8(dst, a []int8, s int8) { mulImpl.scalarI8(dst, a[:len(dst)], s) }

// MulScalarI16 computes, wrapping (also serves uint16),
//
//	for i := range dst { dst[i] = a[i] * s }
func MulScalarI16(dst, a []int16, s int16) { mulImpl.scalarI16(dst, a[:len(dst)], s) }

// MulScalarI32 computes, wrapping (also serves uint32),
//
//	for i := range dst { dst[i] = a[i] * s }
func MulScalarI32(dst, a []int32, s int32) { mulImpl.scalarI32(dst, a[:len(dst)], s) }

// MulScalarI64 computes, wrapping (also serves uint64),
//
//	for i := range dst { dst[i] = a[i] * s }
func MulScalarI64(dst, a []int64, s int64) { mulImpl.scalarI64(dst, a[:len(dst)], s) }

// MulF32I32 multiplies float32 by int32 promoted to float32 on the fly (the
// conversion rounds to nearest even, as Go's does):
//
//	for i := range dst { dst[i] = a[i] * float32(b[i]) }
func MulF32I32(dst, a []float32, b []int32) { mulImpl.f32i32(dst, a[:len(dst)], b[:len(dst)]) }

// MulF64F32 multiplies float64 by float32 widened (exactly) to float64,
// how a float32 product carried in float64 takes each factor:
//
//	for i := range dst { dst[i] = a[i] * float64(b[i]) }
func MulF64F32(dst, a []float64, b []float32) { mulImpl.f64f32(dst, a[:len(dst)], b[:len(dst)]) }

// MulF16 multiplies IEEE binary16 bit patterns, rounding each product once:
//
//	for i := range dst { dst[i] = f32ToF16(f16ToF32(a[i]) * f16ToF32(b[i])) }
func MulF16(dst, a, b []uint16) { mulImpl.f16(dst, a[:len(dst)], b[:len(dst)]) }

// MulBF16 multiplies bfloat16 bit patterns, rounding each product once:
//
//	for i := range dst { dst[i] = f32ToBF16(bf16ToF32(a[i]) * bf16ToF32(b[i])) }
func MulBF16(dst, a, b []uint16) { mulImpl.bf16(dst, a[:len(dst)], b[:len(dst)]) }

// MulScalarF16 multiplies binary16 bit patterns by s, the float32 value of
// a binary16 scalar (so each product is exact before its one rounding):
//
//	for i := range dst { dst[i] = f32ToF16(f16ToF32(a[i]) * s) }
func MulScalarF16(dst, a []uint16, s float32) { mulImpl.scalarF16(dst, a[:len(dst)], s) }

// MulScalarBF16 multiplies bfloat16 bit patterns by s, the float32 value of
// a bfloat16 scalar:
//
//	for i := range dst { dst[i] = f32ToBF16(bf16ToF32(a[i]) * s) }
func MulScalarBF16(dst, a []uint16, s float32) { mulImpl.scalarBF16(dst, a[:len(dst)], s) }

// The Streaming kernels compute what MulF32, MulF64, MulScalarF32 and
// MulScalarF64 (or their Add counterparts) compute, but store dst around the cache from its first
// 64-byte boundary on, whatever its length, where the others stream only
// a dst of at least streamThreshold bytes. They are for one run of an
// output too large for the caches, which the caller knows and a kernel
// seeing one run of a few kilobytes cannot: streaming saves reading every
// line of dst before writing it. Without AVX-512 they store normally.
// Their streaming stores are not fenced, so that a caller streaming an
// output run by run waits for memory once, not once a run: call
// FenceStreaming after the last of them, before the output is handed to
// another goroutine.

// MulF32Streaming computes, streaming dst,
//
//	for i := range dst { dst[i] = a[i] * b[i] }
func MulF32Streaming(dst, a, b []float32) { mulStreamImpl.f32(dst, a[:len(dst)], b[:len(dst)]) }

// MulF64Streaming computes, streaming dst,
//
//	for i := range dst { dst[i] = a[i] * b[i] }
func MulF64Streaming(dst, a, b []float64) { mulStreamImpl.f64(dst, a[:len(dst)], b[:len(dst)]) }

// MulScalarF32Streaming computes, streaming dst,
//
//	for i := range dst { dst[i] = a[i] * s }
func MulScalarF32Streaming(dst, a []float32, s float32) {
	mulStreamImpl.scalarF32(dst, a[:len(dst)], s)
}

// MulScalarF64Streaming computes, streaming dst,
//
//	for i := range dst { dst[i] = a[i] * s }
func MulScalarF64Streaming(dst, a []float64, s float64) {
	mulStreamImpl.scalarF64(dst, a[:len(dst)], s)
}

// AddF32 computes
//
//	for i := range dst { dst[i] = a[i] + b[i] }
func AddF32(dst, a, b []float32) { addImpl.f32(dst, a[:len(dst)], b[:len(dst)]) }

// AddF64 computes
//
//	for i := range dst { dst[i] = a[i] + b[i] }
func AddF64(dst, a, b []float64) { addImpl.f64(dst, a[:len(dst)], b[:len(dst)]) }

// AddI8 computes, wrapping (also serves uint8),
//
//	for i := range dst { dst[i] = a[i] + b[i] }
func AddI8(dst, a, b []int8) { addImpl.i8(dst, a[:len(dst)], b[:len(dst)]) }

// AddI16 computes, wrapping (also serves uint16),
//
//	for i := range dst { dst[i] = a[i] + b[i] }
func AddI16(dst, a, b []int16) { addImpl.i16(dst, a[:len(dst)], b[:len(dst)]) }

// AddI32 computes, wrapping (also serves uint32),
//
//	for i := range dst { dst[i] = a[i] + b[i] }
func AddI32(dst, a, b []int32) { addImpl.i32(dst, a[:len(dst)], b[:len(dst)]) }

// AddI64 computes, wrapping (also serves uint64),
//
//	for i := range dst { dst[i] = a[i] + b[i] }
func AddI64(dst, a, b []int64) { addImpl.i64(dst, a[:len(dst)], b[:len(dst)]) }

// AddScalarF32 computes
//
//	for i := range dst { dst[i] = a[i] + s }
func AddScalarF32(dst, a []float32, s float32) {
	addImpl.scalarF32(dst, a[:len(dst)], s)
}

// AddScalarF64 computes
//
//	for i := range dst { dst[i] = a[i] + s }
func AddScalarF64(dst, a []float64, s float64) {
	addImpl.scalarF64(dst, a[:len(dst)], s)
}

// AddScalarI8 computes, wrapping (also serves uint8),
//
//	for i := range dst { dst[i] = a[i] + s }
func AddScalarI8(dst, a []int8, s int8) { addImpl.scalarI8(dst, a[:len(dst)], s) }

// AddScalarI16 computes, wrapping (also serves uint16),
//
//	for i := range dst { dst[i] = a[i] + s }
func AddScalarI16(dst, a []int16, s int16) { addImpl.scalarI16(dst, a[:len(dst)], s) }

// AddScalarI32 computes, wrapping (also serves uint32),
//
//	for i := range dst { dst[i] = a[i] + s }
func AddScalarI32(dst, a []int32, s int32) { addImpl.scalarI32(dst, a[:len(dst)], s) }

// AddScalarI64 computes, wrapping (also serves uint64),
//
//	for i := range dst { dst[i] = a[i] + s }
func AddScalarI64(dst, a []int64, s int64) { addImpl.scalarI64(dst, a[:len(dst)], s) }

// AddF32I32 adds float32 and int32 promoted to float32 on the fly (the
// conversion rounds to nearest even, as Go's does):
//
//	for i := range dst { dst[i] = a[i] + float32(b[i]) }
func AddF32I32(dst, a []float32, b []int32) { addImpl.f32i32(dst, a[:len(dst)], b[:len(dst)]) }

// AddF64F32 adds float32 widened (exactly) to float64 to float64, how a
// float32 sum carried in float64 takes each term:
//
//	for i := range dst { dst[i] = a[i] + float64(b[i]) }
func AddF64F32(dst, a []float64, b []float32) { addImpl.f64f32(dst, a[:len(dst)], b[:len(dst)]) }

// AddF16 adds IEEE binary16 bit patterns, rounding each sum once:
//
//	for i := range dst { dst[i] = f32ToF16(f16ToF32(a[i]) + f16ToF32(b[i])) }
func AddF16(dst, a, b []uint16) { addImpl.f16(dst, a[:len(dst)], b[:len(dst)]) }

// AddBF16 adds bfloat16 bit patterns, rounding each sum once:
//
//	for i := range dst { dst[i] = f32ToBF16(bf16ToF32(a[i]) + bf16ToF32(b[i])) }
func AddBF16(dst, a, b []uint16) { addImpl.bf16(dst, a[:len(dst)], b[:len(dst)]) }

// AddScalarF16 adds s, the float32 value of a binary16 scalar, to binary16 bit
// patterns, rounding each sum once:
//
//	for i := range dst { dst[i] = f32ToF16(f16ToF32(a[i]) + s) }
func AddScalarF16(dst, a []uint16, s float32) { addImpl.scalarF16(dst, a[:len(dst)], s) }

// AddScalarBF16 adds s, the float32 value of a bfloat16 scalar, to bfloat16 bit
// patterns, rounding each sum once:
//
//	for i := range dst { dst[i] = f32ToBF16(bf16ToF32(a[i]) + s) }
func AddScalarBF16(dst, a []uint16, s float32) { addImpl.scalarBF16(dst, a[:len(dst)], s) }

// The Add Streaming kernels are the Mul ones' counterparts for addition.

// AddF32Streaming computes, streaming dst,
//
//	for i := range dst { dst[i] = a[i] + b[i] }
func AddF32Streaming(dst, a, b []float32) { addStreamImpl.f32(dst, a[:len(dst)], b[:len(dst)]) }

// AddF64Streaming computes, streaming dst,
//
//	for i := range dst { dst[i] = a[i] + b[i] }
func AddF64Streaming(dst, a, b []float64) { addStreamImpl.f64(dst, a[:len(dst)], b[:len(dst)]) }

// AddScalarF32Streaming computes, streaming dst,
//
//	for i := range dst { dst[i] = a[i] + s }
func AddScalarF32Streaming(dst, a []float32, s float32) {
	addStreamImpl.scalarF32(dst, a[:len(dst)], s)
}

// AddScalarF64Streaming computes, streaming dst,
//
//	for i := range dst { dst[i] = a[i] + s }
func AddScalarF64Streaming(dst, a []float64, s float64) {
	addStreamImpl.scalarF64(dst, a[:len(dst)], s)
}

// The integer Streaming kernels compute what MulI8 ... MulI64,
// MulScalarI32 and their Add counterparts compute, streaming dst as the
// float ones do (the other integer scalar kernels have no streaming form).

// MulI8Streaming computes, streaming dst, dst[i] = a[i] * b[i], wrapping.
func MulI8Streaming(dst, a, b []int8) { mulStreamImpl.i8(dst, a[:len(dst)], b[:len(dst)]) }

// MulI16Streaming computes, streaming dst, dst[i] = a[i] * b[i], wrapping.
func MulI16Streaming(dst, a, b []int16) { mulStreamImpl.i16(dst, a[:len(dst)], b[:len(dst)]) }

// MulI32Streaming computes, streaming dst, dst[i] = a[i] * b[i], wrapping.
func MulI32Streaming(dst, a, b []int32) { mulStreamImpl.i32(dst, a[:len(dst)], b[:len(dst)]) }

// MulI64Streaming computes, streaming dst, dst[i] = a[i] * b[i], wrapping.
func MulI64Streaming(dst, a, b []int64) { mulStreamImpl.i64(dst, a[:len(dst)], b[:len(dst)]) }

// MulScalarI32Streaming computes, streaming dst, dst[i] = a[i] * s, wrapping.
func MulScalarI32Streaming(dst, a []int32, s int32) { mulStreamImpl.scalarI32(dst, a[:len(dst)], s) }

// AddI8Streaming computes, streaming dst, dst[i] = a[i] + b[i], wrapping.
func AddI8Streaming(dst, a, b []int8) { addStreamImpl.i8(dst, a[:len(dst)], b[:len(dst)]) }

// AddI16Streaming computes, streaming dst, dst[i] = a[i] + b[i], wrapping.
func AddI16Streaming(dst, a, b []int16) { addStreamImpl.i16(dst, a[:len(dst)], b[:len(dst)]) }

// AddI32Streaming computes, streaming dst, dst[i] = a[i] + b[i], wrapping.
func AddI32Streaming(dst, a, b []int32) { addStreamImpl.i32(dst, a[:len(dst)], b[:len(dst)]) }

// AddI64Streaming computes, streaming dst, dst[i] = a[i] + b[i], wrapping.
func AddI64Streaming(dst, a, b []int64) { addStreamImpl.i64(dst, a[:len(dst)], b[:len(dst)]) }

// AddScalarI32Streaming computes, streaming dst, dst[i] = a[i] + s, wrapping.
func AddScalarI32Streaming(dst, a []int32, s int32) { addStreamImpl.scalarI32(dst, a[:len(dst)], s) }

// streamKernels is one implementation of the Streaming kernels.
type streamKernels struct {
	f32       binary[float32]
	f64       binary[float64]
	i8        binary[int8]
	i16       binary[int16]
	i32       binary[int32]
	i64       binary[int64]
	scalarI32 scalar[int32, int32]
	scalarF32 scalar[float32, float32]
	scalarF64 scalar[float64, float64]
}

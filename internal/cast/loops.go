package cast

import (
	"sync"
	"unsafe"

	"github.com/tensor-go/tensor/bfloat16"
	"github.com/x448/float16"
)

// integer, float and plain are the Go number types whose conversions Go
// itself performs by the rules of this package (except float → integer,
// which Go leaves implementation-defined out of range).
type (
	integer interface {
		~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
	}
	float interface{ ~float32 | ~float64 }
	plain interface{ integer | float }
)

// contiguous reports whether both runs are dense, so that a loop can use
// slices (bounds checks hoisted, vectorisable) instead of pointer steps.
func contiguous[D, S any](ds, ss int) bool {
	var d D
	var s S
	return ds == int(unsafe.Sizeof(d)) && ss == int(unsafe.Sizeof(s))
}

// convert is Go's own conversion D(s), which wraps integers and rounds to
// nearest even into floats: the kernel for most pairs of plain types.
func convert[D, S plain](dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	if contiguous[D, S](ds, ss) {
		d := unsafe.Slice((*D)(dst), n)
		s := unsafe.Slice((*S)(src), n)
		for i, v := range s {
			d[i] = D(v)
		}
		return
	}
	for i := range n {
		*(*D)(unsafe.Add(dst, i*ds)) = D(*(*S)(unsafe.Add(src, i*ss)))
	}
}

// vectorized runs contiguous runs through the slice kernel *fast (a
// dispatch variable, read on every call so tests can flip it) and strided
// ones through convert.
func vectorized[D, S plain](fast *func([]D, []S)) kernel {
	return func(dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
		if contiguous[D, S](ds, ss) {
			(*fast)(unsafe.Slice((*D)(dst), n), unsafe.Slice((*S)(src), n))
			return
		}
		convert[D, S](dst, ds, src, ss, n)
	}
}

// convertComplex converts between complex64 and complex128, rounding each
// part on the way down.
func convertComplex[D, S complex64 | complex128](dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	for i := range n {
		*(*D)(unsafe.Add(dst, i*ds)) = D(*(*S)(unsafe.Add(src, i*ss)))
	}
}

// floatToSigned truncates floats toward zero into a signed integer type,
// wrapping through int64 (see truncSigned for values outside int64).
func floatToSigned[D plain, S float](dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	for i := range n {
		*(*D)(unsafe.Add(dst, i*ds)) = D(truncSigned(float64(*(*S)(unsafe.Add(src, i*ss)))))
	}
}

// floatToUnsigned truncates floats toward zero into an unsigned integer
// type, wrapping through uint64 (see truncUnsigned).
func floatToUnsigned[D plain, S float](dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	for i := range n {
		*(*D)(unsafe.Add(dst, i*ds)) = D(truncUnsigned(float64(*(*S)(unsafe.Add(src, i*ss)))))
	}
}

// fromBool writes 1 for true and 0 for false.
func fromBool[D plain](dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	for i := range n {
		var v D
		if *(*bool)(unsafe.Add(src, i*ss)) {
			v = 1
		}
		*(*D)(unsafe.Add(dst, i*ds)) = v
	}
}

// toBool writes s != 0, which is true for NaN and false for −0.
func toBool[S plain](dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	for i := range n {
		*(*bool)(unsafe.Add(dst, i*ds)) = *(*S)(unsafe.Add(src, i*ss)) != 0
	}
}

// complexToBool writes true when either part is nonzero.
func complexToBool[S complex64 | complex128](dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	for i := range n {
		*(*bool)(unsafe.Add(dst, i*ds)) = *(*S)(unsafe.Add(src, i*ss)) != 0
	}
}

// realOf64 and realOf128 keep the real part: an exact step, the first half
// of complex → real.
func realOf64(dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	for i := range n {
		*(*float32)(unsafe.Add(dst, i*ds)) = real(*(*complex64)(unsafe.Add(src, i*ss)))
	}
}

func realOf128(dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	for i := range n {
		*(*float64)(unsafe.Add(dst, i*ds)) = real(*(*complex128)(unsafe.Add(src, i*ss)))
	}
}

// toComplex64 and toComplex128 give real values of the component type an
// imaginary part of 0: the last step of real → complex.
func toComplex64(dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	for i := range n {
		*(*complex64)(unsafe.Add(dst, i*ds)) = complex(*(*float32)(unsafe.Add(src, i*ss)), 0)
	}
}

func toComplex128(dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	for i := range n {
		*(*complex128)(unsafe.Add(dst, i*ds)) = complex(*(*float64)(unsafe.Add(src, i*ss)), 0)
	}
}

// float16ToFloat32 and bfloat16ToFloat32 widen exactly.
func float16ToFloat32(dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	switch {
	case contiguous[float32, float16.Float16](ds, ss):
		active.halfToFloat32(unsafe.Slice((*float32)(dst), n), unsafe.Slice((*uint16)(src), n))
		return
	case ds == 4 && n >= minGather:
		gatherThen[uint16](dst, ds, src, ss, n, float16ToFloat32)
		return
	}
	for i := range n {
		*(*float32)(unsafe.Add(dst, i*ds)) = (*(*float16.Float16)(unsafe.Add(src, i*ss))).Float32()
	}
}

func bfloat16ToFloat32(dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	if contiguous[float32, bfloat16.BFloat16](ds, ss) {
		active.brainToFloat32(unsafe.Slice((*float32)(dst), n), unsafe.Slice((*uint16)(src), n))
		return
	}
	for i := range n {
		*(*float32)(unsafe.Add(dst, i*ds)) = (*(*bfloat16.BFloat16)(unsafe.Add(src, i*ss))).Float32()
	}
}

// float32ToFloat16 and float32ToBFloat16 round to nearest even, keeping
// NaN a NaN.
func float32ToFloat16(dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	switch {
	case contiguous[float16.Float16, float32](ds, ss):
		active.float32ToHalf(unsafe.Slice((*uint16)(dst), n), unsafe.Slice((*float32)(src), n))
		return
	case ds == 2 && n >= minGather:
		gatherThen[uint32](dst, ds, src, ss, n, float32ToFloat16)
		return
	}
	for i := range n {
		*(*float16.Float16)(unsafe.Add(dst, i*ds)) = float16.Fromfloat32(*(*float32)(unsafe.Add(src, i*ss)))
	}
}

func float32ToBFloat16(dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	if contiguous[bfloat16.BFloat16, float32](ds, ss) {
		active.float32ToBrain(unsafe.Slice((*uint16)(dst), n), unsafe.Slice((*float32)(src), n))
		return
	}
	for i := range n {
		*(*bfloat16.BFloat16)(unsafe.Add(dst, i*ds)) = bfloat16.FromFloat32(*(*float32)(unsafe.Add(src, i*ss)))
	}
}

// Round-to-odd kernels: they narrow wide sources to float32 so that a
// second rounding to a 16-bit float is the only one that counts (see
// oddFloat64).
func oddFromFloat64(dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	for i := range n {
		*(*float32)(unsafe.Add(dst, i*ds)) = oddFloat64(*(*float64)(unsafe.Add(src, i*ss)))
	}
}

func oddFromSigned[S int32 | int64](dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	for i := range n {
		*(*float32)(unsafe.Add(dst, i*ds)) = oddInt64(int64(*(*S)(unsafe.Add(src, i*ss))))
	}
}

func oddFromUnsigned[S uint32 | uint64](dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	for i := range n {
		*(*float32)(unsafe.Add(dst, i*ds)) = oddUint64(uint64(*(*S)(unsafe.Add(src, i*ss))))
	}
}

// copyElems copies elements of T's size without interpreting them, so
// NaN payloads and odd bool bytes pass through unchanged.
func copyElems[T any](dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
	if contiguous[T, T](ds, ss) {
		copy(unsafe.Slice((*T)(dst), n), unsafe.Slice((*T)(src), n))
		return
	}
	for i := range n {
		*(*T)(unsafe.Add(dst, i*ds)) = *(*T)(unsafe.Add(src, i*ss))
	}
}

// chunk is the number of elements a staged conversion moves through its
// buffer at a time: large enough to amortise the two calls, small enough
// to stay in L1.
const chunk = 256

// buffer is the intermediate storage of a staged conversion; complex128
// elements make it large and aligned enough for every dtype.
type buffer [chunk]complex128

// buffers recycles staging buffers: a staged kernel calls its stages
// through function values, so a stack array would escape to the heap on
// every call anyway.
var buffers = sync.Pool{New: func() any { return new(buffer) }}

// minGather is the strided run length from which the float16 kernels
// gather the source into a buffer to reach their vector path: x448's
// scalar conversions are branchy and cost more than the extra copy.
const minGather = 16

// gatherThen runs k on a strided source and contiguous destination by
// copying chunks of the source (elements the size of S) into a buffer
// first, so that k sees two contiguous runs.
func gatherThen[S any](dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int, k kernel) {
	buf := buffers.Get().(*buffer)
	defer buffers.Put(buf)
	mid := unsafe.Pointer(buf)
	var s S
	size := int(unsafe.Sizeof(s))
	for done := 0; done < n; done += chunk {
		m := min(chunk, n-done)
		copyElems[S](mid, size, unsafe.Add(src, done*ss), ss, m)
		k(unsafe.Add(dst, done*ds), ds, mid, size, m)
	}
}

// staged composes two kernels through an intermediate of midSize bytes per
// element: first converts from the source into the buffer, second from the
// buffer into the destination, chunk by chunk.
func staged(midSize int, first, second kernel) kernel {
	return func(dst unsafe.Pointer, ds int, src unsafe.Pointer, ss int, n int) {
		buf := buffers.Get().(*buffer)
		defer buffers.Put(buf)
		mid := unsafe.Pointer(buf)
		for done := 0; done < n; done += chunk {
			m := min(chunk, n-done)
			first(mid, midSize, unsafe.Add(src, done*ss), ss, m)
			second(unsafe.Add(dst, done*ds), ds, mid, midSize, m)
		}
	}
}

package vec

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// checkIntStreaming runs an integer Streaming kernel at every length up
// to past three unrolled AVX-512 iterations and some longer ones, at
// every alignment of dst, against op written out here (wrapping), with
// sentinels around dst.
func checkIntStreaming[T int8 | int16 | int32 | int64](t *testing.T, name string, scalar bool, kernel func(dst, a, b []T, s T), gen func(*rand.Rand) T, op func(x, y T) T) {
	r := rand.New(rand.NewPCG(43, 44))
	sentinel := T(0x5a)
	size := int(unsafe.Sizeof(T(0)))
	for _, n := range append(testLengths(r, size), 5000) {
		for _, off := range testOffsets(n) {
			a, b := make([]T, n), make([]T, n)
			for i := range a {
				a[i], b[i] = gen(r), gen(r)
			}
			s := gen(r)
			dst, buf := sliceAt(n, off, func() T { return sentinel })
			kernel(dst, a, b, s)
			for i := range dst {
				want := op(a[i], b[i])
				if scalar {
					want = op(a[i], s)
				}
				if dst[i] != want {
					t.Fatalf("%s n=%d off=%d: dst[%d] = %v, want %v", name, n, off, i, dst[i], want)
				}
			}
			for i, g := range buf {
				if (i < guard+off || i >= guard+off+n) && g != sentinel {
					t.Fatalf("%s n=%d off=%d: guard element %d overwritten", name, n, off, i-guard-off)
				}
			}
		}
	}
}

func mulOf[T int8 | int16 | int32 | int64](x, y T) T { return x * y }
func addOf[T int8 | int16 | int32 | int64](x, y T) T { return x + y }

// TestIntStreaming checks the integer Streaming kernels of Mul and Add
// with every kernel set the CPU can run and the Go twins.
func TestIntStreaming(t *testing.T) {
	defer func(m, a streamKernels) { mulStreamImpl, addStreamImpl = m, a }(mulStreamImpl, addStreamImpl)
	for _, v := range mulStreamTable.Variants() {
		mulStreamImpl = v.K
		name := "mul/" + v.Name()
		checkIntStreaming(t, name+"/i8", false, func(dst, a, b []int8, _ int8) { MulI8Streaming(dst, a, b) }, randI8, mulOf[int8])
		checkIntStreaming(t, name+"/i16", false, func(dst, a, b []int16, _ int16) { MulI16Streaming(dst, a, b) }, randI16, mulOf[int16])
		checkIntStreaming(t, name+"/i32", false, func(dst, a, b []int32, _ int32) { MulI32Streaming(dst, a, b) }, randI32, mulOf[int32])
		checkIntStreaming(t, name+"/i64", false, func(dst, a, b []int64, _ int64) { MulI64Streaming(dst, a, b) }, randI64, mulOf[int64])
		checkIntStreaming(t, name+"/scalarI32", true, func(dst, a, _ []int32, s int32) { MulScalarI32Streaming(dst, a, s) }, randI32, mulOf[int32])
	}
	for _, v := range addStreamTable.Variants() {
		addStreamImpl = v.K
		name := "add/" + v.Name()
		checkIntStreaming(t, name+"/i8", false, func(dst, a, b []int8, _ int8) { AddI8Streaming(dst, a, b) }, randI8, addOf[int8])
		checkIntStreaming(t, name+"/i16", false, func(dst, a, b []int16, _ int16) { AddI16Streaming(dst, a, b) }, randI16, addOf[int16])
		checkIntStreaming(t, name+"/i32", false, func(dst, a, b []int32, _ int32) { AddI32Streaming(dst, a, b) }, randI32, addOf[int32])
		checkIntStreaming(t, name+"/i64", false, func(dst, a, b []int64, _ int64) { AddI64Streaming(dst, a, b) }, randI64, addOf[int64])
		checkIntStreaming(t, name+"/scalarI32", true, func(dst, a, _ []int32, s int32) { AddScalarI32Streaming(dst, a, s) }, randI32, addOf[int32])
	}
}

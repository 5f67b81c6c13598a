package vec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// checkStreaming runs a Streaming kernel at lengths around the vector
// edges and every alignment of dst against the plain product written out
// here, with sentinels around dst.
func checkStreaming[T float32 | float64](t *testing.T, name string, scalar bool, kernel func(dst, a []T, b []T, s T), gen func(*rand.Rand) T) {
	checkStreamingOp(t, name, scalar, kernel, gen, func(x, y T) T { return x * y })
}

// checkStreamingOp is checkStreaming for the operation op.
func checkStreamingOp[T float32 | float64](t *testing.T, name string, scalar bool, kernel func(dst, a []T, b []T, s T), gen func(*rand.Rand) T, op func(x, y T) T) {
	r := rand.New(rand.NewPCG(41, 42))
	sentinel := func() T { return T(math.Inf(-1)) }
	size := int(unsafeSizeof[T]())
	for _, n := range append(testLengths(r, size), 5000) {
		for _, off := range testOffsets(n) {
			a, b := make([]T, n), make([]T, n)
			for i := range a {
				a[i], b[i] = gen(r), gen(r)
			}
			s := gen(r)
			dst, buf := sliceAt(n, off, sentinel)
			kernel(dst, a, b, s)
			for i := range dst {
				want := op(a[i], b[i])
				if scalar {
					want = op(a[i], s)
				}
				if !sameFloat(dst[i], want) {
					t.Fatalf("%s n=%d off=%d: dst[%d] = %v, want %v", name, n, off, i, dst[i], want)
				}
			}
			for i, g := range buf {
				if (i < guard+off || i >= guard+off+n) && !sameFloat(g, sentinel()) {
					t.Fatalf("%s n=%d off=%d: guard element %d overwritten", name, n, off, i-guard-off)
				}
			}
		}
	}
}

// TestMulStreaming checks every Streaming kernel, with the kernel set in
// use, every assembly set the CPU can run and the Go twins.
func TestMulStreaming(t *testing.T) {
	defer func(saved streamKernels) { mulStreamImpl = saved }(mulStreamImpl)
	for _, v := range mulStreamTable.Variants() {
		name := v.Name()
		mulStreamImpl = v.K
		checkStreaming(t, name+"/f32", false, func(dst, a, b []float32, _ float32) { MulF32Streaming(dst, a, b) }, randF32)
		checkStreaming(t, name+"/f64", false, func(dst, a, b []float64, _ float64) { MulF64Streaming(dst, a, b) }, randF64)
		checkStreaming(t, name+"/scalarF32", true, func(dst, a, _ []float32, s float32) { MulScalarF32Streaming(dst, a, s) }, randF32)
		checkStreaming(t, name+"/scalarF64", true, func(dst, a, _ []float64, s float64) { MulScalarF64Streaming(dst, a, s) }, randF64)
	}
}

// TestAddStreaming checks every add Streaming kernel, with the kernel set
// in use and with the Go twins.
func TestAddStreaming(t *testing.T) {
	defer func(saved streamKernels) { addStreamImpl = saved }(addStreamImpl)
	add32 := func(x, y float32) float32 { return x + y }
	add64 := func(x, y float64) float64 { return x + y }
	for _, v := range addStreamTable.Variants() {
		name := v.Name()
		addStreamImpl = v.K
		checkStreamingOp(t, name+"/f32", false, func(dst, a, b []float32, _ float32) { AddF32Streaming(dst, a, b) }, randF32, add32)
		checkStreamingOp(t, name+"/f64", false, func(dst, a, b []float64, _ float64) { AddF64Streaming(dst, a, b) }, randF64, add64)
		checkStreamingOp(t, name+"/scalarF32", true, func(dst, a, _ []float32, s float32) { AddScalarF32Streaming(dst, a, s) }, randF32, add32)
		checkStreamingOp(t, name+"/scalarF64", true, func(dst, a, _ []float64, s float64) { AddScalarF64Streaming(dst, a, s) }, randF64, add64)
	}
}

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
				want := a[i] * b[i]
				if scalar {
					want = a[i] * s
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

// TestMulStreaming checks every Streaming kernel, with the kernels of
// every kernel set this machine runs, the Go twins among them.
func TestMulStreaming(t *testing.T) {
	defer func(saved streamKernels) { streamImpl = saved }(streamImpl)
	for _, set := range streamTable.Variants() {
		streamImpl = set.K
		checkStreaming(t, set.Name()+"/f32", false, func(dst, a, b []float32, _ float32) { MulF32Streaming(dst, a, b) }, randF32)
		checkStreaming(t, set.Name()+"/f64", false, func(dst, a, b []float64, _ float64) { MulF64Streaming(dst, a, b) }, randF64)
		checkStreaming(t, set.Name()+"/scalarF32", true, func(dst, a, _ []float32, s float32) { MulScalarF32Streaming(dst, a, s) }, randF32)
		checkStreaming(t, set.Name()+"/scalarF64", true, func(dst, a, _ []float64, s float64) { MulScalarF64Streaming(dst, a, s) }, randF64)
	}
}

package vec

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tensor-go/tensor/internal/cmul"
)

// sameC64 compares complex64 values part by part with sameF32.
func sameC64(x, y complex64) bool {
	return sameF32(real(x), real(y)) && sameF32(imag(x), imag(y))
}

// complexPart draws a float32 part: mostly ordinary values of both signs
// and wide magnitudes (so products round), sometimes ±0, ±inf or NaN.
func complexPart(r *rand.Rand) float32 {
	switch r.IntN(16) {
	case 0:
		return float32(math.NaN())
	case 1:
		return float32(math.Inf(1 - 2*r.IntN(2)))
	case 2:
		return float32(math.Copysign(0, float64(1-2*r.IntN(2))))
	}
	return float32(r.NormFloat64() * math.Pow(2, float64(r.IntN(40)-20)))
}

func complexValue(r *rand.Rand) complex64 { return complex(complexPart(r), complexPart(r)) }

// TestComplexKernels checks every accelerated set's complex products,
// streaming ones included, against the Go twins bit for bit (any NaN
// equals any NaN), at every length to three vectors and beyond, every
// alignment, with sentinels around dst.
func TestComplexKernels(t *testing.T) {
	sets := accelerated(cmulTable)
	if len(sets) == 0 {
		t.Skip("no accelerated kernels on this machine or build")
	}
	r := rand.New(rand.NewPCG(7, 8))
	sentinel := complex(float32(-1.5), float32(2.25))
	for _, v := range sets {
		for _, n := range append(testLengths(r, 8), 1000) {
			for _, off := range testOffsets(n) {
				a, _ := sliceAt(n, (off*3)%16, func() complex64 { return complexValue(r) })
				b, _ := sliceAt(n, (off*5)%16, func() complex64 { return complexValue(r) })
				s := complexValue(r)
				for _, c := range []struct {
					name      string
					run, twin func(dst []complex64)
				}{
					{"c64", func(d []complex64) { v.K.c64(d, a, b) }, func(d []complex64) { mulC64Go(d, a, b) }},
					{"scalarC64", func(d []complex64) { v.K.scalarC64(d, a, s) }, func(d []complex64) { mulScalarC64Go(d, a, s) }},
					{"c64Stream", func(d []complex64) { v.K.c64Stream(d, a, b); FenceStreaming() }, func(d []complex64) { mulC64Go(d, a, b) }},
					{"scalarC64Stream", func(d []complex64) { v.K.scalarC64Stream(d, a, s); FenceStreaming() }, func(d []complex64) { mulScalarC64Go(d, a, s) }},
				} {
					want := make([]complex64, n)
					c.twin(want)
					dst, buf := sliceAt(n, off, func() complex64 { return sentinel })
					c.run(dst)
					for i := range dst {
						if !sameC64(dst[i], want[i]) {
							t.Fatalf("%s/%s n=%d off=%d: dst[%d] = %v, twin %v (a=%v b=%v s=%v)", v.Name(), c.name, n, off, i, dst[i], want[i], a[i], b[i], s)
						}
					}
					for i, x := range buf {
						if (i < guard+off || i >= guard+off+n) && x != sentinel {
							t.Fatalf("%s/%s n=%d off=%d: wrote outside dst at %d", v.Name(), c.name, n, off, i-guard-off)
						}
					}
				}
			}
		}
	}
}

// TestComplexProductsRounded checks the twins and every set on products
// whose parts a fused multiply-add would change: (1+e)(1+e)i² cancels in
// the real part only if both products are rounded first.
func TestComplexProductsRounded(t *testing.T) {
	e := float32(1.0 / (1 << 13))
	x := complex(1+e, 1+e)
	want := complex(float32(0), 2*(1+2*e))
	if got := cmul.Mul64(x, x); got != want {
		t.Fatalf("cmul.Mul64 = %v, want %v", got, want)
	}
	for _, v := range cmulTable.Variants() {
		for _, n := range []int{1, 4, 8, 9, 17} {
			a := filled(n, x)
			dst := make([]complex64, n)
			v.K.c64(dst, a, a)
			for i := range dst {
				if dst[i] != want {
					t.Fatalf("%s c64 n=%d: dst[%d] = %v, want %v", v.Name(), n, i, dst[i], want)
				}
			}
			v.K.scalarC64(dst, a, x)
			for i := range dst {
				if dst[i] != want {
					t.Fatalf("%s scalarC64 n=%d: dst[%d] = %v, want %v", v.Name(), n, i, dst[i], want)
				}
			}
		}
	}
	dst := make([]complex64, 1)
	if MulC64(dst, []complex64{complex(2, 3)}, []complex64{complex(4, -5)}); dst[0] != complex(23, 2) {
		t.Errorf("MulC64: (2+3i)(4-5i) = %v, want 23+2i", dst[0])
	}
	if MulScalarC64(dst, []complex64{complex(2, 3)}, complex(4, -5)); dst[0] != complex(23, 2) {
		t.Errorf("MulScalarC64: (2+3i)(4-5i) = %v, want 23+2i", dst[0])
	}
	long := make([]complex64, 40)
	x2, y2 := filled(40, complex64(complex(2, 3))), filled(40, complex64(complex(4, -5)))
	MulC64Streaming(long, x2, y2)
	FenceStreaming()
	if long[39] != complex(23, 2) || long[0] != complex(23, 2) {
		t.Errorf("MulC64Streaming: (2+3i)(4-5i) = %v and %v, want 23+2i", long[0], long[39])
	}
	MulScalarC64Streaming(long, x2, complex(4, -5))
	FenceStreaming()
	if long[39] != complex(23, 2) || long[0] != complex(23, 2) {
		t.Errorf("MulScalarC64Streaming: (2+3i)(4-5i) = %v and %v, want 23+2i", long[0], long[39])
	}
}

package cast

import (
	"bytes"
	"github.com/tensor-go/tensor/internal/kernels"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"
	"unsafe"
)

// bytesOf views a slice's elements as bytes.
func bytesOf[T any](s []T) []byte {
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}

func funcName(f any) string { return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name() }

// checkKernel runs the dispatched kernel and its Go twin on the same random
// input at every length up to three iterations of the kernels' loop of 32
// elements plus a group of eight and a partial one, and some random ones, at every
// alignment offset of source and destination, and requires bit-identical
// outputs and untouched guard elements on both sides of the destination.
func checkKernel[D, S any](t *testing.T, fast, twin func([]D, []S), draw func() S) {
	t.Helper()
	t.Logf("%s vs %s", funcName(fast), funcName(twin))
	const guard = 16
	rng := rand.New(rand.NewPCG(21, 22))
	lengths := []int{}
	for n := range 3*32 + 8 + 8 {
		lengths = append(lengths, n)
	}
	for range 8 {
		lengths = append(lengths, 33+rng.IntN(2000))
	}
	for _, n := range lengths {
		src := make([]S, n+8)
		for i := range src {
			src[i] = draw()
		}
		for off := range 8 {
			soff, doff := off, (off*5)%8
			got := make([]D, n+2*guard+8)
			want := make([]D, len(got))
			for i := range bytesOf(got) {
				bytesOf(got)[i], bytesOf(want)[i] = 0xA5, 0xA5
			}
			sentinel := append([]byte(nil), bytesOf(got)...)
			fast(got[guard+doff:guard+doff+n], src[soff:soff+n])
			twin(want[guard+doff:guard+doff+n], src[soff:soff+n])
			if !bytes.Equal(bytesOf(got), bytesOf(want)) {
				for i := range got {
					if !bytes.Equal(bytesOf(got[i:i+1]), bytesOf(want[i:i+1])) {
						t.Fatalf("n=%d offsets %d,%d: element %d (input %v) = %v, twin %v", n, soff, doff, i-guard-doff, src[min(max(soff+i-guard-doff, 0), len(src)-1)], got[i], want[i])
					}
				}
			}
			gb := bytesOf(got)
			size := len(gb) / len(got)
			lo, hi := (guard+doff)*size, (guard+doff+n)*size
			if !bytes.Equal(gb[:lo], sentinel[:lo]) || !bytes.Equal(gb[hi:], sentinel[hi:]) {
				t.Fatalf("n=%d offsets %d,%d: a guard element changed", n, soff, doff)
			}
		}
	}
}

// float32Input draws float32 values: random bit patterns (NaNs with every
// payload, subnormals), values in the 16-bit formats' range, and specials.
func float32Input(rng *rand.Rand) func() float32 {
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)),
		65504, 65520, 65519.996, 0x1p-24, 0x1p-25, 3 * 0x1p-25, math.MaxFloat32, 0x1p-149,
		math.Float32frombits(0x7f800001), math.Float32frombits(0xffbfffff), 1 + 0x1p-11, 1 + 3*0x1p-11}
	return func() float32 {
		switch rng.IntN(3) {
		case 0:
			return math.Float32frombits(rng.Uint32())
		case 1:
			return float32(rng.NormFloat64() * math.Pow(2, float64(rng.IntN(40)-25)))
		}
		return specials[rng.IntN(len(specials))]
	}
}

// TestKernelsMatchTwins checks the kernels of every kernel set this
// machine runs against the Go twins.
func TestKernelsMatchTwins(t *testing.T) {
	for _, v := range kernelSets.Variants() {
		t.Run(v.Name(), func(t *testing.T) { checkKernels(t, v.K) })
	}
}

func checkKernels(t *testing.T, k convKernels) {
	rng := rand.New(rand.NewPCG(23, 24))
	f32 := float32Input(rng)
	t.Run("int32ToFloat32", func(t *testing.T) {
		checkKernel(t, k.int32ToFloat32, int32ToFloat32Go, func() int32 {
			return int32(rng.Uint32()) >> rng.IntN(32)
		})
	})
	t.Run("float32ToFloat64", func(t *testing.T) {
		checkKernel(t, k.float32ToFloat64, float32ToFloat64Go, f32)
	})
	t.Run("float64ToFloat32", func(t *testing.T) {
		checkKernel(t, k.float64ToFloat32, float64ToFloat32Go, func() float64 {
			if rng.IntN(2) == 0 {
				return math.Float64frombits(rng.Uint64())
			}
			return float64(f32()) * (1 + rng.Float64()*0x1p-20) // off float32 values: rounding
		})
	})
	t.Run("halfToFloat32", func(t *testing.T) {
		checkKernel(t, k.halfToFloat32, halfToFloat32Go, func() uint16 { return uint16(rng.Uint32()) })
	})
	t.Run("float32ToHalf", func(t *testing.T) {
		checkKernel(t, k.float32ToHalf, float32ToHalfGo, f32)
	})
	t.Run("brainToFloat32", func(t *testing.T) {
		checkKernel(t, k.brainToFloat32, brainToFloat32Go, func() uint16 { return uint16(rng.Uint32()) })
	})
	t.Run("float32ToBrain", func(t *testing.T) {
		checkKernel(t, k.float32ToBrain, float32ToBrainGo, f32)
	})
}

// TestHalfKernelsExhaustive compares the dispatched half conversions with
// their twins on every binary16 value, and float32ToHalf on every float32
// whose low 13 bits (those a normal binary16 drops) are one of the
// patterns that decide rounding: zero, sticky only, just below, at and
// just above the midpoint, all ones.
func TestHalfKernelsExhaustive(t *testing.T) {
	for _, v := range kernelSets.Variants() {
		t.Run(v.Name(), func(t *testing.T) { checkHalfExhaustive(t, v.K) })
	}
}

func checkHalfExhaustive(t *testing.T, k convKernels) {
	src := make([]uint16, 1<<16)
	for i := range src {
		src[i] = uint16(i)
	}
	got, want := make([]float32, len(src)), make([]float32, len(src))
	k.halfToFloat32(got, src)
	halfToFloat32Go(want, src)
	if !bytes.Equal(bytesOf(got), bytesOf(want)) {
		t.Fatal("halfToFloat32 differs from its twin")
	}
	lows := []uint32{0, 0x0001, 0x0fff, 0x1000, 0x1001, 0x1fff}
	in := make([]float32, 0, len(lows)<<19)
	for high := range uint32(1 << 19) {
		for _, low := range lows {
			in = append(in, math.Float32frombits(high<<13|low))
		}
	}
	h1, h2 := make([]uint16, len(in)), make([]uint16, len(in))
	k.float32ToHalf(h1, in)
	float32ToHalfGo(h2, in)
	for i := range h1 {
		if h1[i] != h2[i] {
			t.Fatalf("float32ToHalf(%#08x) = %#04x, twin %#04x", math.Float32bits(in[i]), h1[i], h2[i])
		}
	}
}

// TestBrainKernelsExhaustive does the same for bfloat16: every value
// widened, and every float32 whose low half is one of the rounding
// patterns, NaNs included.
func TestBrainKernelsExhaustive(t *testing.T) {
	for _, v := range kernelSets.Variants() {
		t.Run(v.Name(), func(t *testing.T) { checkBrainExhaustive(t, v.K) })
	}
}

func checkBrainExhaustive(t *testing.T, k convKernels) {
	src := make([]uint16, 1<<16)
	for i := range src {
		src[i] = uint16(i)
	}
	got, want := make([]float32, len(src)), make([]float32, len(src))
	k.brainToFloat32(got, src)
	brainToFloat32Go(want, src)
	if !bytes.Equal(bytesOf(got), bytesOf(want)) {
		t.Fatal("brainToFloat32 differs from its twin")
	}
	lows := []uint32{0, 0x0001, 0x7fff, 0x8000, 0x8001, 0xffff}
	in := make([]float32, 0, len(lows)<<16)
	for high := range uint32(1 << 16) {
		for _, low := range lows {
			in = append(in, math.Float32frombits(high<<16|low))
		}
	}
	b1, b2 := make([]uint16, len(in)), make([]uint16, len(in))
	k.float32ToBrain(b1, in)
	float32ToBrainGo(b2, in)
	for i := range b1 {
		if b1[i] != b2[i] {
			t.Fatalf("float32ToBrain(%#08x) = %#04x, twin %#04x", math.Float32bits(in[i]), b1[i], b2[i])
		}
	}
}

// TestAllPairsWithTwins repeats TestAllPairs with the Go twins installed,
// so the twins are checked against the reference even where the assembly
// is what normally runs.
func TestAllPairsWithTwins(t *testing.T) {
	defer kernelSets.Use(kernels.Generic)()
	TestAllPairs(t)
}

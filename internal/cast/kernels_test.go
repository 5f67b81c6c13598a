package cast

import (
	"bytes"
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
// input at every length up to four vectors and some random ones, at every
// alignment offset of source and destination, and requires bit-identical
// outputs and untouched guard elements on both sides of the destination.
func checkKernel[D, S any](t *testing.T, fast, twin func([]D, []S), draw func() S) {
	t.Helper()
	t.Logf("%s vs %s", funcName(fast), funcName(twin))
	const guard = 16
	rng := rand.New(rand.NewPCG(21, 22))
	lengths := []int{}
	for n := range 33 {
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

func TestKernelsMatchTwins(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	f32 := float32Input(rng)
	t.Run("int32ToFloat32", func(t *testing.T) {
		checkKernel(t, int32ToFloat32, int32ToFloat32Go, func() int32 {
			return int32(rng.Uint32()) >> rng.IntN(32)
		})
	})
	t.Run("float32ToFloat64", func(t *testing.T) {
		checkKernel(t, float32ToFloat64, float32ToFloat64Go, f32)
	})
	t.Run("float64ToFloat32", func(t *testing.T) {
		checkKernel(t, float64ToFloat32, float64ToFloat32Go, func() float64 {
			if rng.IntN(2) == 0 {
				return math.Float64frombits(rng.Uint64())
			}
			return float64(f32()) * (1 + rng.Float64()*0x1p-20) // off float32 values: rounding
		})
	})
	t.Run("halfToFloat32", func(t *testing.T) {
		checkKernel(t, halfToFloat32, halfToFloat32Go, func() uint16 { return uint16(rng.Uint32()) })
	})
	t.Run("float32ToHalf", func(t *testing.T) {
		checkKernel(t, float32ToHalf, float32ToHalfGo, f32)
	})
	t.Run("brainToFloat32", func(t *testing.T) {
		checkKernel(t, brainToFloat32, brainToFloat32Go, func() uint16 { return uint16(rng.Uint32()) })
	})
	t.Run("float32ToBrain", func(t *testing.T) {
		checkKernel(t, float32ToBrain, float32ToBrainGo, f32)
	})
}

// TestHalfKernelsExhaustive compares the dispatched half conversions with
// their twins on every binary16 value, and float32ToHalf on every float32
// whose low 13 bits (those a normal binary16 drops) are one of the
// patterns that decide rounding: zero, sticky only, just below, at and
// just above the midpoint, all ones.
func TestHalfKernelsExhaustive(t *testing.T) {
	src := make([]uint16, 1<<16)
	for i := range src {
		src[i] = uint16(i)
	}
	got, want := make([]float32, len(src)), make([]float32, len(src))
	halfToFloat32(got, src)
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
	float32ToHalf(h1, in)
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
	src := make([]uint16, 1<<16)
	for i := range src {
		src[i] = uint16(i)
	}
	got, want := make([]float32, len(src)), make([]float32, len(src))
	brainToFloat32(got, src)
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
	float32ToBrain(b1, in)
	float32ToBrainGo(b2, in)
	for i := range b1 {
		if b1[i] != b2[i] {
			t.Fatalf("float32ToBrain(%#08x) = %#04x, twin %#04x", math.Float32bits(in[i]), b1[i], b2[i])
		}
	}
}

// TestAllPairsWithTwins repeats TestAllPairs with every dispatch variable
// pointed at its Go twin, so the twins are checked against the reference
// even where the assembly is what normally runs.
func TestAllPairsWithTwins(t *testing.T) {
	saved := [...]any{int32ToFloat32, float32ToFloat64, float64ToFloat32, halfToFloat32, float32ToHalf, brainToFloat32, float32ToBrain}
	int32ToFloat32, float32ToFloat64, float64ToFloat32 = int32ToFloat32Go, float32ToFloat64Go, float64ToFloat32Go
	halfToFloat32, float32ToHalf = halfToFloat32Go, float32ToHalfGo
	brainToFloat32, float32ToBrain = brainToFloat32Go, float32ToBrainGo
	defer func() {
		int32ToFloat32 = saved[0].(func([]float32, []int32))
		float32ToFloat64 = saved[1].(func([]float64, []float32))
		float64ToFloat32 = saved[2].(func([]float32, []float64))
		halfToFloat32 = saved[3].(func([]float32, []uint16))
		float32ToHalf = saved[4].(func([]uint16, []float32))
		brainToFloat32 = saved[5].(func([]float32, []uint16))
		float32ToBrain = saved[6].(func([]uint16, []float32))
	}()
	TestAllPairs(t)
}

package cast

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestWideIntegersToFloat32 checks the int64 and uint64 conversions to
// float32 against exact rounding (math/big) at every magnitude, ties and
// near-ties included: Go's own conversion rounds twice on 386.
func TestWideIntegersToFloat32(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	exact := func(u uint64, neg bool) float32 {
		f, _ := new(big.Float).SetUint64(u).Float32()
		if neg {
			return -f
		}
		return f
	}
	for i := range 100000 {
		u := rng.Uint64() >> rng.IntN(64)
		if i%3 == 0 { // a float32 tie (or one off it) at a random magnitude
			shift := rng.IntN(40)
			u = (rng.Uint64()>>40 | 1<<24) << shift
			u = u | 1<<max(shift-1, 0) + uint64(rng.IntN(3)) - 1
		}
		if got, want := uint64ToFloat32(u), exact(u, false); got != want {
			t.Fatalf("uint64ToFloat32(%d) = %v, want %v", u, got, want)
		}
		v := int64(u >> 1)
		if i%2 == 0 {
			v = -v
		}
		if got, want := int64ToFloat32(v), exact(uint64(max(v, -v)), v < 0); got != want {
			t.Fatalf("int64ToFloat32(%d) = %v, want %v", v, got, want)
		}
	}
	if got := int64ToFloat32(math.MinInt64); got != -0x1p63 {
		t.Errorf("int64ToFloat32(MinInt64) = %v", got)
	}
	if got := uint64ToFloat32(math.MaxUint64); got != 0x1p64 {
		t.Errorf("uint64ToFloat32(MaxUint64) = %v", got)
	}
}

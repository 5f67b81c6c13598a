package bfloat16

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// isNaN32 reports whether the float32 bits are a NaN.
func isNaN32(b uint32) bool { return b&0x7f800000 == 0x7f800000 && b&0x007fffff != 0 }

// TestRoundTrip widens every bfloat16 value and narrows it back, from
// float32 and from float64: finite values and infinities come back bit for
// bit, NaNs as NaNs of the same sign.
func TestRoundTrip(t *testing.T) {
	for i := range 1 << 16 {
		b := BFloat16(i)
		f := b.Float32()
		if got := math.Float32bits(f); got != uint32(i)<<16 {
			t.Fatalf("%#04x.Float32() bits %#08x, want %#08x", i, got, uint32(i)<<16)
		}
		if b.Float64() != float64(f) && !b.IsNaN() {
			t.Fatalf("%#04x.Float64() = %v, want %v", i, b.Float64(), f)
		}
		nan := isNaN32(uint32(i) << 16)
		if b.IsNaN() != nan {
			t.Fatalf("%#04x.IsNaN() = %v", i, b.IsNaN())
		}
		for name, back := range map[string]BFloat16{"FromFloat32": FromFloat32(f), "FromFloat64": FromFloat64(b.Float64())} {
			switch {
			case nan && (!back.IsNaN() || back&0x8000 != b&0x8000):
				t.Fatalf("%s(%#04x NaN) = %#04x, want a NaN of the same sign", name, i, uint16(back))
			case !nan && back != b:
				t.Fatalf("%s(%v) = %#04x, want %#04x", name, f, uint16(back), i)
			}
		}
	}
}

// TestTiesToEven checks, for every finite bfloat16 b, the float32 values
// at the midpoint to the next value up in magnitude and one step either
// side of it.
func TestTiesToEven(t *testing.T) {
	for i := range 1 << 16 {
		b := uint32(i)
		if b&0x7f80 == 0x7f80 { // Inf and NaN have no next value
			continue
		}
		mid := b<<16 | 0x8000
		even := b
		if b&1 == 1 {
			even = b + 1 // may carry into the exponent, or to Inf: both right
		}
		for _, c := range []struct {
			bits uint32
			want uint32
		}{{mid, even}, {mid - 1, b}, {mid + 1, b + 1}, {b << 16, b}, {b<<16 | 0xffff, b + 1}} {
			if got := FromFloat32(math.Float32frombits(c.bits)); uint32(got) != c.want {
				t.Fatalf("FromFloat32(%#08x) = %#04x, want %#04x", c.bits, uint16(got), c.want)
			}
			// The float32 value is exact in float64, so FromFloat64 must agree.
			if got := FromFloat64(float64(math.Float32frombits(c.bits))); uint32(got) != c.want {
				t.Fatalf("FromFloat64(%#08x) = %#04x, want %#04x", c.bits, uint16(got), c.want)
			}
		}
	}
}

// TestNaNStaysNaN converts NaNs whose low half would carry into the
// exponent, the sign or the infinity encoding if rounded like numbers.
func TestNaNStaysNaN(t *testing.T) {
	lows := []uint32{0x0000, 0x0001, 0x7fff, 0x8000, 0x8001, 0xffff, 0x1234}
	for high := range uint32(1 << 16) {
		if high&0x7f80 != 0x7f80 {
			continue
		}
		for _, low := range lows {
			bits := high<<16 | low
			if !isNaN32(bits) {
				continue
			}
			f := math.Float32frombits(bits)
			for name, got := range map[string]BFloat16{"FromFloat32": FromFloat32(f), "FromFloat64": FromFloat64(float64(f))} {
				if !got.IsNaN() || uint32(got)>>15 != bits>>31 {
					t.Fatalf("%s(%#08x) = %#04x, want a NaN of the same sign", name, bits, uint16(got))
				}
			}
		}
	}
}

// TestOverflow checks the boundary between the largest finite bfloat16 and
// infinity, from float32 and float64.
func TestOverflow(t *testing.T) {
	const maxBF = 0x7f7f
	for _, c := range []struct {
		f    float64
		want BFloat16
	}{
		{float64(math.Float32frombits(0x7f7f7fff)), maxBF},
		{float64(math.Float32frombits(0x7f7f8000)), 0x7f80},
		{math.MaxFloat32, 0x7f80},
		{0x1p128 - 0x1p119, 0x7f80},         // exactly the midpoint: ties to even (Inf)
		{0x1p128 - 0x1p119 - 0x1p80, maxBF}, // just below it
		{-(0x1p128 - 0x1p119 - 0x1p80), 0x8000 | maxBF},
		{1e300, 0x7f80},
		{-1e300, 0xff80},
		{math.Inf(1), 0x7f80},
		{math.Inf(-1), 0xff80},
	} {
		if got := FromFloat64(c.f); got != c.want {
			t.Errorf("FromFloat64(%g) = %#04x, want %#04x", c.f, uint16(got), uint16(c.want))
		}
		if f32 := float32(c.f); float64(f32) == c.f || math.IsInf(c.f, 0) {
			if got := FromFloat32(f32); got != c.want {
				t.Errorf("FromFloat32(%g) = %#04x, want %#04x", c.f, uint16(got), uint16(c.want))
			}
		}
	}
}

// reference rounds f to bfloat16 with math/big, independently of the
// package: 8 significant bits to nearest even in the normal range, a fixed
// quantum of 2^-133 below 2^-126, and infinity from 2^128 up.
func reference(f float64) float64 {
	if math.Abs(f) < 0x1p-126 {
		return math.RoundToEven(f*0x1p133) * 0x1p-133 // exact scalings
	}
	r, _ := new(big.Float).SetPrec(8).SetMode(big.ToNearestEven).SetFloat64(f).Float64()
	if math.Abs(r) >= 0x1p128 {
		return math.Copysign(math.Inf(1), f)
	}
	return r
}

// TestFromFloat64SingleRounding compares FromFloat64 with the math/big
// reference on random float64 values over bfloat16's range, and on values
// a hair off each midpoint, where rounding through float32 first would
// land on the midpoint and round the wrong way.
func TestFromFloat64SingleRounding(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	check := func(f float64) {
		t.Helper()
		want := reference(f)
		got := FromFloat64(f).Float64()
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("FromFloat64(%x) = %x, want %x", f, got, want)
		}
	}
	for range 200000 {
		exp := rng.IntN(280) - 150 // 2^-150 .. 2^129
		f := math.Ldexp(1+rng.Float64(), exp)
		if rng.IntN(2) == 0 {
			f = -f
		}
		check(f)
	}
	for i := range 1 << 15 {
		b := BFloat16(i)
		if b&0x7f80 == 0x7f80 || (b+1)&0x7f80 == 0x7f80 { // the midpoint below Inf is TestOverflow's
			continue
		}
		lo, hi := b.Float64(), (b + 1).Float64()
		mid := (lo + hi) / 2 // exact: one more bit
		for _, off := range []float64{0x1p-30, 0x1p-40, 0x1p-60} {
			delta := math.Max(mid*off, 0x1p-1074)
			check(mid + delta)
			check(mid - delta)
			check(-(mid + delta))
			check(mid)
		}
	}
}

func TestString(t *testing.T) {
	for _, c := range []struct {
		b    BFloat16
		want string
	}{{0x3f80, "1"}, {0xc020, "-2.5"}, {0x7f80, "+Inf"}, {0x7fc0, "NaN"}, {0x3eab, "0.33398438"}} { // the shortest float32 text, as documented
		if got := c.b.String(); got != c.want {
			t.Errorf("%#04x.String() = %q, want %q", uint16(c.b), got, c.want)
		}
	}
}

func BenchmarkFromFloat32(b *testing.B) {
	xs := make([]float32, 4096)
	for i := range xs {
		xs[i] = float32(i) * 1.37
	}
	b.SetBytes(int64(len(xs) * 4))
	var sink BFloat16
	for b.Loop() {
		for _, x := range xs {
			sink ^= FromFloat32(x)
		}
	}
	_ = sink
}

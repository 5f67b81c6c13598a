package gemm

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// gemvBitsCase is the dot product, the axpy and their four-row forms on
// fixed operands: the bits of the dot and hashes of the bits of the rest.
type gemvBitsCase struct {
	dot, axpy, dot4, axpy4 uint64
}

// TestGemvHelpersSameBitsEverywhere pins the results of the dot, axpy,
// dot4 and axpy4 helpers on fixed operands of 1000 elements (a prefix of
// 256- or 128-byte steps and a Go tail; four rows 1003 apart for the
// four-row ones): the assembly ones (AVX-512 and AVX2 on amd64, NEON on arm64)
// must give one set of bits on every architecture, and the Go twins
// another, also on every architecture. The values were computed on amd64
// (AVX-512, AVX2, generic) and hold under qemu for arm64; dot4's since
// session 24 (one vector of lanes a row) on AVX2, generic and qemu's arm64,
// the AVX-512 helper's to be confirmed on the next AVX-512 machine.
func TestGemvHelpersSameBitsEverywhere(t *testing.T) {
	want32 := map[bool]gemvBitsCase{true: {0x4126b9da, 0xed9bc6e396d1bf0, 0x4455f2af57865059, 0xd0532341f0297db1}, false: {0x4126b9da, 0x2a1f64956c86299f, 0x964f861cd835e513, 0xe0c588fb5519f88e}}
	want64 := map[bool]gemvBitsCase{true: {0x4024d73b36e514f8, 0x5a52c0cd00f1460d, 0x574e9a93ac9ced92, 0x34916afc3eed2886}, false: {0x4024d73b36e514fa, 0x57186ab3d0d0102c, 0xf88ea0727d9c7a00, 0x76baad39c8954786}}
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 1000
	const lda = n + 3
	x64, y64, a64 := make([]float64, n), make([]float64, n), make([]float64, 3*lda+n)
	x32, y32, a32 := make([]float32, n), make([]float32, n), make([]float32, 3*lda+n)
	for i := range n {
		x64[i], y64[i] = rng.Float64()*2-1, rng.Float64()*2-1
		x32[i], y32[i] = float32(x64[i]), float32(y64[i])
	}
	for i := range a64 {
		a64[i] = rng.Float64()*2 - 1
		a32[i] = float32(a64[i])
	}
	for _, v := range kernelSets.Variants() {
		asm := slices.Contains([]string{"amx", "avx512", "avx2", "neon"}, v.Name())
		got32 := gemvBits(v.K.gemvF32, x32, y32, a32, lda)
		got64 := gemvBits(v.K.gemvF64, x64, y64, a64, lda)
		if got32 != want32[asm] || got64 != want64[asm] {
			t.Errorf("%s (assembly %v): float32 %#x, float64 %#x; want %#x, %#x", v.Name(), asm, got32, got64, want32[asm], want64[asm])
		}
	}
}

// gemvBits runs the four helpers of h on x, y and the four rows of a.
func gemvBits[T float32 | float64](h gemvHelpers[T], x, y, a []T, lda int) gemvBitsCase {
	var out [4]T
	h.dot4(a, lda, x, &out)
	alpha := [4]T{0.75, -0.5, 1.25, 0.375}
	axpy4 := func(_ T, x, y []T) { h.axpy4(&alpha, x, lda, y) }
	return gemvBitsCase{
		dot:   floatBits(h.dot(x, y)),
		axpy:  axpyHash(h.axpy, 0.75, x, y),
		dot4:  hashBits(out[:]),
		axpy4: axpyHash(axpy4, 0, a, y),
	}
}

// axpyHash runs axpy on a copy of y and hashes the result's bits.
func axpyHash[T float32 | float64](axpy func(alpha T, x, y []T), alpha T, x, y []T) uint64 {
	y = slices.Clone(y)
	axpy(alpha, x, y)
	return hashBits(y)
}

// floatBits is the bits of v in its own width.
func floatBits[T float32 | float64](v T) uint64 {
	if f, ok := any(v).(float32); ok {
		return uint64(math.Float32bits(f))
	}
	return math.Float64bits(float64(v))
}

// hashBits hashes the bits of s.
func hashBits[T float32 | float64](s []T) uint64 {
	h := fnv.New64a()
	for _, v := range s {
		b := floatBits(float64(v)) // float32s widened, as before
		h.Write([]byte{byte(b), byte(b >> 8), byte(b >> 16), byte(b >> 24), byte(b >> 32), byte(b >> 40), byte(b >> 48), byte(b >> 56)})
	}
	return h.Sum64()
}

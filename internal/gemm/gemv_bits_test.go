package gemm

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// gemvBitsCase is the dot product and the axpy of fixed operands, as the
// bits of the dot and a hash of the bits of the axpy's result.
type gemvBitsCase struct {
	dot  uint64
	axpy uint64
}

// TestGemvHelpersSameBitsEverywhere pins the results of the dot and axpy
// helpers on fixed operands of 1000 elements (a 256-byte-step prefix and
// a Go tail): the assembly ones (AVX-512 and AVX2 on amd64, NEON on arm64)
// must give one set of bits on every architecture, and the Go twins
// another, also on every architecture. The values were computed on amd64
// (AVX-512, AVX2, generic) and hold under qemu for arm64.
func TestGemvHelpersSameBitsEverywhere(t *testing.T) {
	want32 := map[bool]gemvBitsCase{true: {0x4126b9da, 0xed9bc6e396d1bf0}, false: {0x4126b9da, 0x2a1f64956c86299f}}
	want64 := map[bool]gemvBitsCase{true: {0x4024d73b36e514f8, 0x5a52c0cd00f1460d}, false: {0x4024d73b36e514fa, 0x57186ab3d0d0102c}}
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 1000
	x64, y64 := make([]float64, n), make([]float64, n)
	x32, y32 := make([]float32, n), make([]float32, n)
	for i := range n {
		x64[i], y64[i] = rng.Float64()*2-1, rng.Float64()*2-1
		x32[i], y32[i] = float32(x64[i]), float32(y64[i])
	}
	for _, v := range kernelSets.Variants() {
		asm := slices.Contains([]string{"avx512", "avx2", "neon"}, v.Name())
		got32 := gemvBitsCase{uint64(math.Float32bits(v.K.gemvF32.dot(x32, y32))), axpyHash(v.K.gemvF32.axpy, 0.75, x32, y32)}
		got64 := gemvBitsCase{math.Float64bits(v.K.gemvF64.dot(x64, y64)), axpyHash(v.K.gemvF64.axpy, 0.75, x64, y64)}
		if got32 != want32[asm] || got64 != want64[asm] {
			t.Errorf("%s (assembly %v): float32 %#x, float64 %#x; want %#x, %#x", v.Name(), asm, got32, got64, want32[asm], want64[asm])
		}
	}
}

// axpyHash runs axpy on a copy of y and hashes the result's bits.
func axpyHash[T float32 | float64](axpy func(alpha T, x, y []T), alpha T, x, y []T) uint64 {
	y = slices.Clone(y)
	axpy(alpha, x, y)
	h := fnv.New64a()
	for _, v := range y {
		b := math.Float64bits(float64(v))
		h.Write([]byte{byte(b), byte(b >> 8), byte(b >> 16), byte(b >> 24), byte(b >> 32), byte(b >> 40), byte(b >> 48), byte(b >> 56)})
	}
	return h.Sum64()
}

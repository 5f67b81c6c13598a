//go:build !purego

package gemm

import (
	"math/rand/v2"
	"testing"

	"github.com/tensor-go/tensor/internal/kernels"
)

// TestAVX2MeasuredBlocks checks that Zen 3 gets the AVX2 blocks measured on
// it and other processors none, and that products are right with those
// blocks on whichever kernels this machine runs, across two N blocks and
// three K blocks.
func TestAVX2MeasuredBlocks(t *testing.T) {
	zen3 := kernels.Processor{Vendor: "AuthenticAMD", Family: 25, Model: 1}
	spr := kernels.Processor{Vendor: "GenuineIntel", Family: 6, Model: 143}
	if b := kernels.ForProcessor(zen3, avx2Blocks32, blocks{}); b != (blocks{256, 72, 2048}) {
		t.Errorf("Zen 3 float32 blocks %v", b)
	}
	if b := kernels.ForProcessor(zen3, avx2Blocks64, blocks{}); b != (blocks{256, 72, 1024}) {
		t.Errorf("Zen 3 float64 blocks %v", b)
	}
	if b := kernels.ForProcessor(spr, avx2Blocks32, blocks{}); b != (blocks{}) {
		t.Errorf("Sapphire Rapids float32 blocks %v, want the scaled ones", b)
	}
	defer func(saved kernelSet) { active = saved }(active)
	rng := rand.New(rand.NewPCG(41, 42))
	for _, v := range kernelSets.Variants() {
		s := v.K
		f32, f64, i32 := *s.f32, *s.f64, *s.i32
		b32, b64 := avx2Blocks32[0].Value, avx2Blocks64[0].Value
		f32.setBlocks(b32.kc, b32.mc, b32.nc)
		i32.setBlocks(b32.kc, b32.mc, b32.nc)
		f64.setBlocks(b64.kc, b64.mc, b64.nc)
		s.f32, s.f64, s.i32 = &f32, &f64, &i32
		active = s
		m, k := 80, 600
		if quick() {
			m, k = 13, 520
		}
		checkMul[float32](t, rng, m, b32.nc+40, k, rowMajor, rowMajor, rowMajor, Options{Threads: 2})
		checkMul[float32](t, rng, m, 100, k, colMajor, rowMajor, rowMajor, Options{Threads: 1})
		checkMul[int32](t, rng, m, b32.nc+40, k, rowMajor, colMajor, rowMajor, Options{Threads: 2})
		checkMul[float64](t, rng, m, b64.nc+24, k, rowMajor, rowMajor, rowMajor, Options{Threads: 2})
	}
}

//go:build !purego

package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestDPStripTwin checks the strip kernel against its Go twin, bit for
// bit, for 1 to 3 K steps, with and without C added, stored and rounded,
// C and out inside guards between rows.
func TestDPStripTwin(t *testing.T) {
	if dpAsmKernel == nil || dpAsmKernel.kc != active.f32.kc {
		t.Skip("no VDPBF16PS here, or a set below avx512")
	}
	rng := rand.New(rand.NewPCG(55, 56))
	for trial := range 200 {
		steps := 1 + trial%3
		accumulate, rounded := trial%2 == 1, trial%4 >= 2
		a := wideBF16(rng, steps*tileStepElems, true)
		b := wideBF16(rng, steps*tileStepElems, true)
		const ld = tileBlock + 5
		c := make([][]float32, 2)
		out := make([][]uint16, 2)
		init := make([]float32, guard+dpStripRows*ld+guard)
		for i := range init {
			init[i] = math.Float32frombits(0x7fc05555)
			if i >= guard && (i-guard)%ld < tileBlock {
				init[i] = float32(rng.NormFloat64())
			}
		}
		for v := range 2 {
			c[v] = append([]float32(nil), init...)
			out[v] = make([]uint16, guard+dpStripRows*ld+guard)
			for i := range out[v] {
				out[v][i] = 0x5555
			}
			var op *uint16
			if rounded {
				op = &out[v][guard]
			}
			strip := dpStripBF16
			if v == 1 {
				strip = dpStripGo
			}
			strip(&a[0], &b[0], &c[v][guard], ld, op, ld, steps, accumulate)
		}
		for i := range c[0] {
			if !sameFloat32(c[0][i], c[1][i]) {
				t.Fatalf("trial %d (steps %d, accumulate %v, rounded %v): C element %d = %v, twin %v", trial, steps, accumulate, rounded, i, c[0][i], c[1][i])
			}
			g, w := out[0][i], out[1][i]
			if g != w && !(g&0x7fff > 0x7f80 && w&0x7fff > 0x7f80) {
				t.Fatalf("trial %d: out element %d = %#04x, twin %#04x", trial, i, g, w)
			}
		}
	}
}

// BenchmarkDPStrip times the strip kernel alone on operands in L1 (one
// 32-column panel of kc 384 and an 8-row strip), to see the kernel's own
// rate apart from packing and the caches.
func BenchmarkDPStrip(b *testing.B) {
	if dpAsmKernel == nil || dpAsmKernel.kc != active.f32.kc {
		b.Skip("no VDPBF16PS here, or a set below avx512")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, steps := range []int{1, 4, 12} {
		a := randomBF16(rng, steps*tileStepElems)
		bp := randomBF16(rng, steps*tileStepElems)
		c := make([]float32, dpStripRows*tileBlock)
		b.Run(fmt.Sprintf("steps=%d", steps), func(b *testing.B) {
			cpu := cpuSeconds()
			for b.Loop() {
				dpStripBF16(&a[0], &bp[0], &c[0], tileBlock, nil, 0, steps, true)
			}
			reportFlops(b, 2*dpStripRows*tileBlock*tileBlock*float64(steps), cpu)
		})
	}
}

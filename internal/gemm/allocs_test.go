package gemm

import (
	"fmt"
	"testing"
)

// TestMulAllocs checks that a one-goroutine product allocates nothing, on
// the packed path (64³), the small-kernel path (8×8×8, and a 3×5×2 below
// tinyWork) and for a strided batch: at a microsecond a product, one
// allocation is a measurable share of the time.
func TestMulAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	one := Options{Threads: 1}
	for _, s := range [][3]int{{64, 64, 64}, {8, 8, 8}, {3, 5, 2}, {40, 3, 17}} {
		m, n, k := s[0], s[1], s[2]
		a := Matrix[float32]{make([]float32, m*k), 0, k, 1}
		b := Matrix[float32]{make([]float32, k*n), 0, n, 1}
		c := Matrix[float32]{make([]float32, m*n), 0, n, 1}
		t.Run(fmt.Sprintf("Mul/%dx%dx%d", m, n, k), func(t *testing.T) {
			if allocs := testing.AllocsPerRun(20, func() { Mul(m, n, k, a, b, c, one) }); allocs != 0 {
				t.Errorf("Mul allocates %v times per call, want 0", allocs)
			}
		})
		bf, cf := Matrix[float64]{make([]float64, k*n), 0, n, 1}, Matrix[float64]{make([]float64, m*n), 0, n, 1}
		af := Matrix[float64]{make([]float64, m*k), 0, k, 1}
		t.Run(fmt.Sprintf("Mul/f64/%dx%dx%d", m, n, k), func(t *testing.T) {
			if allocs := testing.AllocsPerRun(20, func() { Mul(m, n, k, af, bf, cf, one) }); allocs != 0 {
				t.Errorf("Mul allocates %v times per call, want 0", allocs)
			}
		})
	}
}

// TestMulBatchStridedAllocs checks that a one-goroutine strided batch
// allocates nothing on the small-kernel path, the packed path and the
// one-tall-product path.
func TestMulBatchStridedAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	one := Options{Threads: 1}
	for _, s := range [][5]int{{1000, 8, 8, 8, 1}, {200, 3, 5, 2, 1}, {4, 48, 40, 64, 1}, {4, 48, 40, 64, 0}} {
		batch, m, n, k := s[0], s[1], s[2], s[3]
		bs := s[4] * k * n // 0: B shared, one tall product
		a := Matrix[float32]{make([]float32, batch*m*k), 0, k, 1}
		b := Matrix[float32]{make([]float32, batch*k*n), 0, n, 1}
		c := Matrix[float32]{make([]float32, batch*m*n), 0, n, 1}
		// Warm the pools up outside the measurement.
		MulBatchStrided(batch, m, n, k, a, b, c, m*k, bs, m*n, one)
		allocs := testing.AllocsPerRun(20, func() { MulBatchStrided(batch, m, n, k, a, b, c, m*k, bs, m*n, one) })
		if allocs != 0 {
			t.Errorf("MulBatchStrided(%v) allocates %v times per call, want 0", s, allocs)
		}
	}
}

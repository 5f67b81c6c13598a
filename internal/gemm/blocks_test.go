package gemm

import (
	"testing"

	"github.com/tensor-go/tensor/internal/kernels"
)

func TestScaledBlocks(t *testing.T) {
	for _, c := range []struct {
		name          string
		mr, nr        int
		kc, mc, nc    int
		l1, l2        int
		wkc, wmc, wnc int
	}{
		{"reference core", 12, 32, 384, 144, 640, 48 << 10, 2 << 20, 384, 144, 640},
		{"zen3 avx2 f32", 6, 16, 512, 120, 512, 32 << 10, 512 << 10, 336, 42, 192},
		{"zen3 avx2 f64", 6, 8, 256, 120, 512, 32 << 10, 512 << 10, 168, 42, 192},
		{"neoverse", 4, 16, 256, 128, 512, 64 << 10, 1 << 20, 336, 48, 192},
		{"bounded up", 4, 16, 256, 128, 512, 1 << 20, 64 << 20, 512, 128, 512},
		{"bounded down", 12, 32, 384, 144, 640, 4 << 10, 64 << 10, 48, 144, 640},
	} {
		kc, mc, nc := scaledBlocks(c.mr, c.nr, c.kc, c.mc, c.nc, kernels.Caches{L1D: c.l1, L2: c.l2})
		if kc != c.wkc || mc != c.wmc || nc != c.wnc {
			t.Errorf("%s: kc, mc, nc = %d, %d, %d; want %d, %d, %d", c.name, kc, mc, nc, c.wkc, c.wmc, c.wnc)
		}
		if kc%8 != 0 || mc%c.mr != 0 || nc%c.nr != 0 {
			t.Errorf("%s: %d, %d, %d not multiples of 8, mr, nr", c.name, kc, mc, nc)
		}
	}
}

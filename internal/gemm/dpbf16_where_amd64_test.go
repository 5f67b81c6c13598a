//go:build !purego

package gemm

import (
	"testing"

	"github.com/tensor-go/tensor/internal/kernels"
)

// TestUseDPBF16 checks the table: the VDPBF16PS kernel multiplies
// bfloat16 products on Zen 4 and Zen 5 with AVX512_BF16 only; Intel's
// processors, other AMD families and unknown ones widen, as does any
// processor without the instruction (Zen 3, family 25 too).
func TestUseDPBF16(t *testing.T) {
	for _, c := range []struct {
		p       kernels.Processor
		hasBF16 bool
		want    bool
	}{
		{kernels.Processor{Vendor: "AuthenticAMD", Family: 0x1A, Model: 2}, true, true},
		{kernels.Processor{Vendor: "AuthenticAMD", Family: 0x1A, Model: 2}, false, false},
		{kernels.Processor{Vendor: "AuthenticAMD", Family: 0x19, Model: 0x11}, true, true},
		{kernels.Processor{Vendor: "AuthenticAMD", Family: 0x19, Model: 0x01}, false, false},
		{kernels.Processor{Vendor: "AuthenticAMD", Family: 0x17, Model: 0x31}, true, false},
		{kernels.Processor{Vendor: "GenuineIntel", Family: 6, Model: 0x8F}, true, false},
		{kernels.Processor{}, true, false},
	} {
		if got := useDPBF16(c.p, c.hasBF16); got != c.want {
			t.Errorf("useDPBF16(%+v, %v) = %v, want %v", c.p, c.hasBF16, got, c.want)
		}
	}
}

// TestActiveBF16FollowsTheTable checks that the avx512 set (and so the
// amx set's fallback) takes the dot-product kernel exactly where the table
// says, here.
func TestActiveBF16FollowsTheTable(t *testing.T) {
	set := kernelSets.For(kernels.AVX512)
	if got, want := set.bf16 != nil && set.bf16 == dpAsmKernel, dpBF16Here(); got != want {
		t.Errorf("avx512 set uses the VDPBF16PS kernel: %v, want %v (processor %+v)", got, want, kernels.ProcessorID())
	}
}

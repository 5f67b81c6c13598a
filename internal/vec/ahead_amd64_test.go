//go:build !purego

package vec

import (
	"math/rand/v2"
	"testing"

	"github.com/tensor-go/tensor/internal/kernels"
)

// TestStreamAheadFor checks the table: Zen 5 and family 25 (Zen 3, Zen 4)
// read without the prefetch, Emerald Rapids 4 KiB ahead, every other
// processor (Sapphire Rapids and Intel's others, other AMD families, an
// unknown one) at the default distance.
func TestStreamAheadFor(t *testing.T) {
	for _, c := range []struct {
		p    kernels.Processor
		want int
	}{
		{kernels.Processor{Vendor: "AuthenticAMD", Family: 0x1A, Model: 2}, 0},
		{kernels.Processor{Vendor: "AuthenticAMD", Family: 0x19, Model: 1}, 0},
		{kernels.Processor{Vendor: "AuthenticAMD", Family: 0x19, Model: 0x11}, 0},
		{kernels.Processor{Vendor: "AuthenticAMD", Family: 0x17, Model: 0x31}, defaultStreamAhead},
		{kernels.Processor{Vendor: "GenuineIntel", Family: 6, Model: 207}, 4096},
		{kernels.Processor{Vendor: "GenuineIntel", Family: 6, Model: 0x8F}, defaultStreamAhead},
		{kernels.Processor{Vendor: "GenuineIntel", Family: 6, Model: 0x55}, defaultStreamAhead},
		{kernels.Processor{}, defaultStreamAhead},
	} {
		if got := streamAheadFor(c.p); got != c.want {
			t.Errorf("%+v: %d bytes ahead, want %d", c.p, got, c.want)
		}
	}
	if defaultStreamAhead != 16384 {
		t.Errorf("default distance %d, reduce_amd64.s measured 16384", defaultStreamAhead)
	}
}

// TestStreamAheadSameBits runs the reduction twin checks at every
// distance the table holds and the default: a prefetch changes no
// result, and the distance 0 one reads no line the loop does not.
func TestStreamAheadSameBits(t *testing.T) {
	defer func(saved int) { streamAhead = saved }(streamAhead)
	distances := []int{defaultStreamAhead}
	for _, e := range streamAheads {
		distances = append(distances, e.Value)
	}
	for _, ahead := range distances {
		streamAhead = ahead
		checkProd(t, prodCase[float32, float64]{"f32", ProdF32, nearOneF32, sameF64})
		checkProd(t, prodCase[float64, float64]{"f64", ProdF64, nearOneF64, sameF64})
		checkProd(t, prodCase[int32, int32]{"i32", ProdI32, oddI32, same[int32]})
		checkProd(t, prodCase[uint16, float64]{"bf16", ProdBF16, nearOneBF16, sameF64})
		checkSum(t, prodCase[float32, float64]{"f32", SumF32, nearOneF32, sameF64})
		checkSum(t, prodCase[uint16, float64]{"bf16", SumBF16, nearOneBF16, sameF64})
		func() {
			defer func(saved prodKernels) { prodImpl = saved }(prodImpl)
			checkPairRuns(t, rand.New(rand.NewPCG(13, 14)), &prodImpl, prodGo, prodTable.Variants(), "ProdF32", ProdF32, ProdF32Pair)
		}()
		func() {
			defer func(saved sumKernels) { sumImpl = saved }(sumImpl)
			checkPairRuns(t, rand.New(rand.NewPCG(15, 16)), &sumImpl, sumGo, sumTable.Variants(), "SumF32", SumF32, SumF32Pair)
		}()
	}
}

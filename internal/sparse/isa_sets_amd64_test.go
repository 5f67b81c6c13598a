//go:build !purego

package sparse

import (
	"math/rand/v2"
	"testing"

	"github.com/tensor-go/tensor/internal/cpufeat"
)

// TestKernelSets runs every row kernel set this CPU can run, not only the
// installed one, against the Go twins, as TestKernelsMatchTwins does.
func TestKernelSets(t *testing.T) {
	if cpufeat.AVX512 {
		checkKernels(t, asmKernels(axpyF32AVX512, axpy4F32AVX512), 16, func(r *rand.Rand) float32 { return float32(special(r)) })
		checkKernels(t, asmKernels(axpyF64AVX512, axpy4F64AVX512), 8, special)
	}
	if cpufeat.AVX2FMA {
		checkKernels(t, float32KernelsAVX2, 16, func(r *rand.Rand) float32 { return float32(special(r)) })
		checkKernels(t, float64KernelsAVX2, 8, special)
	}
}

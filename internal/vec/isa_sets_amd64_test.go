//go:build !purego

package vec

import "github.com/tensor-go/tensor/internal/cpufeat"

// streamSets lists the assembly Streaming kernel sets this CPU can run.
func streamSets() map[string]streamKernels {
	sets := map[string]streamKernels{}
	if cpufeat.AVX512 {
		sets["avx512"] = streamAVX512
	}
	if cpufeat.AVX2FMA && cpufeat.F16C {
		sets["avx2"] = streamAVX2
	}
	return sets
}

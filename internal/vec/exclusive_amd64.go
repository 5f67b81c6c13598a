//go:build !purego

package vec

import "github.com/tensor-go/tensor/internal/kernels"

//go:noescape
func exclusivePrefixAVX512(o []float32, run []float64, x []float32)

//go:noescape
func exclusiveSuffixAVX512(o []float32, run []float64, x []float32)

//go:noescape
func exclusiveSuffixScaledAVX512(o []float32, run []float64, x, s []float32)

//go:noescape
func exclusivePrefixAVX2(o []float32, run []float64, x []float32)

//go:noescape
func exclusiveSuffixAVX2(o []float32, run []float64, x []float32)

//go:noescape
func exclusiveSuffixScaledAVX2(o []float32, run []float64, x, s []float32)

// The AVX2 kernels stop at the last whole vector of four; the twins finish.
var exclusiveAVX2 = exclusiveKernels{
	prefix: func(o []float32, run []float64, x []float32) {
		n := len(o) &^ 3
		exclusivePrefixAVX2(o[:n], run, x)
		prefixGo(o[n:], run[n:], x[n:])
	},
	suffix: func(o []float32, run []float64, x []float32) {
		n := len(o) &^ 3
		exclusiveSuffixAVX2(o[:n], run, x)
		suffixGo(o[n:], run[n:], x[n:])
	},
	suffixScaled: func(o []float32, run []float64, x, s []float32) {
		n := len(o) &^ 3
		exclusiveSuffixScaledAVX2(o[:n], run, x, s)
		suffixScaledGo(o[n:], run[n:], x[n:], s[n:])
	},
}

func init() {
	exclusiveTable.Add(kernels.AVX512, exclusiveKernels{
		prefix: exclusivePrefixAVX512, suffix: exclusiveSuffixAVX512, suffixScaled: exclusiveSuffixScaledAVX512,
	})
	exclusiveTable.Add(kernels.AVX2, exclusiveAVX2)
}

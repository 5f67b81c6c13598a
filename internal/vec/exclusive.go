package vec

import "github.com/tensor-go/tensor/internal/kernels"

// The row passes of the exclusive products of float32 data (Prod's
// gradient), each one pass over a row with the running products carried
// in float64: the root package's blocked passes call them once a row.
// Only products and conversions, no sums, so fused multiply-add cannot
// change a bit; every set gives the twins' bits (a NaN's payload apart).

// exclusiveKernels is one implementation of the row passes.
type exclusiveKernels struct {
	prefix       func(o []float32, run []float64, x []float32)
	suffix       func(o []float32, run []float64, x []float32)
	suffixScaled func(o []float32, run []float64, x, s []float32)
}

// exclusiveGo is the Go twin: the loops the functions' comments show.
var exclusiveGo = exclusiveKernels{prefix: prefixGo, suffix: suffixGo, suffixScaled: suffixScaledGo}

var (
	exclusiveImpl  exclusiveKernels
	exclusiveTable = kernels.NewTable(&exclusiveImpl, exclusiveGo)
)

// ExclusivePrefixF32 stores the running products and multiplies x in:
//
//	for j := range o { o[j] = float32(run[j]); run[j] *= float64(x[j]) }
func ExclusivePrefixF32(o []float32, run []float64, x []float32) {
	exclusiveImpl.prefix(o, run[:len(o)], x[:len(o)])
}

// ExclusiveSuffixF32 multiplies the running products into o and x into
// them:
//
//	for j := range o { o[j] = float32(float64(o[j]) * run[j]); run[j] *= float64(x[j]) }
func ExclusiveSuffixF32(o []float32, run []float64, x []float32) {
	exclusiveImpl.suffix(o, run[:len(o)], x[:len(o)])
}

// ExclusiveSuffixScaledF32 is ExclusiveSuffixF32 with each result then
// multiplied by s, rounded as a float32 product:
//
//	for j := range o { o[j] = s[j] * float32(float64(o[j])*run[j]); run[j] *= float64(x[j]) }
func ExclusiveSuffixScaledF32(o []float32, run []float64, x, s []float32) {
	exclusiveImpl.suffixScaled(o, run[:len(o)], x[:len(o)], s[:len(o)])
}

func prefixGo(o []float32, run []float64, x []float32) {
	run, x = run[:len(o)], x[:len(o)]
	for j := range o {
		o[j] = float32(run[j])
		run[j] *= float64(x[j])
	}
}

func suffixGo(o []float32, run []float64, x []float32) {
	run, x = run[:len(o)], x[:len(o)]
	for j := range o {
		o[j] = float32(float64(o[j]) * run[j])
		run[j] *= float64(x[j])
	}
}

func suffixScaledGo(o []float32, run []float64, x, s []float32) {
	run, x, s = run[:len(o)], x[:len(o)], s[:len(o)]
	for j := range o {
		e := float32(float64(o[j]) * run[j])
		o[j] = s[j] * e
		run[j] *= float64(x[j])
	}
}

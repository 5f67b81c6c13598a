package vec

import (
	"github.com/tensor-go/tensor/internal/cmul"
	"github.com/tensor-go/tensor/internal/kernels"
)

// complexKernels is one implementation of the complex64 products. Each
// product is (ac−bd) + (ad+bc)i with every product rounded to float32
// before the sum (cmul.Mul64), so the kernels give the Go twins' bits.
type complexKernels struct {
	c64       binary[complex64]
	scalarC64 scalar[complex64, complex64]
}

// cmulGo is the Go twin of the complex product kernels.
var cmulGo = complexKernels{c64: mulC64Go, scalarC64: mulScalarC64Go}

// cmulImpl is the active kernel set's complex products; architecture
// files add their entries to cmulTable in init.
var (
	cmulImpl  complexKernels
	cmulTable = kernels.NewTable(&cmulImpl, cmulGo)
)

// MulC64 computes
//
//	for i := range dst { dst[i] = cmul.Mul64(a[i], b[i]) }
func MulC64(dst, a, b []complex64) { cmulImpl.c64(dst, a[:len(dst)], b[:len(dst)]) }

// MulScalarC64 computes
//
//	for i := range dst { dst[i] = cmul.Mul64(a[i], s) }
func MulScalarC64(dst, a []complex64, s complex64) { cmulImpl.scalarC64(dst, a[:len(dst)], s) }

func mulC64Go(dst, a, b []complex64) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = cmul.Mul64(a[i], b[i])
	}
}

func mulScalarC64Go(dst, a []complex64, s complex64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = cmul.Mul64(a[i], s)
	}
}

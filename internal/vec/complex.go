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
	// c64Stream and scalarC64Stream compute c64's and scalarC64's
	// products, storing dst around the cache from its first 64-byte
	// boundary on (see the Streaming kernels in binary.go), unfenced.
	c64Stream       binary[complex64]
	scalarC64Stream scalar[complex64, complex64]
}

// cmulGo is the Go twin of the complex product kernels; its streaming
// kernels store as usual.
var cmulGo = complexKernels{c64: mulC64Go, scalarC64: mulScalarC64Go, c64Stream: mulC64Go, scalarC64Stream: mulScalarC64Go}

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

// MulC64Streaming computes what MulC64 computes, streaming dst (see the
// Streaming kernels in binary.go: unfenced, call FenceStreaming after the
// last of them). A cold complex output went through an L1 buffer copied
// out by CopyStreaming, an extra pass the float kernels do not make.
func MulC64Streaming(dst, a, b []complex64) {
	cmulImpl.c64Stream(dst, a[:len(dst)], b[:len(dst)])
}

// MulScalarC64Streaming computes what MulScalarC64 computes, streaming dst.
func MulScalarC64Streaming(dst, a []complex64, s complex64) {
	cmulImpl.scalarC64Stream(dst, a[:len(dst)], s)
}

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

//go:build !purego

package vec

import "github.com/tensor-go/tensor/internal/kernels"

// Complex products, in complex_amd64.s: the AVX-512 ones handle any length
// (the last vector masked), the AVX2 ones whole vectors of four elements.

//go:noescape
func mulC64AVX512(dst, a, b []complex64)

//go:noescape
func mulScalarC64AVX512(dst, a []complex64, s complex64)

//go:noescape
func mulC64StreamAVX512(dst, a, b []complex64)

//go:noescape
func mulScalarC64StreamAVX512(dst, a []complex64, s complex64)

//go:noescape
func mulC64StreamAVX2(dst, a, b []complex64)

//go:noescape
func mulScalarC64StreamAVX2(dst, a []complex64, s complex64)

//go:noescape
func mulC64AVX2(dst, a, b []complex64)

//go:noescape
func mulScalarC64AVX2(dst, a []complex64, s complex64)

func init() {
	cmulTable.Add(kernels.AVX512, complexKernels{
		c64: mulC64AVX512, scalarC64: mulScalarC64AVX512,
		c64Stream:       alwaysStreamed(mulC64AVX512, mulC64StreamAVX512),
		scalarC64Stream: alwaysStreamedScalar(mulScalarC64AVX512, mulScalarC64StreamAVX512),
	})
	c64, scalarC64 := tailed(4, mulC64AVX2, mulC64Go), tailedScalar(4, mulScalarC64AVX2, mulScalarC64Go)
	cmulTable.Add(kernels.AVX2, complexKernels{
		c64: c64, scalarC64: scalarC64,
		c64Stream:       alwaysStreamed(c64, tailed(4, mulC64StreamAVX2, mulC64Go)),
		scalarC64Stream: alwaysStreamedScalar(scalarC64, tailedScalar(4, mulScalarC64StreamAVX2, mulScalarC64Go)),
	})
}

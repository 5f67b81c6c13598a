//go:build !purego

package iter

import (
	"unsafe"

	"github.com/tensor-go/tensor/internal/kernels"
)

// Assembly transposing kernels, in transpose_amd64.s (AVX2; the AVX-512
// set uses them too: a gather is bound by its loads and stores, not by the
// width of its shuffles).

//go:noescape
func transpose1AVX2(dst, src unsafe.Pointer, cs, pitch, rows, cols int)

//go:noescape
func transpose2AVX2(dst, src unsafe.Pointer, cs, pitch, rows, cols int)

//go:noescape
func transpose4AVX2(dst, src unsafe.Pointer, cs, pitch, rows, cols int)

//go:noescape
func transpose8AVX2(dst, src unsafe.Pointer, cs, pitch, rows, cols int)

func init() {
	transposeTable.Add(kernels.AVX2, transposeKernels{t1: transpose1AVX2, t2: transpose2AVX2, t4: transpose4AVX2, t8: transpose8AVX2})
}

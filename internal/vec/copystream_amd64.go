//go:build !purego

package vec

import "github.com/tensor-go/tensor/internal/kernels"

// copyLinesAVX512 and copyLinesAVX2, in copystream_amd64.s, copy len(dst)
// bytes, a multiple of 64, to a 64-byte aligned dst with non-temporal
// stores (one zmm or two ymm a line), unfenced; fenceStores is SFENCE.

//go:noescape
func copyLinesAVX512(dst, src []byte)

//go:noescape
func copyLinesAVX2(dst, src []byte)

func fenceStores()

func init() {
	copyStreamTable.Add(kernels.AVX512, copyStreamKernels{copyLinesAVX512, fenceStores})
	copyStreamTable.Add(kernels.AVX2, copyStreamKernels{copyLinesAVX2, fenceStores})
}

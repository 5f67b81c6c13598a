//go:build !purego

package gemm

// dot4BF16AVX512 is the AVX-512 bfloat16 four-row dot product
// (halfdot_amd64.s); its Go twin is dotBF16Go, row by row.
//
//go:noescape
func dot4BF16AVX512(a *uint16, lda int, x *float32, k int, out *[4]float32)

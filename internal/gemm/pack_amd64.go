//go:build !purego

package gemm

import "unsafe"

// copyRows128AVX512 is copyRows128Go in two 64-byte vector loads and stores
// a row (pack_amd64.s).
//
//go:noescape
func copyRows128AVX512(dst, src unsafe.Pointer, rows, stride int)

// copyRows64AVX2 is copyRows64Go in two 32-byte vector loads and stores a
// row, for the 64-byte B rows of the AVX2 kernels (pack_amd64.s).
//
//go:noescape
func copyRows64AVX2(dst, src unsafe.Pointer, rows, stride int)

// wideRows128F32AVX512 is wideRowsGo[float32] for 128-byte rows (16
// complex64): the rows of a complex product's wide matrix (packWide).
//
//go:noescape
func wideRows128F32AVX512(dst, src unsafe.Pointer, rows, stride, odd int)

// wideRows128F64AVX512 is wideRowsGo[float64] for 128-byte rows (8
// complex128).
//
//go:noescape
func wideRows128F64AVX512(dst, src unsafe.Pointer, rows, stride, odd int)

// wideRows64F32AVX2 is wideRowsGo[float32] for 64-byte rows (8 complex64).
//
//go:noescape
func wideRows64F32AVX2(dst, src unsafe.Pointer, rows, stride, odd int)

// wideRows64F64AVX2 is wideRowsGo[float64] for 64-byte rows (4
// complex128).
//
//go:noescape
func wideRows64F64AVX2(dst, src unsafe.Pointer, rows, stride, odd int)

// copyPanel128AVX512 is copyPanel128Go in two 64-byte vector moves a piece
// (pack_amd64.s).
//
//go:noescape
func copyPanel128AVX512(dst, src unsafe.Pointer, rows, slivers, stride, sliverStride int)

// copyPanel64AVX2 is copyPanel64Go in two 32-byte vector moves a piece
// (pack_amd64.s).
//
//go:noescape
func copyPanel64AVX2(dst, src unsafe.Pointer, rows, slivers, stride, sliverStride int)

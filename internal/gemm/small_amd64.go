//go:build !purego

package gemm

import "unsafe"

// The AVX-512 small kernels (small_amd64.s): mask has the low n bits set;
// strides are in bytes, offsets (aoffs[0:batch] etc.) in elements. The Y
// variants work on ymm registers, for rows of at most 8 float32s or 4
// float64s.

//go:noescape
func smallF32AVX512(batch, m, k, mask int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)

//go:noescape
func smallF64AVX512(batch, m, k, mask int, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)

//go:noescape
func smallF32AVX512Y(batch, m, k, mask int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)

//go:noescape
func smallF64AVX512Y(batch, m, k, mask int, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)

// The Stream variants store rows of C with non-temporal stores of the
// whole vector: n must fill it (16 or 8 float32s, 8 or 4 float64s) and every
// row of C must be aligned to it (see smallStreamAsm).
//
//go:noescape
func smallF32AVX512Stream(batch, m, k, mask int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)

//go:noescape
func smallF64AVX512Stream(batch, m, k, mask int, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)

//go:noescape
func smallF32AVX512YStream(batch, m, k, mask int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)

//go:noescape
func smallF64AVX512YStream(batch, m, k, mask int, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)

// smallAsm adapts an assembly small kernel to smallKernel. The slices'
// first elements serve as base pointers (offsets are relative to them).
func smallAsm[T float32 | float64](wide, narrow func(batch, m, k, mask int, a *T, ars, acs int, aoffs *int, b *T, brs int, boffs *int, c *T, crs int, coffs *int)) smallKernel[T] {
	size := int(unsafe.Sizeof(T(0)))
	return func(m, n, k int, a, b, c Matrix[T], aOffs, bOffs, cOffs []int) {
		if len(aOffs) == 0 {
			return
		}
		if !inside(a) || !inside(b) || !inside(c) {
			// The base pointers would point outside their slices.
			smallGo(m, n, k, a, b, c, aOffs, bOffs, cOffs)
			return
		}
		base := func(x Matrix[T]) *T {
			return (*T)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(x.Data)), x.Off*size))
		}
		f := wide
		if n*size <= 32 {
			f = narrow
		}
		f(len(aOffs), m, k, 1<<n-1, base(a), a.RS*size, a.CS*size, &aOffs[0], base(b), b.RS*size, &bOffs[0], base(c), c.RS*size, &cOffs[0])
	}
}

// smallStreamAsm adapts a pair of Stream kernels (rows of one zmm, rows of
// one ymm) to smallKernel; products they cannot take go to fallback (see
// passedOn).
func smallStreamAsm[T float32 | float64](wide, narrow func(batch, m, k, mask int, a *T, ars, acs int, aoffs *int, b *T, brs int, boffs *int, c *T, crs int, coffs *int), fallback smallKernel[T]) smallKernel[T] {
	size := int(unsafe.Sizeof(T(0)))
	return func(m, n, k int, a, b, c Matrix[T], aOffs, bOffs, cOffs []int) {
		if passedOn(m, n, k, a, b, c, aOffs, bOffs, cOffs, n*size, fallback) {
			return
		}
		f := wide
		if n*size == 32 {
			f = narrow
		}
		f(len(aOffs), m, k, 1<<n-1, elementAt(a), a.RS*size, a.CS*size, &aOffs[0], elementAt(b), b.RS*size, &bOffs[0], elementAt(c), c.RS*size, &cOffs[0])
	}
}

// The AVX-512 small kernels as smallKernel values.
var (
	smallF32AVX512K = smallAsm(smallF32AVX512, smallF32AVX512Y)
	smallF64AVX512K = smallAsm(smallF64AVX512, smallF64AVX512Y)

	smallStreamF32AVX512 = smallStreamAsm(smallF32AVX512Stream, smallF32AVX512YStream, smallF32AVX512K)
	smallStreamF64AVX512 = smallStreamAsm(smallF64AVX512Stream, smallF64AVX512YStream, smallF64AVX512K)
)

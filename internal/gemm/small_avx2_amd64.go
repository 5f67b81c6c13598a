//go:build !purego

package gemm

import "unsafe"

// The AVX2+FMA small kernels (small_avx2_amd64.s). Narrow ones take rows
// of at most one ymm (8 float32s, 4 float64s), wide ones rows of one to two
// (up to 16 float32s, 8 float64s); the Full variants are for rows exactly
// that wide and use no mask. mask points at eight int32 lanes whose sign
// bits select the lanes of the row's last vector.

//go:noescape
func smallF32AVX2Narrow(batch, m, k int, mask *int32, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)

//go:noescape
func smallF32AVX2NarrowFull(batch, m, k int, mask *int32, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)

//go:noescape
func smallF32AVX2Wide(batch, m, k int, mask *int32, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)

//go:noescape
func smallF32AVX2WideFull(batch, m, k int, mask *int32, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)

//go:noescape
func smallF64AVX2Narrow(batch, m, k int, mask *int32, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)

//go:noescape
func smallF64AVX2NarrowFull(batch, m, k int, mask *int32, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)

//go:noescape
func smallF64AVX2Wide(batch, m, k int, mask *int32, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)

//go:noescape
func smallF64AVX2WideFull(batch, m, k int, mask *int32, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)

// The Stream variants of the Full ones store rows of C with non-temporal
// stores; every row must be aligned to 32 bytes (see smallStreamAsmAVX2).

//go:noescape
func smallF32AVX2NarrowStream(batch, m, k int, mask *int32, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)

//go:noescape
func smallF32AVX2WideStream(batch, m, k int, mask *int32, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)

//go:noescape
func smallF64AVX2NarrowStream(batch, m, k int, mask *int32, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)

//go:noescape
func smallF64AVX2WideStream(batch, m, k int, mask *int32, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)

// maskLanes[8-j:] starts with j set lanes (sign bit on) and then clear
// ones, for the j int32 lanes of a ymm that a row's last vector fills.
var maskLanes = [16]int32{-1, -1, -1, -1, -1, -1, -1, -1}

// smallAVX2Kernel is the signature of the AVX2 small kernels.
type smallAVX2Kernel[T float32 | float64] func(batch, m, k int, mask *int32, a *T, ars, acs int, aoffs *int, b *T, brs int, boffs *int, c *T, crs int, coffs *int)

// smallAsmAVX2 adapts the AVX2 small kernels of one type to smallKernel:
// narrow (one vector per row) or wide (two), masked or full, by n.
func smallAsmAVX2[T float32 | float64](narrow, narrowFull, wide, wideFull smallAVX2Kernel[T]) smallKernel[T] {
	size := int(unsafe.Sizeof(T(0)))
	lanes := 32 / size // elements in one ymm
	return func(m, n, k int, a, b, c Matrix[T], aOffs, bOffs, cOffs []int) {
		if len(aOffs) == 0 {
			return
		}
		if !inside(a) || !inside(b) || !inside(c) {
			// The base pointers would point outside their slices.
			smallGo(m, n, k, a, b, c, aOffs, bOffs, cOffs)
			return
		}
		f, last := narrow, n
		if n > lanes {
			f, last = wide, n-lanes
		}
		if last == lanes {
			f = narrowFull
			if n > lanes {
				f = wideFull
			}
		}
		mask := &maskLanes[8-last*size/4]
		base := func(x Matrix[T]) *T {
			return (*T)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(x.Data)), x.Off*size))
		}
		f(len(aOffs), m, k, mask, base(a), a.RS*size, a.CS*size, &aOffs[0], base(b), b.RS*size, &bOffs[0], base(c), c.RS*size, &cOffs[0])
	}
}

// smallStreamAsmAVX2 adapts the Stream kernels of one type (rows of one
// and of two ymm) to smallKernel; products they cannot take go to fallback
// (see passedOn).
func smallStreamAsmAVX2[T float32 | float64](narrow, wide smallAVX2Kernel[T], fallback smallKernel[T]) smallKernel[T] {
	size := int(unsafe.Sizeof(T(0)))
	return func(m, n, k int, a, b, c Matrix[T], aOffs, bOffs, cOffs []int) {
		if passedOn(m, n, k, a, b, c, aOffs, bOffs, cOffs, 32, fallback) {
			return
		}
		f := wide
		if n*size == 32 {
			f = narrow
		}
		f(len(aOffs), m, k, &maskLanes[0], elementAt(a), a.RS*size, a.CS*size, &aOffs[0], elementAt(b), b.RS*size, &bOffs[0], elementAt(c), c.RS*size, &cOffs[0])
	}
}

// The AVX2 small kernels as smallKernel values, with the widest n each
// takes.
var (
	smallF32AVX2 = smallAsmAVX2(smallF32AVX2Narrow, smallF32AVX2NarrowFull, smallF32AVX2Wide, smallF32AVX2WideFull)
	smallF64AVX2 = smallAsmAVX2(smallF64AVX2Narrow, smallF64AVX2NarrowFull, smallF64AVX2Wide, smallF64AVX2WideFull)

	smallStreamF32AVX2 = smallStreamAsmAVX2(smallF32AVX2NarrowStream, smallF32AVX2WideStream, smallF32AVX2)
	smallStreamF64AVX2 = smallStreamAsmAVX2(smallF64AVX2NarrowStream, smallF64AVX2WideStream, smallF64AVX2)
)

const (
	smallWidthF32AVX2 = 16
	smallWidthF64AVX2 = 8
)

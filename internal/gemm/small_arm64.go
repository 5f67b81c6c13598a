//go:build !purego

package gemm

import "unsafe"

// The NEON small kernels (small_arm64.s), one per row width: rows of C of
// nv q-registers (float32 4nv-3..4nv columns, float64 2nv-1..2nv), whose
// last register starts tail bytes into the row (at column n-L for L lanes),
// and the N variants for rows narrower than one register (float32 n = 1, 2,
// 3 and float64 n = 1). Arguments as for the AVX-512 kernels, with tail in
// place of the mask; strides are in bytes, offsets in elements.
//
// Counts per K step of the largest row block (R rows of nv registers), for
// a core with four 128-bit FMA pipes of 4-cycle latency and three load
// ports (Apple M1–M4, Neoverse V1/V2): R·nv FMLA, R scalar A loads and nv
// q-register B loads. A K step takes at least R·nv/4 cycles (the pipes),
// 4 (each accumulator's chain) and (R+nv)/3 (the loads), and the fraction
// of peak is R·nv/4 over the largest, times n/(L·nv) for the lanes that
// hold columns (less when the last register overlaps the one before):
//
//	nv = 1, R = 8:  8 FMLA,  9 loads: 4 cycles (latency),   50%
//	nv = 2, R = 8: 16 FMLA, 10 loads: 4 cycles,            100%
//	nv = 3, R = 8: 24 FMLA, 11 loads: 6 cycles,            100%
//	nv = 4, R = 4: 16 FMLA,  8 loads: 4 cycles,            100%
//
// So float32 8×8 and 8×16 rows and float64 8×4 and 8×8 rows keep every FMA
// slot busy by count (the 8×8 batch workloads); float32 rows of up to four
// columns (float64 of up to two) reach at most half, as the accumulator
// chains are too few. Remainder blocks of four rows reach half that
// fraction, single rows a quarter of it. No register is spilled: at most 24
// accumulators, 4 B and 4 A registers of the 32. Speed is not measured (no
// arm64 machine here); qemu checks the bits.

//go:noescape
func smallF32NEONN1(batch, m, k, tail int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)

//go:noescape
func smallF32NEONN2(batch, m, k, tail int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)

//go:noescape
func smallF32NEONN3(batch, m, k, tail int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)

//go:noescape
func smallF32NEON1(batch, m, k, tail int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)

//go:noescape
func smallF32NEON2(batch, m, k, tail int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)

//go:noescape
func smallF32NEON3(batch, m, k, tail int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)

//go:noescape
func smallF32NEON4(batch, m, k, tail int, a *float32, ars, acs int, aoffs *int, b *float32, brs int, boffs *int, c *float32, crs int, coffs *int)

//go:noescape
func smallF64NEONN1(batch, m, k, tail int, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)

//go:noescape
func smallF64NEON1(batch, m, k, tail int, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)

//go:noescape
func smallF64NEON2(batch, m, k, tail int, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)

//go:noescape
func smallF64NEON3(batch, m, k, tail int, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)

//go:noescape
func smallF64NEON4(batch, m, k, tail int, a *float64, ars, acs int, aoffs *int, b *float64, brs int, boffs *int, c *float64, crs int, coffs *int)

// smallNEONKernel is the signature of the NEON small kernels.
type smallNEONKernel[T float32 | float64] func(batch, m, k, tail int, a *T, ars, acs int, aoffs *int, b *T, brs int, boffs *int, c *T, crs int, coffs *int)

// smallAsmNEON adapts one type's NEON small kernels to smallKernel:
// narrow[n-1] for rows narrower than a register, vec[nv-1] for rows of nv
// registers.
func smallAsmNEON[T float32 | float64](narrow, vec []smallNEONKernel[T]) smallKernel[T] {
	size := int(unsafe.Sizeof(T(0)))
	lanes := 16 / size // elements in one q-register
	return func(m, n, k int, a, b, c Matrix[T], aOffs, bOffs, cOffs []int) {
		if len(aOffs) == 0 {
			return
		}
		if !inside(a) || !inside(b) || !inside(c) {
			// The base pointers would point outside their slices.
			smallGo(m, n, k, a, b, c, aOffs, bOffs, cOffs)
			return
		}
		var f smallNEONKernel[T]
		tail := 0
		switch {
		case n < lanes:
			f = narrow[n-1]
			if n == 3 {
				tail = 2 * size // lane 2 after the low 64 bits
			}
		default:
			f = vec[(n+lanes-1)/lanes-1]
			tail = (n - lanes) * size
		}
		base := func(x Matrix[T]) *T {
			return (*T)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(x.Data)), x.Off*size))
		}
		f(len(aOffs), m, k, tail, base(a), a.RS*size, a.CS*size, &aOffs[0], base(b), b.RS*size, &bOffs[0], base(c), c.RS*size, &cOffs[0])
	}
}

// The NEON small kernels as smallKernel values, with the widest n each
// takes.
var (
	smallF32NEON = smallAsmNEON(
		[]smallNEONKernel[float32]{smallF32NEONN1, smallF32NEONN2, smallF32NEONN3},
		[]smallNEONKernel[float32]{smallF32NEON1, smallF32NEON2, smallF32NEON3, smallF32NEON4})
	smallF64NEON = smallAsmNEON(
		[]smallNEONKernel[float64]{smallF64NEONN1},
		[]smallNEONKernel[float64]{smallF64NEON1, smallF64NEON2, smallF64NEON3, smallF64NEON4})
)

const (
	smallWidthF32NEON = 16
	smallWidthF64NEON = 8
)

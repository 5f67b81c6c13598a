package gemm

import (
	"sync/atomic"

	"github.com/tensor-go/tensor/internal/cast"
)

// HalfFormat names the 16-bit floating-point layout of MulHalf's operands.
type HalfFormat int

const (
	// Float16 is IEEE 754 binary16: 1 sign, 5 exponent, 10 mantissa bits.
	Float16 HalfFormat = iota
	// BFloat16 is the upper 16 bits of a float32.
	BFloat16
)

// MulHalf computes C = A·B like Mul for A and B holding half-precision bits
// in format f. Elements are converted to float32 while they are packed (no
// separate conversion pass over the operands) and the product is a float32
// product; C is float32, for the caller to round once to the half type.
func MulHalf(f HalfFormat, m, n, k int, a, b Matrix[uint16], c Matrix[float32], opt Options) {
	if m <= 0 || n <= 0 {
		return
	}
	mustFit("C", c, m, n)
	if k <= 0 {
		fillZero(m, n, c)
		return
	}
	mustFit("A", a, m, k)
	mustFit("B", b, k, n)
	if c.CS != 1 && c.RS == 1 {
		// As in mul: compute Cᵀ = Bᵀ·Aᵀ so C's rows are contiguous.
		m, n, a, b, c = n, m, b.transpose(), a.transpose(), c.transpose()
	}
	if rows, kk, mat, x, y, ok := halfVector(m, n, k, a, b, c); ok && halfVectors {
		mulHalfVector(f, rows, kk, mat, x, y, opt)
		return
	}
	if f == BFloat16 && useTiles(active.bf16, m, n, k) && mulTiles(active.bf16, m, n, k, a, b, c, opt.threads()) {
		return // else an operand holds a subnormal, which the tiles would flush
	}
	j := newHalfJob(f, m, n, k, a, b, c)
	j.parallel(opt.threads())
}

// BF16Tiles reports whether MulBF16Tiles takes an m×n×k product on this
// kernel set, and how many float32 it then needs for its partial sums
// (zero when K is one block, so that nothing but C is written).
func BF16Tiles(m, n, k int) (partials int, ok bool) {
	kern := active.bf16
	if !useTiles(kern, m, n, k) {
		return 0, false
	}
	if kern.kBlocks(k) > 1 {
		partials = m * n
	}
	return partials, true
}

// MulBF16Tiles computes C = A·B for bfloat16 A, B and C on the tile
// kernels, each element's float32 sum rounded once to bfloat16 while its
// block is in L1 (the same bits as MulHalf followed by a rounding of its
// float32 C), and reports true; partial is float32 scratch of at least the
// length BF16Tiles gives. It reports false, with C's contents undefined,
// when BF16Tiles does not take the product or an operand holds a subnormal
// (which the tiles would flush): the caller then takes MulHalf.
func MulBF16Tiles(m, n, k int, a, b, c Matrix[uint16], partial []float32, opt Options) bool {
	np, ok := BF16Tiles(m, n, k)
	if !ok || len(partial) < np {
		return false
	}
	mustFit("C", c, m, n)
	mustFit("A", a, m, k)
	mustFit("B", b, k, n)
	if c.CS != 1 && c.RS == 1 {
		// As in mul: compute Cᵀ = Bᵀ·Aᵀ so C's rows are contiguous.
		m, n, a, b, c = n, m, b.transpose(), a.transpose(), c.transpose()
	}
	var sums Matrix[float32]
	if np > 0 {
		sums = Matrix[float32]{Data: partial[:np], RS: n, CS: 1}
	}
	return mulTilesTo(active.bf16, m, n, k, a, b, sums, c, opt.threads())
}

// MulBF16TilesBatch is MulBF16Tiles for batch products (A, B and C of
// product i at the views shifted by aOffs[i], bOffs[i] and cOffs[i]) whose
// K is one block (BF16Tiles reports no partial sums): a batch with fewer
// products than goroutines runs them one after the other, each shared out,
// a longer one shares out whole products. It reports false, with C's
// contents undefined, when the tiles do not take the products or one of
// them has a subnormal operand.
func MulBF16TilesBatch(batch, m, n, k int, a, b, c Matrix[uint16], aOffs, bOffs, cOffs []int, opt Options) bool {
	if np, ok := BF16Tiles(m, n, k); !ok || np > 0 || batch <= 0 {
		return false
	}
	threads := max(1, min(opt.threads(), batch*m*n*k/active.bf16.minFlopsPerThread))
	if batch < threads {
		for i := range batch {
			if !MulBF16Tiles(m, n, k, a.withOff(a.Off+aOffs[i]), b.withOff(b.Off+bOffs[i]), c.withOff(c.Off+cOffs[i]), nil, opt) {
				return false
			}
		}
		return true
	}
	one := opt
	one.Threads = 1
	var subnormal atomic.Bool
	split(batch, 1, threads, func(i0, i1 int) {
		for i := i0; i < i1 && !subnormal.Load(); i++ {
			if !MulBF16Tiles(m, n, k, a.withOff(a.Off+aOffs[i]), b.withOff(b.Off+bOffs[i]), c.withOff(c.Off+cOffs[i]), nil, one) {
				subnormal.Store(true)
			}
		}
	})
	return !subnormal.Load()
}

// MulHalfBatch is MulBatch for half-precision operands (see MulHalf).
func MulHalfBatch(f HalfFormat, batch, m, n, k int, a, b Matrix[uint16], c Matrix[float32], aOffs, bOffs, cOffs []int, opt Options) {
	if batch <= 0 {
		return
	}
	threads := threadsFor[float32](opt.threads(), batch*m*n*k)
	if batch < threads {
		for i := range batch {
			MulHalf(f, m, n, k, a.withOff(a.Off+aOffs[i]), b.withOff(b.Off+bOffs[i]), c.withOff(c.Off+cOffs[i]), opt)
		}
		return
	}
	one := opt
	one.Threads = 1
	split(batch, 1, threads, func(i0, i1 int) {
		for i := i0; i < i1; i++ {
			MulHalf(f, m, n, k, a.withOff(a.Off+aOffs[i]), b.withOff(b.Off+bOffs[i]), c.withOff(c.Off+cOffs[i]), one)
		}
	})
}

// halfSource is where a half-precision job's operands come from: packA and
// packB pack the bits into the workspace's staging buffer (reading any
// strides) and convert them into the float32 packed block while it is in
// cache.
type halfSource struct {
	a, b    Matrix[uint16]
	convert func(dst []float32, src []uint16)
}

// newHalfJob describes C = A·B for half-precision A and B.
func newHalfJob(f HalfFormat, m, n, k int, a, b Matrix[uint16], c Matrix[float32]) job[float32] {
	j := newJob(active.f32, m, n, k, Matrix[float32]{}, Matrix[float32]{}, c)
	j.half = &halfSource{a, b, halfConverter(f)}
	return j
}

// staging returns the workspace's half staging buffer with length n.
func (ws *workspace[T]) staging(n int) []uint16 {
	if cap(ws.half) < n {
		ws.half = make([]uint16, n)
	}
	return ws.half[:n]
}

// widened returns the workspace's buffer for a widened block of A with
// length n.
func (ws *workspace[T]) widened(n int) []T {
	if cap(ws.wide) < n {
		ws.wide = make([]T, n)
	}
	return ws.wide[:n]
}

// halfConverter returns the conversion for format f: internal/cast's,
// dispatched on its kernel set (the widening kernels live there only).
func halfConverter(f HalfFormat) func(dst []float32, src []uint16) {
	if f == BFloat16 {
		return cast.BrainToFloat32
	}
	return cast.HalfToFloat32
}

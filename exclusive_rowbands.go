package tensor

import (
	"github.com/tensor-go/tensor/internal/ewise"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/vec"
)

// rowBandsMinPiece is the narrowest piece of the rows one goroutine takes
// in the row bands: each row of a piece is one run of contiguous lines,
// which the hardware prefetchers follow within its page; at 1 KiB runs
// (4096×512 on two goroutines) the strips were 10% faster, at 4 KiB the
// row bands 30% (BenchmarkExclusiveAxis0Ways), so narrower groups go in
// strips (exclusiveBands).
const rowBandsMinPiece = 512

// rowBandsFor reports whether a float32 group of g's shape, too tall for
// the tall strips, goes in bands of whole rows: where the kernel set
// prefers them and each goroutine's piece of the rows is wide enough. A
// variable so that tests can take either way on any set.
var rowBandsFor = func(g groups, workers int) bool {
	return vec.ExclusiveRowBands() && rowBandsPiece(g.inner, workers) >= rowBandsMinPiece
}

// rowBandsPiece is how many columns of each row one goroutine takes: an
// even share in whole 64-byte lines.
func rowBandsPiece(inner, workers int) int {
	return ((inner+workers-1)/workers + 15) / 16 * 16
}

// exclusiveRowBands is exclusiveBands with the strips as wide as the
// goroutines allow: each goroutine takes one piece of the columns, in
// bands of rows whose input and prefix products fit in a quarter of the L2
// cache (blockedRows). A first pass from the last row up keeps each band's
// mark, the product of the rows below it (bandMarks). Then, band by band
// from the top, the prefix pass runs down the band's rows into a scratch,
// four rows a kernel call (vec.ExclusiveDown4F32), from the running
// products the band above reached; and the suffix pass runs back up from
// the band's mark (vec.ExclusiveUp4F32), reading only the cache, writing
// the output (streamed when large) and prefetching the next band's input,
// so that memory is read while the band's arithmetic runs. The input
// crosses memory twice, the output once, and every pass streams whole runs
// of rows: no page per row as in the strips. The products are
// exclusiveStrip's in its order, so the bits are the same.
func exclusiveRowBands(x, out, scale []float32, g groups) {
	w := iter.Workers(len(x))
	piece := rowBandsPiece(g.inner, w)
	pieces := (g.inner + piece - 1) / piece
	rows := max(4, blockedRows(piece, 4)&^3)
	block := g.n * g.inner
	stream := len(out)*4 >= ewise.StreamOutputBytes
	for o := range g.outer {
		xb, ob := x[o*block:(o+1)*block], out[o*block:(o+1)*block]
		mp := bandMarks(xb, g.n, g.inner, rows, w, nil)
		var s []float32
		if scale != nil {
			s = scale[o*g.inner : (o+1)*g.inner]
		}
		iter.Parallel(pieces, w, func(lo, hi int) {
			sc := tallScratches.Get()
			defer tallScratches.Put(sc)
			if need := rows * g.inner; len(*sc) < need {
				*sc = make([]float32, need)
			}
			b := rowBand{x: xb, out: ob, pre: *sc, marks: *mp, s: s, g: g, rows: rows, stream: stream, run: make([]float64, piece)}
			for k := lo; k < hi; k++ {
				b.j0, b.j1 = k*piece, min((k+1)*piece, g.inner)
				b.next = -1
				if k+1 < hi {
					b.next = b.j1 // the next piece's first band
				}
				b.passes()
			}
		})
		markScratches.Put(mp)
	}
}

// rowBand is one goroutine's piece of a group for exclusiveRowBands:
// columns [j0, j1) of the group's rows in x and out, the scratch pre for a
// band's prefix products (rows of the group's stride), the bands' marks,
// and the running products of the prefix pass.
type rowBand struct {
	x, out, pre, s []float32
	marks, run     []float64
	g              groups
	rows, j0, j1   int
	// next is where in x the input computed after the piece's last band
	// starts (the next piece's first row), or -1.
	next   int
	stream bool
}

// passes computes the piece's bands from the top.
func (b *rowBand) passes() {
	inner, w := b.g.inner, b.j1-b.j0
	run := b.run[:w]
	for j := range run {
		run[j] = 1
	}
	var s []float32
	if b.s != nil {
		s = b.s[b.j0:b.j1]
	}
	q := vec.Quad{Stride: inner, Stream: b.stream, S: s}
	for r0 := 0; r0 < b.g.n; r0 += b.rows {
		r1 := min(b.g.n, r0+b.rows)
		quads := r0 + (r1-r0)&^3
		q.Run = run
		for i := r0; i < quads; i += 4 {
			q.X, q.Pre = b.x[i*inner+b.j0:], b.pre[(i-r0)*inner+b.j0:]
			vec.ExclusiveDown4F32(&q)
		}
		for i := quads; i < r1; i++ {
			vec.ExclusivePrefixF32(b.pre[(i-r0)*inner+b.j0:][:w], run, b.x[i*inner+b.j0:])
		}
		// The band's mark is used once: the suffix pass runs in it.
		suf := b.marks[r0/b.rows*inner+b.j0:][:w]
		for i := r1 - 1; i >= quads; i-- {
			vec.ExclusiveSuffixIntoF32(b.out[i*inner+b.j0:][:w], b.pre[(i-r0)*inner+b.j0:], suf, b.x[i*inner+b.j0:], s, b.stream)
		}
		q.Run = suf
		for i := quads - 4; i >= r0; i -= 4 {
			q.X, q.Pre, q.O = b.x[i*inner+b.j0:], b.pre[(i-r0)*inner+b.j0:], b.out[i*inner+b.j0:]
			q.Ahead = b.ahead(r1, i-r0)
			vec.ExclusiveUp4F32(&q)
		}
	}
}

// ahead returns the input computed after the band ending at row r1 that
// lies where row d of the band does: the next band's row d, or the next
// piece's, or nil where there is none (a short slice, which the kernel
// does not prefetch, where it holds fewer than four rows).
func (b *rowBand) ahead(r1, d int) []float32 {
	switch {
	case r1 < b.g.n:
		if r1+d < b.g.n { // the last band may be shorter
			return b.x[(r1+d)*b.g.inner+b.j0:]
		}
	case b.next >= 0 && d < b.g.n:
		return b.x[d*b.g.inner+b.next:]
	}
	return nil
}

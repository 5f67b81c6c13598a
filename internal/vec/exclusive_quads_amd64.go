//go:build !purego

package vec

import "unsafe"

//go:noescape
func exclusiveDown4AVX512(x *float32, stride int, pre *float32, run *float64, n int)

//go:noescape
func exclusiveUp4AVX512(x *float32, stride int, pre, o *float32, run *float64, s *float32, sstep, n int, ahead *float32, stream bool)

//go:noescape
func exclusiveDown4AVX2(x *float32, stride int, pre *float32, run *float64, n int)

//go:noescape
func exclusiveUp4AVX2(x *float32, stride int, pre, o *float32, run *float64, s *float32, sstep, n int, ahead *float32, stream bool)

// down4Kernel and up4Kernel are the assembly kernels' signatures: whole
// steps of columns, n of them in all, x's rows stride bytes apart.
type (
	down4Kernel func(x *float32, stride int, pre *float32, run *float64, n int)
	up4Kernel   func(x *float32, stride int, pre, o *float32, run *float64, s *float32, sstep, n int, ahead *float32, stream bool)
)

// Each set's kernels take whole steps of these many columns.
const (
	quadStep     = 16 // AVX-512
	quadStepAVX2 = 8
)

// onesF32Quad stands for s when there is none (a step's worth for either set).
var onesF32Quad = [quadStep]float32{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}

var (
	down4AVX512 = down4Steps(quadStep, exclusiveDown4AVX512)
	up4AVX512   = up4Steps(quadStep, exclusiveUp4AVX512)
	down4AVX2   = down4Steps(quadStepAVX2, exclusiveDown4AVX2)
	up4AVX2     = up4Steps(quadStepAVX2, exclusiveUp4AVX2)
)

// down4Steps gives kernel the whole steps of step columns and the twin the
// rest.
func down4Steps(step int, kernel down4Kernel) func(q *Quad, w int) {
	return func(q *Quad, w int) {
		n := w &^ (step - 1)
		if n > 0 {
			kernel(&q.X[0], q.Stride*4, &q.Pre[0], &q.Run[0], n)
		}
		if n < w {
			down4Go(q.tail(n), w-n)
		}
	}
}

// up4Steps is down4Steps for the up pass: s steps a step's worth of bytes
// (or stays on the ones), the rows ahead are prefetched where q has them,
// and o is streamed where q asks and every row is whole lines.
func up4Steps(step int, kernel up4Kernel) func(q *Quad, w int) {
	return func(q *Quad, w int) {
		n := w &^ (step - 1)
		if n > 0 {
			s, sstep := &onesF32Quad[0], 0
			if q.S != nil {
				s, sstep = &q.S[0], 4*step
			}
			var ahead *float32
			if q.aheadOK(n) {
				ahead = &q.Ahead[0]
			}
			kernel(&q.X[0], q.Stride*4, &q.Pre[0], &q.O[0], &q.Run[0], s, sstep, n, ahead, q.streamLines())
		}
		if n < w {
			up4Go(q.tail(n), w-n)
		}
	}
}

// streamLines says whether q's output is to be streamed: asked for, and
// every row starting on a 64-byte line (the stride whole lines of sixteen
// float32, the first row aligned).
func (q *Quad) streamLines() bool {
	return q.Stream && q.Stride%16 == 0 && uintptr(unsafe.Pointer(&q.O[0]))%64 == 0
}

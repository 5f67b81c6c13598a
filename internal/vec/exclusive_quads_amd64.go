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

// quadStep is the columns one step of the AVX-512 four-row kernels takes.
const quadStep = 16

// onesF32Quad stands for s when there is none.
var onesF32Quad = [quadStep]float32{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}

// down4AVX512 takes whole steps of sixteen columns; the twin the rest.
func down4AVX512(q *Quad, w int) {
	n := w &^ (quadStep - 1)
	if n > 0 {
		exclusiveDown4AVX512(&q.X[0], q.Stride*4, &q.Pre[0], &q.Run[0], n)
	}
	if n < w {
		down4Go(q.tail(n), w-n)
	}
}

// up4AVX512 takes whole steps of sixteen columns, streaming o where every
// row of the steps is whole aligned lines; the twin the rest.
func up4AVX512(q *Quad, w int) {
	n := w &^ (quadStep - 1)
	if n > 0 {
		s, sstep := &onesF32Quad[0], 0
		if q.S != nil {
			s, sstep = &q.S[0], 4*quadStep
		}
		var ahead *float32
		if q.aheadOK(n) {
			ahead = &q.Ahead[0]
		}
		exclusiveUp4AVX512(&q.X[0], q.Stride*4, &q.Pre[0], &q.O[0], &q.Run[0], s, sstep, n, ahead, q.streamLines())
	}
	if n < w {
		up4Go(q.tail(n), w-n)
	}
}

// streamLines says whether q's output is to be streamed: asked for, and
// every row starting on a 64-byte line (the stride whole lines of sixteen
// float32, the first row aligned).
func (q *Quad) streamLines() bool {
	return q.Stream && q.Stride%16 == 0 && uintptr(unsafe.Pointer(&q.O[0]))%64 == 0
}

// quadStepAVX2 is the columns one step of the AVX2 four-row kernels takes.
const quadStepAVX2 = 8

// down4AVX2 takes whole steps of eight columns; the twin the rest.
func down4AVX2(q *Quad, w int) {
	n := w &^ (quadStepAVX2 - 1)
	if n > 0 {
		exclusiveDown4AVX2(&q.X[0], q.Stride*4, &q.Pre[0], &q.Run[0], n)
	}
	if n < w {
		down4Go(q.tail(n), w-n)
	}
}

// up4AVX2 takes whole steps of eight columns, streaming o's whole lines
// where every row starts on one (as up4AVX512 decides); the twin the rest.
func up4AVX2(q *Quad, w int) {
	n := w &^ (quadStepAVX2 - 1)
	if n > 0 {
		s, sstep := &onesF32Quad[0], 0
		if q.S != nil {
			s, sstep = &q.S[0], 4*quadStepAVX2
		}
		var ahead *float32
		if q.aheadOK(n) {
			ahead = &q.Ahead[0]
		}
		exclusiveUp4AVX2(&q.X[0], q.Stride*4, &q.Pre[0], &q.O[0], &q.Run[0], s, sstep, n, ahead, q.streamLines())
	}
	if n < w {
		up4Go(q.tail(n), w-n)
	}
}

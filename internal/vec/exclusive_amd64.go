//go:build !purego

package vec

import (
	"unsafe"

	"github.com/tensor-go/tensor/internal/kernels"
)

//go:noescape
func exclusivePrefixAVX512(o []float32, run []float64, x []float32)

//go:noescape
func exclusiveSuffixAVX512(o []float32, run []float64, x []float32)

//go:noescape
func exclusiveSuffixScaledAVX512(o []float32, run []float64, x, s []float32)

//go:noescape
func exclusiveSuffixIntoAVX2(o, pre []float32, run []float64, x, s []float32)

//go:noescape
func exclusivePrefixAVX2(o []float32, run []float64, x []float32)

//go:noescape
func exclusiveSuffixAVX2(o []float32, run []float64, x []float32)

//go:noescape
func exclusiveSuffixScaledAVX2(o []float32, run []float64, x, s []float32)

//go:noescape
func exclusiveColumnsAVX512(o, x, s, scratch *float32, ostride, xstride, n, w int, stream, inplace bool, pre, suf *float64)

//go:noescape
func exclusiveColumnsAVX2(o, x, s, scratch *float32, ostride, xstride, n int, inplace, stream bool, pre, suf *float64)

//go:noescape
func transpose16AVX2(dst *float32, dstRow, dstStep int, src *float32, srcRow, srcStep, blocks int, stream bool)

//go:noescape
func exclusiveSuffixIntoAVX512(o, pre []float32, run []float64, x, s []float32, stream bool)

// suffixIntoAVX512 streams o from its first 64-byte boundary on.
func suffixIntoAVX512(o, pre []float32, run []float64, x, s []float32, stream bool) {
	head := 0
	if stream {
		head = min(len(o), int((64-uintptr(unsafe.Pointer(unsafe.SliceData(o)))%64)%64/4))
	}
	if head > 0 {
		var sh []float32
		if s != nil {
			sh = s[:head]
		}
		exclusiveSuffixIntoAVX512(o[:head], pre, run, x, sh, false)
		o, pre, run, x = o[head:], pre[head:], run[head:], x[head:]
		if s != nil {
			s = s[head:]
		}
	}
	exclusiveSuffixIntoAVX512(o, pre, run, x, s, stream)
}

//go:noescape
func transpose16AVX512(dst *float32, dstRow, dstStep int, src *float32, srcRow, srcStep, blocks int, stream bool)

// columnsAVX512 streams only rows of whole aligned lines.
func columnsAVX512(c *Columns) {
	var s *float32
	if c.S != nil {
		s = &c.S[0]
	}
	stream := c.Stream && c.W == ColumnsWidth && c.OStride%16 == 0 && uintptr(unsafe.Pointer(&c.O[0]))%64 == 0
	var pre, suf *float64
	if c.Pre != nil {
		pre = &c.Pre[0]
	}
	if c.Suf != nil {
		suf = &c.Suf[0]
	}
	inPlace := c.inPlace()
	exclusiveColumnsAVX512(&c.O[0], &c.X[0], s, &c.Scratch[0], c.OStride, c.XStride, c.N, c.W, stream && !inPlace, inPlace, pre, suf)
}

// columnsAVX2 takes whole strips of ColumnsWidth columns; a narrower strip
// (the last of a reduction whose width is not a multiple of 32) is the
// twin's. It streams as columnsAVX512 does.
func columnsAVX2(c *Columns) {
	if c.W != ColumnsWidth {
		columnsGo(c)
		return
	}
	var s *float32
	if c.S != nil {
		s = &c.S[0]
	}
	var pre, suf *float64
	if c.Pre != nil {
		pre = &c.Pre[0]
	}
	if c.Suf != nil {
		suf = &c.Suf[0]
	}
	inPlace := c.inPlace()
	stream := c.Stream && !inPlace && c.OStride%16 == 0 && uintptr(unsafe.Pointer(&c.O[0]))%64 == 0
	exclusiveColumnsAVX2(&c.O[0], &c.X[0], s, &c.Scratch[0], c.OStride, c.XStride, c.N, inPlace, stream, pre, suf)
}

// The AVX2 kernels stop at the last whole vector of four; the twins finish.
var exclusiveAVX2 = exclusiveKernels{
	prefix: func(o []float32, run []float64, x []float32) {
		n := len(o) &^ 3
		exclusivePrefixAVX2(o[:n], run, x)
		prefixGo(o[n:], run[n:], x[n:])
	},
	suffix: func(o []float32, run []float64, x []float32) {
		n := len(o) &^ 3
		exclusiveSuffixAVX2(o[:n], run, x)
		suffixGo(o[n:], run[n:], x[n:])
	},
	suffixScaled: func(o []float32, run []float64, x, s []float32) {
		n := len(o) &^ 3
		exclusiveSuffixScaledAVX2(o[:n], run, x, s)
		suffixScaledGo(o[n:], run[n:], x[n:], s[n:])
	},
	columns: columnsAVX2,
	streams: true,
	transpose16: func(t *Transpose16) {
		transpose16AVX2(&t.Dst[0], t.DstRow, t.DstStep, &t.Src[0], t.SrcRow, t.SrcStep, t.Blocks, streamTranspose(t))
	},
	suffixInto: func(o, pre []float32, run []float64, x, s []float32, _ bool) {
		n := len(o) &^ 3
		var sh, st []float32
		if s != nil {
			sh, st = s[:n], s[n:]
		}
		exclusiveSuffixIntoAVX2(o[:n], pre, run, x, sh)
		suffixIntoGo(o[n:], pre[n:], run[n:], x[n:], st, false)
	},
}

// streamTranspose says whether t's blocks are to be streamed: asked for,
// and each row of a block one aligned 64-byte line.
func streamTranspose(t *Transpose16) bool {
	return t.Stream && t.DstRow%16 == 0 && t.DstStep%16 == 0 && uintptr(unsafe.Pointer(&t.Dst[0]))%64 == 0
}

func init() {
	exclusiveTable.Add(kernels.AVX512, exclusiveKernels{
		prefix: exclusivePrefixAVX512, suffix: exclusiveSuffixAVX512, suffixScaled: exclusiveSuffixScaledAVX512,
		columns: columnsAVX512, suffixInto: suffixIntoAVX512, streams: true,
		transpose16: func(t *Transpose16) {
			transpose16AVX512(&t.Dst[0], t.DstRow, t.DstStep, &t.Src[0], t.SrcRow, t.SrcStep, t.Blocks, streamTranspose(t))
		},
	})
	exclusiveTable.Add(kernels.AVX2, exclusiveAVX2)
}

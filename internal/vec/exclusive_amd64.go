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
func exclusiveColumnsAVX512(o, x, s, scratch *float32, ostride, xstride, n, w int, stream, inplace bool, pre, suf *float64, ahead *float32, step int)

//go:noescape
func exclusiveColumnsAVX2(o, x, s, scratch *float32, ostride, xstride, n int, inplace, stream bool, pre, suf *float64, ahead *float32, step int)

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

// columnsAVX512 streams only rows of whole aligned lines (streamable).
func columnsAVX512(c *Columns) {
	s, pre, suf := c.kernelPointers()
	ahead, step := c.aheadRows()
	exclusiveColumnsAVX512(&c.O[0], &c.X[0], s, &c.Scratch[0], c.OStride, c.XStride, c.N, c.W, c.streamable(), c.inPlace(), pre, suf, ahead, step)
}

// kernelPointers returns the optional slices as the kernels take them: a
// pointer to the first element, or nil.
func (c *Columns) kernelPointers() (s *float32, pre, suf *float64) {
	if c.S != nil {
		s = &c.S[0]
	}
	if c.Pre != nil {
		pre = &c.Pre[0]
	}
	if c.Suf != nil {
		suf = &c.Suf[0]
	}
	return s, pre, suf
}

// streamable reports whether the kernels may store o with non-temporal
// stores: asked to, a whole strip not computed in place, and rows of whole
// aligned lines.
func (c *Columns) streamable() bool {
	return c.Stream && !c.inPlace() && c.W == ColumnsWidth && c.OStride%16 == 0 && uintptr(unsafe.Pointer(&c.O[0]))%64 == 0
}

// columnsAVX2 takes whole strips of ColumnsWidth columns, streaming as
// columnsAVX512 does; a narrower strip (the last of a reduction whose
// width is not a multiple of 32) goes through columnsNarrowAVX2 unless it
// is computed in place.
func columnsAVX2(c *Columns) {
	if c.W != ColumnsWidth {
		if c.W < narrowAVX2Min || c.inPlace() { // in place, the scratch has no room for the padded copy
			columnsGo(c)
		} else {
			columnsNarrowAVX2(c)
		}
		return
	}
	s, pre, suf := c.kernelPointers()
	ahead, step := c.aheadRows()
	exclusiveColumnsAVX2(&c.O[0], &c.X[0], s, &c.Scratch[0], c.OStride, c.XStride, c.N, c.inPlace(), c.streamable(), pre, suf, ahead, step)
}

// narrowAVX2Min is the narrowest strip columnsNarrowAVX2 takes: below it
// the copies in and out cost more than the twin's loops (strips of 512
// rows on Sapphire Rapids: about 19 ns a row, against the twin's 16 at 8
// columns, 24 at 13 and 39 at 24).
const narrowAVX2Min = 12

// onesF32Row pads a narrow strip's rows.
var onesF32Row = [ColumnsWidth]float32{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}

// columnsNarrowAVX2 computes a strip of fewer than ColumnsWidth columns
// with the whole-strip kernel: the strip's rows are copied into the first
// half of the scratch, padded with ones to ColumnsWidth columns, computed
// there in place (the second half holding the prefix products), and the
// strip's columns copied back to o. The padding lanes are never mixed
// with the strip's, so the bits are the twin's.
func columnsNarrowAVX2(c *Columns) {
	const lanes = ColumnsWidth
	strip, pre := c.Scratch[:c.N*lanes], c.Scratch[c.N*lanes:2*c.N*lanes]
	for i := range c.N {
		row := strip[i*lanes : (i+1)*lanes]
		copy(row, c.X[i*c.XStride:][:c.W])
		copy(row[c.W:], onesF32Row[c.W:])
	}
	var s [lanes]float32
	var runs [2][lanes]float64
	for j := range lanes {
		s[j], runs[0][j], runs[1][j] = 1, 1, 1
	}
	var sp *float32
	if c.S != nil {
		copy(s[:], c.S[:c.W])
		sp = &s[0]
	}
	var prep, sufp *float64
	if c.Pre != nil {
		copy(runs[0][:], c.Pre[:c.W])
		prep = &runs[0][0]
	}
	if c.Suf != nil {
		copy(runs[1][:], c.Suf[:c.W])
		sufp = &runs[1][0]
	}
	exclusiveColumnsAVX2(&strip[0], &strip[0], sp, &pre[0], lanes, lanes, c.N, true, false, prep, sufp, &strip[0], 0)
	for i := range c.N {
		copy(c.O[i*c.OStride:][:c.W], strip[i*lanes:][:c.W])
	}
	if c.Pre != nil {
		copy(c.Pre[:c.W], runs[0][:c.W])
	}
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
	down4:   down4AVX2,
	up4:     up4AVX2,
	// Row bands with these kernels took 0.80-0.85 of the strips' CPU at
	// 4096² and 0.97-0.99 at 16384×1024 and 4096×512 on a Xeon with this
	// set forced (BenchmarkExclusiveAxis0Ways, alternating rounds), never
	// more; see stripsFasterOn for where they lose.
	rowBands: rowBandsHere(),
	streams:  true,
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

// stripsFasterOn lists the processors on which both x86 sets compute tall
// float32 columns faster in strips than in row bands, with the
// measurement. Zen 4 (EPYC Genoa, family 25 model 17, 1 MiB L2, under
// Firecracker; session 19), BenchmarkExclusiveAxis0Ways, process CPU, row
// bands against strips: AVX-512 4096² 19.4 against 11.6 ms, 16384×1024
// 18.8 against 14.7, 4096×512 1.39 against 1.15; the AVX2 set forced
// 25.6 against 13.7, 31.0 against 14.6, 1.79 against 1.23. The entry
// covers Zen 3 (family 25 as well, AVX2 only) by extension: the strips
// were chosen there (session 14) before the AVX2 set had row bands, and
// row bands have not been measured on it.
var stripsFasterOn = []kernels.Measured[bool]{
	{Vendor: "AuthenticAMD", Family: 25, Value: true},
}

// rowBandsHere is the sets' rowBands for this processor: row bands but
// where stripsFasterOn says otherwise.
func rowBandsHere() bool {
	return !kernels.ForProcessor(kernels.ProcessorID(), stripsFasterOn, false)
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
		down4: down4AVX512, up4: up4AVX512, rowBands: rowBandsHere(),
		transpose16: func(t *Transpose16) {
			transpose16AVX512(&t.Dst[0], t.DstRow, t.DstStep, &t.Src[0], t.SrcRow, t.SrcStep, t.Blocks, streamTranspose(t))
		},
	})
	exclusiveTable.Add(kernels.AVX2, exclusiveAVX2)
}

package vec

import "github.com/tensor-go/tensor/internal/kernels"

// The row passes of the exclusive products of float32 data (Prod's
// gradient), each one pass over a row with the running products carried
// in float64: the root package's blocked passes call them once a row.
// Only products and conversions, no sums, so fused multiply-add cannot
// change a bit; every set gives the twins' bits (a NaN's payload apart).

// exclusiveKernels is one implementation of the row passes.
type exclusiveKernels struct {
	prefix       func(o []float32, run []float64, x []float32)
	suffix       func(o []float32, run []float64, x []float32)
	suffixScaled func(o []float32, run []float64, x, s []float32)
	columns      func(c *Columns)
	// suffixInto is suffixScaled reading the prefix products from pre and
	// writing o, streaming (when stream) o's lines from the first 64-byte
	// boundary on; s nil is no factor.
	suffixInto  func(o, pre []float32, run []float64, x, s []float32, stream bool)
	transpose16 func(t *Transpose16)
	// down4 and up4 are the four-row passes (ExclusiveDown4F32,
	// ExclusiveUp4F32) over the quad's first w columns.
	down4, up4 func(q *Quad, w int)
	// rowBands says that the root package should compute tall float32
	// columns in bands of whole rows with down4 and up4 rather than in
	// strips of ColumnsWidth columns (measured faster where it is set).
	rowBands bool
	// streams says that columns and transpose16 honour Stream (with
	// streaming stores, where their rows are whole aligned lines); the Go
	// twins and the AVX2 set store ordinarily.
	streams bool
}

// ExclusiveStreams reports whether the active kernel set honours Stream
// in ExclusiveColumnsF32 and Transpose16F32 (where the output's rows are
// whole 64-byte aligned lines), so that a caller maps a fresh output ahead
// only where it is to be streamed.
func ExclusiveStreams() bool { return exclusiveImpl.streams }

// ExclusiveRowBands reports whether the active kernel set computes the
// exclusive products down tall float32 columns best in bands of whole rows
// (ExclusiveDown4F32, ExclusiveUp4F32) rather than in strips
// (ExclusiveColumnsF32).
func ExclusiveRowBands() bool { return exclusiveImpl.rowBands }

// exclusiveGo is the Go twin: the loops the functions' comments show.
var exclusiveGo = exclusiveKernels{prefix: prefixGo, suffix: suffixGo, suffixScaled: suffixScaledGo, columns: columnsGo, suffixInto: suffixIntoGo, transpose16: transpose16Go, down4: down4Go, up4: up4Go}

var (
	exclusiveImpl  exclusiveKernels
	exclusiveTable = kernels.NewTable(&exclusiveImpl, exclusiveGo)
)

// ExclusivePrefixF32 stores the running products and multiplies x in:
//
//	for j := range o { o[j] = float32(run[j]); run[j] *= float64(x[j]) }
func ExclusivePrefixF32(o []float32, run []float64, x []float32) {
	exclusiveImpl.prefix(o, run[:len(o)], x[:len(o)])
}

// ExclusiveSuffixF32 multiplies the running products into o and x into
// them:
//
//	for j := range o { o[j] = float32(float64(o[j]) * run[j]); run[j] *= float64(x[j]) }
func ExclusiveSuffixF32(o []float32, run []float64, x []float32) {
	exclusiveImpl.suffix(o, run[:len(o)], x[:len(o)])
}

// ExclusiveSuffixScaledF32 is ExclusiveSuffixF32 with each result then
// multiplied by s, rounded as a float32 product:
//
//	for j := range o { o[j] = s[j] * float32(float64(o[j])*run[j]); run[j] *= float64(x[j]) }
func ExclusiveSuffixScaledF32(o []float32, run []float64, x, s []float32) {
	exclusiveImpl.suffixScaled(o, run[:len(o)], x[:len(o)], s[:len(o)])
}

// ExclusiveSuffixIntoF32 is ExclusiveSuffixScaledF32 with the prefix
// products read from pre and the results written to o (s nil: no
// factor, the float32 product itself):
//
//	for j := range o { o[j] = s[j] * float32(float64(pre[j])*run[j]); run[j] *= float64(x[j]) }
//
// stream stores o around the cache from its first 64-byte boundary on,
// for an output the caller knows is far larger than the caches: that
// saves reading each of its lines before writing it.
func ExclusiveSuffixIntoF32(o, pre []float32, run []float64, x, s []float32, stream bool) {
	n := len(o)
	if s != nil {
		s = s[:n]
	}
	exclusiveImpl.suffixInto(o, pre[:n], run[:n], x[:n], s, stream)
}

func suffixIntoGo(o, pre []float32, run []float64, x, s []float32, _ bool) {
	pre, run, x = pre[:len(o)], run[:len(o)], x[:len(o)]
	if s == nil {
		for j := range o {
			o[j] = float32(float64(pre[j]) * run[j])
			run[j] *= float64(x[j])
		}
		return
	}
	s = s[:len(o)]
	for j := range o {
		e := float32(float64(pre[j]) * run[j])
		o[j] = s[j] * e
		run[j] *= float64(x[j])
	}
}

func prefixGo(o []float32, run []float64, x []float32) {
	run, x = run[:len(o)], x[:len(o)]
	for j := range o {
		o[j] = float32(run[j])
		run[j] *= float64(x[j])
	}
}

func suffixGo(o []float32, run []float64, x []float32) {
	run, x = run[:len(o)], x[:len(o)]
	for j := range o {
		o[j] = float32(float64(o[j]) * run[j])
		run[j] *= float64(x[j])
	}
}

func suffixScaledGo(o []float32, run []float64, x, s []float32) {
	run, x, s = run[:len(o)], x[:len(o)], s[:len(o)]
	for j := range o {
		e := float32(float64(o[j]) * run[j])
		o[j] = s[j] * e
		run[j] *= float64(x[j])
	}
}

// ColumnsWidth is the widest strip ExclusiveColumnsF32 takes: 32 float32
// columns are one 128-byte pair of cache lines of each row (what the
// adjacent-line prefetcher fetches together), and their running products
// four zmm registers of float64.
const ColumnsWidth = 32

// ColumnsScratch is the scratch ExclusiveColumnsF32 needs for n rows: the
// strip's rounded prefix products and a copy of its input, ColumnsWidth
// elements a row each, so that the second pass reads both contiguously
// from the L2 cache instead of a page apart per row.
func ColumnsScratch(n int) int { return 2 * n * ColumnsWidth }

// ColumnsInPlaceScratch is the scratch of a strip computed in place (O is
// X): the prefix products only, the second pass reading x itself.
func ColumnsInPlaceScratch(n int) int { return n * ColumnsWidth }

// Columns describes one strip for ExclusiveColumnsF32: W ≤ ColumnsWidth
// columns of N ≥ 1 rows; row i of the input starts at X[i*XStride] and of
// the output at O[i*OStride]; S is nil or the W factors of the columns;
// Scratch holds ColumnsScratch(N) elements; Stream stores the output
// around the cache (where the caller knows it is far larger than the
// caches), which the kernels do only where every row is whole 64-byte
// lines (W = ColumnsWidth, O's rows 64-byte aligned). O may be X itself,
// with the same stride: the strip is then computed in place, in a
// Scratch of ColumnsInPlaceScratch(N), and never streamed.
//
// Pre and Suf, when given (W elements each), make the strip a band of
// rows of a taller group: the first pass starts from the running products
// in Pre (those of the rows above the band) and leaves there the products
// it reached (for the next band), and the second pass starts from Suf (the
// product of the rows below the band); without them both start from 1.
type Columns struct {
	O, X, S, Scratch []float32
	Pre, Suf         []float64
	// Ahead, when given, is the input the caller computes next (the
	// next strip): N rows of ColumnsWidth elements, AheadStride apart.
	// The AVX-512 and AVX2 kernels prefetch its rows into the L2 cache
	// during the second pass, which reads only the cache, so that the
	// next strip's reads from memory overlap this one's arithmetic (the
	// Go twin ignores it). It changes no result.
	Ahead            []float32
	AheadStride      int
	OStride, XStride int
	N, W             int
	Stream           bool
}

// ExclusiveColumnsF32 computes the exclusive products down each column of
// the strip c describes, both passes in one call, the running products in
// float64:
//
//	run[j] = 1 (or Pre[j]); for i := 0; i < N; i++ { pre[i][j] = float32(run[j]); run[j] *= float64(x[i][j]) }
//	Pre[j] = run[j] (given Pre)
//	run[j] = 1 (or Suf[j]); for i := N-1; i >= 0; i-- { o[i][j] = s[j] * float32(float64(pre[i][j])*run[j]); run[j] *= float64(x[i][j]) }
//
// (without S, o[i][j] is the float32 product itself). The input is read
// from memory once: the first pass keeps the strip's rows and prefix
// products in Scratch, which the second pass, from the last row up, reads
// while they are in the L2 cache (a strip of 4096 rows takes 1 MiB).
func ExclusiveColumnsF32(c *Columns) {
	if c.N <= 0 || c.W <= 0 {
		return
	}
	need := ColumnsScratch(c.N)
	if c.inPlace() {
		need = ColumnsInPlaceScratch(c.N)
	}
	if c.W > ColumnsWidth || len(c.Scratch) < need || (c.S != nil && len(c.S) < c.W) ||
		(c.Pre != nil && len(c.Pre) < c.W) || (c.Suf != nil && len(c.Suf) < c.W) ||
		len(c.X) < (c.N-1)*c.XStride+c.W || len(c.O) < (c.N-1)*c.OStride+c.W || c.XStride < c.W || c.OStride < c.W {
		panic("vec: ExclusiveColumnsF32: strip out of its slices")
	}
	exclusiveImpl.columns(c)
}

// aheadRows is where the kernels prefetch Ahead from and how many bytes
// they step a row: without Ahead (or one too short for N rows), a step of
// 0 over X's first line, already in the cache.
func (c *Columns) aheadRows() (*float32, int) {
	if c.Ahead == nil || c.AheadStride < ColumnsWidth || len(c.Ahead) < (c.N-1)*c.AheadStride+ColumnsWidth {
		return &c.X[0], 0
	}
	return &c.Ahead[0], c.AheadStride * 4
}

// inPlace reports whether the strip's output is its input.
func (c *Columns) inPlace() bool { return &c.O[0] == &c.X[0] && c.OStride == c.XStride }

func columnsGo(c *Columns) {
	var run [ColumnsWidth]float64
	w := c.W
	pre := c.Scratch[:c.N*ColumnsWidth]
	start := func(from []float64) {
		for j := range w {
			run[j] = 1
			if from != nil {
				run[j] = from[j]
			}
		}
	}
	start(c.Pre)
	for i := range c.N {
		x, p := c.X[i*c.XStride:][:w], pre[i*ColumnsWidth:][:w]
		for j, v := range x {
			p[j] = float32(run[j])
			run[j] *= float64(v)
		}
	}
	if c.Pre != nil {
		copy(c.Pre[:w], run[:w])
	}
	start(c.Suf)
	for i := c.N - 1; i >= 0; i-- {
		x, p, o := c.X[i*c.XStride:][:w], pre[i*ColumnsWidth:][:w], c.O[i*c.OStride:][:w]
		if c.S == nil {
			for j, v := range x { // v is read before o[j] is written: o may be x
				o[j] = float32(float64(p[j]) * run[j])
				run[j] *= float64(v)
			}
			continue
		}
		s := c.S[:w]
		for j, v := range x {
			e := float32(float64(p[j]) * run[j])
			o[j] = s[j] * e
			run[j] *= float64(v)
		}
	}
}

// Transpose16 describes blocks of 16×16 float32 elements to transpose for
// Transpose16F32: block b's element (r, j) is Src[b*SrcStep + r*SrcRow +
// j] and goes to Dst[b*DstStep + j*DstRow + r]. Prod's gradient along
// rows turns 32 rows into the columns of a strip and back with it. Stream
// stores Dst around the cache, where the caller knows it is far larger
// than the caches; the kernels do so only where each row of a block is one
// aligned 64-byte line.
type Transpose16 struct {
	Dst, Src                         []float32
	DstRow, DstStep, SrcRow, SrcStep int
	Blocks                           int
	Stream                           bool
}

// Transpose16F32 transposes the blocks t describes (they must lie inside
// Dst and Src, and Dst's must not overlap Src's).
func Transpose16F32(t *Transpose16) {
	if t.Blocks <= 0 {
		return
	}
	last := func(step, row int) int { return (t.Blocks-1)*step + 15*row + 15 }
	if t.DstRow < 0 || t.SrcRow < 0 || t.DstStep < 0 || t.SrcStep < 0 ||
		last(t.DstStep, t.DstRow) >= len(t.Dst) || last(t.SrcStep, t.SrcRow) >= len(t.Src) {
		panic("vec: Transpose16F32: blocks out of their slices")
	}
	exclusiveImpl.transpose16(t)
}

func transpose16Go(t *Transpose16) {
	for b := range t.Blocks {
		src, dst := t.Src[b*t.SrcStep:], t.Dst[b*t.DstStep:]
		for r := range 16 {
			row := src[r*t.SrcRow:][:16]
			for j, v := range row {
				dst[j*t.DstRow+r] = v
			}
		}
	}
}

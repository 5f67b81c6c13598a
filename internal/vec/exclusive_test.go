package vec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/internal/kernels"
)

// exclusiveInputs draws n float32 values with zeros of both signs,
// infinities, NaN, subnormals and values whose float64 products round.
func exclusiveInputs(rng *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		switch rng.IntN(12) {
		case 0:
			v[i] = 0
		case 1:
			v[i] = float32(math.Copysign(0, -1))
		case 2:
			v[i] = float32(math.Inf(1 - 2*rng.IntN(2)))
		case 3:
			v[i] = float32(math.NaN())
		case 4:
			v[i] = math.Float32frombits(rng.Uint32() & 0x807fffff) // subnormal
		default:
			v[i] = float32((rng.Float64()*2 - 1) * math.Pow(2, float64(rng.IntN(60)-30)))
		}
	}
	return v
}

// Every set's row passes give the Go twins' bits at every length through
// three vectors of the widest set and past, and write nothing beyond the
// row (guard elements after o and run keep their values).
func TestExclusiveKernelsMatchTwins(t *testing.T) {
	const guard = 9
	rng := rand.New(rand.NewPCG(11, 12))
	for _, v := range exclusiveTable.Variants() {
		for n := 0; n <= 3*8+guard; n++ {
			for pass := range 3 {
				x, s, o0 := exclusiveInputs(rng, n), exclusiveInputs(rng, n), exclusiveInputs(rng, n+guard)
				run0 := make([]float64, n+guard)
				for j := range run0 {
					run0[j] = float64(exclusiveInputs(rng, 1)[0]) * float64(exclusiveInputs(rng, 1)[0])
				}
				o, run := append([]float32{}, o0...), append([]float64{}, run0...)
				wo, wrun := append([]float32{}, o0...), append([]float64{}, run0...)
				switch pass {
				case 0:
					v.K.prefix(o[:n], run[:n], x)
					prefixGo(wo[:n], wrun[:n], x)
				case 1:
					v.K.suffix(o[:n], run[:n], x)
					suffixGo(wo[:n], wrun[:n], x)
				case 2:
					v.K.suffixScaled(o[:n], run[:n], x, s)
					suffixScaledGo(wo[:n], wrun[:n], x, s)
				}
				for j := range o {
					if !sameF32(o[j], wo[j]) || !sameF64(run[j], wrun[j]) {
						t.Fatalf("%s pass %d n=%d: element %d: o %v run %v, twin o %v run %v (guard from %d)",
							v.Name(), pass, n, j, o[j], run[j], wo[j], wrun[j], n)
					}
				}
			}
		}
	}
}

// columnsReference is ExclusiveColumnsF32 by the row passes (prefixGo,
// suffixGo, suffixScaledGo): the strip kernel must give their bits.
func columnsReference(c *Columns) {
	run := make([]float64, c.W)
	start := func(from []float64) {
		for j := range run {
			run[j] = 1
			if from != nil {
				run[j] = from[j]
			}
		}
	}
	start(c.Pre)
	row := func(a []float32, i, stride int) []float32 { return a[i*stride:][:c.W] }
	for i := range c.N {
		prefixGo(row(c.O, i, c.OStride), run, row(c.X, i, c.XStride))
	}
	if c.Pre != nil {
		copy(c.Pre, run)
	}
	start(c.Suf)
	for i := c.N - 1; i >= 0; i-- {
		if c.S == nil {
			suffixGo(row(c.O, i, c.OStride), run, row(c.X, i, c.XStride))
		} else {
			suffixScaledGo(row(c.O, i, c.OStride), run, row(c.X, i, c.XStride), c.S[:c.W])
		}
	}
}

// Every set's strip kernel gives the row passes' bits at every width up to
// ColumnsWidth, scaled or not, streamed or not, and writes nothing of o
// but the strip's columns of its rows: the stride's gap between rows and
// guards before and after keep their values.
func TestExclusiveColumnsMatchRows(t *testing.T) {
	const guard = 19
	rng := rand.New(rand.NewPCG(13, 14))
	variants := append(exclusiveTable.Variants(), kernels.Variant[exclusiveKernels]{Set: kernels.Generic, K: exclusiveKernels{columns: columnsReference}})
	for _, v := range variants {
		for w := 1; w <= ColumnsWidth; w++ {
			for _, n := range []int{1, 2, 3, 8, 9, 33} {
				for trial := range 8 {
					scaled, stream, band := trial&1 == 1, trial&2 == 2, trial&4 == 4
					xstride, ostride := w+rng.IntN(5), w+rng.IntN(3)
					if stream {
						ostride = (w + 15) &^ 15
					}
					x := exclusiveInputs(rng, (n-1)*xstride+w)
					buf := make([]float32, guard+16+(n-1)*ostride+w+guard)
					off := guard + 15 - (int(uintptr(unsafe.Pointer(&buf[guard+15])))/4)%16
					o0 := exclusiveInputs(rng, len(buf))
					copy(buf, o0)
					want := append([]float32{}, o0...)
					var s []float32
					if scaled {
						s = exclusiveInputs(rng, w)
					}
					var pre0, suf []float64
					if band {
						pre0, suf = make([]float64, w+guard), make([]float64, w)
						for j := range pre0 {
							pre0[j] = float64(exclusiveInputs(rng, 1)[0])
						}
						for j := range suf {
							suf[j] = float64(exclusiveInputs(rng, 1)[0]) * float64(exclusiveInputs(rng, 1)[0])
						}
					}
					var pre, wantPre []float64
					if band {
						pre, wantPre = append([]float64{}, pre0...), append([]float64{}, pre0...)
					}
					c := Columns{O: buf[off:], X: x, S: s, Scratch: make([]float32, ColumnsScratch(n)),
						OStride: ostride, XStride: xstride, N: n, W: w, Stream: stream, Suf: suf}
					if rng.IntN(2) == 0 {
						// A next strip to prefetch changes nothing (the
						// twin ignores it).
						c.AheadStride = ColumnsWidth + rng.IntN(40)
						c.Ahead = exclusiveInputs(rng, (n-1)*c.AheadStride+ColumnsWidth)
					}
					if band {
						c.Pre = pre[:w]
					}
					v.K.columns(&c)
					c.O = want[off:]
					if band {
						c.Pre = wantPre[:w]
					}
					columnsGo(&c)
					for j := range pre {
						if !sameF64(pre[j], wantPre[j]) {
							t.Fatalf("%s w=%d n=%d: Pre[%d] = %v, twin %v (guard from %d)", v.Name(), w, n, j, pre[j], wantPre[j], w)
						}
					}
					if !stream && ostride == xstride && v.K.suffixInto != nil { // not the row passes
						// In place: the results over the input itself, in
						// the smaller scratch (guards after it keep their
						// values).
						in := append([]float32{}, x...)
						c := c
						c.O, c.X = in, in
						if band {
							c.Pre = append([]float64{}, pre0[:w]...)
						}
						sc := exclusiveInputs(rng, ColumnsInPlaceScratch(n)+guard)
						guards := append([]float32{}, sc[ColumnsInPlaceScratch(n):]...)
						c.Scratch = sc[:ColumnsInPlaceScratch(n)]
						v.K.columns(&c)
						for k, g := range guards {
							if !sameF32(sc[ColumnsInPlaceScratch(n)+k], g) {
								t.Fatalf("%s w=%d n=%d in place: scratch guard %d written", v.Name(), w, n, k)
							}
						}
						for i := range n {
							for j := range w {
								if k := i*ostride + j; !sameF32(in[k], want[off+k]) {
									t.Fatalf("%s w=%d n=%d in place: row %d column %d = %v, want %v", v.Name(), w, n, i, j, in[k], want[off+k])
								}
							}
						}
					}
					for k := range buf {
						if !sameF32(buf[k], want[k]) {
							t.Fatalf("%s w=%d n=%d scaled=%v stream=%v: o[%d] (strip from %d, stride %d) = %v, twin %v",
								v.Name(), w, n, scaled, stream, k, off, ostride, buf[k], want[k])
						}
					}
				}
			}
		}
	}
}

// Every set's suffix pass into another row gives the Go twin's bits at
// every length through four lines and past, at every alignment of o,
// scaled or not, streamed or not, and writes nothing of o or run beyond
// the row.
func TestExclusiveSuffixIntoMatchesTwin(t *testing.T) {
	const guard = 9
	rng := rand.New(rand.NewPCG(15, 16))
	for _, v := range exclusiveTable.Variants() {
		for n := 0; n <= 4*16+guard; n++ {
			for trial := range 4 {
				scaled, stream := trial&1 == 1, trial&2 == 2
				x, pre := exclusiveInputs(rng, n), exclusiveInputs(rng, n)
				var s []float32
				if scaled {
					s = exclusiveInputs(rng, n)
				}
				off := rng.IntN(16)
				o0 := exclusiveInputs(rng, off+n+guard)
				run0 := make([]float64, n+guard)
				for j := range run0 {
					run0[j] = float64(exclusiveInputs(rng, 1)[0]) * float64(exclusiveInputs(rng, 1)[0])
				}
				o, run := append([]float32{}, o0...), append([]float64{}, run0...)
				wo, wrun := append([]float32{}, o0...), append([]float64{}, run0...)
				v.K.suffixInto(o[off:off+n], pre, run[:n], x, s, stream)
				suffixIntoGo(wo[off:off+n], pre, wrun[:n], x, s, false)
				for j := range o {
					if !sameF32(o[j], wo[j]) {
						t.Fatalf("%s n=%d off=%d scaled=%v stream=%v: o[%d] = %v, twin %v", v.Name(), n, off, scaled, stream, j, o[j], wo[j])
					}
				}
				for j := range run {
					if !sameF64(run[j], wrun[j]) {
						t.Fatalf("%s n=%d scaled=%v stream=%v: run[%d] = %v, twin %v", v.Name(), n, scaled, stream, j, run[j], wrun[j])
					}
				}
				// The twin is the in-place suffix pass on a copy of pre.
				if scaled {
					ref, rrun := append([]float32{}, pre...), append([]float64{}, run0...)
					suffixScaledGo(ref, rrun[:n], x, s)
					for j := range ref {
						if !sameF32(ref[j], wo[off+j]) {
							t.Fatalf("twin n=%d: o[%d] = %v, in-place pass %v", n, j, wo[off+j], ref[j])
						}
					}
				}
			}
		}
	}
}

// Every set's 16×16 transpose moves each element of each block to its
// place, in both of the ways Prod's gradient uses it (rows into a strip's
// columns and back), and writes nothing else of Dst.
func TestTranspose16MatchesTwin(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for _, v := range exclusiveTable.Variants() {
		for trial := range 40 {
			blocks := rng.IntN(4)
			var tr Transpose16
			if trial%2 == 0 { // rows of srcRow into a strip of rows of 32
				tr = Transpose16{DstRow: 32, DstStep: 16 * 32, SrcRow: 16*blocks + rng.IntN(9), SrcStep: 16, Blocks: blocks}
			} else { // and back, streamed or not
				tr = Transpose16{DstRow: 16*blocks + 16*rng.IntN(2), DstStep: 16, SrcRow: 32, SrcStep: 16 * 32, Blocks: blocks, Stream: trial%4 == 1}
			}
			size := func(step, row int) int { return max(0, (blocks-1)*step+15*row+16) + rng.IntN(5) }
			tr.Src = exclusiveInputs(rng, size(tr.SrcStep, tr.SrcRow))
			d0 := exclusiveInputs(rng, size(tr.DstStep, tr.DstRow))
			tr.Dst = aligned64(len(d0))
			copy(tr.Dst, d0)
			want := append([]float32{}, d0...)
			if blocks > 0 {
				v.K.transpose16(&tr)
			}
			for b := range blocks {
				for r := range 16 {
					for j := range 16 {
						want[b*tr.DstStep+j*tr.DstRow+r] = tr.Src[b*tr.SrcStep+r*tr.SrcRow+j]
					}
				}
			}
			for k := range want {
				if math.Float32bits(tr.Dst[k]) != math.Float32bits(want[k]) {
					t.Fatalf("%s trial %d %+v: dst[%d] = %v, want %v", v.Name(), trial, tr, k, tr.Dst[k], want[k])
				}
			}
		}
	}
}

// aligned64 returns n float32 starting on a 64-byte boundary.
func aligned64(n int) []float32 {
	buf := make([]float32, n+16)
	off := (16 - int(uintptr(unsafe.Pointer(&buf[0]))%64/4)) % 16
	return buf[off : off+n]
}

// ExclusiveStreams follows the active set: only the AVX-512 and AVX2
// kernels store a streamed strip around the cache (the Go twins cannot),
// and callers map a fresh output ahead only then.
func TestExclusiveStreamsPerSet(t *testing.T) {
	for _, v := range exclusiveTable.Variants() {
		restore := exclusiveTable.Use(v.Set)
		got := ExclusiveStreams()
		restore()
		if want := v.Set.Name == "avx512" || v.Set.Name == "avx2"; got != want {
			t.Errorf("%s: ExclusiveStreams() = %v, want %v", v.Set.Name, got, want)
		}
	}
}

// Every set's strip kernel gives the twin's bits on columns holding no, one
// and two zeros, signed zeros, infinities (times zero: NaN) and NaN, in
// place and not, at whole and narrow widths, and writes nothing outside
// the strip; a column with one zero keeps the product of the others at the
// zero's row and zero elsewhere, a column with two zeros is all zero.
func TestExclusiveColumnsZerosAndSpecials(t *testing.T) {
	const guard = 16
	rng := rand.New(rand.NewPCG(21, 22))
	inf, nan, negz := float32(math.Inf(1)), float32(math.NaN()), float32(math.Copysign(0, -1))
	for _, v := range exclusiveTable.Variants() {
		for _, w := range []int{ColumnsWidth, 13} {
			for _, n := range []int{1, 2, 3, 5, 64} {
				for _, inPlace := range []bool{false, true} {
					stride := w + 3
					x := make([]float32, guard+(n-1)*stride+w+guard)
					for i := range x {
						x[i] = float32(1 + rng.Float64())
					}
					body := x[guard:]
					zeros := make([]int, w)
					for j := range w {
						at := func() int { return rng.IntN(n) * stride }
						switch j % 6 {
						case 1:
							body[at()+j], zeros[j] = 0, 1
						case 2:
							if n >= 2 {
								k := rng.IntN(n - 1)
								body[k*stride+j], body[(k+1+rng.IntN(n-1-k))*stride+j], zeros[j] = negz, 0, 2
							}
						case 3:
							body[at()+j] = -inf
							body[at()+j] = negz
						case 4:
							body[at()+j] = nan
						case 5:
							body[at()+j] = inf
						}
					}
					s := make([]float32, w) // finite and nonzero: o/s is the exclusive product
					for j := range s {
						s[j] = float32((0.5 + rng.Float64()) * float64(1-2*rng.IntN(2)))
					}
					o := make([]float32, len(x))
					for i := range o {
						o[i] = float32(rng.Float64())
					}
					want := append([]float32{}, o...)
					wantIn := append([]float32{}, x...)
					c := Columns{O: o[guard:], X: body, S: s, Scratch: make([]float32, ColumnsScratch(n)), OStride: stride, XStride: stride, N: n, W: w}
					ref := c
					ref.O = want[guard:]
					if inPlace {
						o = append([]float32{}, x...)
						c.O, c.X = o[guard:], o[guard:]
						want = wantIn
						ref.O, ref.X = want[guard:], want[guard:]
					}
					v.K.columns(&c)
					columnsGo(&ref)
					for k := range o {
						if !sameF32(o[k], want[k]) {
							t.Fatalf("%s w=%d n=%d in place %v: element %d (strip from %d, stride %d) = %v, twin %v", v.Name(), w, n, inPlace, k, guard, stride, o[k], want[k])
						}
					}
					if inPlace {
						continue
					}
					for j := range w {
						for i := range n {
							e := o[guard+i*stride+j] / s[j]
							isZero := body[i*stride+j] == 0
							switch {
							case zeros[j] == 2 && e != 0:
								t.Fatalf("%s w=%d n=%d: column %d with two zeros has %v at row %d", v.Name(), w, n, j, e, i)
							case zeros[j] == 1 && !isZero && e != 0:
								t.Fatalf("%s w=%d n=%d: column %d with one zero has %v at row %d, not its zero's", v.Name(), w, n, j, e, i)
							case zeros[j] == 1 && isZero && n > 1 && e == 0:
								t.Fatalf("%s w=%d n=%d: column %d: zero at the zero's row %d", v.Name(), w, n, j, i)
							}
						}
					}
				}
			}
		}
	}
}

// BenchmarkTranspose16 times the transposes of Prod's gradient along rows
// of 4096 float32 (16 KiB apart, every row's line in one cache set): 32
// rows into a strip of 32 columns ("in") and back ("out"), a segment of
// 1024 columns at a time, as exclusiveRowSegments makes them, through
// every kernel set.
func BenchmarkTranspose16(b *testing.B) {
	defer func(saved exclusiveKernels) { exclusiveImpl = saved }(exclusiveImpl)
	const n, lanes, seg = 4096, ColumnsWidth, 1024
	rows := filled(lanes*n*64, float32(1)) // 64 strips, 32 MiB, from memory
	strip := filled(seg*lanes, float32(1))
	for _, v := range exclusiveTable.Variants() {
		exclusiveImpl = v.K
		for _, in := range []bool{true, false} {
			b.Run(fmt.Sprintf("%s/in=%v", v.Name(), in), func(b *testing.B) {
				b.SetBytes(4 * lanes * seg)
				k := 0
				for b.Loop() {
					base := rows[(k/4)%64*lanes*n+k%4*seg:]
					for h := 0; h < lanes; h += 16 {
						t := Transpose16{Dst: strip[h:], DstRow: lanes, DstStep: 16 * lanes, Src: base[h*n:], SrcRow: n, SrcStep: 16, Blocks: seg / 16}
						if !in {
							t = Transpose16{Dst: base[h*n:], DstRow: n, DstStep: 16, Src: strip[h:], SrcRow: lanes, SrcStep: 16 * lanes, Blocks: seg / 16}
						}
						Transpose16F32(&t)
					}
					k++
				}
			})
		}
	}
}

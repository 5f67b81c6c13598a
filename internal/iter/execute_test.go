package iter

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"unsafe"
)

// shrinkTiles makes tiles of three runs of five elements (for 4-byte
// elements) and tiles dimensions from three elements up, so that small
// shapes cross tile edges in both directions; and blocks of short runs of
// about ten elements from two rows up, gathering inputs for runs of up to
// four, so that small shapes cross block edges and take every way an
// operand is passed; and chunks of reused runs of two 4-byte elements.
func shrinkTiles(t *testing.T) {
	b, c, m := tileBytes, tileCols, minTiled
	e, r, g := blockElems, minBlockRows, shortGatherRun
	u := reuseBytes
	t.Cleanup(func() {
		tileBytes, tileCols, minTiled = b, c, m
		blockElems, minBlockRows, shortGatherRun = e, r, g
		reuseBytes = u
	})
	tileBytes, tileCols, minTiled = 12, 5, 3
	blockElems, minBlockRows, shortGatherRun = 10, 2, 4
	reuseBytes = 8
}

const (
	sentinel = -0x5a5a5a5a5a5a5a5a
	field    = 20      // bits per input in an encoded output element
	bias     = 1 << 18 // makes input offsets positive within a field
)

// encode packs the byte offsets of the inputs at one element into an
// output value, which is never 0.
func encode(offs []int) int64 {
	var v int64
	for k, o := range offs {
		v += int64(o+bias) << (field * k)
	}
	return v
}

// encoder is the kernel of the Execute tests: the output is int64, each
// input int32 holding its own byte offset from its base, and every output
// element gets encode of the inputs' values added (so a second visit, or
// a read from anywhere else, shows).
func encoder(ptrs []unsafe.Pointer, strides []int, n int) {
	var offs [MaxOperands - 1]int
	for i := range n {
		for k := 1; k < len(ptrs); k++ {
			offs[k-1] = int(*at[int32](ptrs[k], i, strides[k]))
		}
		*at[int64](ptrs[0], i, strides[0]) += encode(offs[:len(ptrs)-1])
	}
}

// outputStrides gives a layout of shape whose elements do not overlap:
// contiguous in a random order of dimensions, some reversed, in bytes of an
// 8-byte element.
func outputStrides(r *rand.Rand, shape []int) []int {
	st := make([]int, len(shape))
	step := 8
	for _, d := range r.Perm(len(shape)) {
		st[d] = step
		if r.IntN(4) == 0 {
			st[d] = -step
		}
		step *= max(shape[d], 1)
	}
	return st
}

func TestExecuteComputesEveryElementOnce(t *testing.T) {
	shrinkTiles(t)
	r := rand.New(rand.NewPCG(3, 4))
	tiled, merged, blocked, reused := 0, 0, 0, 0
	for trial := range 3000 {
		rank := r.IntN(5)
		shape := make([]int, rank)
		for d := range shape {
			shape[d] = 1 + r.IntN(7)
			if r.IntN(30) == 0 {
				shape[d] = 0
			}
		}
		nops := 1 + r.IntN(MaxOperands)
		strides := [][]int{outputStrides(r, shape)}
		for range nops - 1 {
			strides = append(strides, randomStrides(r, shape))
		}
		sizes := []int{8, 4, 4, 4}[:nops]
		p := NewPlan(shape, strides...)
		if tl, ok := p.tiling(sizes, 1); ok {
			tiled++
			if tl.merged {
				merged++
			}
		} else if _, ok := p.blocking(sizes, 1); ok {
			blocked++
		} else if _, ok := p.reusing(sizes, 1); ok {
			reused++
		}
		// Inputs hold their own byte offsets; the output starts as zeros
		// where the plan should write and sentinels everywhere else.
		const half = 1 << 13
		bases := make([]unsafe.Pointer, nops)
		for k := 1; k < nops; k++ {
			in := make([]int32, 2*half)
			for i := range in {
				in[i] = int32(4 * (i - half))
			}
			bases[k] = unsafe.Pointer(&in[half])
		}
		want := naive(shape, strides)
		for _, w := range []int{1, 2, 3} {
			out := make([]int64, 2*half)
			for i := range out {
				out[i] = sentinel
			}
			for _, offs := range want {
				out[half+offs[0]/8] = 0
			}
			bases[0] = unsafe.Pointer(&out[half])
			// ExecuteThen calls then once after each share's walk, on its
			// goroutine: once per kernel made (a fence per share).
			var made, thens atomic.Int64
			p.ExecuteThen(bases, sizes, w, func() Kernel { made.Add(1); return encoder }, func() { thens.Add(1) })
			if len(want) > 0 && (made.Load() == 0 || thens.Load() != made.Load()) {
				t.Fatalf("trial %d w=%d shape %v strides %v: %d kernels made, then called %d times", trial, w, shape, strides, made.Load(), thens.Load())
			}
			for _, offs := range want {
				if got, exp := out[half+offs[0]/8], encode(offs[1:]); got != exp {
					t.Fatalf("trial %d w=%d shape %v strides %v: output at %d is %x, want %x", trial, w, shape, strides, offs[0], got, exp)
				}
				out[half+offs[0]/8] = sentinel
			}
			for i, v := range out {
				if v != sentinel {
					t.Fatalf("trial %d w=%d shape %v strides %v: write outside the output at %d", trial, w, shape, strides, 8*(i-half))
				}
			}
		}
	}
	if tiled < 100 || merged < 20 || blocked < 100 || reused < 50 {
		t.Fatalf("only %d of the plans were tiled (%d in merged runs), %d blocked and %d reused", tiled, merged, blocked, reused)
	}
}

// TestBlockedShortRuns checks blocked walks at their real sizes: a row
// broadcast of runs of 3 (repeated), a column broadcast and a transposed
// input (gathered), a plan of an outer dimension whose repeated row moves
// with it, a column broadcast of rows longer than shortGatherRun (spread),
// each on one and two goroutines, with partial last blocks.
func TestBlockedShortRuns(t *testing.T) {
	const rows, cols = 1001, 3
	in := make([]int32, 4*rows*cols)
	for i := range in {
		in[i] = int32(4 * i)
	}
	for _, c := range []struct {
		name   string
		shape  []int
		in     []int // strides of the input in bytes
		offset func(idx []int) int
	}{
		{"row", []int{rows, cols}, []int{0, 4}, func(i []int) int { return 4 * i[1] }},
		{"column", []int{rows, cols}, []int{4, 0}, func(i []int) int { return 4 * i[0] }},
		{"transposed", []int{rows, cols}, []int{4, 4 * rows}, func(i []int) int { return 4 * (i[0] + rows*i[1]) }},
		{"outer", []int{3, rows, cols}, []int{4 * cols, 0, 4}, func(i []int) int { return 4 * (cols*i[0] + i[2]) }},
		{"spread", []int{rows, 20}, []int{4, 0}, func(i []int) int { return 4 * i[0] }},
		{"long row", []int{rows, 100}, []int{0, 4}, func(i []int) int { return 4 * i[1] }},
	} {
		n := 1
		for _, d := range c.shape {
			n *= d
		}
		outStrides := make([]int, len(c.shape))
		for d, step := len(c.shape)-1, 8; d >= 0; d-- {
			outStrides[d], step = step, step*c.shape[d]
		}
		p := NewPlan(c.shape, outStrides, c.in)
		if _, ok := p.blocking([]int{8, 4}, 1); !ok {
			t.Fatalf("%s: plan %v %v is not blocked", c.name, p.shape, p.strides)
		}
		for _, w := range []int{1, 2} {
			out := make([]int64, n+2)
			out[0], out[n+1] = sentinel, sentinel
			p.Execute([]unsafe.Pointer{unsafe.Pointer(&out[1]), unsafe.Pointer(&in[0])}, []int{8, 4}, w, func() Kernel { return encoder })
			idx := make([]int, len(c.shape))
			for e := range n {
				for d, rest := len(c.shape)-1, e; d >= 0; d-- {
					idx[d], rest = rest%c.shape[d], rest/c.shape[d]
				}
				if got, want := out[1+e], encode([]int{c.offset(idx)}); got != want {
					t.Fatalf("%s w=%d: out%v = %x, want %x", c.name, w, idx, got, want)
				}
			}
			if out[0] != sentinel || out[n+1] != sentinel {
				t.Fatalf("%s w=%d: a write outside the output", c.name, w)
			}
		}
	}
}

func TestTiledLongRows(t *testing.T) {
	// A transposed float32 matrix with the real tile shape: full and
	// partial tiles, a row block split between goroutines.
	const rows, cols = 600, 1030
	in := make([]int32, rows*cols)
	for i := range in {
		in[i] = int32(4 * i)
	}
	out := make([]int64, rows*cols+2)
	out[0], out[len(out)-1] = sentinel, sentinel
	p := NewPlan([]int{rows, cols}, []int{8 * cols, 8}, []int{4, 4 * rows})
	if _, ok := p.tiling([]int{8, 4}, 1); !ok {
		t.Fatal("the transposed plan is not tiled")
	}
	p.Execute([]unsafe.Pointer{unsafe.Pointer(&out[1]), unsafe.Pointer(&in[0])}, []int{8, 4}, 2, func() Kernel { return encoder })
	for i := range rows {
		for j := range cols {
			if got, exp := out[1+i*cols+j], encode([]int{4 * (i + j*rows)}); got != exp {
				t.Fatalf("out[%d][%d] = %x, want %x", i, j, got, exp)
			}
		}
	}
	if out[0] != sentinel || out[len(out)-1] != sentinel {
		t.Fatal("a write outside the output")
	}
}

// TestTiledMergedTiles checks tiles of whole short rows, which the walk
// passes to the kernel as one run each, at the real tile sizes on one and
// two goroutines with sentinels around the output: 64×64 and 50×40 with
// one input transposed, and a 64×600 one whose rows are too long to merge.
func TestTiledMergedTiles(t *testing.T) {
	for _, c := range []struct {
		rows, cols int
		merged     bool
	}{{64, 64, true}, {50, 40, true}, {64, 600, false}} {
		rows, cols := c.rows, c.cols
		in := make([]int32, rows*cols)
		for i := range in {
			in[i] = int32(4 * i)
		}
		p := NewPlan([]int{rows, cols}, []int{8 * cols, 8}, []int{4 * cols, 4}, []int{4, 4 * rows})
		if tl, ok := p.tiling([]int{8, 4, 4}, 1); !ok || tl.merged != c.merged {
			t.Fatalf("%d×%d: tiled %v, merged %v, want merged %v", rows, cols, ok, tl.merged, c.merged)
		}
		for _, w := range []int{1, 2} {
			out := make([]int64, rows*cols+2)
			out[0], out[len(out)-1] = sentinel, sentinel
			p.Execute([]unsafe.Pointer{unsafe.Pointer(&out[1]), unsafe.Pointer(&in[0]), unsafe.Pointer(&in[0])}, []int{8, 4, 4}, w, func() Kernel { return encoder })
			for i := range rows {
				for j := range cols {
					if got, exp := out[1+i*cols+j], encode([]int{4 * (i*cols + j), 4 * (i + j*rows)}); got != exp {
						t.Fatalf("%d×%d w=%d: out[%d][%d] = %x, want %x", rows, cols, w, i, j, got, exp)
					}
				}
			}
			if out[0] != sentinel || out[len(out)-1] != sentinel {
				t.Fatalf("%d×%d w=%d: a write outside the output", rows, cols, w)
			}
		}
	}
}

// TestTiledMovedDimension checks a reversed 3-D input, which moves least
// along the output's outermost dimension: the plan is tiled over that
// dimension and the innermost (with the real tile shape), on one and two
// goroutines.
func TestTiledMovedDimension(t *testing.T) {
	const d0, d1, d2 = 70, 3, 45
	in := make([]int32, d0*d1*d2)
	for i := range in {
		in[i] = int32(4 * i)
	}
	n := d0 * d1 * d2
	p := NewPlan([]int{d0, d1, d2}, []int{8 * d1 * d2, 8 * d2, 8}, []int{4, 4 * d0, 4 * d0 * d1})
	tl, ok := p.tiling([]int{8, 4}, 1)
	if !ok || tl.rows != d0 || tl.cols != d2 {
		t.Fatalf("plan %v %v: tiled %v over %d×%d, want %d×%d", p.shape, p.strides, ok, tl.rows, tl.cols, d0, d2)
	}
	for _, w := range []int{1, 2} {
		out := make([]int64, n+2)
		out[0], out[n+1] = sentinel, sentinel
		p.Execute([]unsafe.Pointer{unsafe.Pointer(&out[1]), unsafe.Pointer(&in[0])}, []int{8, 4}, w, func() Kernel { return encoder })
		for e := range n {
			i, j, k := e/(d1*d2), e/d2%d1, e%d2
			if got, want := out[1+e], encode([]int{4 * (i + d0*j + d0*d1*k)}); got != want {
				t.Fatalf("w=%d: out[%d][%d][%d] = %x, want %x", w, i, j, k, got, want)
			}
		}
		if out[0] != sentinel || out[n+1] != sentinel {
			t.Fatalf("w=%d: a write outside the output", w)
		}
	}
}

// TestReusedLongRows checks the reusing walk at its real chunk size: an
// input broadcast along the middle of three dimensions, rows of two full
// chunks and a partial one, on one goroutine and on two (which also cut
// the rows into blocks).
func TestReusedLongRows(t *testing.T) {
	const outer, rows = 3, 5
	cols := 2*reuseBytes/4 + 1808
	in := make([]int32, outer*cols)
	for i := range in {
		in[i] = int32(4 * i)
	}
	n := outer * rows * cols
	p := NewPlan([]int{outer, rows, cols}, []int{8 * rows * cols, 8 * cols, 8}, []int{4 * cols, 0, 4})
	for _, w := range []int{1, 2} {
		r, ok := p.reusing([]int{8, 4}, w)
		if !ok || r.chunks != 3 || w == 2 && r.blocks < 2 {
			t.Fatalf("w=%d: plan %v %v is reused %v in %d chunks and %d row blocks", w, p.shape, p.strides, ok, r.chunks, r.blocks)
		}
		out := make([]int64, n+2)
		out[0], out[n+1] = sentinel, sentinel
		p.Execute([]unsafe.Pointer{unsafe.Pointer(&out[1]), unsafe.Pointer(&in[0])}, []int{8, 4}, w, func() Kernel { return encoder })
		for e := range n {
			o, c := e/(rows*cols), e%cols
			if got, want := out[1+e], encode([]int{4 * (o*cols + c)}); got != want {
				t.Fatalf("w=%d: element %d is %x, want %x", w, e, got, want)
			}
		}
		if out[0] != sentinel || out[n+1] != sentinel {
			t.Fatalf("w=%d: a write outside the output", w)
		}
	}
}

func TestGather(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, size := range []int{1, 2, 3, 4, 8, 16} {
		for range 50 {
			rows, cols := r.IntN(20), r.IntN(20)
			pitch := cols + r.IntN(3)
			// The source is a rows×cols block of a transposed matrix,
			// with a gap of a few bytes between its columns.
			cs := size * (rows + r.IntN(3))
			src := make([]byte, cols*cs+1)
			for i := range src {
				src[i] = byte(r.Uint32())
			}
			dst := make([]byte, (rows*pitch+2)*size)
			for i := range dst {
				dst[i] = 0xEE
			}
			if rows > 0 && cols > 0 {
				gather(unsafe.Pointer(&dst[size]), unsafe.Pointer(&src[0]), size, cs, rows, cols, pitch, size)
			}
			for i := range dst {
				e := i/size - 1 // the buffer element of byte i
				r, c := e/max(pitch, 1), e%max(pitch, 1)
				want := byte(0xEE)
				if e >= 0 && r < rows && c < cols {
					want = src[r*size+c*cs+i%size]
				}
				if dst[i] != want {
					t.Fatalf("size %d, %d×%d pitch %d: byte %d (element %d, %d) is %#x, want %#x", size, rows, cols, pitch, i, r, c, dst[i], want)
				}
			}
		}
	}
}

func TestRepeat(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, size := range []int{1, 2, 3, 4, 8, 16} {
		for range 50 {
			reps, cols := 1+r.IntN(20), 1+r.IntN(20)
			cs := size * (1 + r.IntN(3)) // a contiguous row or one read with gaps
			src := make([]byte, cols*cs)
			for i := range src {
				src[i] = byte(r.Uint32())
			}
			dst := make([]byte, (reps*cols+2)*size)
			for i := range dst {
				dst[i] = 0xEE
			}
			repeat(unsafe.Pointer(&dst[size]), unsafe.Pointer(&src[0]), cs, reps, cols, size)
			for i := range dst {
				e := i/size - 1 // the buffer element of byte i
				want := byte(0xEE)
				if e >= 0 && e < reps*cols {
					want = src[e%cols*cs+i%size]
				}
				if dst[i] != want {
					t.Fatalf("size %d, %d reps of %d, stride %d: byte %d (element %d) is %#x, want %#x", size, reps, cols, cs, i, e, dst[i], want)
				}
			}
		}
	}
}

// nop is a kernel that keeps nothing.
func nop([]unsafe.Pointer, []int, int) {}

func TestWalksAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	// An input transposed in the two inner dimensions and reversed in the
	// second, another broadcast: many runs with carries, and tiles.
	shape := []int{3, 5, 40, 36}
	tr := []int{4 * 5 * 36 * 40, -4 * 36 * 40, 4, 4 * 40}
	p := NewPlan(shape, []int{4 * 5 * 40 * 36, 4 * 40 * 36, 4 * 36, 4}, tr, tr, make([]int, 4))
	if p.Runs() < 2 {
		t.Fatalf("plan %v has one run", p.Shape())
	}
	buf := make([]byte, 1<<20)
	mid := unsafe.Pointer(&buf[len(buf)/2])
	bases := []unsafe.Pointer{mid, mid, mid, mid}
	t2, tiled := p.tiling([]int{4, 4, 4, 4}, 1)
	if !tiled {
		t.Fatalf("plan %v %v is not tiled", p.Shape(), p.strides)
	}
	long := NewPlan([]int{3, 40000}, []int{4 * 40000, 4}, []int{0, 4})
	re, reused := long.reusing([]int{4, 4}, 2)
	if !reused {
		t.Fatalf("plan %v %v is not reused", long.Shape(), long.strides)
	}
	short := NewPlan([]int{100, 3}, []int{12, 4}, []int{0, 4}, []int{4, 0})
	b, blocked := short.blocking([]int{4, 4, 4}, 1)
	if !blocked {
		t.Fatalf("plan %v %v is not blocked", short.Shape(), short.strides)
	}
	for name, f := range map[string]func(){
		"blocks":   func() { b.walk(bases[:3], 0, b.units, nop) },
		"RunRange": func() { p.RunRange(bases, 1, p.Runs(), nop) },
		"RunChunk": func() { p.RunChunk(bases, 3, 16, nop) },
		"tiles":    func() { t2.walk(bases, 0, t2.units, nop) },
		"reused":   func() { re.walk(bases[:2], 0, re.units, nop) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations per walk", name, n)
		}
	}
}

// BenchmarkRunRangeShortRuns walks 64K runs of 16 elements with a kernel
// that does nothing: the cost of the walk itself, per run.
func BenchmarkRunRangeShortRuns(b *testing.B) {
	p := NewPlan([]int{256, 256, 16}, []int{0, 64, 0}, []int{16 * 256 * 8, 8, 256 * 8})
	buf := make([]byte, 1<<20)
	bases := []unsafe.Pointer{unsafe.Pointer(&buf[0]), unsafe.Pointer(&buf[0])}
	for b.Loop() {
		p.RunRange(bases, 0, p.Runs(), nop)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*p.Runs()), "ns/run")
}

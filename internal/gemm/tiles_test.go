package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tensor-go/tensor/bfloat16"
)

// tileKernelsUnderTest lists the tile kernels of the kernel sets this
// machine (and operating system) runs, then the Go twin, each also with
// blocks of 64 so that small products cross K, M and N blocks.
func tileKernelsUnderTest() []*tileKernel {
	var ks []*tileKernel
	add := func(k *tileKernel) {
		small := newTileKernel(k.name+"/blocks-64", 64, 64, 64, k.tiles, k.pack, k.minFlopsPerThread)
		small.kUnit, small.prepare, small.minSide = k.kUnit, k.prepare, k.minSide
		ks = append(ks, k, small)
	}
	for _, v := range kernelSets.Variants() {
		if v.K.bf16 != nil {
			add(v.K.bf16)
		}
	}
	add(newTileKernel("go", 256, 256, 1024, tilesBF16Go, tilePackersGo, 8*avx512MinFlopsPerThread))
	add(newDPKernel("dp-go", 384, dpStripGo, dpPrepareGo, tilePackersGo, 2*avx512MinFlopsPerThread))
	return ks
}

// bf16Bits rounds x to bfloat16 bits (nearest even; x is finite here).
func bf16Bits(x float64) uint16 {
	b := math.Float32bits(float32(x))
	return uint16((b + 0x7fff + (b>>16)&1) >> 16)
}

// bf16Value is the value of bfloat16 bits.
func bf16Value(h uint16) float64 { return float64(math.Float32frombits(uint32(h) << 16)) }

// randomBF16 returns n bfloat16 values spread over [-4, 4) with random
// exponents below, a few exact zeros and negative zeros.
func randomBF16(rng *rand.Rand, n int) []uint16 {
	s := make([]uint16, n)
	for i := range s {
		switch rng.IntN(32) {
		case 0:
			s[i] = 0
		case 1:
			s[i] = 0x8000
		default:
			s[i] = bf16Bits(math.Ldexp(rng.Float64()*2-1, 2-rng.IntN(6)))
		}
	}
	return s
}

// tileRef is the exact product of bfloat16 views (float64 sums of float64
// products are exact for these magnitudes and lengths up to 2^20), with the
// scale Σ|a||b| of each element.
func tileRef(m, n, k int, a, b Matrix[uint16]) (exact, scale []float64) {
	exact, scale = make([]float64, m*n), make([]float64, m*n)
	for i := range m {
		for j := range n {
			var s, e float64
			for p := range k {
				x := bf16Value(a.at(i, p)) * bf16Value(b.at(p, j))
				s += x
				e += math.Abs(x)
			}
			exact[i*n+j], scale[i*n+j] = s, e
		}
	}
	return exact, scale
}

// tileTolerance is the documented bound (docs/kernels.md) on a tile
// product's distance from the exact sum: k·2⁻²⁴·Σ|a||b|, the bound of a
// float32 sum of k products, plus k·2⁻¹²⁶ for partial sums flushed below
// float32's normal range. The widening path is within the same bound, so
// the two differ by at most twice it.
func tileTolerance(k int, scale float64) float64 {
	return float64(k)*0x1p-24*scale + float64(k)*0x1p-126
}

// TestTileKernels multiplies bfloat16 views of every layout through each
// tile kernel at every block edge (1 to 3 blocks of 32 per dimension,
// one off either side, odd and even K across one and several K blocks),
// checks each element against the exact product within tileTolerance, and
// that the guards around C stay untouched.
func TestTileKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 32))
	sides := []int{1, 16, 31, 32, 33, 63, 64, 65, 95, 96, 97}
	depths := []int{1, 2, 31, 32, 33, 64, 65, 127, 257, 300}
	for _, kern := range tileKernelsUnderTest() {
		trials := 120
		if testing.Short() || raceEnabled {
			trials = 20 // still every side once
		}
		for trial := range trials {
			m, n, k := sides[rng.IntN(len(sides))], sides[rng.IntN(len(sides))], depths[rng.IntN(len(depths))]
			if trial < len(sides) { // every side at least once, against a full block
				m, n = sides[trial], 32+trial%3
			}
			al, bl := layout(rng.IntN(int(numLayouts))), layout(rng.IntN(int(numLayouts)))
			gen := func(n int) []uint16 { return randomBF16(rng, n) }
			a, b := view(m, k, al, gen), view(k, n, bl, gen)
			ldc := n + rng.IntN(3)
			colMajorC := trial%5 == 4
			data := make([]float32, guard+m*ldc+guard)
			for i := range data {
				data[i] = float32(math.NaN()) // C is never read without accumulating
			}
			c := Matrix[float32]{data, guard, ldc, 1}
			if colMajorC {
				data = make([]float32, guard+n*(m+1)+guard)
				c = Matrix[float32]{data, guard, 1, m + 1}
			}
			for i := range guard {
				data[i], data[len(data)-1-i] = 7, 7
			}
			name := fmt.Sprintf("%s %dx%dx%d A %v B %v colMajorC %v", kern.name, m, n, k, al, bl, colMajorC)
			if !mulTiles(kern, m, n, k, a, b, c, 1+trial%3) {
				t.Fatalf("%s: reported a subnormal input", name)
			}
			exact, scale := tileRef(m, n, k, a, b)
			for i := range m {
				for j := range n {
					got := float64(c.at(i, j))
					if d := math.Abs(got - exact[i*n+j]); !(d <= tileTolerance(k, scale[i*n+j])) {
						t.Fatalf("%s: C[%d][%d] = %v, want %v within %g", name, i, j, got, exact[i*n+j], tileTolerance(k, scale[i*n+j]))
					}
				}
			}
			for i := range guard {
				if data[i] != 7 || data[len(data)-1-i] != 7 {
					t.Fatalf("%s: guard %d overwritten", name, i)
				}
			}
		}
	}
}

// TestTileKernelsSpecials puts NaN and ±Inf into the operands: every C
// element whose exact product is NaN or an infinity must be the same.
func TestTileKernelsSpecials(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 33))
	const m, n, k = 40, 70, 45
	for _, kern := range tileKernelsUnderTest() {
		for trial := range 6 {
			a, b := Matrix[uint16]{randomBF16(rng, m*k), 0, k, 1}, Matrix[uint16]{randomBF16(rng, k*n), 0, n, 1}
			for range 3 {
				specials := []uint16{0x7fc0, 0x7f80, 0xff80} // NaN, +Inf, -Inf
				if trial%2 == 0 {
					a.Data[rng.IntN(len(a.Data))] = specials[rng.IntN(3)]
				} else {
					b.Data[rng.IntN(len(b.Data))] = specials[rng.IntN(3)]
				}
			}
			c := Matrix[float32]{make([]float32, m*n), 0, n, 1}
			if !mulTiles(kern, m, n, k, a, b, c, 1) {
				t.Fatalf("%s: reported a subnormal input", kern.name)
			}
			exact, scale := tileRef(m, n, k, a, b)
			for i, want := range exact {
				got := float64(c.Data[i])
				switch {
				case math.IsNaN(want) || math.IsInf(want, 0) || math.IsInf(scale[i], 0):
					if !(math.IsNaN(want) && math.IsNaN(got)) && got != want {
						t.Fatalf("%s trial %d: element %d = %v, want %v", kern.name, trial, i, got, want)
					}
				case math.Abs(got-want) > tileTolerance(k, scale[i]):
					t.Fatalf("%s trial %d: element %d = %v, want %v", kern.name, trial, i, got, want)
				}
			}
		}
	}
}

// TestTilesRefuseSubnormals checks that a subnormal anywhere in A or B
// (each position class: first, last, inside an edge block) makes the tile
// path decline, on any thread count, and that MulHalf then gives the
// widening path's bits.
func TestTilesRefuseSubnormals(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 34))
	const m, n, k = 70, 65, 300
	for _, kern := range tileKernelsUnderTest() {
		for _, inA := range []bool{true, false} {
			for _, at := range []int{0, -1, 1 << 30} {
				a, b := Matrix[uint16]{randomBF16(rng, m*k), 0, k, 1}, Matrix[uint16]{randomBF16(rng, k*n), 0, n, 1}
				x := b.Data
				if inA {
					x = a.Data
				}
				i := at
				switch {
				case at < 0:
					i = len(x) - 1
				case at > len(x):
					i = rng.IntN(len(x))
				}
				x[i] = 0x8001 // the smallest negative subnormal
				for threads := 1; threads <= 3; threads++ {
					c := Matrix[float32]{make([]float32, m*n), 0, n, 1}
					if mulTiles(kern, m, n, k, a, b, c, threads) {
						t.Fatalf("%s: subnormal at %d of %s taken by the tiles on %d threads", kern.name, i, map[bool]string{true: "A", false: "B"}[inA], threads)
					}
				}
			}
		}
	}
	if active.bf16 == nil {
		return
	}
	a, b := Matrix[uint16]{randomBF16(rng, m*k), 0, k, 1}, Matrix[uint16]{randomBF16(rng, k*n), 0, n, 1}
	a.Data[5] = 0x0040
	got, want := Matrix[float32]{make([]float32, m*n), 0, n, 1}, Matrix[float32]{make([]float32, m*n), 0, n, 1}
	MulHalf(BFloat16, m, n, k, a, b, got, Options{Threads: 2})
	widen := newHalfJob(BFloat16, m, n, k, a, b, want)
	widen.parallel(2)
	for i := range got.Data {
		if math.Float32bits(got.Data[i]) != math.Float32bits(want.Data[i]) {
			t.Fatalf("element %d = %v, the widening path gives %v", i, got.Data[i], want.Data[i])
		}
	}
}

// TestTilesSameOnAnyThreadCount checks MulHalf's bfloat16 products bit for
// bit across thread counts, whichever path the active set takes.
func TestTilesSameOnAnyThreadCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 35))
	for _, dims := range [][3]int{{200, 300, 260}, {333, 97, 513}, {64, 1100, 40}} {
		m, n, k := dims[0], dims[1], dims[2]
		a, b := Matrix[uint16]{randomBF16(rng, m*k), 0, k, 1}, Matrix[uint16]{randomBF16(rng, k*n), 0, n, 1}
		var first []float32
		for threads := 1; threads <= 4; threads++ {
			c := Matrix[float32]{make([]float32, m*n), 0, n, 1}
			MulHalf(BFloat16, m, n, k, a, b, c, Options{Threads: threads})
			if first == nil {
				first = c.Data
				continue
			}
			for i := range first {
				if math.Float32bits(first[i]) != math.Float32bits(c.Data[i]) {
					t.Fatalf("%dx%dx%d on %d threads: element %d = %v, on one %v", m, n, k, threads, i, c.Data[i], first[i])
				}
			}
		}
	}
}

// TestTilesAgainstWidening checks the bound between the two bfloat16
// paths: the tiles' product and the widening float32 product differ by at
// most 2·tileTolerance (each is within tileTolerance of the exact sum).
func TestTilesAgainstWidening(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 36))
	const m, n, k = 96, 80, 700
	a, b := Matrix[uint16]{randomBF16(rng, m*k), 0, k, 1}, Matrix[uint16]{randomBF16(rng, k*n), 0, n, 1}
	_, scale := tileRef(m, n, k, a, b)
	want := Matrix[float32]{make([]float32, m*n), 0, n, 1}
	widen := newHalfJob(BFloat16, m, n, k, a, b, want)
	widen.parallel(1)
	for _, kern := range tileKernelsUnderTest() {
		got := Matrix[float32]{make([]float32, m*n), 0, n, 1}
		mulTiles(kern, m, n, k, a, b, got, 1)
		worst := 0.0
		for i := range got.Data {
			d := math.Abs(float64(got.Data[i]) - float64(want.Data[i]))
			if !(d <= 2*tileTolerance(k, scale[i])) {
				t.Fatalf("%s: element %d = %v, widening %v", kern.name, i, got.Data[i], want.Data[i])
			}
			worst = max(worst, d/(float64(k)*0x1p-24*scale[i]))
		}
		t.Logf("%s: largest difference %.3f·k·2⁻²⁴·Σ|a||b|", kern.name, worst)
	}
}

// TestSubnormalLanes checks the packing's subnormal test on every
// bfloat16 in every lane of a word whose other lanes are normal, zero or
// special.
func TestSubnormalLanes(t *testing.T) {
	for x := range 1 << 16 {
		want := x&0x7f80 == 0 && x&0x7f != 0
		for lane := range 4 {
			for _, other := range []uint64{0x3f80, 0, 0x8000, 0x7f80, 0xffff, 0x0080} {
				w := uint64(x) << (16 * lane)
				for l := range 4 {
					if l != lane {
						w |= other << (16 * l)
					}
				}
				if got := subnormalLanes(w) != 0; got != want {
					t.Fatalf("subnormalLanes(%#016x) = %v, want %v (bfloat16 %#04x in lane %d)", w, got, want, x, lane)
				}
			}
		}
	}
}

// TestTilePackers checks each set's packing kernels against the Go twins
// bit for bit, with guards around the output, on every count they take,
// and their subnormal report for a subnormal at each position of the
// input.
func TestTilePackers(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 37))
	const sentinel = 0x5555
	for _, kern := range tileKernelsUnderTest() {
		pk := kern.pack
		for chunks := 1; chunks <= 9; chunks++ {
			src := randomBF16(rng, chunks*tileBlock)
			out := func(copyRows tileCopyFunc, s []uint16) ([]uint16, bool) {
				d := make([]uint16, guard+chunks*tileStepElems+guard)
				for i := range d {
					d[i] = sentinel
				}
				sub := copyRows(&d[guard], &s[0], chunks)
				return d, sub
			}
			got, gotSub := out(pk.copyRows, src)
			want, wantSub := out(tileCopyGo, src)
			if gotSub || wantSub || !slices.Equal(got, want) {
				t.Fatalf("%s copyRows(%d): differs from the twin or reports a subnormal", kern.name, chunks)
			}
			for _, at := range []int{0, rng.IntN(len(src)), len(src) - 1} {
				s := append([]uint16(nil), src...)
				s[at] = 0x0001
				if _, sub := out(pk.copyRows, s); !sub {
					t.Fatalf("%s copyRows(%d): subnormal at %d not reported", kern.name, chunks, at)
				}
			}
		}
		for _, cs := range []int{tileBlock, 33, 512, -35, 0} {
			// A transposed A's step: 32 runs of 32 elements at start + p·cs.
			span := 31 * max(cs, -cs)
			src := randomBF16(rng, 2*span+tileBlock)
			start := span
			if cs > 0 {
				start = 0
			}
			out := func(cf tileCopyTFunc, s []uint16) ([]uint16, bool) {
				d := make([]uint16, guard+tileStepElems+guard)
				for i := range d {
					d[i] = sentinel
				}
				sub := cf(&d[guard], &s[start], cs)
				return d, sub
			}
			got, gotSub := out(pk.copyT, src)
			want, wantSub := out(tileCopyTGo, src)
			if gotSub || wantSub || !slices.Equal(got, want) {
				t.Fatalf("%s copyT(cs %d): differs from the twin or reports a subnormal", kern.name, cs)
			}
			for i := range tileBlock {
				for p := range tileBlock {
					if want[guard+i*tileBlock+p] != src[start+p*cs+i] {
						t.Fatalf("copyT twin: A[%d][%d] misplaced", i, p)
					}
				}
			}
			for _, p := range []int{0, 15, 16, 31} {
				for _, i := range []int{0, 15, 16, 31} {
					s := append([]uint16(nil), src...)
					s[start+p*cs+i] = 0x8070
					if _, sub := out(pk.copyT, s); !sub {
						t.Fatalf("%s copyT(cs %d): subnormal in row %d column %d not reported", kern.name, cs, i, p)
					}
				}
			}
		}
		for _, cs := range []int{tileBlock, 33, 512, -35} {
			// 32 columns of 32 elements at start + j·cs.
			span := 31 * max(cs, -cs)
			src := randomBF16(rng, 2*span+tileBlock)
			start := span
			if cs > 0 {
				start = 0
			}
			out := func(pf tilePairsTFunc, s []uint16) ([]uint16, bool) {
				d := make([]uint16, guard+tileStepElems+guard)
				for i := range d {
					d[i] = sentinel
				}
				sub := pf(&d[guard], &s[start], cs)
				return d, sub
			}
			got, gotSub := out(pk.pairsT, src)
			want, wantSub := out(tilePairsTGo, src)
			if gotSub || wantSub || !slices.Equal(got, want) {
				t.Fatalf("%s pairsT(cs %d): differs from the twin or reports a subnormal", kern.name, cs)
			}
			// The twin against the layout written out: tile row p of tile
			// j/16 holds B[2p][j], B[2p+1][j] at column j%16.
			for j := range tileBlock {
				for p := range tileBlock / 2 {
					at := guard + j/16*(tileStepElems/2) + p*tileBlock + j%16*2
					if want[at] != src[start+j*cs+2*p] || want[at+1] != src[start+j*cs+2*p+1] {
						t.Fatalf("pairsT twin: column %d pair %d misplaced", j, p)
					}
				}
			}
			for _, col := range []int{0, 15, 16, 31} {
				for _, row := range []int{0, 31} {
					s := append([]uint16(nil), src...)
					s[start+col*cs+row] = 0x0070
					if _, sub := out(pk.pairsT, s); !sub {
						t.Fatalf("%s pairsT(cs %d): subnormal in column %d row %d not reported", kern.name, cs, col, row)
					}
				}
			}
		}
		for pairs := 1; pairs <= 16; pairs++ {
			for _, rs := range []int{tileBlock, 37, -40} {
				base := 2 * pairs * max(rs, -rs)
				src := randomBF16(rng, 2*base+tileBlock)
				start := base
				out := func(pf tilePairsFunc, s []uint16) ([]uint16, bool) {
					d := make([]uint16, guard+tileStepElems+guard)
					for i := range d {
						d[i] = sentinel
					}
					sub := pf(&d[guard], &s[start], rs, pairs)
					return d, sub
				}
				got, gotSub := out(pk.pairs, src)
				want, wantSub := out(tilePairsGo, src)
				if gotSub || wantSub || !slices.Equal(got, want) {
					t.Fatalf("%s pairs(%d, rs %d): differs from the twin or reports a subnormal", kern.name, pairs, rs)
				}
				for _, at := range []int{0, 2*pairs - 1} { // first and last row read
					for _, col := range []int{0, 31} {
						s := append([]uint16(nil), src...)
						s[start+at*rs+col] = 0x8070
						if _, sub := out(pk.pairs, s); !sub {
							t.Fatalf("%s pairs(%d, rs %d): subnormal in row %d column %d not reported", kern.name, pairs, rs, at, col)
						}
					}
				}
			}
		}
	}
}

// TestTilesRounded checks the tile kernels' rounding into a bfloat16 C
// bit for bit against their float32 result rounded by
// bfloat16.FromFloat32 (what MulHalf's callers did), at every block edge,
// across one and several K blocks, for row-major C with padded rows, a
// column-major C and one with a column stride, on 1 to 3 goroutines, with
// NaN and ±Inf in some operands and guards around C.
func TestTilesRounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 38))
	sides := []int{16, 31, 32, 33, 63, 64, 65, 95, 96, 97}
	depths := []int{1, 2, 31, 32, 33, 64, 65, 127, 257, 300}
	const sentinel = 0x5555
	for _, kern := range tileKernelsUnderTest() {
		trials := 100
		if testing.Short() || raceEnabled {
			trials = 20
		}
		for trial := range trials {
			m, n, k := sides[rng.IntN(len(sides))], sides[rng.IntN(len(sides))], depths[rng.IntN(len(depths))]
			if trial < len(sides) {
				m, n = sides[trial], 32+trial%3
			}
			al, bl := layout(rng.IntN(int(numLayouts))), layout(rng.IntN(int(numLayouts)))
			gen := func(n int) []uint16 { return randomBF16(rng, n) }
			a, b := view(m, k, al, gen), view(k, n, bl, gen)
			if trial%4 == 3 {
				for _, s := range []uint16{0x7fc0, 0x7f80, 0xff80, 0x7f81} { // NaNs, ±Inf
					if rng.IntN(2) == 0 {
						a.Data[a.Off+rng.IntN(m)*a.RS+rng.IntN(k)*a.CS] = s
					} else {
						b.Data[b.Off+rng.IntN(k)*b.RS+rng.IntN(n)*b.CS] = s
					}
				}
			}
			threads := 1 + trial%3
			f32 := Matrix[float32]{make([]float32, m*n), 0, n, 1}
			if !mulTiles(kern, m, n, k, a, b, f32, threads) {
				t.Fatalf("%s: reported a subnormal input", kern.name)
			}
			var out Matrix[uint16]
			kind := trial % 3
			switch kind {
			case 0: // rows padded
				ld := n + rng.IntN(3)
				out = Matrix[uint16]{make([]uint16, guard+m*ld+guard), guard, ld, 1}
			case 1: // column-major
				out = Matrix[uint16]{make([]uint16, guard+n*(m+1)+guard), guard, 1, m + 1}
			case 2: // every other column
				out = Matrix[uint16]{make([]uint16, guard+m*2*n+guard), guard, 2 * n, 2}
			}
			for i := range out.Data {
				out.Data[i] = sentinel
			}
			var sums Matrix[float32]
			if kern.kBlocks(k) > 1 {
				sums = Matrix[float32]{make([]float32, m*n), 0, n, 1}
			}
			name := fmt.Sprintf("%s %dx%dx%d A %v B %v C kind %d threads %d", kern.name, m, n, k, al, bl, kind, threads)
			if !mulTilesTo(kern, m, n, k, a, b, sums, out, threads) {
				t.Fatalf("%s: reported a subnormal input", name)
			}
			written := map[int]bool{}
			for i := range m {
				for j := range n {
					at := out.Off + i*out.RS + j*out.CS
					written[at] = true
					want := bfloat16.FromFloat32(f32.at(i, j)).Bits()
					if got := out.Data[at]; got != want {
						t.Fatalf("%s: C[%d][%d] = %#04x, want %#04x (float32 %v)", name, i, j, got, want, f32.at(i, j))
					}
				}
			}
			for i, v := range out.Data {
				if !written[i] && v != sentinel {
					t.Fatalf("%s: element %d outside C overwritten", name, i)
				}
			}
		}
	}
}

// TestMulBF16Tiles checks the exported form on the active set: the bits
// of MulHalf's float32 result rounded, for a contiguous and a
// column-major C (computed transposed), and that it declines what the
// tiles do not take (small products, subnormal inputs).
func TestMulBF16Tiles(t *testing.T) {
	if active.bf16 == nil {
		if _, ok := BF16Tiles(256, 256, 256); ok {
			t.Fatal("BF16Tiles takes products on a set without tiles")
		}
		t.Skip("the active kernel set has no tile kernel")
	}
	rng := rand.New(rand.NewPCG(22, 39))
	if _, ok := BF16Tiles(8, 256, 256); ok {
		t.Fatal("BF16Tiles takes an 8-row product")
	}
	for _, dims := range [][3]int{{100, 70, 256}, {64, 96, 600}, {33, 200, 20}, {40, 50, 1100}} {
		m, n, k := dims[0], dims[1], dims[2]
		a, b := Matrix[uint16]{randomBF16(rng, m*k), 0, k, 1}, Matrix[uint16]{randomBF16(rng, k*n), 0, n, 1}
		np, ok := BF16Tiles(m, n, k)
		if !ok || (np > 0) != (k > active.bf16.kc) {
			t.Fatalf("%v: BF16Tiles = %d, %v", dims, np, ok)
		}
		f32 := Matrix[float32]{make([]float32, m*n), 0, n, 1}
		MulHalf(BFloat16, m, n, k, a, b, f32, Options{Threads: 2})
		for _, colMajor := range []bool{false, true} {
			c := Matrix[uint16]{make([]uint16, m*n), 0, n, 1}
			if colMajor {
				c = Matrix[uint16]{make([]uint16, m*n), 0, 1, m}
			}
			if !MulBF16Tiles(m, n, k, a, b, c, make([]float32, np), Options{Threads: 2}) {
				t.Fatalf("%v: declined", dims)
			}
			for i := range m {
				for j := range n {
					if got, want := c.at(i, j), bfloat16.FromFloat32(f32.at(i, j)).Bits(); got != want {
						t.Fatalf("%v colMajor %v: C[%d][%d] = %#04x, want %#04x", dims, colMajor, i, j, got, want)
					}
				}
			}
		}
		a.Data[rng.IntN(len(a.Data))] = 0x0003
		if MulBF16Tiles(m, n, k, a, b, Matrix[uint16]{make([]uint16, m*n), 0, n, 1}, make([]float32, np), Options{}) {
			t.Fatalf("%v: took a subnormal input", dims)
		}
	}
}

// TestMulBF16TilesBatch checks batches on the tiles against each product
// through MulHalf rounded, bit for bit: fewer products than goroutines and
// more, B broadcast (one offset for all), and that a subnormal in one
// product declines the batch.
func TestMulBF16TilesBatch(t *testing.T) {
	if _, ok := BF16Tiles(64, 64, 64); !ok {
		t.Skip("the active kernel set has no tile kernel")
	}
	rng := rand.New(rand.NewPCG(24, 41))
	const m, n, k = 48, 40, 70
	for _, batch := range []int{2, 9} {
		for _, bcast := range []bool{false, true} {
			a := Matrix[uint16]{randomBF16(rng, batch*m*k), 0, k, 1}
			b := Matrix[uint16]{randomBF16(rng, batch*k*n), 0, n, 1}
			c := Matrix[uint16]{make([]uint16, batch*m*n), 0, n, 1}
			aOffs, bOffs, cOffs := make([]int, batch), make([]int, batch), make([]int, batch)
			for i := range batch {
				aOffs[i], bOffs[i], cOffs[i] = i*m*k, i*k*n, i*m*n
				if bcast {
					bOffs[i] = 0
				}
			}
			if !MulBF16TilesBatch(batch, m, n, k, a, b, c, aOffs, bOffs, cOffs, Options{Threads: 4}) {
				t.Fatalf("batch %d: declined", batch)
			}
			for i := range batch {
				f32 := Matrix[float32]{make([]float32, m*n), 0, n, 1}
				MulHalf(BFloat16, m, n, k, a.withOff(aOffs[i]), b.withOff(bOffs[i]), f32, Options{Threads: 1})
				for e, v := range f32.Data {
					if got, want := c.Data[cOffs[i]+e], bfloat16.FromFloat32(v).Bits(); got != want {
						t.Fatalf("batch %d broadcast %v: product %d element %d = %#04x, want %#04x", batch, bcast, i, e, got, want)
					}
				}
			}
			a.Data[aOffs[batch-1]+rng.IntN(m*k)] = 0x8002
			if MulBF16TilesBatch(batch, m, n, k, a, b, c, aOffs, bOffs, cOffs, Options{Threads: 4}) {
				t.Fatalf("batch %d: took a subnormal in its last product", batch)
			}
		}
	}
	if MulBF16TilesBatch(2, 64, 64, 1100, Matrix[uint16]{}, Matrix[uint16]{}, Matrix[uint16]{}, nil, nil, nil, Options{}) {
		t.Fatal("a batch whose K is several blocks was taken")
	}
}

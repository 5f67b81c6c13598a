package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tensor-go/tensor/bfloat16"
)

// dpKernelsUnderTest lists the dot-product kernel of the active set, if it
// has one, and the Go twin, both blocked over K as the active set's
// float32 kernel is, so that both must give the widening path's bits.
func dpKernelsUnderTest() []*tileKernel {
	var ks []*tileKernel
	if k := dpAsmKernel; k != nil && k.kc == active.f32.kc {
		// Built on the avx512 set's float32 K block: under a lower set
		// (another kc) its bits are not that set's.
		ks = append(ks, k)
	}
	return append(ks, newDPKernel("dp-go", active.f32.kc, dpStripGo, dpPrepareGo, tilePackersGo, 2*avx512MinFlopsPerThread))
}

// wideBF16 returns n bfloat16 over the whole range the dot-product
// kernels take: magnitudes from 2⁻⁵⁶ (the smallest they take) to 2⁶⁰ (so
// that sums overflow), zeros of both signs, and with special set NaN and
// ±Inf too.
func wideBF16(rng *rand.Rand, n int, special bool) []uint16 {
	s := make([]uint16, n)
	for i := range s {
		switch r := rng.IntN(40); {
		case r == 0:
			s[i] = 0x8000
		case r == 1:
			s[i] = 0
		case r == 2 && special:
			s[i] = []uint16{0x7fc0, 0xffc1, 0x7f80, 0xff80}[rng.IntN(4)]
		case r < 12:
			// Exponent 2⁻⁵⁶: products whose sums cancel down to 2⁻¹²⁶.
			s[i] = uint16(rng.IntN(2))<<15 | 71<<7 | uint16(rng.IntN(128))
		default:
			s[i] = uint16(rng.IntN(2))<<15 | uint16(71+rng.IntN(117))<<7 | uint16(rng.IntN(128))
		}
	}
	return s
}

// sameFloat32 reports whether x and y are the same bits, or both NaN.
func sameFloat32(x, y float32) bool {
	return math.Float32bits(x) == math.Float32bits(y) || (x != x && y != y)
}

// TestDPSameBitsAsWidening checks that the dot-product kernels (and their
// twin) give the widening float32 path's bits, as sums in float32 and
// rounded to bfloat16, at every block edge (32-element blocks, K blocks of
// the float32 kernel, one off either side), in every layout, on one to
// three goroutines, with C inside guards, over magnitudes whose products
// cancel down to the smallest normal float32, with NaN, ±Inf and −0.
func TestDPSameBitsAsWidening(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	kc := active.f32.kc
	sides := []int{16, 31, 32, 33, 63, 64, 65, 97, 130}
	depths := []int{1, 2, 3, 31, 32, 33, 64, 65, kc - 1, kc, kc + 1, 2*kc + 3, 1000}
	const sentinel = 0x5555
	for _, kern := range dpKernelsUnderTest() {
		trials := 120
		if quick() {
			trials = 25
		}
		for trial := range trials {
			m, n, k := sides[rng.IntN(len(sides))], sides[rng.IntN(len(sides))], depths[trial%len(depths)]
			al, bl := layout(rng.IntN(int(numLayouts))), layout(rng.IntN(int(numLayouts)))
			special := trial%3 == 2
			gen := func(n int) []uint16 { return wideBF16(rng, n, special) }
			if trial%5 == 4 {
				gen = func(n int) []uint16 { return randomBF16(rng, n) }
			}
			a, b := view(m, k, al, gen), view(k, n, bl, gen)
			threads := 1 + trial%3
			name := fmt.Sprintf("%s %dx%dx%d A %v B %v threads %d", kern.name, m, n, k, al, bl, threads)

			want := Matrix[float32]{make([]float32, m*n), 0, n, 1}
			widen := newHalfJob(BFloat16, m, n, k, a, b, want)
			widen.parallel(threads)

			ld := n + 1 + rng.IntN(3)
			got := Matrix[float32]{make([]float32, guard+m*ld+guard), guard, ld, 1}
			for i := range got.Data {
				got.Data[i] = math.Float32frombits(0x7fc05555)
			}
			if !mulTiles(kern, m, n, k, a, b, got, threads) {
				t.Fatalf("%s: refused operands of at least 2⁻⁵⁶", name)
			}
			for i := range m {
				for j := range n {
					if g, w := got.at(i, j), want.at(i, j); !sameFloat32(g, w) {
						t.Fatalf("%s: C[%d][%d] = %v (%#08x), widening %v (%#08x)", name, i, j, g, math.Float32bits(g), w, math.Float32bits(w))
					}
				}
			}
			checkGuards(t, name, got.Data, ld, n, m)

			out := Matrix[uint16]{make([]uint16, guard+m*ld+guard), guard, ld, 1}
			for i := range out.Data {
				out.Data[i] = sentinel
			}
			var sums Matrix[float32]
			if kern.kBlocks(k) > 1 {
				sums = Matrix[float32]{make([]float32, m*n), 0, n, 1}
			}
			if !mulTilesTo(kern, m, n, k, a, b, sums, out, threads) {
				t.Fatalf("%s: rounded product refused operands of at least 2⁻⁵⁶", name)
			}
			for i := range m {
				for j := range n {
					w := bfloat16.FromFloat32(want.at(i, j)).Bits()
					g := out.Data[out.Off+i*out.RS+j]
					if g != w && !(g&0x7fff > 0x7f80 && w&0x7fff > 0x7f80) {
						t.Fatalf("%s: rounded C[%d][%d] = %#04x, want %#04x", name, i, j, g, w)
					}
				}
			}
			for i, v := range out.Data {
				inC := i >= guard && i < guard+m*ld && (i-guard)%ld < n
				if !inC && v != sentinel {
					t.Fatalf("%s: rounded element %d outside C overwritten", name, i)
				}
			}
		}
	}
}

// checkGuards fails when an element of data outside the rows×cols C at
// guard with row stride ld is not the NaN it was filled with.
func checkGuards(t *testing.T, name string, data []float32, ld, cols, rows int) {
	t.Helper()
	for i, v := range data {
		inC := i >= guard && i < guard+rows*ld && (i-guard)%ld < cols
		if !inC && math.Float32bits(v) != 0x7fc05555 {
			t.Fatalf("%s: element %d outside C overwritten", name, i)
		}
	}
}

// TestDPRefusesTiny checks that a product with one element below 2⁻⁵⁶
// (which VDPBF16PS could flush: a subnormal sum) anywhere in A or B is
// refused, and that 2⁻⁵⁶ itself is taken.
func TestDPRefusesTiny(t *testing.T) {
	const m, n, k = 64, 64, 80
	for _, kern := range dpKernelsUnderTest() {
		for _, inA := range []bool{true, false} {
			for _, at := range []int{0, 17, m*k - 1} {
				for _, v := range []uint16{70 << 7, 0x8000 | 70<<7 | 0x7f, 1, 0x8001, 71 << 7, 0x8000 | 71<<7} {
					rng := rand.New(rand.NewPCG(53, uint64(at)))
					a := Matrix[uint16]{randomBF16(rng, m*k), 0, k, 1}
					b := Matrix[uint16]{randomBF16(rng, k*n), 0, n, 1}
					if inA {
						a.Data[at] = v
					} else {
						b.Data[at] = v
					}
					c := Matrix[float32]{make([]float32, m*n), 0, n, 1}
					got := mulTiles(kern, m, n, k, a, b, c, 2)
					if want := v&0x7fff >= 71<<7; got != want {
						t.Errorf("%s: %#04x at %d (A %v): taken %v, want %v", kern.name, v, at, inA, got, want)
					}
				}
			}
		}
	}
}

// TestDPPrepare checks the prepare kernel against its twin on every
// bfloat16 (the swapped pairs and the verdict), and the verdict on each
// value alone among zeros.
func TestDPPrepare(t *testing.T) {
	kerns := []func([]uint16) bool{dpPrepareGo}
	if active.bf16 != nil && active.bf16.prepare != nil {
		kerns = append(kerns, active.bf16.prepare)
	}
	all := make([]uint16, 1<<16)
	for i := range all {
		all[i] = uint16(i)
	}
	for ki, prep := range kerns {
		p := append([]uint16(nil), all...)
		if !prep(p) {
			t.Fatalf("kernel %d: no tiny value among all bfloat16", ki)
		}
		for i := 0; i < len(p); i += 2 {
			if p[i] != all[i+1] || p[i+1] != all[i] {
				t.Fatalf("kernel %d: pair %d = %#04x %#04x, want it swapped", ki, i/2, p[i], p[i+1])
			}
		}
		var one [tileBlock]uint16
		for v := range 1 << 16 {
			at := v % tileBlock
			one = [tileBlock]uint16{}
			one[at] = uint16(v)
			want := v&0x7fff != 0 && v&0x7fff < 71<<7
			if got := prep(one[:]); got != want {
				t.Fatalf("kernel %d: %#04x in lane %d: tiny %v, want %v", ki, v, at, got, want)
			}
			if one[at^1] != uint16(v) {
				t.Fatalf("kernel %d: %#04x in lane %d not swapped", ki, v, at)
			}
		}
	}
}

// TestDPMinSide checks that the dot-product kernels leave products with
// fewer than 32 rows or columns (all edge blocks) to the widening path and
// take 32.
func TestDPMinSide(t *testing.T) {
	for _, kern := range dpKernelsUnderTest() {
		for _, c := range []struct {
			m, n, k int
			want    bool
		}{{24, 24, 24, false}, {31, 64, 64, false}, {64, 31, 64, false}, {32, 32, 32, true}, {32, 32, 14, true}} {
			if got := useTiles(kern, c.m, c.n, c.k); got != c.want {
				t.Errorf("%s: %dx%dx%d taken %v, want %v", kern.name, c.m, c.n, c.k, got, c.want)
			}
		}
	}
}

package gemm

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// packAWant and packBWant are the sliver layouts of packA and packB written
// out element by element (zero past the last row or column).
func packAWant[T Elem](a Matrix[T], i0, mc, p0, kc, mr int) []T {
	want := make([]T, roundUp(mc, mr)*kc)
	for s := 0; s*mr < mc; s++ {
		for p := 0; p < kc; p++ {
			for r := 0; r < mr && s*mr+r < mc; r++ {
				want[s*kc*mr+p*mr+r] = a.at(i0+s*mr+r, p0+p)
			}
		}
	}
	return want
}

func packBWant[T Elem](b Matrix[T], p0, kc, j0, nc, nr int) []T {
	want := make([]T, roundUp(nc, nr)*kc)
	for s := 0; s*nr < nc; s++ {
		for p := 0; p < kc; p++ {
			for j := 0; j < nr && s*nr+j < nc; j++ {
				want[s*kc*nr+p*nr+j] = b.at(p0+p, j0+s*nr+j)
			}
		}
	}
	return want
}

// checkPacked fills a destination with sentinels and guards, packs into it
// and compares it with want, guards included.
func checkPacked[T Elem](t *testing.T, what string, want []T, pack func(dst []T)) {
	t.Helper()
	buf := make([]T, len(want)+2*guard)
	for i := range buf {
		buf[i] = sentinel[T]()
	}
	pack(buf[guard : guard+len(want)])
	for i, v := range buf {
		switch {
		case i < guard || i >= guard+len(want):
			if v != sentinel[T]() {
				t.Fatalf("%s: guard element %d overwritten", what, i)
			}
		case !sameBits(v, want[i-guard]):
			t.Fatalf("%s: packed element %d is %v, want %v", what, i-guard, v, want[i-guard])
		}
	}
}

// testPack packs blocks of every layout of an r×c operand with the tiles
// of the kernels (and the widths packColumnsFast copies), at K lengths
// across packTransposed's blocks, full and partial slivers, at offsets
// inside the operand.
func testPack[T Elem](t *testing.T, rng *rand.Rand) {
	gen := func(n int) []T { return fill[T](rng, n, true) }
	for _, tile := range []int{3, 4, 6, 8, 12, 16, 32} {
		for l := range numLayouts {
			for _, kc := range []int{1, 7, 8, 9, 16, 17, 25} {
				for _, edge := range []int{0, 1, tile - 1} {
					mn := 2*tile + edge
					// A is (1+mn)×(2+kc), B (2+kc)×(1+mn), packed from (1, 2).
					a := view(1+mn, 2+kc, l, gen)
					name := fmt.Sprintf("tile %d %v kc %d rows %d", tile, l, kc, mn)
					checkPacked(t, "packA "+name, packAWant(a, 1, mn, 2, kc, tile), func(dst []T) { packA(dst, a, 1, mn, 2, kc, tile) })
					b := view(2+kc, 1+mn, l, gen)
					checkPacked(t, "packB "+name, packBWant(b, 2, kc, 1, mn, tile), func(dst []T) { packB(dst, b, 2, kc, 1, mn, tile) })
				}
			}
		}
	}
}

// TestPack checks packA and packB against their layouts written out, for
// every operand layout (the transposed ones take packColumnsFast and
// packTransposed) and element size.
func TestPack(t *testing.T) {
	rng := rand.New(rand.NewPCG(50, 51))
	t.Run("f32", func(t *testing.T) { testPack[float32](t, rng) })
	t.Run("f64", func(t *testing.T) { testPack[float64](t, rng) })
	t.Run("i32", func(t *testing.T) { testPack[int32](t, rng) })
	t.Run("i64", func(t *testing.T) { testPack[int64](t, rng) })
}

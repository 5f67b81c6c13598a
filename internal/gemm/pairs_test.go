package gemm

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// pairsKernels lists the distinct kernels of int16 pairs of the sets this
// machine runs, and the Go twin.
func pairsKernels() []*kernel[int32] {
	ks := []*kernel[int32]{goKernelPairs}
	for _, v := range kernelSets.Variants() {
		if v.K.pairs16 != nil {
			ks = appendNew(ks, v.K.pairs16)
		}
	}
	return ks
}

// microPairsRef is microRef with dot2 for the products: the loop every
// pairs kernel is checked against.
func microPairsRef(mr, nr int) microKernel[int32] {
	return func(k int, a, b, c *int32, ldc int, accumulate bool) {
		ap, bp := unsafe.Slice(a, k*mr), unsafe.Slice(b, k*nr)
		for i := range mr {
			row := unsafe.Slice((*int32)(unsafe.Add(unsafe.Pointer(c), i*ldc*4)), nr)
			for j := range nr {
				var sum int32
				for p := range k {
					sum += dot2(ap[p*mr+i], bp[p*nr+j])
				}
				if accumulate {
					sum = row[j] + sum
				}
				row[j] = sum
			}
		}
	}
}

// rowAOf is the in-place-A form of micro: it packs the mr rows of A into
// a sliver first.
func rowAOf(micro microKernel[int32], mr int) microKernelRowA[int32] {
	return func(k int, a, b, c *int32, ldc, lda int, accumulate bool) {
		sliver := make([]int32, k*mr+1)
		for i := range mr {
			row := unsafe.Slice((*int32)(unsafe.Add(unsafe.Pointer(a), i*lda*4)), k)
			for p, v := range row {
				sliver[p*mr+i] = v
			}
		}
		micro(k, &sliver[0], b, c, ldc, accumulate)
	}
}

// TestDot2 checks the lane model at the ends of int16's range: every
// product exact, the sum of two 2^30 wrapping.
func TestDot2(t *testing.T) {
	for _, c := range []struct {
		a0, a1, b0, b1 int16
		want           int32
	}{
		{1, 2, 3, 4, 11},
		{-1, -1, -1, -1, 2},
		{-32768, 0, -32768, 5, 1 << 30},
		{-32768, -32768, -32768, -32768, -1 << 31}, // 2^31 wraps
		{32767, -32768, 32767, 32767, 32767*32767 - 32768*32767},
	} {
		if got := dot2(pair[int16](c.a0, c.a1), pair[int16](c.b0, c.b1)); got != c.want {
			t.Errorf("dot2(%d %d, %d %d) = %d, want %d", c.a0, c.a1, c.b0, c.b1, got, c.want)
		}
	}
}

// TestPairsKernels runs every pairs kernel against the reference at every
// K from 0 to past three unrolls, with guard regions around C, for packed
// and in-place A (twelve and four rows).
func TestPairsKernels(t *testing.T) {
	for _, k := range pairsKernels() {
		checkKernelTwin(t, k, microPairsRef(k.mr, k.nr))
		if k.microRowA != nil {
			checkRowATwin(t, k.name, k.microRowA, k.mr, k.nr, rowAOf(microPairsRef(k.mr, k.nr), k.mr))
		}
		if k.microRowA4 != nil {
			checkRowATwin(t, k.name+"/4-row", k.microRowA4, 4, k.nr, rowAOf(microPairsRef(4, k.nr), 4))
		}
	}
}

// randomInt16 returns n int16 over the whole range, a few of them at its
// ends.
func randomInt16(rng *rand.Rand, n int) []int16 {
	s := make([]int16, n)
	for i := range s {
		switch rng.IntN(8) {
		case 0:
			s[i] = -32768
		case 1:
			s[i] = 32767
		default:
			s[i] = int16(rng.Uint32())
		}
	}
	return s
}

// widened is x's elements as int32 in a matrix of the same layout.
func widened[T Narrow](x Matrix[T]) Matrix[int32] {
	d := make([]int32, len(x.Data))
	for i, v := range x.Data {
		d[i] = int32(v)
	}
	return Matrix[int32]{d, x.Off, x.RS, x.CS}
}

// TestMulInt16 checks MulNarrow's products of int16 on each pairs kernel against
// Mul[int32] on the widened operands, bit for bit: sizes from one to three
// tiles and blocks in every dimension, odd and even K, row-major,
// transposed and strided operands, one and two goroutines, with the
// elements of C around its view left alone.
func TestMulInt16(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	sizes := [][3]int{{16, 16, 2}, {16, 16, 3}, {12, 32, 64}, {13, 33, 65}, {24, 64, 7}, {25, 65, 100}, {36, 96, 33},
		{47, 17, 129}, {100, 100, 100}, {144, 640, 769}, {145, 641, 770}, {17, 1300, 31}, {300, 20, 800}}
	for _, kern := range pairsKernels() {
		for _, s := range sizes {
			m, n, k := s[0], s[1], s[2]
			for _, lay := range []string{"ab", "aTb", "abT", "strided"} {
				a := Matrix[int16]{randomInt16(rng, m*k), 0, k, 1}
				b := Matrix[int16]{randomInt16(rng, k*n), 0, n, 1}
				switch lay {
				case "aTb":
					a = Matrix[int16]{randomInt16(rng, m*k), 0, 1, m}
				case "abT":
					b = Matrix[int16]{randomInt16(rng, k*n), 0, 1, k}
				case "strided":
					a = Matrix[int16]{randomInt16(rng, m*(k+3)+1), 1, k + 3, 1}
					b = Matrix[int16]{randomInt16(rng, 2*k*n), 0, 2 * n, 2}
				}
				want := Matrix[int32]{make([]int32, m*n), 0, n, 1}
				Mul(m, n, k, widened(a), widened(b), want, Options{Threads: 1})
				for _, threads := range []int{1, 2} {
					t.Run(fmt.Sprintf("%s/%dx%dx%d/%s/t%d", kern.name, m, n, k, lay, threads), func(t *testing.T) {
						ldc := n + 5
						data := make([]int32, guard+m*ldc+guard)
						for i := range data {
							data[i] = 12345
						}
						c := Matrix[int32]{data, guard, ldc, 1}
						mulPairs(kern, m, n, k, a, b, c, Options{Threads: threads})
						for i := range data {
							r, col := (i-guard)/ldc, (i-guard)%ldc
							inside := i >= guard && r < m && col < n
							if !inside {
								if data[i] != 12345 {
									t.Fatalf("element %d outside C changed to %d", i, data[i])
								}
								continue
							}
							if got, w := data[i], want.Data[r*n+col]; got != w {
								t.Fatalf("C[%d][%d] = %d, want %d", r, col, got, w)
							}
						}
					})
				}
			}
		}
	}
}

// TestMulInt16Declines checks that MulNarrow leaves C alone and reports
// false for the products it does not take (small ones, and any where the
// active set has no pairs kernel).
func TestMulInt16Declines(t *testing.T) {
	for _, s := range [][3]int{{8, 8, 8}, {1, 100, 100}, {100, 1, 100}, {100, 100, 1}, {15, 100, 100}} {
		m, n, k := s[0], s[1], s[2]
		c := Matrix[int32]{make([]int32, m*n), 0, n, 1}
		for i := range c.Data {
			c.Data[i] = 7
		}
		a, b := Matrix[int16]{make([]int16, m*k), 0, k, 1}, Matrix[int16]{make([]int16, k*n), 0, n, 1}
		if MulNarrow(m, n, k, a, b, c, Options{}) {
			t.Fatalf("%v: MulNarrow took a product below its bounds", s)
		}
		for _, v := range c.Data {
			if v != 7 {
				t.Fatalf("%v: MulNarrow declined but wrote C", s)
			}
		}
	}
	if got, want := Int16Pairs(256, 256, 256), active.pairs16 != nil; got != want {
		t.Errorf("Int16Pairs(256³) = %v with pairs kernel %v", got, active.pairs16 != nil)
	}
}

// BenchmarkMulInt16 times products of int16 through the pairs (MulNarrow,
// rewriting A and B included) beside Mul[int32] on the widened operands,
// in one run since the machine is shared; the rate counts the product's
// own 2·m·n·k operations.
func BenchmarkMulInt16(b *testing.B) {
	if active.pairs16 == nil {
		b.Skip("no pairs kernel in the active set")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, size := range []int{32, 64, 100, 256, 1024} {
		m, n, k := size, size, size
		a, bb := Matrix[int16]{randomInt16(rng, m*k), 0, k, 1}, Matrix[int16]{randomInt16(rng, k*n), 0, n, 1}
		a32, b32 := widened(a), widened(bb)
		c := Matrix[int32]{make([]int32, m*n), 0, n, 1}
		for _, path := range []string{"pairs", "int32"} {
			for _, threads := range []int{1, 2} {
				b.Run(fmt.Sprintf("%d/%s/t%d", size, path, threads), func(b *testing.B) {
					cpu := cpuSeconds()
					for b.Loop() {
						if path == "pairs" {
							MulNarrow(m, n, k, a, bb, c, Options{Threads: threads})
						} else {
							Mul(m, n, k, a32, b32, c, Options{Threads: threads})
						}
					}
					reportFlops(b, 2*float64(m)*float64(n)*float64(k), cpu)
				})
			}
		}
	}
}

// TestMulNarrowTypes checks MulNarrow with int8 and uint8 operands, mixed
// and alike, odd and even K, against Mul[int32] on the widened operands.
func TestMulNarrowTypes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, kern := range pairsKernels() {
		for _, s := range [][3]int{{16, 16, 16}, {37, 45, 63}, {64, 64, 64}, {100, 130, 257}} {
			m, n, k := s[0], s[1], s[2]
			i8 := func(n int) []int8 {
				v := make([]int8, n)
				for i := range v {
					v[i] = int8(rng.Uint32())
				}
				return v
			}
			u8 := func(n int) []uint8 {
				v := make([]uint8, n)
				for i := range v {
					v[i] = uint8(rng.Uint32())
				}
				return v
			}
			a8, b8 := Matrix[int8]{i8(m * k), 0, k, 1}, Matrix[int8]{i8(k * n), 0, n, 1}
			au, bu := Matrix[uint8]{u8(m * k), 0, k, 1}, Matrix[uint8]{u8(k * n), 0, 1, k} // B transposed
			check := func(name string, run func(c Matrix[int32]), want Matrix[int32]) {
				c := Matrix[int32]{make([]int32, m*n), 0, n, 1}
				run(c)
				for i := range c.Data {
					if c.Data[i] != want.Data[i] {
						t.Fatalf("%s %s %v: element %d = %d, want %d", kern.name, name, s, i, c.Data[i], want.Data[i])
					}
				}
			}
			ref := func(a, b Matrix[int32]) Matrix[int32] {
				c := Matrix[int32]{make([]int32, m*n), 0, n, 1}
				Mul(m, n, k, a, b, c, Options{Threads: 1})
				return c
			}
			check("int8", func(c Matrix[int32]) { mulPairs(kern, m, n, k, a8, b8, c, Options{}) }, ref(widened(a8), widened(b8)))
			check("uint8", func(c Matrix[int32]) { mulPairs(kern, m, n, k, au, bu, c, Options{}) }, ref(widened(au), widened(bu)))
			check("int8·uint8", func(c Matrix[int32]) { mulPairs(kern, m, n, k, a8, bu, c, Options{}) }, ref(widened(a8), widened(bu)))
			bur := Matrix[uint8]{u8(k * n), 0, n, 1}
			check("uint8 row-major", func(c Matrix[int32]) { mulPairs(kern, m, n, k, au, bur, c, Options{}) }, ref(widened(au), widened(bur)))
			a8s := Matrix[int8]{i8(m*(k+5) + 3), 3, k + 5, 1} // rows not 4-byte aligned
			check("int8 strided", func(c Matrix[int32]) { mulPairs(kern, m, n, k, a8s, b8, c, Options{}) }, ref(widened(a8s), widened(b8)))
		}
	}
}

// TestPairBytes checks the byte rewrites against pair, element by element,
// for every length up to past two words, signed and not.
func TestPairBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for n := 0; n <= 19; n++ {
		lo, hi := make([]byte, n), make([]byte, n)
		for i := range lo {
			lo[i], hi[i] = byte(rng.Uint32()), byte(rng.Uint32())
		}
		if n > 0 {
			lo[0] = 0x80 // the sign bit alone
		}
		for _, signed := range []bool{false, true} {
			as := func(b byte) int16 {
				if signed {
					return int16(int8(b))
				}
				return int16(b)
			}
			rows := make([]int32, (n+1)/2)
			pairBytes(rows, lo, signed)
			for p := range rows {
				var h int16
				if 2*p+1 < n {
					h = as(lo[2*p+1])
				}
				if want := pair(as(lo[2*p]), h); rows[p] != want {
					t.Fatalf("pairBytes n=%d signed=%v: lane %d = %#x, want %#x", n, signed, p, rows[p], want)
				}
			}
			cols := make([]int32, n)
			interleaveBytes(cols, lo, hi, signed)
			for j := range cols {
				if want := pair(as(lo[j]), as(hi[j])); cols[j] != want {
					t.Fatalf("interleaveBytes n=%d signed=%v: lane %d = %#x, want %#x", n, signed, j, cols[j], want)
				}
			}
		}
	}
}

// TestPairBytesSets checks every set's byte rewrites against the Go ones,
// for every length from 0 to past three vectors, with guard lanes after
// the output that must stay.
func TestPairBytesSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, v := range kernelSets.Variants() {
		for n := 0; n <= 3*32+5; n++ {
			lo, hi := make([]byte, n), make([]byte, n)
			for i := range lo {
				lo[i], hi[i] = byte(rng.Uint32()), byte(rng.Uint32())
			}
			for _, signed := range []bool{false, true} {
				run := func(f func([]int32, []int32)) ([]int32, []int32) {
					rows, cols := make([]int32, (n+1)/2+guard), make([]int32, n+guard)
					for i := range rows {
						rows[i] = 12345
					}
					for i := range cols {
						cols[i] = 12345
					}
					f(rows, cols)
					return rows, cols
				}
				wr, wc := run(func(r, c []int32) {
					pairBytes(r[:(n+1)/2], lo, signed)
					interleaveBytes(c[:n], lo, hi, signed)
				})
				gr, gc := run(func(r, c []int32) {
					v.K.pairBytes(r[:(n+1)/2], lo, signed)
					v.K.interleaveBytes(c[:n], lo, hi, signed)
				})
				if !slices.Equal(gr, wr) || !slices.Equal(gc, wc) {
					t.Fatalf("%s n=%d signed=%v: rows %v cols %v, want %v %v", v.Name(), n, signed, gr, gc, wr, wc)
				}
			}
		}
	}
}

package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestRoundTF32(t *testing.T) {
	bits := math.Float32frombits
	for _, tc := range []struct{ in, want uint32 }{
		{0x3f800000, 0x3f800000}, // 1 is exact
		{0x3f801000, 0x3f800000}, // exactly half an ulp above 1: tie to even (down)
		{0x3f803000, 0x3f804000}, // 1 + 1.5 ulp: tie to even (up)
		{0x3f801001, 0x3f802000}, // just above half: up
		{0x3f800fff, 0x3f800000}, // just below half: down
		{0xbf801001, 0xbf802000}, // negative values round symmetrically
		{0x7f7fffff, 0x7f800000}, // max float32 rounds past TF32's max to +Inf
		{0x7f7fe000, 0x7f7fe000}, // TF32's max is exact
		{0x7f800000, 0x7f800000}, // +Inf kept
		{0xff800000, 0xff800000}, // -Inf kept
		{0x7fc00001, 0x7fc00001}, // NaN kept, payload and all
		{0x7f800001, 0x7f800001}, // signalling NaN not turned into Inf
		{0x80000000, 0x80000000}, // -0 kept
		{0x00001000, 0x00000000}, // subnormal tie to even
		{0x00003000, 0x00004000},
	} {
		if got := math.Float32bits(roundTF32(bits(tc.in))); got != tc.want {
			t.Errorf("roundTF32(%#08x) = %#08x, want %#08x", tc.in, got, tc.want)
		}
	}
}

// TestMulTF32 checks that Options.TF32 gives exactly Mul on operands rounded
// to TF32 beforehand.
func TestMulTF32(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 23))
	for trial := range 30 {
		m, n, k := 1+rng.IntN(50), 2+rng.IntN(80), rng.IntN(60)
		switch trial {
		case 0:
			m, n, k = 200, 150, 500
		case 1:
			m = 1
		case 2:
			n = 1
		case 3:
			n = 5
		}
		gen := func(n int) []float32 { return fill[float32](rng, n, false) }
		a, b := view(m, k, layout(rng.IntN(int(numLayouts))), gen), view(k, n, layout(rng.IntN(int(numLayouts))), gen)
		ar := Matrix[float32]{append([]float32(nil), a.Data...), a.Off, a.RS, a.CS}
		br := Matrix[float32]{append([]float32(nil), b.Data...), b.Off, b.RS, b.CS}
		roundTF32Slice(ar.Data)
		roundTF32Slice(br.Data)
		got := Matrix[float32]{make([]float32, m*n), 0, n, 1}
		want := Matrix[float32]{make([]float32, m*n), 0, n, 1}
		Mul(m, n, k, a, b, got, Options{TF32: true, Threads: 2})
		Mul(m, n, k, ar, br, want, Options{Threads: 1})
		for i := range got.Data {
			if math.Float32bits(got.Data[i]) != math.Float32bits(want.Data[i]) {
				t.Fatalf("%dx%dx%d: element %d = %v, want %v", m, n, k, i, got.Data[i], want.Data[i])
			}
		}
	}
}

// TestMulBatchTF32 checks that a batch of TF32 products that is not one
// stacked product (each product its own B) gives each product the bits it
// gets alone, small and blocked shapes alike.
func TestMulBatchTF32(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 25))
	for _, sz := range [][3]int{{20, 30, 70}, {3, 5, 7}, {40, 64, 100}} {
		const batch = 6
		m, n, k := sz[0], sz[1], sz[2]
		a := Matrix[float32]{fill[float32](rng, batch*m*k, false), 0, k, 1}
		b := Matrix[float32]{fill[float32](rng, batch*k*n, false), 0, n, 1}
		got := Matrix[float32]{make([]float32, batch*m*n), 0, n, 1}
		aOffs, bOffs, cOffs := make([]int, batch), make([]int, batch), make([]int, batch)
		for i := range batch {
			aOffs[i], bOffs[i], cOffs[i] = i*m*k, i*k*n, i*m*n
		}
		opt := Options{TF32: true, Threads: 2}
		MulBatch(batch, m, n, k, a, b, got, aOffs, bOffs, cOffs, opt)
		for i := range batch {
			want := Matrix[float32]{make([]float32, m*n), 0, n, 1}
			Mul(m, n, k, a.withOff(aOffs[i]), b.withOff(bOffs[i]), want, opt)
			for j, v := range want.Data {
				if g := got.Data[cOffs[i]+j]; math.Float32bits(g) != math.Float32bits(v) {
					t.Fatalf("%v product %d element %d = %v, alone %v", sz, i, j, g, v)
				}
			}
		}
	}
}

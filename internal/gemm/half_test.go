package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestF16ToF32 checks the Go conversion of every float16 against the value
// computed from its fields in float64, and the dispatched (F16C) conversion
// against the Go twin bit for bit, with guards after the output.
func TestF16ToF32(t *testing.T) {
	src := make([]uint16, 1<<16)
	for i := range src {
		src[i] = uint16(i)
		h := uint16(i)
		exp, mant := int(h>>10&0x1f), float64(h&0x3ff)
		var want float64
		switch {
		case exp == 0x1f && mant != 0:
			want = math.NaN()
		case exp == 0x1f:
			want = math.Inf(1)
		case exp == 0:
			want = math.Ldexp(mant, -24)
		default:
			want = math.Ldexp(1+mant/1024, exp-15)
		}
		if h>>15 == 1 {
			want = -want
		}
		got := f16ToF32(h)
		if !(float64(got) == want && math.Signbit(float64(got)) == math.Signbit(want) || math.IsNaN(want) && got != got) {
			t.Fatalf("f16ToF32(%#04x) = %v, want %v", h, got, want)
		}
	}
	for _, n := range []int{0, 1, 31, 32, 33, 95, 1 << 16} {
		for off := 0; off < 8; off += 3 {
			s := src[off:min(off+n, len(src))]
			got := make([]float32, len(s)+guard)
			want := make([]float32, len(s)+guard)
			for i := range got {
				got[i], want[i] = 7, 7
			}
			active.f16ToF32s(got[:len(s)], s)
			f16ToF32sGo(want[:len(s)], s)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("n=%d off=%d: element %d = %#x, Go twin %#x", n, off, i, math.Float32bits(got[i]), math.Float32bits(want[i]))
				}
			}
		}
	}
}

// mulBlocked is mul through the blocked loops only, as MulHalf computes
// every product (mul sends vectors and small products elsewhere, summing
// in other orders).
func mulBlocked[T Elem](kern *kernel[T], m, n, k int, a, b, c Matrix[T], opt Options) {
	if c.CS != 1 && c.RS == 1 {
		m, n, a, b, c = n, m, b.transpose(), a.transpose(), c.transpose()
	}
	j := newJob(kern, m, n, k, a, b, c)
	j.parallel(opt.threads())
}

// TestMulHalf checks MulHalf against Mul on operands converted beforehand:
// the same float32 product, so the same bits.
func TestMulHalf(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 21))
	for _, f := range []HalfFormat{Float16, BFloat16} {
		convert := halfConverter(f)
		for trial := range 40 {
			m, n, k := 1+rng.IntN(40), 1+rng.IntN(70), rng.IntN(50)
			if trial < 3 {
				m, n, k = 130, 100, 450
			}
			gen := func(n int) []uint16 {
				s := make([]uint16, n)
				for i := range s {
					// Values near 1 in either format: sign, exponent 0, random mantissa.
					s[i] = uint16(rng.IntN(2))<<15 | 0x3c00 | uint16(rng.IntN(1024))
					if f == BFloat16 {
						s[i] = uint16(rng.IntN(2))<<15 | 0x3f80 | uint16(rng.IntN(128))
					}
				}
				return s
			}
			al, bl := layout(rng.IntN(int(numLayouts))), layout(rng.IntN(int(numLayouts)))
			a, b := view(m, k, al, gen), view(k, n, bl, gen)
			af := Matrix[float32]{make([]float32, len(a.Data)), a.Off, a.RS, a.CS}
			bf := Matrix[float32]{make([]float32, len(b.Data)), b.Off, b.RS, b.CS}
			convert(af.Data, a.Data)
			convert(bf.Data, b.Data)
			got := Matrix[float32]{make([]float32, m*n), 0, 1, m} // column-major C
			want := Matrix[float32]{make([]float32, m*n), 0, 1, m}
			opt := Options{Threads: 1 + trial%2}
			MulHalf(f, m, n, k, a, b, got, opt)
			mulBlocked(active.f32, m, n, k, af, bf, want, opt) // the path MulHalf takes
			for i := range got.Data {
				if math.Float32bits(got.Data[i]) != math.Float32bits(want.Data[i]) {
					t.Fatalf("format %d %dx%dx%d A %v B %v: element %d = %v, want %v", f, m, n, k, al, bl, i, got.Data[i], want.Data[i])
				}
			}
		}
	}
}

func TestMulHalfBatch(t *testing.T) {
	const batch, m, n, k = 6, 5, 7, 9
	a := make([]uint16, batch*m*k)
	b := make([]uint16, k*n)
	for i := range a {
		a[i] = 0x3c00 | uint16(i%1024) // float16 in [1, 2)
	}
	for i := range b {
		b[i] = 0x3c00 | uint16(i*7%1024)
	}
	c := make([]float32, batch*m*n)
	aOffs, bOffs, cOffs := make([]int, batch), make([]int, batch), make([]int, batch)
	for i := range batch {
		aOffs[i], cOffs[i] = i*m*k, (batch-1-i)*m*n
	}
	MulHalfBatch(Float16, batch, m, n, k, Matrix[uint16]{a, 0, k, 1}, Matrix[uint16]{b, 0, n, 1}, Matrix[float32]{c, 0, n, 1}, aOffs, bOffs, cOffs, Options{Threads: 2})
	for i := range batch {
		want := make([]float32, m*n)
		MulHalf(Float16, m, n, k, Matrix[uint16]{a, aOffs[i], k, 1}, Matrix[uint16]{b, 0, n, 1}, Matrix[float32]{want, 0, n, 1}, Options{Threads: 1})
		for j, w := range want {
			if c[cOffs[i]+j] != w {
				t.Fatalf("matrix %d element %d = %v, MulHalf gives %v", i, j, c[cOffs[i]+j], w)
			}
		}
	}
}

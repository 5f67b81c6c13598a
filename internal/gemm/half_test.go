package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestHalfConverters checks the conversions MulHalf packs with (internal/
// cast's, on its active kernel set) on every float16 and bfloat16 bit
// pattern against the value computed from the fields in float64, for
// several lengths and offsets, with guards after the output.
func TestHalfConverters(t *testing.T) {
	src := make([]uint16, 1<<16)
	for i := range src {
		src[i] = uint16(i)
	}
	value := func(f HalfFormat, h uint16) float64 {
		mbits := 10
		if f == BFloat16 {
			mbits = 7
		}
		emax := 1<<(15-mbits) - 1
		bias := emax >> 1
		exp, mant := int(h>>mbits)&emax, float64(int(h)&(1<<mbits-1))
		var v float64
		switch {
		case exp == emax && mant != 0:
			v = math.NaN()
		case exp == emax:
			v = math.Inf(1)
		case exp == 0:
			v = math.Ldexp(mant, 1-bias-mbits)
		default:
			v = math.Ldexp(1+mant/float64(int(1)<<mbits), exp-bias)
		}
		if h>>15 == 1 {
			v = -v
		}
		return v
	}
	for _, f := range []HalfFormat{Float16, BFloat16} {
		convert := halfConverter(f)
		for _, n := range []int{0, 1, 7, 8, 31, 33, 95, 1 << 16} {
			for off := 0; off < 8; off += 3 {
				s := src[off:min(off+n, len(src))]
				got := make([]float32, len(s)+guard)
				for i := range got {
					got[i] = 7
				}
				convert(got[:len(s)], s)
				for i, g := range got {
					want := 7.0
					if i < len(s) {
						want = value(f, s[i])
					}
					if !(float64(g) == want && math.Signbit(float64(g)) == math.Signbit(want) || math.IsNaN(want) && g != g) {
						t.Fatalf("format %d n=%d off=%d: element %d = %v, want %v", f, n, off, i, g, want)
					}
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
// the same float32 product, so the same bits. The bfloat16 products of a
// set with tiles sum otherwise and are checked in tiles_test.go; here they
// widen.
func TestMulHalf(t *testing.T) {
	defer func(k *tileKernel, v bool) { active.bf16, halfVectors = k, v }(active.bf16, halfVectors)
	active.bf16, halfVectors = nil, false
	rng := rand.New(rand.NewPCG(20, 21))
	for _, f := range []HalfFormat{Float16, BFloat16} {
		convert := halfConverter(f)
		for trial := range 40 {
			m, n, k := 1+rng.IntN(40), 1+rng.IntN(70), rng.IntN(50)
			if trial < 3 {
				m, n, k = 130, 100, 450
			}
			if trial == 3 || trial == 4 {
				// Several blocks of every dimension, and rows left below
				// the last four-row tile (A widened in place, widenedA).
				m, n, k = 12*13+3, 2*active.f32.nc+17, 2*active.f32.kc+5
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

// TestMulHalfVector checks the half-precision matrix-vector path (A·x and
// x·B) bit for bit against the float32 row kernels on the widened operands
// (or, for bfloat16 on a set with a dot kernel, its Go twin), on every
// thread count, across row blocks and with strided vectors, and the guards
// around the output.
func TestMulHalfVector(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 39))
	for _, f := range []HalfFormat{Float16, BFloat16} {
		convert := halfConverter(f)
		for _, m := range []int{1, 3, 4, 5, 33, 130, 1000} {
			for _, k := range []int{1, 7, 300, 5000} {
				gen := func(n int) []uint16 {
					s := make([]uint16, n)
					for i := range s {
						s[i] = uint16(rng.IntN(2))<<15 | 0x3c00 | uint16(rng.IntN(1024))
						if f == BFloat16 {
							s[i] = uint16(rng.IntN(2))<<15 | 0x3f80 | uint16(rng.IntN(128))
						}
					}
					return s
				}
				a := Matrix[uint16]{gen(m*(k+2) + 1), 1, k + 2, 1}
				xStride := 1 + rng.IntN(2)
				x := Matrix[uint16]{gen(k * xStride), 0, xStride, 1}
				af, xf := make([]float32, m*k), make([]float32, k)
				for i := range m {
					convert(af[i*k:(i+1)*k], a.Data[a.Off+i*a.RS:a.Off+i*a.RS+k])
				}
				for p := range k {
					convert(xf[p:p+1], x.Data[p*xStride:p*xStride+1])
				}
				want := Matrix[float32]{make([]float32, m), 0, 1, 1}
				if f == BFloat16 && active.dot4BF16 != nil {
					// The set's dot kernel, whose bits are its twin's (TestDot4BF16).
					xd := make([]float32, roundUp(k, 32))
					deinterleaveX(xd, xf)
					for i := range m {
						want.Data[i] = dotBF16Go(a.Data[a.Off+i*a.RS:a.Off+i*a.RS+k], xd)
					}
				} else {
					gemvRows(0, m, k, Matrix[float32]{af, 0, k, 1}, xf, want)
				}
				for threads := 1; threads <= 3; threads++ {
					for _, rowVector := range []bool{false, true} {
						data := make([]float32, guard+2*m+guard)
						for i := range data {
							data[i] = 7
						}
						c := Matrix[float32]{data, guard, 2, 1} // m×1, every other element
						if rowVector {
							// x·Aᵀ: a 1×k row vector times the k×m transpose of A,
							// into a 1×m row (RS not 1, so MulHalf keeps it a row).
							row := Matrix[float32]{data, guard, 2*m + 1, 2}
							MulHalf(f, 1, m, k, x.transpose(), a.transpose(), row, Options{Threads: threads})
						} else {
							MulHalf(f, m, 1, k, a, x, c, Options{Threads: threads})
						}
						for i := range data {
							w := float32(7)
							if i >= guard && i < guard+2*m && (i-guard)%2 == 0 {
								w = want.Data[(i-guard)/2]
							}
							if math.Float32bits(data[i]) != math.Float32bits(w) {
								t.Fatalf("format %d %dx%d row vector %v, %d threads: element %d = %v, want %v", f, m, k, rowVector, threads, i, data[i], w)
							}
						}
					}
				}
			}
		}
	}
}

// TestDot4BF16 checks each set's bfloat16 four-row dot kernel against the
// Go twin bit for bit at every tail length, with NaN, ±Inf and −0 among
// the inputs.
func TestDot4BF16(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 40))
	for _, v := range kernelSets.Variants() {
		dot4 := v.K.dot4BF16
		if dot4 == nil {
			continue
		}
		for k := 1; k <= 200; k++ {
			lda := k + rng.IntN(5)
			a := make([]uint16, 3*lda+k)
			for i := range a {
				a[i] = bf16Bits(rng.Float64()*4 - 2)
				switch rng.IntN(64) {
				case 0:
					a[i] = 0x7fc0 // NaN
				case 1:
					a[i] = 0xff80 // -Inf
				case 2:
					a[i] = 0x8000 // -0
				}
			}
			x := make([]float32, k)
			for i := range x {
				x[i] = float32(bf16Value(bf16Bits(rng.Float64()*2 - 1)))
			}
			xd := make([]float32, roundUp(k, 32))
			deinterleaveX(xd, x)
			var got [4]float32
			dot4(&a[0], lda, &xd[0], k, &got)
			for r := range 4 {
				want := dotBF16Go(a[r*lda:r*lda+k], xd)
				var exact float64
				for p := range k {
					exact += bf16Value(a[r*lda+p]) * float64(x[p])
				}
				if d := math.Abs(float64(want) - exact); !math.IsNaN(exact) && !math.IsInf(exact, 0) && d > float64(k)*0x1p-24*4*float64(k) {
					t.Fatalf("k=%d row %d: twin %v, exact %v", k, r, want, exact)
				}
				if math.Float32bits(got[r]) != math.Float32bits(want) && !(want != want && got[r] != got[r]) {
					t.Fatalf("%s k=%d lda=%d row %d: %v, twin %v", v.Name(), k, lda, r, got[r], want)
				}
			}
		}
	}
}

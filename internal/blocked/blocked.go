// Package blocked is the plain, portable matrix product of the tensor
// library: a cache-blocked, register-tiled kernel written once in generic Go
// for every numeric element type. It is the correctness path that the fast
// assembly GEMM (package gemm) is checked against and the path for the
// dtypes that GEMM does not handle.
//
// The kernel reads operands through arbitrary element strides (transposed,
// stepped, reversed and broadcast views alike) and never reads C, so old
// contents of C (NaN, say) never leak into the result.
package blocked

import "math"

// Matrix is a strided view of a matrix in a slice: element (i, j) is
// Data[Off + i*RS + j*CS]. Strides are in elements and may be zero or
// negative.
type Matrix[T any] struct {
	Data   []T
	Off    int
	RS, CS int
}

// Number is the set of element types Mul multiplies with Go's own
// arithmetic: integers wrap modulo 2^bits, floats follow IEEE-754, complex
// numbers multiply as (a+bi)(c+di) = (ac-bd) + (ad+bc)i.
type Number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 |
		~float32 | ~float64 | ~complex64 | ~complex128
}

// Block sizes. A kc×nc panel of B and an mc×kc panel of A are copied into
// contiguous buffers (a few hundred KiB at most for complex128) so that the
// inner loops walk memory in order whatever the operands' strides; the
// micro-tile mr×nr is the number of accumulators kept in registers.
const (
	mr = 4
	nr = 4
	mc = 64
	kc = 256
	nc = 512
)

// Mul computes C = A·B for an m×k A and a k×n B, overwriting the m×n C.
// Each element of C is the sum of its k products, started at +0 (so a sum
// of −0 products is +0) and with no product skipped (0·Inf is NaN). For
// k == 0, C is filled with zeros.
//
// With tf32 set and T float32, every element of A and B is first rounded to
// TF32 (see RoundTF32); the products and sums stay float32. For other types
// tf32 is ignored.
//
// C must not overlap A or B.
func Mul[T Number](m, n, k int, a, b, c Matrix[T], tf32 bool) {
	if m <= 0 || n <= 0 {
		return
	}
	if k <= 0 {
		fill(m, n, c, 0)
		return
	}
	_, isF32 := any(c.Data).([]float32)
	tf32 = tf32 && isF32
	if m == 1 || n == 1 || m*n*k <= directMaxWork {
		// Vectors and tiny matrices: packing would cost more than it saves
		// (and a vector would waste most of each padded micro-tile).
		if tf32 {
			// tf32 is only set for float32.
			direct(m, n, k, any(a).(Matrix[float32]), any(b).(Matrix[float32]), any(c).(Matrix[float32]), RoundTF32)
		} else {
			direct(m, n, k, a, b, c, nil)
		}
		return
	}

	kb0 := min(k, kc)
	ap := make([]T, roundUp(min(m, mc), mr)*kb0)
	bp := make([]T, roundUp(min(n, nc), nr)*kb0)
	for jc := 0; jc < n; jc += nc {
		nb := min(nc, n-jc)
		for pc := 0; pc < k; pc += kc {
			kb := min(kc, k-pc)
			packB(bp, b, pc, jc, kb, nb)
			if tf32 {
				roundSliceTF32(bp)
			}
			for ic := 0; ic < m; ic += mc {
				mb := min(mc, m-ic)
				packA(ap, a, ic, pc, mb, kb)
				if tf32 {
					roundSliceTF32(ap)
				}
				// The first k-block stores its sums; later ones add to them.
				macro(mb, nb, kb, ap, bp, c, ic, jc, pc > 0)
			}
		}
	}
}

// directMaxWork is the largest m·n·k computed without packing.
const directMaxWork = 16 * 16 * 16

// direct computes C = A·B with one running sum per element, reading the
// operands in place:
//
//	for i, j { s := 0; for p := range k { s += A[i][p] * B[p][j] }; C[i][j] = s }
//
// round, if not nil, is applied to each operand element as it is read.
func direct[T Number](m, n, k int, a, b, c Matrix[T], round func(T) T) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s T
			ai, bj := a.Off+i*a.RS, b.Off+j*b.CS
			if round != nil {
				for p := 0; p < k; p++ {
					s += T(round(a.Data[ai+p*a.CS]) * round(b.Data[bj+p*b.RS]))
				}
			} else {
				for p := 0; p < k; p++ {
					s += T(a.Data[ai+p*a.CS] * b.Data[bj+p*b.RS])
				}
			}
			c.Data[c.Off+i*c.RS+j*c.CS] = s
		}
	}
}

// MulBool computes the logical matrix product of boolean matrices: C[i][j]
// is true when A[i][p] && B[p][j] for some p. It overwrites C.
func MulBool(m, n, k int, a, b, c Matrix[bool]) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			found := false
			ai, bj := a.Off+i*a.RS, b.Off+j*b.CS
			for p := 0; p < k && !found; p++ {
				found = a.Data[ai+p*a.CS] && b.Data[bj+p*b.RS]
			}
			c.Data[c.Off+i*c.RS+j*c.CS] = found
		}
	}
}

// RoundTF32 rounds f to TF32, the 19-bit format with float32's 8 exponent
// bits and 10 mantissa bits, returned as a float32. Rounding is to nearest,
// ties to even; NaN stays NaN and ±Inf stays ±Inf, while finite values too
// large for TF32 round to ±Inf as in float32.
func RoundTF32(f float32) float32 {
	bits := math.Float32bits(f)
	if bits&0x7F800000 == 0x7F800000 {
		return f // Inf and NaN: the exponent is saturated; leave the payload
	}
	// 13 mantissa bits go. Adding 0x0FFF plus the lowest kept bit, then
	// clearing the low 13 bits, rounds half to even; a carry out of the
	// mantissa steps the exponent, which is the correct rounding too.
	bits += 0x0FFF + (bits>>13)&1
	return math.Float32frombits(bits &^ 0x1FFF)
}

// roundSliceTF32 rounds s in place if it is a float32 slice.
func roundSliceTF32[T any](s []T) {
	if f, ok := any(s).([]float32); ok {
		for i, v := range f {
			f[i] = RoundTF32(v)
		}
	}
}

// fill sets every element of the m×n view c to v.
func fill[T any](m, n int, c Matrix[T], v T) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			c.Data[c.Off+i*c.RS+j*c.CS] = v
		}
	}
}

func roundUp(x, to int) int { return (x + to - 1) / to * to }

// packA copies the mb×kb block of a at (ic, pc) into ap as row slivers of
// mr rows: sliver s holds rows s*mr.. as ap[s*mr*kb + p*mr + r]. Rows past
// mb are zero so the micro-kernel never needs an edge case.
func packA[T Number](ap []T, a Matrix[T], ic, pc, mb, kb int) {
	for s := 0; s < mb; s += mr {
		dst := ap[s*kb : s*kb+mr*kb]
		for r := 0; r < mr; r++ {
			if s+r >= mb {
				for p := 0; p < kb; p++ {
					dst[p*mr+r] = 0
				}
				continue
			}
			src := a.Off + (ic+s+r)*a.RS + pc*a.CS
			for p := 0; p < kb; p++ {
				dst[p*mr+r] = a.Data[src+p*a.CS]
			}
		}
	}
}

// packB copies the kb×nb block of b at (pc, jc) into bp as column slivers
// of nr columns: bp[s*kb + p*nr + c] for sliver start s; columns past nb
// are zero.
func packB[T Number](bp []T, b Matrix[T], pc, jc, kb, nb int) {
	for s := 0; s < nb; s += nr {
		dst := bp[s*kb : s*kb+nr*kb]
		for col := 0; col < nr; col++ {
			if s+col >= nb {
				for p := 0; p < kb; p++ {
					dst[p*nr+col] = 0
				}
				continue
			}
			src := b.Off + pc*b.RS + (jc+s+col)*b.CS
			for p := 0; p < kb; p++ {
				dst[p*nr+col] = b.Data[src+p*b.RS]
			}
		}
	}
}

// macro multiplies the packed mb×kb block of A by the packed kb×nb block of
// B tile by tile and stores (or, with accumulate, adds) the tiles into C at
// (ic, jc).
func macro[T Number](mb, nb, kb int, ap, bp []T, c Matrix[T], ic, jc int, accumulate bool) {
	var tile [mr * nr]T
	for jr := 0; jr < nb; jr += nr {
		for ir := 0; ir < mb; ir += mr {
			micro(kb, ap[ir*kb:ir*kb+mr*kb], bp[jr*kb:jr*kb+nr*kb], &tile)
			rows, cols := min(mr, mb-ir), min(nr, nb-jr)
			for i := 0; i < rows; i++ {
				row := c.Off + (ic+ir+i)*c.RS + (jc+jr)*c.CS
				for j := 0; j < cols; j++ {
					if accumulate {
						c.Data[row+j*c.CS] += tile[i*nr+j]
					} else {
						c.Data[row+j*c.CS] = tile[i*nr+j]
					}
				}
			}
		}
	}
}

// micro computes the mr×nr tile of the product of an mr-row sliver of A and
// an nr-column sliver of B, each of depth kb, as
//
//	for p := range kb { tile[i][j] += a[p*mr+i] * b[p*nr+j] }
//
// with the sixteen sums held in locals, started at zero.
func micro[T Number](kb int, a, b []T, tile *[mr * nr]T) {
	var c00, c01, c02, c03, c10, c11, c12, c13 T
	var c20, c21, c22, c23, c30, c31, c32, c33 T
	a, b = a[:kb*mr], b[:kb*nr]
	for p := 0; p < kb; p++ {
		av, bv := a[p*mr:p*mr+mr], b[p*nr:p*nr+nr]
		a0, a1, a2, a3 := av[0], av[1], av[2], av[3]
		b0, b1, b2, b3 := bv[0], bv[1], bv[2], bv[3]
		// The explicit conversions keep each product rounded on its own:
		// Go may otherwise fuse x*y+z into one FMA, and then the fast and
		// plain paths (and runs on different CPUs) would differ.
		c00 += T(a0 * b0)
		c01 += T(a0 * b1)
		c02 += T(a0 * b2)
		c03 += T(a0 * b3)
		c10 += T(a1 * b0)
		c11 += T(a1 * b1)
		c12 += T(a1 * b2)
		c13 += T(a1 * b3)
		c20 += T(a2 * b0)
		c21 += T(a2 * b1)
		c22 += T(a2 * b2)
		c23 += T(a2 * b3)
		c30 += T(a3 * b0)
		c31 += T(a3 * b1)
		c32 += T(a3 * b2)
		c33 += T(a3 * b3)
	}
	*tile = [mr * nr]T{
		c00, c01, c02, c03,
		c10, c11, c12, c13,
		c20, c21, c22, c23,
		c30, c31, c32, c33,
	}
}

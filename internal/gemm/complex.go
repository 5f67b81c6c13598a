package gemm

import "unsafe"

// MulComplex computes C = A·B for complex matrices (no conjugation) with
// Mul's rules, through the real kernels: with A = Ar + i·Ai and B = Br + i·Bi
//
//	Re C = Ar·Br − Ai·Bi,   Im C = Ar·Bi + Ai·Br,
//
// four real products over strided views of the interleaved real and
// imaginary parts (so nothing is copied to split them). The four products
// cost what one complex product does, at the real kernels' speed; the sums
// are grouped per product rather than per term, which changes only
// rounding.
func MulComplex[T complex64 | complex128](m, n, k int, a, b, c Matrix[T], opt Options) {
	if m <= 0 || n <= 0 {
		return
	}
	if k <= 0 {
		fillZero(m, n, c)
		return
	}
	var z T
	switch any(z).(type) {
	case complex64:
		mulComplex[float32](m, n, k, realViews[T, float32](a), realViews[T, float32](b), realViews[T, float32](c), opt)
	default:
		mulComplex[float64](m, n, k, realViews[T, float64](a), realViews[T, float64](b), realViews[T, float64](c), opt)
	}
}

// MulComplexBatch is MulBatch for complex matrices (see MulComplex).
func MulComplexBatch[T complex64 | complex128](batch, m, n, k int, a, b, c Matrix[T], aOffs, bOffs, cOffs []int, opt Options) {
	threads := max(1, min(opt.threads(), batch*m*n*k*4/minFlopsPerThread))
	one := opt
	if batch >= threads {
		one.Threads = 1
	} else {
		threads = 1
	}
	split(batch, 1, threads, func(i0, i1 int) {
		for i := i0; i < i1; i++ {
			MulComplex(m, n, k, a.withOff(a.Off+aOffs[i]), b.withOff(b.Off+bOffs[i]), c.withOff(c.Off+cOffs[i]), one)
		}
	})
}

// parts holds the real and imaginary parts of a complex view as real views.
type parts[R any] struct{ re, im Matrix[R] }

// realViews reinterprets a complex view as views of its real and imaginary
// parts: element (i, j) of x is at float index 2·(Off + i·RS + j·CS), its
// imaginary part one further.
func realViews[T complex64 | complex128, R float32 | float64](x Matrix[T]) parts[R] {
	var data []R
	if len(x.Data) > 0 {
		data = unsafe.Slice((*R)(unsafe.Pointer(unsafe.SliceData(x.Data))), 2*len(x.Data))
	}
	re := Matrix[R]{data, 2 * x.Off, 2 * x.RS, 2 * x.CS}
	im := re
	im.Off++
	return parts[R]{re, im}
}

// mulComplex computes the four real products into two contiguous temporaries
// and combines them into C's parts.
func mulComplex[R float32 | float64](m, n, k int, a, b, c parts[R], opt Options) {
	t1 := Matrix[R]{make([]R, m*n), 0, n, 1}
	t2 := Matrix[R]{make([]R, m*n), 0, n, 1}
	combine := func(dst Matrix[R], sign R) {
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				dst.Data[dst.Off+i*dst.RS+j*dst.CS] = t1.Data[i*n+j] + sign*t2.Data[i*n+j]
			}
		}
	}
	Mul(m, n, k, a.re, b.re, t1, opt)
	Mul(m, n, k, a.im, b.im, t2, opt)
	combine(c.re, -1)
	Mul(m, n, k, a.re, b.im, t1, opt)
	Mul(m, n, k, a.im, b.re, t2, opt)
	combine(c.im, 1)
}

package gemm

import (
	"unsafe"

	"github.com/tensor-go/tensor/internal/scratch"
)

// MulComplex computes C = A·B for complex matrices (no conjugation) with
// Mul's rules, through the real kernels: with A = Ar + i·Ai and B = Br + i·Bi
//
//	Re C = Ar·Br − Ai·Bi,   Im C = Ar·Bi + Ai·Br,
//
// as one real product of twice the size in each dimension (see
// mulInterleaved), or for a matrix times a vector as four real products
// over strided views of the interleaved real and imaginary parts. Either
// costs what one complex product does, at the real kernels' speed.
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
		mulComplexParts[float32](m, n, k, realViews[T, float32](a), realViews[T, float32](b), realViews[T, float32](c), opt)
	default:
		mulComplexParts[float64](m, n, k, realViews[T, float64](a), realViews[T, float64](b), realViews[T, float64](c), opt)
	}
}

// mulComplexParts computes the complex product of the parts: as four real
// products for a matrix times a vector (n = 1), which then take the real
// matrix-vector path whatever the number of rows, as real products do,
// and as one real product of twice the size otherwise.
func mulComplexParts[R float32 | float64](m, n, k int, a, b, c parts[R], opt Options) {
	if n == 1 {
		mulComplex(m, n, k, a, b, c, opt)
		return
	}
	mulInterleaved(m, n, k, a, b, c, opt)
}

// mulInterleaved computes C = A·B as one real m×2n×2k product: A's
// interleaved parts as a real m×2k matrix, times the 2k×2n real matrix
//
//	row 2p:   Br[p][0]  Bi[p][0]  Br[p][1]  Bi[p][1] …
//	row 2p+1: −Bi[p][0] Br[p][0]  −Bi[p][1] Br[p][1] …
//
// into C's interleaved parts, so that column 2j sums Ar·Br − Ai·Bi and
// column 2j+1 sums Ar·Bi + Ai·Br, term by term in p. A with contiguous
// rows is read in place and C with contiguous rows written in place (other
// layouts go through a contiguous copy, so that the bits never depend on
// the layout). Against four real products over strided views and two
// temporaries to combine, A needs no packing and C no second pass: 256³
// complex64 1.9 -> 1.05 ms. The price is the 2k×2n matrix, twice B's size.
func mulInterleaved[R float32 | float64](m, n, k int, a, b, c parts[R], opt Options) {
	ar := Matrix[R]{a.re.Data, a.re.Off, a.re.RS, 1}
	if a.re.CS != 2 {
		ar = Matrix[R]{make([]R, 2*m*k), 0, 2 * k, 1}
		for i := range m {
			for p := range k {
				ar.Data[i*2*k+2*p], ar.Data[i*2*k+2*p+1] = a.re.at(i, p), a.im.at(i, p)
			}
		}
	}
	cr := Matrix[R]{c.re.Data, c.re.Off, c.re.RS, 1}
	if c.re.CS != 2 {
		cr = Matrix[R]{make([]R, 2*m*n), 0, 2 * n, 1}
	}
	if packsWide[R](m, n, k, opt) {
		// The blocked loops pack the wide matrix's slivers straight from
		// B: no 2k×2n matrix is written and read back. Mul's view checks,
		// since the assembly reads A and writes C in place.
		mustFit("A", ar, m, 2*k)
		mustFit("B", b.re, k, n)
		mustFit("B", b.im, k, n)
		mustFit("C", cr, m, 2*n)
		j := newJob(kernelFor[R](), m, 2*n, 2*k, ar, Matrix[R]{}, cr)
		j.wide = &b
		j.parallel(opt.threads())
	} else {
		buf := wideBuffers.Get()
		defer putWide(buf)
		wide := wideOf[R](buf, 4*k*n)
		threads := 1
		if k*n >= minWidenPerThread {
			threads = opt.threads()
		}
		split(k, 1, threads, func(p0, p1 int) { widen(wide, p0, p1, n, b) })
		Mul(m, 2*n, 2*k, ar, Matrix[R]{wide, 0, 2 * n, 1}, cr, opt)
	}
	if c.re.CS != 2 {
		for i := range m {
			for j := range n {
				c.re.Data[c.re.Off+i*c.re.RS+j*c.re.CS] = cr.Data[i*2*n+2*j]
				c.im.Data[c.im.Off+i*c.im.RS+j*c.im.CS] = cr.Data[i*2*n+2*j+1]
			}
		}
	}
}

// packsWide reports whether the real m×2n×2k product of mulInterleaved
// goes through the blocked loops, which can pack the wide matrix from B
// itself (job.wide): plan would send it there too, with the strip off
// (the strip reads B in place), which changes no bit, since plan takes
// the strip only where its sums are the tiles'. Smaller products take the
// small kernels, which read the wide matrix in place.
func packsWide[R float32 | float64](m, n, k int, opt Options) bool {
	return m > 1 && !opt.TF32 && smallPlan(m, 2*n, 2*k, Matrix[R]{CS: 1}, Matrix[R]{CS: 1}).kern == nil
}

// packWide is packB for the 2k×2n real matrix of mulInterleaved built from
// the complex k×n matrix b: rows [p0, p0+kc) and columns [j0, j0+nc) of
// it, with j0 and nc even (whole complex columns: the blocks and slivers
// are multiples of nr, which is even, and 2n is even). Row 2q is B's row
// q as (re, im) pairs, row 2q+1 the pairs (−im, re).
func packWide[R Elem](dst []R, b parts[R], p0, kc, j0, nc, nr int) {
	for s := 0; s*nr < nc; s++ {
		cols := min(nr, nc-s*nr)
		d := dst[s*kc*nr : (s+1)*kc*nr]
		cj := (j0 + s*nr) / 2
		if cols == nr && b.re.CS == 2 && wideRowsFast(d, b.re, p0, kc, cj, nr) {
			continue
		}
		for p := 0; p < kc; p++ {
			q, odd := (p0+p)/2, (p0+p)%2 == 1
			row := d[p*nr : p*nr+nr]
			if b.re.CS == 2 {
				src := b.re.Data[b.re.Off+q*b.re.RS+cj*2:][:cols]
				if odd {
					for t := 0; t < cols; t += 2 {
						row[t], row[t+1] = -src[t+1], src[t]
					}
				} else {
					copy(row, src)
				}
			} else {
				for t := 0; t < cols; t += 2 {
					re, im := b.re.at(q, cj+t/2), b.im.at(q, cj+t/2)
					if odd {
						re, im = -im, re
					}
					row[t], row[t+1] = re, im
				}
			}
			clear(row[cols:])
		}
	}
}

// wideRowsFast packs rows [p0, p0+kc) of a full sliver of the wide matrix
// whose complex columns start at cj, from the parts' interleaved rows re
// (CS 2), with the kernel set's wideRows128 or wideRows64 when a sliver
// row is 128 or 64 bytes (every AVX-512 and AVX2 tile), and reports
// whether it did. The Go loop took 14% of a 256³ complex64 product on two
// goroutines.
func wideRowsFast[R Elem](dst []R, re Matrix[R], p0, kc, cj, nr int) bool {
	size := int(unsafe.Sizeof(*new(R)))
	var rows func(dst, src unsafe.Pointer, rows, stride, odd int)
	switch nr * size {
	case 128:
		rows = active.wideRows128F32
		if size == 8 {
			rows = active.wideRows128F64
		}
	case 64:
		rows = active.wideRows64F32
		if size == 8 {
			rows = active.wideRows64F64
		}
	default:
		return false
	}
	q0, q1 := p0/2, (p0+kc-1)/2
	first, last := re.Off+q0*re.RS+2*cj, re.Off+q1*re.RS+2*cj
	if kc <= 0 || len(dst) < kc*nr || min(first, last) < 0 || max(first, last)+nr > len(re.Data) {
		return false // out of range: the Go loop panics as it should
	}
	rows(unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(&re.Data[first]), kc, re.RS*size, p0%2)
	return true
}

// wideRowsGo is the Go twin of the kernel sets' wideRows functions: row r
// of dst (W bytes of R) is the complex numbers at src + stride·((odd+r)/2)
// as (re, im) pairs when odd+r is even, as (−im, re) when it is odd.
func wideRowsGo[R float32 | float64, W [64]byte | [128]byte](dst, src unsafe.Pointer, rows, stride, odd int) {
	width := int(unsafe.Sizeof(*new(W)))
	n := width / int(unsafe.Sizeof(R(0)))
	for r := 0; r < rows; r++ {
		in := unsafe.Slice((*R)(unsafe.Add(src, stride*((odd+r)/2))), n)
		out := unsafe.Slice((*R)(unsafe.Add(dst, width*r)), n)
		if (odd+r)%2 == 0 {
			copy(out, in)
			continue
		}
		for t := 0; t < n; t += 2 {
			out[t], out[t+1] = -in[t+1], in[t]
		}
	}
}

// minWidenPerThread is the size of B (complex elements) from which its
// wide matrix is built on every goroutine: 256×256 took 65 µs on one.
const minWidenPerThread = 1 << 14

// widen writes rows [2·p0, 2·p1) of the 2k×2n real matrix of mulInterleaved
// for the k×n complex matrix b into wide. Rows of contiguous complex
// numbers are read as slices: element by element through Matrix.at,
// building the matrix took 40% of a 256³ complex64 product.
func widen[R float32 | float64](wide []R, p0, p1, n int, b parts[R]) {
	for p := p0; p < p1; p++ {
		even, odd := wide[2*p*2*n:(2*p+1)*2*n], wide[(2*p+1)*2*n:(2*p+2)*2*n]
		if b.re.CS == 2 {
			row := b.re.Data[b.re.Off+p*b.re.RS:][:2*n]
			copy(even, row)
			for j := 0; j < 2*n; j += 2 {
				odd[j], odd[j+1] = -row[j+1], row[j]
			}
			continue
		}
		for j := range n {
			re, im := b.re.at(p, j), b.im.at(p, j)
			even[2*j], even[2*j+1] = re, im
			odd[2*j], odd[2*j+1] = -im, re
		}
	}
}

// wideBuffer holds the 2k×2n matrix of a complex product between calls, in
// whichever real type the product has.
type wideBuffer struct {
	f32 []float32
	f64 []float64
}

// maxKeptWide is the largest wide matrix, in bytes, that a wideBuffer keeps
// after a call: a 512×512 complex128 B. Larger ones are rare and would pin
// their memory for the life of the program.
const maxKeptWide = 16 << 20

// wideBuffers keeps wide matrices between calls: made afresh, the 1 MiB
// one of a 256³ complex64 product is cleared (and, as fresh memory, faulted
// in) on every call.
var wideBuffers = scratch.List[wideBuffer]{New: func() *wideBuffer { return new(wideBuffer) }}

// wideOf returns n elements of w's buffer of type R, growing it if needed.
func wideOf[R float32 | float64](w *wideBuffer, n int) []R {
	var z R
	if _, ok := any(z).(float32); ok {
		if cap(w.f32) < n {
			w.f32 = make([]float32, n)
		}
		return any(w.f32[:n]).([]R)
	}
	if cap(w.f64) < n {
		w.f64 = make([]float64, n)
	}
	return any(w.f64[:n]).([]R)
}

// putWide makes w idle again, without buffers too large to keep.
func putWide(w *wideBuffer) {
	if 4*cap(w.f32) > maxKeptWide {
		w.f32 = nil
	}
	if 8*cap(w.f64) > maxKeptWide {
		w.f64 = nil
	}
	wideBuffers.Put(w)
}

// MulComplexBatch is MulBatch for complex matrices (see MulComplex).
func MulComplexBatch[T complex64 | complex128](batch, m, n, k int, a, b, c Matrix[T], aOffs, bOffs, cOffs []int, opt Options) {
	// Four real multiply-adds a complex one, each of the part type.
	threads := threadsForSize(opt.threads(), batch*m*n*k*4, int(unsafe.Sizeof(*new(T)))/2)
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
// and combines them into C's parts; the sums are grouped per product
// rather than per term, which changes only rounding.
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

package gemm

import "github.com/tensor-go/tensor/internal/scratch"

// Half-precision matrix-vector products (m == 1 or n == 1 in MulHalf) are
// bound by reading the matrix once: packing it into GEMM tiles, as the
// blocked path does, costs seventy times the float32 matrix-vector path
// (4096² bfloat16 0.95 GFLOP per CPU-second against 66 for float32).
// bfloat16 on a set with a dot kernel (dot4BF16, AVX-512) widens in its
// registers and reads the matrix once (17-25); otherwise a few rows at a
// time are widened into a float32 buffer that stays in cache and the
// float32 row kernels (gemvRows: dot4 on groups of four rows, dot on the
// rest) run on it (6.2). Blocks and goroutine ranges start at multiples of
// four rows, so each row is summed in the same order whatever the thread
// count.

// halfVectors switches the path on (a variable so that TestMulHalf can
// compare the blocked path's bits on vector shapes too).
var halfVectors = true

// halfVectorBytes is the size of the float32 buffer one block of rows is
// widened into: it stays in L2 (2 MiB, or the 512 KiB of a Zen 3 core)
// while the row kernels read it, beside x.
const halfVectorBytes = 128 << 10

// halfVectorBuffers are idle widening buffers (x and a block of rows).
var halfVectorBuffers = scratch.List[halfVectorBuffer]{New: func() *halfVectorBuffer { return new(halfVectorBuffer) }}

type halfVectorBuffer struct{ x, rows []float32 }

// halfVector reports whether MulHalf takes its matrix-vector path for C =
// A·B (m×k A, k×n B), and returns the matrix with contiguous rows, the
// vector and the output as y = M·x.
func halfVector(m, n, k int, a, b Matrix[uint16], c Matrix[float32]) (rows, kk int, mat, x Matrix[uint16], y Matrix[float32], ok bool) {
	switch {
	case n == 1 && a.CS == 1 && a.RS > 0:
		return m, k, a, b, c, true
	case m == 1 && b.RS == 1 && b.CS > 0:
		// A row vector times B is Bᵀ times a column vector.
		return n, k, b.transpose(), a.transpose(), c.transpose(), true
	}
	return 0, 0, Matrix[uint16]{}, Matrix[uint16]{}, Matrix[float32]{}, false
}

// mulHalfVector computes y = A·x for an m×k A of half-precision bits in
// format f whose rows are contiguous (CS == 1, RS > 0), a k-vector x
// (element p at x.Off + p·x.RS) and an m-vector y (element i at y.Off +
// i·y.RS).
func mulHalfVector(f HalfFormat, m, k int, a, x Matrix[uint16], y Matrix[float32], opt Options) {
	convert := halfConverter(f)
	buf := halfVectorBuffers.Get()
	defer halfVectorBuffers.Put(buf)
	buf.x = scratch.Grow(buf.x, k)
	if x.RS == 1 {
		convert(buf.x, x.Data[x.Off:x.Off+k])
	} else {
		for p := range k {
			convert(buf.x[p:p+1], x.Data[x.Off+p*x.RS:x.Off+p*x.RS+1])
		}
	}
	xs := buf.x
	if dot4 := active.dot4BF16; f == BFloat16 && dot4 != nil {
		buf.rows = scratch.Grow(buf.rows, roundUp(k, 32))
		deinterleaveX(buf.rows, xs)
		dotRowsBF16(dot4, m, k, a, buf.rows, y, opt)
		return
	}
	block := max(4, halfVectorBytes/4/k&^3) // rows widened at once, a multiple of 4
	threads := max(1, min(opt.threads(), m*k/minGemvPerThread))
	if threads == 1 {
		widenRows(buf, convert, block, 0, m, k, a, xs, y)
		return
	}
	split(m, 4, threads, func(i0, i1 int) {
		own := halfVectorBuffers.Get()
		widenRows(own, convert, block, i0, i1, k, a, xs, y)
		halfVectorBuffers.Put(own)
	})
}

// widenRows computes rows [i0, i1) of y = A·x (i0 a multiple of 4), block
// rows of A widened at a time into buf.rows.
func widenRows(buf *halfVectorBuffer, convert func([]float32, []uint16), block, i0, i1, k int, a Matrix[uint16], xs []float32, y Matrix[float32]) {
	for b0 := i0; b0 < i1; b0 += block {
		rows := min(block, i1-b0)
		buf.rows = scratch.Grow(buf.rows, rows*k)
		for r := range rows {
			at := a.Off + (b0+r)*a.RS
			convert(buf.rows[r*k:(r+1)*k], a.Data[at:at+k])
		}
		gemvRows(0, rows, k, Matrix[float32]{buf.rows, 0, k, 1}, xs, y.shift(b0, 0))
	}
}

// dot4BF16Func is a four-row bfloat16 dot product that widens in its
// registers: out[r] = Σ_p A[r][p]·x[p] for the rows at a, a+lda, a+2·lda
// and a+3·lda, summed as dotBF16Go sums, with x laid out by
// deinterleaveX.
type dot4BF16Func func(a *uint16, lda int, x *float32, k int, out *[4]float32)

// dotRowsBF16 is mulHalfVector for bfloat16 with a set's dot4BF16: rows in
// groups of four from multiples of four, the last one to three through the
// twin, which sums as the kernel does, so no bit depends on the split.
func dotRowsBF16(dot4 dot4BF16Func, m, k int, a Matrix[uint16], xs []float32, y Matrix[float32], opt Options) {
	rows := func(i0, i1 int) {
		var out [4]float32
		i := i0
		for ; i+4 <= i1; i += 4 {
			dot4(&a.Data[a.Off+i*a.RS], a.RS, &xs[0], k, &out)
			for r, v := range out {
				y.Data[y.Off+(i+r)*y.RS] = v
			}
		}
		for ; i < i1; i++ {
			at := a.Off + i*a.RS
			y.Data[y.Off+i*y.RS] = dotBF16Go(a.Data[at:at+k], xs)
		}
	}
	threads := max(1, min(opt.threads(), m*k/minGemvPerThread))
	if threads == 1 {
		rows(0, m)
		return
	}
	split(m, 4, threads, rows)
}

// deinterleaveX writes x in steps of 32 to dst (length a multiple of 32):
// the 16 even elements of each step, then the 16 odd ones, zeros past x's
// end; the layout in which the dot kernels split a step of a row.
func deinterleaveX(dst, x []float32) {
	clear(dst)
	for p, v := range x {
		q, e := p&^31, p&31
		dst[q+e%2*16+e/2] = v
	}
}

// dotBF16Go is the Go twin of the dot4BF16Func kernels for one row, with x
// laid out by deinterleaveX: 32 lanes, lane l < 16 summing the even
// elements 32q+2l in order and lane 16+l the odd ones 32q+2l+1 (each
// product of two half-precision values is exact in float32, so rounding it
// first is what a fused multiply-add gives), the positions past k in a
// short last step adding +0, then folded l + l+16, l + l+8, l + l+4,
// l + l+2, l + l+1.
func dotBF16Go(row []uint16, xd []float32) float32 {
	var acc [32]float32
	k := len(row)
	for q := 0; q < k; q += 32 {
		v := (*[32]float32)(xd[q:])
		for l := range 16 {
			var even, odd float32 // +0 past k
			if p := q + 2*l; p < k {
				even = widenBF16(row[p])
			}
			if p := q + 2*l + 1; p < k {
				odd = widenBF16(row[p])
			}
			acc[l] += float32(even * v[l])
			acc[16+l] += float32(odd * v[16+l])
		}
	}
	for w := 16; w >= 1; w /= 2 {
		for l := range w {
			acc[l] += acc[l+w]
		}
	}
	return acc[0]
}

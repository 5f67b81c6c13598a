package gemm

// gemvHelpers is one kernel set's streaming helpers for one element type,
// as the slice functions the gemv code calls.
type gemvHelpers[T float32 | float64] struct {
	dot   func(x, y []T) T
	axpy  func(alpha T, x, y []T)
	dot4  func(a []T, lda int, x []T, out *[4]T)
	axpy4 func(alpha *[4]T, x []T, ldx int, y []T)
}

// gemvGo returns the Go twins as helpers.
func gemvGo[T float32 | float64]() gemvHelpers[T] {
	return gemvHelpers[T]{dot: dotGo[T], axpy: axpyGo[T], dot4: dot4Go[T], axpy4: axpy4Go[T]}
}

// axpy4Go is the Go twin of the four-row axpy helpers: it adds alpha[r]·x_r
// to y for the rows x_r starting at x[r*ldx], r = 0 … 3, each element of y
// taking the four products in that order (len(x) must reach the end of row
// 3). The same sums in the same order as four axpyGo calls, with y read
// and written once instead of four times.
func axpy4Go[T Elem](alpha *[4]T, x []T, ldx int, y []T) {
	axpy4Tail(alpha, x, ldx, y, 0)
}

// axpy4Tail does axpy4Go's work from index n of y on, finishing what an
// assembly helper did for the first n.
func axpy4Tail[T Elem](alpha *[4]T, x []T, ldx int, y []T, n int) {
	x0, x1, x2, x3 := x[:len(y)], x[ldx:ldx+len(y)], x[2*ldx:2*ldx+len(y)], x[3*ldx:3*ldx+len(y)]
	for i := n; i < len(y); i++ {
		s := y[i] + T(alpha[0]*x0[i]) // products rounded, as everywhere in the twins
		s += T(alpha[1] * x1[i])
		s += T(alpha[2] * x2[i])
		y[i] = s + T(alpha[3]*x3[i])
	}
}

func axpy4For[T Elem]() func(alpha *[4]T, x []T, ldx int, y []T) {
	var z T
	switch any(z).(type) {
	case float32:
		return any(active.gemvF32.axpy4).(func(alpha *[4]T, x []T, ldx int, y []T))
	case float64:
		return any(active.gemvF64.axpy4).(func(alpha *[4]T, x []T, ldx int, y []T))
	}
	return axpy4Go[T]
}

// dot4Go is the Go twin of the four-row dot helpers: out[r] is the dot
// product of x with row r of a, the rows starting at a[r*lda] (len(a) must
// reach the end of row 3).
func dot4Go[T Elem](a []T, lda int, x []T, out *[4]T) {
	for r := range out {
		out[r] = dotGo(a[r*lda:r*lda+len(x)], x)
	}
}

// dot4Tail adds the products from index n on to out, finishing what an
// assembly helper did for the first n. The four rows go side by side, each
// still adding its products in index order (the same bits as one row after
// the other), so that four sums are in flight instead of one: row after
// row, the tail of 24 elements a row was a quarter of a 1000×3000 float32
// product's CPU (Zen 5, AVX2 set).
func dot4Tail[T Elem](a []T, lda int, x []T, n int, out *[4]T) {
	k := len(x)
	if n >= k {
		return
	}
	r0, r1, r2, r3 := a[n:k], a[lda+n:lda+k], a[2*lda+n:2*lda+k], a[3*lda+n:3*lda+k]
	x = x[n:k]
	r0, r1, r2, r3 = r0[:len(x)], r1[:len(x)], r2[:len(x)], r3[:len(x)] // bounds checked once
	s0, s1, s2, s3 := out[0], out[1], out[2], out[3]
	for p, v := range x {
		s0 += T(r0[p] * v) // products rounded, as everywhere in the twins
		s1 += T(r1[p] * v)
		s2 += T(r2[p] * v)
		s3 += T(r3[p] * v)
	}
	out[0], out[1], out[2], out[3] = s0, s1, s2, s3
}

// dotGo returns Σ x[i]·y[i] in four running sums, over the indices i ≡ 0,
// 1, 2, 3 (mod 4) of the longest multiple of 4, added as (s0+s1)+(s2+s3),
// and then the remaining products in index order; each product is rounded
// before it is added. Four sums keep four additions in flight where one
// sum waited on each (a 4096² gemv ran at 2 GFLOP/s where memory allows
// 13). The order is fixed by len(x) alone, so every caller, on any number
// of goroutines, gets the same bits.
func dotGo[T Elem](x, y []T) T {
	y = y[:len(x)]
	var s0, s1, s2, s3 T
	i := 0
	for ; i+4 <= len(x); i += 4 {
		xs, ys := x[i:i+4:i+4], y[i:i+4:i+4]
		s0 += T(xs[0] * ys[0])
		s1 += T(xs[1] * ys[1])
		s2 += T(xs[2] * ys[2])
		s3 += T(xs[3] * ys[3])
	}
	s := (s0 + s1) + (s2 + s3)
	for ; i < len(x); i++ {
		s += T(x[i] * y[i])
	}
	return s
}

// axpyGo adds alpha·x to y element-wise, each product rounded before it
// is added.
func axpyGo[T Elem](alpha T, x, y []T) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += T(alpha * v)
	}
}

// dotFor and axpyFor return the dispatched helper for T (looked up once per
// product, not per row).
func dotFor[T Elem]() func(x, y []T) T {
	var z T
	switch any(z).(type) {
	case float32:
		return any(active.gemvF32.dot).(func(x, y []T) T)
	case float64:
		return any(active.gemvF64.dot).(func(x, y []T) T)
	}
	return dotGo[T]
}

func dot4For[T Elem]() func(a []T, lda int, x []T, out *[4]T) {
	var z T
	switch any(z).(type) {
	case float32:
		return any(active.gemvF32.dot4).(func(a []T, lda int, x []T, out *[4]T))
	case float64:
		return any(active.gemvF64.dot4).(func(a []T, lda int, x []T, out *[4]T))
	}
	return dot4Go[T]
}

func axpyFor[T Elem]() func(alpha T, x, y []T) {
	var z T
	switch any(z).(type) {
	case float32:
		return any(active.gemvF32.axpy).(func(alpha T, x, y []T))
	case float64:
		return any(active.gemvF64.axpy).(func(alpha T, x, y []T))
	}
	return axpyGo[T]
}

package gemm

// Dispatch for the streaming helpers; kernel_amd64 points them at assembly.
var (
	dotF32  = dotGo[float32]
	dotF64  = dotGo[float64]
	axpyF32 = axpyGo[float32]
	axpyF64 = axpyGo[float64]
	dot4F32 = dot4Go[float32]
	dot4F64 = dot4Go[float64]
)

// dot4Go is the Go twin of the four-row dot helpers: out[r] is the dot
// product of x with row r of a, the rows starting at a[r*lda] (len(a) must
// reach the end of row 3).
func dot4Go[T Elem](a []T, lda int, x []T, out *[4]T) {
	for r := range out {
		out[r] = dotGo(a[r*lda:r*lda+len(x)], x)
	}
}

// dot4Tail adds the products from index n on to out, finishing what an
// assembly helper did for the first n.
func dot4Tail[T Elem](a []T, lda int, x []T, n int, out *[4]T) {
	for r := range out {
		row := a[r*lda : r*lda+len(x)]
		for p := n; p < len(x); p++ {
			out[r] += row[p] * x[p]
		}
	}
}

// dotGo returns Σ x[i]·y[i], summed from +0 in index order.
func dotGo[T Elem](x, y []T) T {
	var s T
	y = y[:len(x)]
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

// axpyGo adds alpha·x to y element-wise.
func axpyGo[T Elem](alpha T, x, y []T) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}

// dotFor and axpyFor return the dispatched helper for T (looked up once per
// product, not per row).
func dotFor[T Elem]() func(x, y []T) T {
	var z T
	switch any(z).(type) {
	case float32:
		return any(dotF32).(func(x, y []T) T)
	case float64:
		return any(dotF64).(func(x, y []T) T)
	}
	return dotGo[T]
}

func dot4For[T Elem]() func(a []T, lda int, x []T, out *[4]T) {
	var z T
	switch any(z).(type) {
	case float32:
		return any(dot4F32).(func(a []T, lda int, x []T, out *[4]T))
	case float64:
		return any(dot4F64).(func(a []T, lda int, x []T, out *[4]T))
	}
	return dot4Go[T]
}

func axpyFor[T Elem]() func(alpha T, x, y []T) {
	var z T
	switch any(z).(type) {
	case float32:
		return any(axpyF32).(func(alpha T, x, y []T))
	case float64:
		return any(axpyF64).(func(alpha T, x, y []T))
	}
	return axpyGo[T]
}

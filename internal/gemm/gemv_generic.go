package gemm

// Dispatch for the streaming helpers; kernel_amd64 points them at assembly.
var (
	dotF32  = dotGo[float32]
	dotF64  = dotGo[float64]
	axpyF32 = axpyGo[float32]
	axpyF64 = axpyGo[float64]
)

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

package sparse

// kernels holds the row kernels SpMM runs for one element type: the Go
// loops below, or for float32 and float64 assembly (axpy_amd64.go).
type kernels[T Number] struct {
	axpy  func(y []T, a T, x []T)
	axpy4 func(y []T, a0, a1, a2, a3 T, x0, x1, x2, x3 []T)
}

// Kernels for float32 and float64; variables so that tests can compare the
// assembly with the Go twins and so that init can install the assembly.
var (
	float32Kernels = kernels[float32]{axpy: axpy[float32], axpy4: axpy4[float32]}
	float64Kernels = kernels[float64]{axpy: axpy[float64], axpy4: axpy4[float64]}
)

// kernelsFor returns the kernels for T.
func kernelsFor[T Number]() kernels[T] {
	switch k := any(float32Kernels).(type) {
	case kernels[T]:
		return k
	}
	switch k := any(float64Kernels).(type) {
	case kernels[T]:
		return k
	}
	return kernels[T]{axpy: axpy[T], axpy4: axpy4[T]}
}

// axpy computes y[j] += a*x[j] for j in [0, len(y)).
func axpy[T Number](y []T, a T, x []T) {
	x = x[:len(y)]
	for j := range y {
		y[j] += T(a * x[j]) // the conversion forbids fusing into an FMA, which the assembly does not use
	}
}

// axpy4 computes y[j] = (((y[j] + a0*x0[j]) + a1*x1[j]) + a2*x2[j]) + a3*x3[j]
// for j in [0, len(y)).
func axpy4[T Number](y []T, a0, a1, a2, a3 T, x0, x1, x2, x3 []T) {
	x0, x1, x2, x3 = x0[:len(y)], x1[:len(y)], x2[:len(y)], x3[:len(y)]
	for j := range y {
		t := y[j]
		t += T(a0 * x0[j]) // conversions forbid FMA fusion, as in axpy
		t += T(a1 * x1[j])
		t += T(a2 * x2[j])
		t += T(a3 * x3[j])
		y[j] = t
	}
}

//go:build purego || !amd64

package gemm

type smallUnderTest[T Elem] struct {
	name  string
	kern  smallKernel[T]
	width int
	rows  int
}

func smallKernelsF32() []smallUnderTest[float32] { return nil }
func smallKernelsF64() []smallUnderTest[float64] { return nil }

type gemvHelpers[T float32 | float64] struct {
	dot   func(x, y []T) T
	axpy  func(alpha T, x, y []T)
	dot4  func(a []T, lda int, x []T, out *[4]T)
	axpy4 func(alpha *[4]T, x []T, ldx int, y []T)
}

func gemvSetsF32() ([]string, []gemvHelpers[float32]) { return nil, nil }
func gemvSetsF64() ([]string, []gemvHelpers[float64]) { return nil, nil }

func rowCopiers() []rowCopier { return nil }

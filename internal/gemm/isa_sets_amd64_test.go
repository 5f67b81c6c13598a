//go:build !purego

package gemm

import "github.com/tensor-go/tensor/internal/cpufeat"

// smallUnderTest is one assembly small kernel with the widest n it takes
// and its row tile (rows computed together in its largest block).
type smallUnderTest[T Elem] struct {
	name  string
	kern  smallKernel[T]
	width int
	rows  int
}

// smallKernelsF32 and smallKernelsF64 list the assembly small kernels this
// CPU can run, the reference (bit for bit) first.
func smallKernelsF32() []smallUnderTest[float32] {
	var ks []smallUnderTest[float32]
	if cpufeat.AVX512 {
		ks = append(ks, smallUnderTest[float32]{"avx512", smallF32AVX512K, 16, 8})
	}
	if cpufeat.AVX2FMA {
		ks = append(ks, smallUnderTest[float32]{"avx2", smallF32AVX2, smallWidthF32AVX2, 8})
	}
	return ks
}

func smallKernelsF64() []smallUnderTest[float64] {
	var ks []smallUnderTest[float64]
	if cpufeat.AVX512 {
		ks = append(ks, smallUnderTest[float64]{"avx512", smallF64AVX512K, 8, 8})
	}
	if cpufeat.AVX2FMA {
		ks = append(ks, smallUnderTest[float64]{"avx2", smallF64AVX2, smallWidthF64AVX2, 8})
	}
	return ks
}

// gemvSetsF32 and gemvSetsF64 list the assembly streaming helpers this CPU
// can run, the reference (bit for bit) first.
func gemvSetsF32() (names []string, sets []gemvHelpers[float32]) {
	if cpufeat.AVX512 {
		names, sets = append(names, "avx512"), append(sets, gemvAVX512F32)
	}
	if cpufeat.AVX2FMA {
		names, sets = append(names, "avx2"), append(sets, gemvAVX2F32)
	}
	return names, sets
}

func gemvSetsF64() (names []string, sets []gemvHelpers[float64]) {
	if cpufeat.AVX512 {
		names, sets = append(names, "avx512"), append(sets, gemvAVX512F64)
	}
	if cpufeat.AVX2FMA {
		names, sets = append(names, "avx2"), append(sets, gemvAVX2F64)
	}
	return names, sets
}

// rowCopiers lists the assembly row copies this CPU can run.
func rowCopiers() []rowCopier {
	var rc []rowCopier
	if cpufeat.AVX512 {
		rc = append(rc, rowCopier{"avx512-128", 128, copyRows128AVX512})
	}
	if cpufeat.AVX2FMA {
		rc = append(rc, rowCopier{"avx2-64", 64, copyRows64AVX2})
	}
	return rc
}

package gemm

import "github.com/tensor-go/tensor/internal/kernels"

// smallUnderTest is one assembly small kernel with the widest n it takes
// and its row tile (rows computed together in its largest block).
type smallUnderTest[T Elem] struct {
	name  string
	kern  smallKernel[T]
	width int
	rows  int
}

// smallKernelsF32 and smallKernelsF64 list the assembly small kernels of
// the kernel sets this machine runs, the reference (bit for bit, the best
// set's) first. Every one has a row tile of eight.
func smallKernelsF32() []smallUnderTest[float32] {
	var ks []smallUnderTest[float32]
	for _, v := range kernelSets.Variants() {
		if v.K.smallWidthF32 > 0 {
			ks = append(ks, smallUnderTest[float32]{v.Name(), v.K.smallF32, v.K.smallWidthF32, 8})
		}
	}
	return ks
}

func smallKernelsF64() []smallUnderTest[float64] {
	var ks []smallUnderTest[float64]
	for _, v := range kernelSets.Variants() {
		if v.K.smallWidthF64 > 0 {
			ks = append(ks, smallUnderTest[float64]{v.Name(), v.K.smallF64, v.K.smallWidthF64, 8})
		}
	}
	return ks
}

// gemvSetsF32 and gemvSetsF64 list the assembly streaming helpers of the
// kernel sets this machine runs, the reference (bit for bit) first.
func gemvSetsF32() (names []string, sets []gemvHelpers[float32]) {
	for _, v := range accelerated() {
		names, sets = append(names, v.Name()), append(sets, v.K.gemvF32)
	}
	return names, sets
}

func gemvSetsF64() (names []string, sets []gemvHelpers[float64]) {
	for _, v := range accelerated() {
		names, sets = append(names, v.Name()), append(sets, v.K.gemvF64)
	}
	return names, sets
}

// accelerated returns the kernel sets' entries other than the Go twins.
func accelerated() []kernels.Variant[kernelSet] {
	v := kernelSets.Variants()
	return v[:len(v)-1]
}

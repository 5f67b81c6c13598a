//go:build !purego

package vec

import "github.com/tensor-go/tensor/internal/kernels"

// NEON four-row kernels, in rows_arm64.s; the stride is in elements, as in
// the Go twins. Per iteration the same-type ones load one vector of acc
// and one of each row, chain four FMUL or FADD and store acc; the widening
// ones add eight FCVTL for four float64 accumulators. Five streams of
// memory for four instructions a vector: memory-bound.

//go:noescape
func mulRows4F32NEON(acc, x []float32, stride int)

//go:noescape
func mulRows4F64NEON(acc, x []float64, stride int)

//go:noescape
func addRows4F64NEON(acc, x []float64, stride int)

//go:noescape
func mulRows4F32F64NEON(acc []float64, x []float32, stride int)

//go:noescape
func addRows4F32F64NEON(acc []float64, x []float32, stride int)

// Sums of float32 are carried in float64, so there is no float32 add-rows
// kernel, as on amd64.
func init() {
	mulRowTable.Add(kernels.NEON, rowKernels{
		f32:    rowsTailed(4, mulRows4F32NEON, mulRows4[float32, float32]),
		f64:    rowsTailed(2, mulRows4F64NEON, mulRows4[float64, float64]),
		f32f64: rowsTailed(4, mulRows4F32F64NEON, mulRows4[float64, float32]),
		// The Go twin: the NEON kernel's addressing is not written for a
		// negative stride.
		f32f64Up: mulRows4Up,
	})
	addRowTable.Add(kernels.NEON, rowKernels{
		f32:    addRows4[float32, float32],
		f64:    rowsTailed(2, addRows4F64NEON, addRows4[float64, float64]),
		f32f64: rowsTailed(4, addRows4F32F64NEON, addRows4[float64, float32]),
	})
}

//go:build !purego

package vec

import "github.com/tensor-go/tensor/internal/kernels"

//go:noescape
func rowsPrefix4AVX2(x, o *float32, stride, blocks int, run *[4]float64)

//go:noescape
func rowsSuffix4AVX2(x, o *float32, stride, blocks int, run *[4]float64, s *float32)

//go:noescape
func rowsPrefix4F64AVX2(x, o *float64, stride, blocks int, run *[4]float64)

//go:noescape
func rowsSuffix4F64AVX2(x, o *float64, stride, blocks int, run *[4]float64, s *float64)

func init() {
	// The AVX2 set prefers the passes in place: on Zen 3 (EPYC Milan,
	// family 25 model 1, AVX2 only; session 14) ExclusiveProdMul over
	// the rows of float32 matrices, two goroutines, took 0.51-0.53× the
	// CPU time of the transposed strips at 4096², 0.47 at 64×65536,
	// 0.87 at 1000², 0.67 at 10000×100, 0.75 at 65536×64 and 0.80 at
	// 262144×16 (rows of fewer than 16 keep the root's short-row loops);
	// float64 rows, against the root's four-row Go loops, 0.72-0.80 at
	// 65536×64 and 0.5-0.57 at 64×65536 (below 64, level or slower).
	// The AVX-512 set keeps its transposed strips, measured there; it
	// runs these kernels only in the tests.
	rowsTable.Add(kernels.AVX2, rowsKernels{prefix4: rowsPrefix4AVX2, suffix4: rowsSuffix4AVX2, prefix4F64: rowsPrefix4F64AVX2, suffix4F64: rowsSuffix4F64AVX2, preferred: true})
	rowsTable.Add(kernels.AVX512, rowsKernels{prefix4: rowsPrefix4AVX2, suffix4: rowsSuffix4AVX2, prefix4F64: rowsPrefix4F64AVX2, suffix4F64: rowsSuffix4F64AVX2})
}

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
	// The AVX2 set's passes, from rows of 16 float32 and 64 float64, and
	// its preference for them over the transposed strips, were measured
	// on Zen 3 (EPYC Milan, family 25 model 1, AVX2 only; session 14;
	// BenchmarkExclusiveRowsInPlace, process CPU, two goroutines):
	// ExclusiveProdMul over the rows of float32 matrices took 0.51-0.53
	// of the strips' CPU at 4096², 0.47 at 64×65536, 0.87 at 1000², 0.67
	// at 10000×100, 0.75 at 65536×64 and 0.80 at 262144×16, and 2.5× the
	// Go twins' at rows of 4; float64 rows against the Go twins 0.72-0.80
	// at 65536×64 and 0.5-0.57 at 64×65536, level at rows of 32 and
	// 1.2-1.9× at 16. No Intel AVX2-only core has been measured; on an
	// AVX-512 Xeon (family 6 model 167, Sapphire Rapids caches; session
	// 15; BenchmarkExclusiveRows4, one goroutine, noisy) the float32
	// kernels took 0.45-1.05 of the twins' time at every length from 16,
	// the float64 ones 0.72-0.76 at 16, 1.15-1.35 at 32 and 64 and
	// 0.6-0.95 at 4096, so fromF64 is Zen 3's alone. The AVX-512 set
	// keeps the Go twins and its transposed strips: on that Xeon these
	// kernels in place took 0.87-1.03 of the strips' CPU, and 1.23 at
	// 4096² (BenchmarkExclusiveRowsInPlace with this entry's kernels).
	// It runs them only in the tests (as the AVX2 set).
	rowsTable.Add(kernels.AVX2, rowsKernels{
		prefix4: rowsPrefix4AVX2, suffix4: rowsSuffix4AVX2,
		prefix4F64: rowsPrefix4F64AVX2, suffix4F64: rowsSuffix4F64AVX2,
		fromF32: 16, fromF64: 64, preferred: true,
	})
	rowsTable.Add(kernels.AVX512, rowsGo)
}

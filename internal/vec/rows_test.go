package vec

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tensor-go/tensor/internal/kernels"
)

// checkRows runs a rows function with every kernel set (pick sets the
// implementation from a variant) at lengths around the vector edges, every
// alignment, row counts around the group of four and strides with and
// without a gap between rows, against row-by-row op written out here; acc
// has sentinels on both sides.
func checkRows[A float32 | float64, X float32 | float64](t *testing.T, rows func(acc []A, x []X, rows, stride int),
	table *kernels.Table[rowKernels], op func(a A, x X) A, genA func(*rand.Rand) A, genX func(*rand.Rand) X) {
	defer func(m, a rowKernels) { mulRowImpl, addRowImpl = m, a }(mulRowImpl, addRowImpl)
	r := rand.New(rand.NewPCG(21, 22))
	sentinel := func() A { return A(math.Inf(-1)) }
	size := int(unsafeSizeof[A]())
	for _, v := range table.Variants() {
		table.Use(v.Set)
		for _, n := range testLengths(r, size) {
			for _, off := range testOffsets(n) {
				for _, nrows := range []int{0, 1, 3, 4, 5, 8, 9} {
					stride := n + r.IntN(3)
					x := make([]X, off+nrows*stride+n)[off:]
					for i := range x {
						x[i] = genX(r)
					}
					acc, buf := sliceAt(n, off, sentinel)
					want := make([]A, n)
					for i := range acc {
						acc[i] = genA(r)
						want[i] = acc[i]
					}
					for row := range nrows {
						for i := range want {
							want[i] = op(want[i], x[row*stride+i])
						}
					}
					rows(acc, x, nrows, stride)
					for i, got := range acc {
						if !sameFloat(got, want[i]) {
							t.Fatalf("%s n=%d off=%d rows=%d: acc[%d] = %v, want %v", v.Name(), n, off, nrows, i, got, want[i])
						}
					}
					for i, g := range buf {
						if (i < guard+off || i >= guard+off+n) && !sameFloat(g, sentinel()) {
							t.Fatalf("%s n=%d off=%d rows=%d: guard element %d overwritten", v.Name(), n, off, nrows, i-guard-off)
						}
					}
				}
			}
		}
	}
}

func unsafeSizeof[T float32 | float64]() uintptr {
	var z T
	if _, ok := any(z).(float32); ok {
		return 4
	}
	return 8
}

// sameFloat is equality that also matches NaN with NaN.
func sameFloat[T float32 | float64](x, y T) bool { return x == y || x != x && y != y }

func TestMulRowsF32(t *testing.T) {
	checkRows(t, MulRowsF32, mulRowTable, func(a, x float32) float32 { return a * x }, randF32, randF32)
}

func TestMulRowsF64(t *testing.T) {
	checkRows(t, MulRowsF64, mulRowTable, func(a, x float64) float64 { return a * x }, randF64, randF64)
}

func TestMulRowsF32F64(t *testing.T) {
	checkRows(t, MulRowsF32F64, mulRowTable, func(a float64, x float32) float64 { return a * float64(x) }, randF64, randF32)
}

// MulRowsUpF32F64 takes the rows from the last up: run on the rows in
// reverse order, it gives checkRows's row-by-row products in order.
func TestMulRowsUpF32F64(t *testing.T) {
	reversed := func(acc []float64, x []float32, rows, stride int) {
		n := len(acc)
		if rows == 0 {
			MulRowsUpF32F64(acc, x, rows, stride)
			return
		}
		y := make([]float32, (rows-1)*stride+n)
		for r := range rows {
			copy(y[(rows-1-r)*stride:(rows-1-r)*stride+n], x[r*stride:r*stride+n])
		}
		MulRowsUpF32F64(acc, y, rows, stride)
	}
	checkRows(t, reversed, mulRowTable, func(a float64, x float32) float64 { return a * float64(x) }, randF64, randF32)
}

func TestAddRowsF64(t *testing.T) {
	checkRows(t, AddRowsF64, addRowTable, func(a, x float64) float64 { return a + x }, randF64, randF64)
}

func TestAddRowsF32F64(t *testing.T) {
	checkRows(t, AddRowsF32F64, addRowTable, func(a float64, x float32) float64 { return a + float64(x) }, randF64, randF32)
}

// BenchmarkMulRows compares multiplying 256 rows of 4096 float32 into one
// row of accumulators four rows at a time with row by row.
func BenchmarkMulRows(b *testing.B) {
	const n, rows = 4096, 256
	x := filled(n*rows, float32(1))
	acc := filled(n, float32(1))
	b.SetBytes(4 * n * rows)
	b.Run("rows4", func(b *testing.B) {
		for b.Loop() {
			MulRowsF32(acc, x, rows, n)
		}
	})
	b.Run("rowbyrow", func(b *testing.B) {
		for b.Loop() {
			for r := range rows {
				MulF32(acc, acc, x[r*n:(r+1)*n])
			}
		}
	})
}

package vec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// checkRows runs MulRows with every kernel set at lengths around the
// vector edges, every alignment, row counts around the group of four and
// strides with and without a gap between rows, against row-by-row
// multiplication written out here; acc has sentinels on both sides.
func checkRows[T float32 | float64](t *testing.T, mulRows func(acc, x []T, rows, stride int), gen func(*rand.Rand) T) {
	defer func(saved rowKernels) { rowImpl = saved }(rowImpl)
	r := rand.New(rand.NewPCG(21, 22))
	sentinel := func() T { return T(math.Inf(-1)) }
	size := int(unsafeSizeof[T]())
	for _, v := range rowTable.Variants() {
		rowImpl = v.K
		for _, n := range testLengths(r, size) {
			for _, off := range testOffsets(n) {
				for _, rows := range []int{0, 1, 3, 4, 5, 8, 9} {
					stride := n + r.IntN(3)
					x := make([]T, off+rows*stride+n)[off:]
					for i := range x {
						x[i] = gen(r)
					}
					acc, buf := sliceAt(n, off, sentinel)
					want := make([]T, n)
					for i := range acc {
						acc[i] = gen(r)
						want[i] = acc[i]
					}
					for row := range rows {
						for i := range want {
							want[i] *= x[row*stride+i]
						}
					}
					mulRows(acc, x, rows, stride)
					for i, got := range acc {
						if !sameFloat(got, want[i]) {
							t.Fatalf("%s n=%d off=%d rows=%d: acc[%d] = %v, want %v", v.Name(), n, off, rows, i, got, want[i])
						}
					}
					for i, g := range buf {
						if (i < guard+off || i >= guard+off+n) && !sameFloat(g, sentinel()) {
							t.Fatalf("%s n=%d off=%d rows=%d: guard element %d overwritten", v.Name(), n, off, rows, i-guard-off)
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

func TestMulRowsF32(t *testing.T) { checkRows(t, MulRowsF32, randF32) }
func TestMulRowsF64(t *testing.T) { checkRows(t, MulRowsF64, randF64) }

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

package vec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// checkRowsInto runs a rows-into function with every kernel set at every
// length up to three AVX-512 steps and beyond, every alignment, row counts
// from 1 past RowsIntoMax and strides with and without a gap, against the
// reduction written out here (start, then the rows in order, then the
// rounding); out has sentinels on both sides.
func checkRowsInto[T float32 | float64](t *testing.T, name string, into func(out, x []T, rows, stride int),
	op func(a, x float64) float64, start float64, gen func(*rand.Rand) T, same func(a, b T) bool) {
	defer func(k rowsIntoKernels) { rowsIntoImpl = k }(rowsIntoImpl)
	r := rand.New(rand.NewPCG(31, 32))
	sentinel := func() T { return T(math.Inf(-1)) }
	for _, v := range rowsIntoTable.Variants() {
		rowsIntoTable.Use(v.Set)
		for _, n := range testLengths(r, int(unsafeSizeof[T]())) {
			for _, off := range testOffsets(n) {
				for _, rows := range []int{1, 2, 3, 4, 5, RowsIntoMax, RowsIntoMax + 1} {
					stride := n + r.IntN(3)
					x := make([]T, off+(rows-1)*stride+n)[off:]
					for i := range x {
						x[i] = gen(r)
					}
					out, buf := sliceAt(n, off, sentinel)
					into(out, x, rows, stride)
					for i, got := range out {
						a := start
						for row := range rows {
							a = op(a, float64(x[row*stride+i]))
						}
						if want := T(a); !same(got, want) {
							t.Fatalf("%s %s n=%d off=%d rows=%d: out[%d] = %v, want %v", name, v.Name(), n, off, rows, i, got, want)
						}
					}
					for i, g := range buf {
						if (i < guard+off || i >= guard+off+n) && !same(g, sentinel()) {
							t.Fatalf("%s %s n=%d off=%d rows=%d: guard element %d overwritten", name, v.Name(), n, off, rows, i-guard-off)
						}
					}
				}
			}
		}
	}
}

func TestRowsInto(t *testing.T) {
	add := func(a, x float64) float64 { return a + x }
	mul := func(a, x float64) float64 { return a * x }
	negZero := math.Copysign(0, -1)
	checkRowsInto(t, "SumRowsIntoF32", SumRowsIntoF32, add, negZero, randF32, sameF32)
	checkRowsInto(t, "ProdRowsIntoF32", ProdRowsIntoF32, mul, 1, randF32, sameF32)
	checkRowsInto(t, "SumRowsIntoF64", SumRowsIntoF64, add, negZero, randF64, sameF64)
	checkRowsInto(t, "ProdRowsIntoF64", ProdRowsIntoF64, mul, 1, randF64, sameF64)
}

// BenchmarkRowsInto compares summing three float32 rows of 1000 into a
// float32 row in one pass with filling float64 accumulators, adding the
// rows one after another and rounding (the path it replaces).
func BenchmarkRowsInto(b *testing.B) {
	const n, rows = 1000, 3
	x := filled(n*rows, float32(1))
	out := filled(n, float32(0))
	acc := filled(n, float64(0))
	b.SetBytes(4 * n * (rows + 1))
	b.Run("into", func(b *testing.B) {
		for b.Loop() {
			SumRowsIntoF32(out, x, rows, n)
		}
	})
	b.Run("accumulators", func(b *testing.B) {
		for b.Loop() {
			for i := range acc {
				acc[i] = math.Copysign(0, -1)
			}
			AddRowsF32F64(acc, x, rows, n)
			for i := range out {
				out[i] = float32(acc[i])
			}
		}
	})
}

package vec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// exclusiveRowRef is one row of ExclusiveRows4F32's and ExclusiveRows4F64's
// contract, as written in the former's comment.
func exclusiveRowRef[T float32 | float64](x []T, s T, scaled bool) []T {
	o := make([]T, len(x))
	p := 1.0
	for i, v := range x {
		o[i] = T(p)
		p *= float64(v)
	}
	p = 1
	for i := len(x) - 1; i >= 0; i-- {
		e := T(float64(o[i]) * p)
		if scaled {
			e = s * e
		}
		o[i] = e
		p *= float64(x[i])
	}
	return o
}

// TestExclusiveRows4 checks every set's four-row passes, float32 and
// float64, against the contract at every length from 1 to three blocks of
// four and beyond, with rows apart by more than their length, guard
// elements around and between the rows that must stay untouched, zeros,
// signed zeros, infinities and NaN among the values, with and without
// factors.
func TestExclusiveRows4(t *testing.T) {
	defer func(saved rowsKernels) { rowsImpl = saved }(rowsImpl)
	for _, v := range rowsTable.Variants() {
		rowsImpl = v.K
		k := v.K
		// The set's kernels at every length, below their fromF32 and
		// fromF64 too, and the public functions as they choose.
		checkRows4(t, v.Name(), func(x, o []float32, stride, n int, s []float32) {
			exclusiveRows4(x, o, stride, n, s, k.prefix4, k.suffix4)
		})
		checkRows4(t, v.Name(), func(x, o []float64, stride, n int, s []float64) {
			exclusiveRows4(x, o, stride, n, s, k.prefix4F64, k.suffix4F64)
		})
		checkRows4(t, v.Name()+"/public", ExclusiveRows4F32)
		checkRows4(t, v.Name()+"/public", ExclusiveRows4F64)
	}
}

func checkRows4[T float32 | float64](t *testing.T, set string, rows func(x, o []T, stride, n int, s []T)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(61, 62))
	special := []T{0, T(math.Copysign(0, -1)), T(math.Inf(1)), T(math.Inf(-1)), T(math.NaN()), 1e30, 1e-30}
	const guard = 7
	guardValue := T(-12345)
	for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 16, 37, 100, 257} {
		for _, extra := range []int{0, 3} {
			for _, scaled := range []bool{false, true} {
				for trial := range 3 {
					stride := n + extra
					size := guard + 3*stride + n + guard
					x := make([]T, size)
					o := make([]T, size)
					for i := range x {
						x[i] = T(0.5 + rng.Float64())
						if rng.IntN(2) == 0 {
							x[i] = -x[i]
						}
						if trial > 0 && rng.IntN(8) == 0 {
							x[i] = special[rng.IntN(len(special))]
						}
						o[i] = guardValue
					}
					var s []T
					if scaled {
						s = []T{1.5, -0.25, 3, T(math.Inf(1))}
					}
					rows(x[guard:], o[guard:], stride, n, s)
					name := fmt.Sprintf("%s %T n=%d stride=%d scaled=%v trial=%d", set, x[0], n, stride, scaled, trial)
					inRow := make([]bool, size)
					for r := range 4 {
						at := guard + r*stride
						var f T
						if scaled {
							f = s[r]
						}
						want := exclusiveRowRef(x[at:at+n], f, scaled)
						for i, w := range want {
							inRow[at+i] = true
							got := o[at+i]
							if math.Float64bits(float64(got)) != math.Float64bits(float64(w)) && !(got != got && w != w) {
								t.Fatalf("%s: row %d element %d = %v, want %v", name, r, i, got, w)
							}
						}
					}
					for i, b := range inRow {
						if !b && o[i] != guardValue {
							t.Fatalf("%s: element %d outside the rows written (%v)", name, i, o[i])
						}
					}
				}
			}
		}
	}
}

// TestExclusiveRows4Bounds checks that rows reaching past the slices
// panic before any kernel runs.
func TestExclusiveRows4Bounds(t *testing.T) {
	for _, c := range []struct{ len, stride, n int }{{15, 4, 4}, {16, 3, 4}, {100, 30, 11}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%+v: no panic", c)
				}
			}()
			ExclusiveRows4F32(make([]float32, c.len), make([]float32, c.len), c.stride, c.n, nil)
		}()
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%+v: no panic (float64)", c)
				}
			}()
			ExclusiveRows4F64(make([]float64, c.len), make([]float64, c.len), c.stride, c.n, nil)
		}()
	}
}

// BenchmarkExclusiveRows4 times both passes over the four-row groups of
// float32 and float64 matrices of about 64 MiB (from memory), rows of
// several lengths, with each set's kernels at every length (the Go twins
// are the generic set's): where the kernels start to beat the twins
// (rowsKernels.fromF32, fromF64), in the plain loop a gradient runs.
func BenchmarkExclusiveRows4(b *testing.B) {
	for _, n := range []int{16, 32, 64, 4096} {
		rows := (1 << 24) / n
		x32, o32 := filled(rows*n, float32(1.0001)), make([]float32, rows*n)
		x64, o64 := filled(rows*n/2, 1.0001), make([]float64, rows*n/2)
		s32, s64 := []float32{1, 2, 3, 4}, []float64{1, 2, 3, 4}
		for _, v := range rowsTable.Variants() {
			k := v.K
			b.Run(fmt.Sprintf("f32/%d/%s", n, v.Name()), func(b *testing.B) {
				b.SetBytes(int64(8 * len(x32)))
				for b.Loop() {
					for r := 0; r+4 <= rows; r += 4 {
						exclusiveRows4(x32[r*n:], o32[r*n:], n, n, s32, k.prefix4, k.suffix4)
					}
				}
			})
			b.Run(fmt.Sprintf("f64/%d/%s", n, v.Name()), func(b *testing.B) {
				b.SetBytes(int64(16 * len(x64)))
				for b.Loop() {
					for r := 0; r+4 <= rows/2; r += 4 {
						exclusiveRows4(x64[r*n:], o64[r*n:], n, n, s64, k.prefix4F64, k.suffix4F64)
					}
				}
			})
		}
	}
}

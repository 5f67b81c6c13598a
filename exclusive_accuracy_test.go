package tensor

import (
	"fmt"
	"math"
	"runtime"
	"testing"
)

// exclusiveExact is every element's product of the others in float64 from
// float64 prefix and suffix products: for values near 1 its own error (a
// few 1e-12 relative over 10^5 factors) is far below float32's rounding.
func exclusiveExact(x []float32) []float64 {
	n := len(x)
	prefix := make([]float64, n+1)
	prefix[0] = 1
	for i, v := range x {
		prefix[i+1] = prefix[i] * float64(v)
	}
	out := make([]float64, n)
	suffix := 1.0
	for i := n - 1; i >= 0; i-- {
		out[i] = prefix[i] * suffix
		suffix *= float64(x[i])
	}
	return out
}

// TestExclusiveProdAccuracy: a float32 reduction to one element long
// enough to be split into parts (docs/gradients.md, "Prod's backward"),
// and rows short enough not to be, are within two float32 roundings of
// the exact products of the others (each pass's result is rounded once),
// with one goroutine and with several, for ExclusiveProd and for
// ExclusiveProdMul with a cotangent of 1. The data are semantics §11's
// accuracy workload (values uniform in 1±1e-3).
func TestExclusiveProdAccuracy(t *testing.T) {
	const bound = 0x1p-23 // (1+2^-24)^2 - 1, rounded up
	for _, n := range []int{100_003, 65_536, 40_000, 4097} {
		data := accuracyData(uint64(n), n)
		exact := exclusiveExact(data)
		x := Must(FromSlice(data))
		one := Must(Full(1, Float32))
		for _, procs := range []int{1, 2, 5} {
			prev := runtime.GOMAXPROCS(procs)
			got, err := ExclusiveProd(x)
			gotMul, errMul := ExclusiveProdMul(x, one)
			runtime.GOMAXPROCS(prev)
			if err != nil || errMul != nil {
				t.Fatal(err, errMul)
			}
			for name, r := range map[string]*Tensor{"ExclusiveProd": got, "ExclusiveProdMul": gotMul} {
				vals, err := ToSlice[float32](r)
				if err != nil {
					t.Fatal(err)
				}
				worst, at := 0.0, 0
				for i, v := range vals {
					if e := math.Abs(float64(v)-exact[i]) / math.Abs(exact[i]); e > worst {
						worst, at = e, i
					}
				}
				if worst > bound {
					t.Errorf("%s of %d elements at GOMAXPROCS %d: relative error %.3g at %d (got %v, exact %v), want ≤ %.3g",
						name, n, procs, worst, at, vals[at], exact[at], bound)
				}
			}
		}
	}
}

// The same bound holds over the first axis of a matrix whose columns are
// long (the transposed strips) and over the last axis of rows (the
// sequential passes), against each column's or row's own exact products.
func TestExclusiveProdAccuracyAxes(t *testing.T) {
	const bound = 0x1p-23
	const rows, cols = 3000, 37
	data := accuracyData(7, rows*cols)
	x := Must(FromSlice(data, rows, cols))
	for _, axis := range []int{0, 1} {
		got := Must(ExclusiveProd(x, Axis(axis)))
		vals, _ := ToSlice[float32](got)
		lines, length, step, stride := cols, rows, cols, 1 // axis 0: line j is column j
		if axis == 1 {
			lines, length, step, stride = rows, cols, 1, cols
		}
		for l := 0; l < lines; l++ {
			line := make([]float32, length)
			for i := range line {
				line[i] = data[l*stride+i*step]
			}
			exact := exclusiveExact(line)
			for i, e := range exact {
				if v := float64(vals[l*stride+i*step]); math.Abs(v-e)/math.Abs(e) > bound {
					t.Fatalf("%s: line %d element %d: got %v, exact %v", fmt.Sprint("axis ", axis), l, i, v, e)
				}
			}
		}
	}
}

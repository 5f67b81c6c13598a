package tensor

import (
	"encoding/json"
	"math"
	"math/cmplx"
	"os"
	"runtime"
	"strconv"
	"testing"
)

// accuracyData is the workload of semantics §11 and testdata/gen_accuracy.py:
// n float32 values uniform in 1±1e-3 from SplitMix64, computed as the
// script computes them.
func accuracyData(seed uint64, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		z := seed + uint64(i)*0x9E3779B97F4A7C15
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		z ^= z >> 31
		u := float64(z>>40) / (1 << 24)
		x[i] = float32(0.999 + float64(0.002*u)) // no fused multiply-add: the script's rounding
	}
	return x
}

// TestReductionAccuracy: over 20 seeds of 10^6 and 16·10^6 values, the
// largest relative error of the float32 Prod and Sum is no larger than
// NumPy's on the same data (testdata/accuracy_numpy.json), against the
// float64 product or sum of the same values; it is within one rounding of
// float32 (no drift with n); and the result has the same bits with one
// goroutine and with several. The 16·10^6 size is skipped with -short.
func TestReductionAccuracy(t *testing.T) {
	raw, err := os.ReadFile("testdata/accuracy_numpy.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Seeds int
		Sizes map[string]struct{ Prod, Sum float64 }
	}
	if err := json.Unmarshal(raw, &golden); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1_000_000, 16_000_000} {
		if testing.Short() && n > 1_000_000 {
			continue
		}
		numpy := golden.Sizes[strconv.Itoa(n)]
		var worstProd, worstSum float64
		for seed := uint64(1); seed <= uint64(golden.Seeds); seed++ {
			data := accuracyData(seed, n)
			refP, refS := 1.0, 0.0
			for _, v := range data {
				refP *= float64(v)
				refS += float64(v)
			}
			x := Must(FromSlice(data))
			var prods, sums [2]float32
			for k, procs := range []int{1, max(2, runtime.NumCPU())} {
				old := runtime.GOMAXPROCS(procs)
				prods[k] = contiguousData[float32](Must(Prod(x)))[0]
				sums[k] = contiguousData[float32](Must(Sum(x)))[0]
				runtime.GOMAXPROCS(old)
			}
			if math.Float32bits(prods[0]) != math.Float32bits(prods[1]) || math.Float32bits(sums[0]) != math.Float32bits(sums[1]) {
				t.Errorf("n=%d seed %d: results depend on the number of goroutines: prod %v / %v, sum %v / %v",
					n, seed, prods[0], prods[1], sums[0], sums[1])
			}
			worstProd = max(worstProd, math.Abs(float64(prods[0])-refP)/refP)
			worstSum = max(worstSum, math.Abs(float64(sums[0])-refS)/refS)
		}
		// One rounding to float32 (2^-24) plus the reference's own error.
		const oneRounding = 0x1p-24 * 1.01
		if worstProd > numpy.Prod || worstProd > oneRounding {
			t.Errorf("n=%d: float32 prod relative error up to %.3g, NumPy's %.3g", n, worstProd, numpy.Prod)
		}
		if worstSum > numpy.Sum || worstSum > oneRounding {
			t.Errorf("n=%d: float32 sum relative error up to %.3g, NumPy's %.3g", n, worstSum, numpy.Sum)
		}
		t.Logf("n=%d: largest relative error prod %.3g (NumPy %.3g), sum %.3g (NumPy %.3g)", n, worstProd, numpy.Prod, worstSum, numpy.Sum)
	}
}

// TestReductionAccuracyNarrowAndComplex: float16, bfloat16 and complex64
// products and sums of 20000 values near 1 (a float16 sum stays below its
// largest finite value) are within one rounding of the result dtype of the
// float64 (complex128) reference.
func TestReductionAccuracyNarrowAndComplex(t *testing.T) {
	const n = 20_000
	data := accuracyData(7, 2*n)
	for _, c := range []struct {
		dt  DType
		ulp float64
	}{{Float16, 0x1p-11}, {BFloat16, 0x1p-8}} {
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = float64(data[i])
		}
		x := mpFromFloat64s(c.dt, vals)
		refP, refS := 1.0, 0.0
		for i := range n {
			v := mpFloatAt(x, i) // the rounded element
			refP *= v
			refS += v
		}
		if g := mpFloatAt(Must(Prod(x)), 0); math.Abs(g-refP) > c.ulp*1.01*refP {
			t.Errorf("%v prod = %v, reference %v", c.dt, g, refP)
		}
		if g := mpFloatAt(Must(Sum(x)), 0); math.Abs(g-refS) > c.ulp*1.01*refS {
			t.Errorf("%v sum = %v, reference %v", c.dt, g, refS)
		}
	}
	zs := make([]complex64, n)
	refP, refS := complex128(1), complex128(0)
	for i := range zs {
		zs[i] = complex(data[i], data[n+i]-1) // modulus near 1, phase near 0
		refP *= complex128(zs[i])
		refS += complex128(zs[i])
	}
	x := Must(FromSlice(zs))
	if g := complex128(contiguousData[complex64](Must(Prod(x)))[0]); cmplx.Abs(g-refP) > 0x1p-23*cmplx.Abs(refP) {
		t.Errorf("complex64 prod = %v, reference %v", g, refP)
	}
	if g := complex128(contiguousData[complex64](Must(Sum(x)))[0]); cmplx.Abs(g-refS) > 0x1p-23*cmplx.Abs(refS) {
		t.Errorf("complex64 sum = %v, reference %v", g, refS)
	}
}

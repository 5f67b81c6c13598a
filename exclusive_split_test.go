package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// splitReference is the order exclusiveRowsSplit documents, one row at a
// time in plain Go: parts of m, each part's total from its last element
// to its first, the prefix passes starting from the totals before, the
// suffix passes from the tail and the totals after.
func splitReference(x []float32, f float32, scaled bool, part int) []float32 {
	n := len(x)
	parts := 32 * ((n + 32*part - 1) / (32 * part))
	m := n / parts
	body := parts * m
	tot := make([]float64, parts)
	for i := range tot {
		t := 1.0
		for j := (i+1)*m - 1; j >= i*m; j-- {
			t *= float64(x[j])
		}
		tot[i] = t
	}
	start := make([]float64, parts+1)
	start[0] = 1
	for i := range tot {
		start[i+1] = start[i] * tot[i]
	}
	end := make([]float64, parts+1) // end[i]: where part i's suffix starts; end[parts]: the tail's
	end[parts] = 1
	q := 1.0
	for j := n - 1; j >= body; j-- {
		q *= float64(x[j])
	}
	end[parts-1] = q
	for i := parts - 2; i >= 0; i-- {
		end[i] = end[i+1] * tot[i+1]
	}
	o := make([]float32, n)
	pass := func(lo, hi int, pre, suf float64) {
		for j := lo; j < hi; j++ {
			o[j] = float32(pre)
			pre *= float64(x[j])
		}
		for j := hi - 1; j >= lo; j-- {
			e := float32(float64(o[j]) * suf)
			if scaled {
				e = f * e
			}
			o[j] = e
			suf *= float64(x[j])
		}
	}
	for i := range parts {
		pass(i*m, (i+1)*m, start[i], end[i])
	}
	pass(body, n, start[parts], 1)
	return o
}

// withSplit runs f with rows of at least 64 split into parts of at most
// part (0: the default parts), and the transposed strips' bands or
// segments of band rows from rows of 16 on (mode 1, 2; 0: neither).
func withSplit(part, mode, band int, f func()) {
	oldFrom, oldPart, oldAbove, oldSeg, oldBand, oldInPlace := rowSplitFrom, rowSplitPart, transposedBandsAbove, transposedSegmentsAbove, transposedBandRows, rowsInPlace
	defer func() {
		rowSplitFrom, rowSplitPart, transposedBandsAbove, transposedSegmentsAbove, transposedBandRows, rowsInPlace = oldFrom, oldPart, oldAbove, oldSeg, oldBand, oldInPlace
	}()
	rowsInPlace = func() bool { return false }
	rowSplitFrom = 64
	if part > 0 {
		rowSplitPart = func() int { return part }
	}
	switch mode {
	case 1:
		transposedBandsAbove, transposedBandRows = func() int { return 16 }, band
	case 2:
		transposedBandsAbove, transposedSegmentsAbove, transposedBandRows = func() int { return 16 }, func() int { return 16 }, band
	}
	f()
}

// Few long rows are split into parts in the documented order: the bits
// of splitReference, with and without the factor, at several goroutine
// counts, for parts in one strip kernel call, in bands and in segments.
func TestExclusiveRowsSplitOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	shapes := [][]int{{1, 64}, {1, 1000}, {3, 777}, {31, 300}, {2, 4, 650}, {1, 5003}}
	for _, cfg := range []struct{ part, mode, band int }{{20, 0, 0}, {3, 0, 0}, {100, 0, 0}, {0, 0, 0}, {40, 1, 7}, {40, 2, 5}, {70, 2, 16}} {
		for _, s := range shapes {
			n := 1
			for _, d := range s {
				n *= d
			}
			vals := sprinkled(rng, n)
			for i := range vals {
				if rng.IntN(8) != 0 { // fewer specials than sprinkled's, so that most rows keep finite products
					vals[i] = 0.9 + 0.2*rng.Float64()
				}
			}
			x := Must(Must(FromSlice(vals, s...)).AsType(Float32))
			axis := len(s) - 1
			gs := Must(Prod(x, Axis(axis)))
			gv := Must(Must(FromSlice(sprinkled(rng, gs.Size()), gs.Shape()...)).AsType(Float32))
			xs, _ := ToSlice[float32](x)
			fs, _ := ToSlice[float32](gv)
			row := s[axis]
			part := cfg.part
			if part == 0 {
				part = transposedMaxRow()
			}
			want, wantMul := make([]float32, 0, n), make([]float32, 0, n)
			for r := 0; r < n/row; r++ {
				want = append(want, splitReference(xs[r*row:(r+1)*row], 0, false, part)...)
				wantMul = append(wantMul, splitReference(xs[r*row:(r+1)*row], fs[r], true, part)...)
			}
			for _, procs := range []int{1, 3} {
				name := fmt.Sprintf("part %d mode %d band %d %s", cfg.part, cfg.mode, cfg.band, shapeName(s, axis, procs))
				var got, gotMul *Tensor
				var err, errMul error
				withSplit(cfg.part, cfg.mode, cfg.band, func() {
					prev := runtime.GOMAXPROCS(procs)
					got, err = ExclusiveProd(x, Axis(axis))
					gotMul, errMul = ExclusiveProdMul(x, gv, Axis(axis))
					runtime.GOMAXPROCS(prev)
				})
				if err != nil || errMul != nil {
					t.Fatal(err, errMul)
				}
				sameBits(t, "split ExclusiveProd "+name, got, Must(FromSlice(want, s...)))
				sameBits(t, "split ExclusiveProdMul "+name, gotMul, Must(FromSlice(wantMul, s...)))
			}
		}
	}
}

// A split row gives the exact results wherever a zero, a signed zero, an
// infinity or NaN falls, at the edges of parts and of the tail and
// inside them, and the product of the others within float32 rounding.
func TestExclusiveRowsSplitExact(t *testing.T) {
	const n = 3001 // parts of 20: 160 parts of 18, a tail of 121
	rng := rand.New(rand.NewPCG(43, 44))
	base := make([]float64, n)
	for i := range base {
		base[i] = 0.999 + 0.002*rng.Float64()
	}
	inf, nan, negZero := math.Inf(1), math.NaN(), math.Copysign(0, -1)
	positions := []int{0, 1, 17, 18, 31, 32, 1000, 2879, 2880, 2881, n - 1}
	check := func(name string, vals []float64, special map[int]bool, wantOther func(j int) float64) {
		t.Helper()
		x := Must(Must(FromSlice(vals, n)).AsType(Float32))
		for _, part := range []int{20, 0} {
			var got *Tensor
			withSplit(part, 0, 0, func() { got = Must(ExclusiveProd(x)) })
			g, _ := ToSlice[float32](got)
			for j := range n {
				var want float64
				if special[j] || wantOther == nil {
					want = 1
					for i, v := range vals {
						if i != j {
							want *= float64(float32(v))
						}
					}
				} else {
					want = wantOther(j)
				}
				v := float64(g[j])
				switch {
				case math.IsNaN(want):
					if !math.IsNaN(v) {
						t.Fatalf("%s part %d: element %d = %v, want NaN", name, part, j, v)
					}
				case math.IsInf(want, 0) || want == 0:
					if v != want || math.Signbit(v) != math.Signbit(want) {
						t.Fatalf("%s part %d: element %d = %v, want %v", name, part, j, v, want)
					}
				default:
					if math.Abs(v-want) > 1e-6*math.Abs(want) {
						t.Fatalf("%s part %d: element %d = %v, want %v", name, part, j, v, want)
					}
				}
			}
		}
	}
	for _, k := range positions {
		for _, sv := range []struct {
			name  string
			v     float64
			other float64
		}{{"zero", 0, 0}, {"-0", negZero, negZero}, {"inf", inf, inf}, {"nan", nan, nan}} {
			vals := append([]float64(nil), base...)
			vals[k] = sv.v
			check(fmt.Sprintf("%s at %d", sv.name, k), vals, map[int]bool{k: true}, func(int) float64 { return sv.other })
		}
		k2 := (k + 1500) % n
		vals := append([]float64(nil), base...)
		vals[k], vals[k2] = 0, 0
		check(fmt.Sprintf("zeros at %d, %d", k, k2), vals, nil, func(int) float64 { return 0 })
		vals[k2] = inf
		check(fmt.Sprintf("zero at %d, inf at %d", k, k2), vals, nil, func(j int) float64 {
			switch j {
			case k:
				return inf
			case k2:
				return 0
			}
			return nan
		})
	}
	check("no specials", base, nil, nil)
}

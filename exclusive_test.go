package tensor

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

func TestExclusiveProdExact(t *testing.T) {
	inf, nan, negz := math.Inf(1), math.NaN(), math.Copysign(0, -1)
	for _, c := range []struct{ x, want []float64 }{
		{[]float64{2, 0, 4}, []float64{0, 8, 0}},
		{[]float64{0, 3, 0}, []float64{0, 0, 0}},
		{[]float64{inf, 1, 2}, []float64{2, inf, inf}},
		{[]float64{negz, 3}, []float64{3, negz}},
		{[]float64{nan, 2, 3}, []float64{6, nan, nan}},
		{[]float64{7}, []float64{1}},
	} {
		for _, dt := range []DType{Float64, Float32, Float16, BFloat16, Complex64, Complex128} {
			if dt.IsComplex() && slices.ContainsFunc(c.x, func(v float64) bool { return math.IsInf(v, 0) }) {
				// (inf+0i)(1+0i) is inf+NaN·i by §5's formula, as Prod's
				// own complex products are.
				continue
			}
			x := Must(Must(FromSlice(c.x)).AsType(dt))
			e, err := ExclusiveProd(x)
			if err != nil {
				t.Fatal(err)
			}
			if e.DType() != dt {
				t.Fatalf("dtype %v, want %v", e.DType(), dt)
			}
			got, _ := ToSlice[float64](Must(e.AsType(Float64)))
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(c.want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(c.want[i])) {
					t.Errorf("%v ExclusiveProd(%v) = %v, want %v", dt, c.x, got, c.want)
					break
				}
			}
		}
	}
	if _, err := ExclusiveProd(Must(FromSlice([]int32{1}))); !errors.Is(err, ErrDType) {
		t.Fatalf("int32: %v", err)
	}
	if _, err := ExclusiveProd(Must(Zeros(Float32, 2)), Axis(1)); !errors.Is(err, ErrAxis) {
		t.Fatalf("bad axis: %v", err)
	}
}

// Against the definition, on views, over every choice of axes, and with
// the same bits on one goroutine as on several.
func TestExclusiveProdAxes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := []int{3, 40, 5, 300}
	data := make([]float64, 3*40*5*300)
	for i := range data {
		data[i] = 0.5 + rng.Float64()
		if rng.IntN(50) == 0 {
			data[i] = 0
		}
	}
	x := Must(Must(FromSlice(data, s...)).Slice(All(), All().By(-1)))
	for _, axes := range [][]int{{0}, {1}, {3}, {1, 2}, {0, 3}, {0, 1, 2, 3}, {}} {
		old := runtime.GOMAXPROCS(1)
		one := Must(ExclusiveProd(x, Axis(axes...)))
		runtime.GOMAXPROCS(4)
		many := Must(ExclusiveProd(x, Axis(axes...)))
		runtime.GOMAXPROCS(old)
		a, _ := ToSlice[float64](one)
		b, _ := ToSlice[float64](many)
		if !slices.Equal(a, b) {
			t.Fatalf("axes %v: results depend on GOMAXPROCS", axes)
		}
		// Definition: prod of the group divided out by brute force, at a
		// few positions.
		xs, _ := ToSlice[float64](x)
		st := []int{40 * 5 * 300, 5 * 300, 300, 1}
		for probe := 0; probe < 20; probe++ {
			pos := rng.IntN(len(xs))
			idx := []int{pos / st[0], pos / st[1] % 40, pos / st[2] % 5, pos % 300}
			want := 1.0
			var walk func(d int, cur []int)
			walk = func(d int, cur []int) {
				if d == 4 {
					if !slices.Equal(cur, idx) {
						want *= xs[cur[0]*st[0]+cur[1]*st[1]+cur[2]*st[2]+cur[3]]
					}
					return
				}
				if slices.Contains(axes, d) {
					for i := range s[d] {
						walk(d+1, append(slices.Clone(cur), i))
					}
				} else {
					walk(d+1, append(slices.Clone(cur), idx[d]))
				}
			}
			walk(0, nil)
			if got := a[pos]; math.Abs(got-want) > 1e-12*math.Abs(want) {
				t.Fatalf("axes %v at %v: %v, want %v", axes, idx, got, want)
			}
		}
	}
}

// The vector and transposed paths give the exact tables too.
func TestExclusiveProdExactWide(t *testing.T) {
	inf, nan, negz := math.Inf(1), math.NaN(), math.Copysign(0, -1)
	cols := [][2][3]float64{
		{{2, 0, 4}, {0, 8, 0}}, {{0, 3, 0}, {0, 0, 0}}, {{inf, 1, 2}, {2, inf, inf}},
		{{negz, 3, 1}, {3, negz, negz}}, {{nan, 2, 3}, {6, nan, nan}},
	}
	const width = 70 // over transposeGroups
	data := make([]float64, 3*width)
	want := make([]float64, 3*width)
	for j := range width {
		c := cols[j%len(cols)]
		for i := range 3 {
			data[i*width+j], want[i*width+j] = c[0][i], c[1][i]
		}
	}
	for _, dt := range []DType{Float32, Float64} {
		x := Must(Must(FromSlice(data, 3, width)).AsType(dt))
		for _, tc := range []struct {
			x    *Tensor
			axis int
		}{{x, 0}, {Must(x.Transpose().Contiguous()), 1}} {
			e := Must(ExclusiveProd(tc.x, Axis(tc.axis)))
			if tc.axis == 1 {
				e = e.Transpose()
			}
			got, _ := ToSlice[float64](Must(e.AsType(Float64)))
			for k := range got {
				if math.Float64bits(got[k]) != math.Float64bits(want[k]) && !(math.IsNaN(got[k]) && math.IsNaN(want[k])) {
					t.Fatalf("%v axis %d: element %d = %v, want %v", dt, tc.axis, k, got[k], want[k])
				}
			}
		}
	}
}

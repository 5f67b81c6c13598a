package tensor

import (
	"errors"
	"math"
	"testing"
)

func TestEqual(t *testing.T) {
	x := arangeShaped(t, 2, 3)
	nan := math.NaN()
	f := Must(FromSlice([]float64{1, nan, -0.0}))
	g := Must(FromSlice([]float64{1, nan, 0}))
	cases := []struct {
		a, b *Tensor
		opts []CompareOption
		want bool
	}{
		{x, Must(x.Clone()), nil, true},
		{x, Must(x.Transpose().Contiguous()).Transpose(), nil, true}, // other strides, same elements
		{x, Must(x.AsType(Int32)), nil, false},                       // dtype differs
		{x, Must(x.Reshape(3, 2)), nil, false},                       // shape differs
		{x, Must(x.Reshape(6)), nil, false},
		{f, g, nil, false},                        // NaN != NaN
		{f, g, []CompareOption{EqualNaN()}, true}, // and -0 == 0
		{Must(FromSlice([]float32{1, 2})), Must(FromSlice([]float32{1, 2.0000002})), nil, false},
		{Must(FromSlice([]complex64{complex(1, float32(nan))})), Must(FromSlice([]complex64{complex(float32(nan), 2)})), []CompareOption{EqualNaN()}, true},
		{Must(FromSlice([]bool{true, false})), Must(FromSlice([]bool{true, false})), nil, true},
		{Must(FromSlice([]uint64{1<<63 + 1})), Must(FromSlice([]uint64{1 << 63})), nil, false}, // beyond float64's integers
		{Must(FromNested([][]float64{{0, 1}, {2, 0}})), Must(Must(FromNested([][]float64{{0, 1}, {2, 0}})).ToSparseCSR()), nil, true},
		{Must(Zeros(Int8, 0, 3)), Must(Zeros(Int8, 0, 3)), nil, true},
		{nil, nil, nil, true},
		{x, nil, nil, false},
	}
	for i, c := range cases {
		if got := Equal(c.a, c.b, c.opts...); got != c.want {
			t.Errorf("case %d: Equal(%v, %v) = %v", i, c.a, c.b, got)
		}
	}
}

func TestAllClose(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	v := func(xs ...float64) *Tensor { return Must(FromSlice(xs)) }
	cases := []struct {
		a, b *Tensor
		opts []CompareOption
		want bool
	}{
		{v(1, 2), v(1+1e-6, 2), nil, true},
		{v(1, 2), v(1+1e-4, 2), nil, false},
		{v(1e-9), v(0), nil, true},  // within atol
		{v(1e-7), v(0), nil, false}, // beyond it
		{v(1e-7), v(0), []CompareOption{ATol(1e-6)}, true},
		{v(101), v(100), []CompareOption{RTol(0.01)}, true}, // |a-b| ≤ rtol·|b| with b the reference
		{v(100), v(101), []CompareOption{RTol(0.00995), ATol(0)}, true},
		{v(101), v(100), []CompareOption{RTol(0.00995), ATol(0)}, false},
		{v(inf, -inf), v(inf, -inf), nil, true},
		{v(inf), v(-inf), nil, false},
		{v(inf), v(1e308), nil, false},
		{v(nan), v(nan), nil, false},
		{v(nan), v(nan), []CompareOption{EqualNaN()}, true},
		{Must(FromNested([][]float32{{1, 2}, {1, 2}})), Must(FromSlice([]int32{1, 2})), nil, true}, // broadcast, mixed dtypes
		{Must(FromSlice([]complex128{1 + 1i})), Must(FromSlice([]complex128{1 + 1.00001i})), nil, true},
		{Must(FromSlice([]complex128{1 + 1i})), v(1), nil, false},
		{Must(FromSlice([]bool{true})), v(1), nil, true},
	}
	for i, c := range cases {
		got, err := AllClose(c.a, c.b, c.opts...)
		if err != nil || got != c.want {
			t.Errorf("case %d: AllClose(%v, %v) = %v, %v, want %v", i, c.a, c.b, got, err, c.want)
		}
	}
	for _, c := range []struct {
		a, b *Tensor
		opts []CompareOption
		want error
	}{
		{v(1, 2, 3), v(1, 2), nil, ErrShape},
		{v(1), nil, nil, ErrValue},
		{v(1), v(1), []CompareOption{RTol(-1)}, ErrValue},
		{v(1), v(1), []CompareOption{ATol(math.NaN())}, ErrValue},
	} {
		if _, err := AllClose(c.a, c.b, c.opts...); !errors.Is(err, c.want) {
			t.Errorf("AllClose(%v, %v) error %v, want %v", c.a, c.b, err, c.want)
		}
	}
}

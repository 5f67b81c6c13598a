package tensor

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/shape"
)

// rawBytes returns the bytes of a contiguous t's elements.
func rawBytes(t *Tensor) []byte {
	n := t.Size() * t.dtype.Size()
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(firstElement(t)), n)
}

// tinyOperand is a contiguous tensor of shape s whose elements are random
// bits (NaN, ±inf, −0 and subnormals included) when wild is set, else
// values near 1 so that products and sums stay finite.
func tinyOperand(t *testing.T, rng *rand.Rand, dt DType, wild bool, s ...int) *Tensor {
	if wild || dt == Bool {
		return randomBits(t, rng, dt, s...)
	}
	lo, hi := 0.9, 1.1
	if dt.IsInteger() {
		lo, hi = -3, 4
	}
	x, err := Rand(rng.Uint64(), dt, lo, hi, s...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// The whole reduction of a small contiguous tensor takes a path of its own
// (reduceAllSmall); it gives the general path's bits, which naming every
// axis takes, for every dtype, shape and kind of value.
func TestReduceAllSmallSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	shapes := [][]int{{1}, {2}, {3}, {7}, {16}, {17}, {100}, {1000}, {4097}, {3, 5}, {2, 3, 4}, {1, 1, 1, 1}, {4, 1, 9}}
	for _, r := range []struct {
		name   string
		reduce func(*Tensor, ...ReduceOption) (*Tensor, error)
	}{{"sum", Sum}, {"prod", Prod}} {
		for _, dt := range dtype.All {
			for _, s := range shapes {
				for _, wild := range []bool{false, true} {
					x := tinyOperand(t, rng, dt, wild, s...)
					axes := make([]int, len(s))
					for i := range axes {
						axes[i] = i
					}
					got, err := r.reduce(x)
					if err != nil {
						t.Fatalf("%s %v %v: %v", r.name, dt, s, err)
					}
					want, err := r.reduce(x, Axis(axes...))
					if err != nil {
						t.Fatalf("%s %v %v over every axis: %v", r.name, dt, s, err)
					}
					if got.dtype != want.dtype || got.NDim() != 0 || !bytes.Equal(rawBytes(got), rawBytes(want)) {
						t.Fatalf("%s %v %v (wild %v): got %v %v, want %v %v", r.name, dt, s, wild, got.dtype, got, want.dtype, want)
					}
				}
			}
		}
	}
}

// Calls on small tensors allocate the result's header (with its shape,
// strides and, for a single element, its storage) and storage, and little
// else; the bounds are today's counts, so that an allocation added to the
// per-call path fails here rather than only slowing BenchmarkTiny.
func TestTinyCallAllocations(t *testing.T) {
	if mmRaceEnabled {
		t.Skip("the race detector allocates")
	}
	rng := rand.New(rand.NewPCG(17, 18))
	x, y := tinyOperand(t, rng, Float32, false, 256), tinyOperand(t, rng, Float32, false, 256)
	m := tinyOperand(t, rng, Float32, false, 16, 16)
	row, xi := tinyOperand(t, rng, Float32, false, 16), tinyOperand(t, rng, Int32, false, 256)
	col, line := tinyOperand(t, rng, Float32, false, 16, 1), tinyOperand(t, rng, Float32, false, 1, 16)
	cube, col4 := tinyOperand(t, rng, Float32, false, 4, 4, 16), tinyOperand(t, rng, Float32, false, 4, 1)
	out, outm := tinyOperand(t, rng, Float32, false, 256), tinyOperand(t, rng, Float32, false, 16, 16)
	mT := m.Transpose()
	for _, c := range []struct {
		name string
		max  float64
		call func() (*Tensor, error)
	}{
		{"mul", 2, func() (*Tensor, error) { return Mul(x, y) }},
		{"add", 2, func() (*Tensor, error) { return Add(x, y) }},
		{"sub", 2, func() (*Tensor, error) { return Sub(x, y) }},
		{"neg", 2, func() (*Tensor, error) { return Neg(x) }},
		{"mul scalar", 2, func() (*Tensor, error) { return Mul(x, 2.0) }},
		{"mul row", 2, func() (*Tensor, error) { return Mul(m, row) }},
		{"mul transposed", 2, func() (*Tensor, error) { return Mul(m, m.Transpose()) }},
		{"mul float32 int32", 2, func() (*Tensor, error) { return Mul(x, xi) }},
		{"mul outer", 2, func() (*Tensor, error) { return Mul(col, line) }},
		{"mul column of a 3-d", 2, func() (*Tensor, error) { return Mul(cube, col4) }},
		{"mulinto", 0, func() (*Tensor, error) { return out, MulInto(out, x, y) }},
		{"addinto in place", 0, func() (*Tensor, error) { return out, AddInto(out, out, y) }},
		{"subinto row", 0, func() (*Tensor, error) { return outm, SubInto(outm, m, row) }},
		{"mulinto transposed", 0, func() (*Tensor, error) { return outm, MulInto(outm, m, mT) }},
		{"neginto", 0, func() (*Tensor, error) { return out, NegInto(out, x) }},
		{"astype", 2, func() (*Tensor, error) { return x.AsType(Float64) }},
		{"reshape", 1, func() (*Tensor, error) { return x.Reshape(16, -1) }},
		{"transpose", 1, func() (*Tensor, error) { return m.Transpose(), nil }},
		{"slice", 1, func() (*Tensor, error) { return m.Slice(Span(2, 9), All().By(2)) }},
		{"sum", 1, func() (*Tensor, error) { return Sum(x) }},
		{"prod", 1, func() (*Tensor, error) { return Prod(m) }},
		{"prod axis 0", 10, func() (*Tensor, error) { return Prod(m, Axis(0)) }},
		{"sum axis -1", 16, func() (*Tensor, error) { return Sum(m, Axis(-1), KeepDims(true)) }},
	} {
		allocs := testing.AllocsPerRun(100, func() {
			if _, err := c.call(); err != nil {
				t.Fatal(err)
			}
		})
		if allocs > c.max {
			t.Errorf("%s: %v allocations per call, want at most %v", c.name, allocs, c.max)
		}
	}
}

// The element-wise operations check their operands in the same order
// whichever path then computes them (operands of one layout take a short
// one): an unusable operand before a sparse one, the first unusable one
// named, and the into-forms' output first.
func TestElementwiseCheckOrder(t *testing.T) {
	x := Must(Rand(1, Float32, 0, 1, 3, 4))
	y := Must(Rand(2, Float32, 0, 1, 3, 4))
	released := Must(Rand(3, Float32, 0, 1, 3, 4))
	released.Release()
	sp := Must(x.ToSparseCSR())
	var zero Tensor
	out := Must(Zeros(Float32, 3, 4))
	for _, c := range []struct {
		name  string
		err   error
		class error
		text  string
	}{
		{"add released", func() error { _, err := Add(x, released); return err }(), ErrReleased, "was released"},
		{"add sparse then released", func() error { _, err := Add(sp, released); return err }(), ErrReleased, "was released"},
		{"add sparse", func() error { _, err := Add(x, sp); return err }(), ErrLayout, "ToDense first"},
		{"sub zero value", func() error { _, err := Sub(&zero, y); return err }(), ErrValue, "zero value Tensor{}"},
		{"mul nil", func() error { _, err := Mul(x, (*Tensor)(nil)); return err }(), ErrValue, "nil *Tensor"},
		{"mul released", func() error { _, err := Mul(released, y); return err }(), ErrReleased, "was released"},
		{"mulinto released output", MulInto(released, x, y), ErrReleased, "was released"},
		{"addinto sparse output", AddInto(sp, x, y), ErrLayout, "ToDense first"},
		{"addinto released input", AddInto(out, x, released), ErrReleased, "was released"},
		{"subinto wrong dtype", SubInto(Must(Zeros(Int32, 3, 4)), x, y), ErrDType, "cannot write the float32 result"},
		{"mulinto broadcast output", MulInto(Must(Must(Zeros(Float32, 4)).BroadcastTo(3, 4)), x, y), ErrLayout, "broadcast along dimension 0"},
		{"neginto released", NegInto(out, released), ErrReleased, "was released"},
	} {
		if c.err == nil || !errors.Is(c.err, c.class) || !strings.Contains(c.err.Error(), c.text) {
			t.Errorf("%s: %v, want %v saying %q", c.name, c.err, c.class, c.text)
		}
	}
	// The short path's results are the general path's: the same sums
	// computed through a strided view of the same elements.
	got := Must(Add(x, y))
	want := Must(Add(Must(x.Transpose().Contiguous()).Transpose(), y))
	if !bytes.Equal(rawBytes(got), rawBytes(Must(want.Contiguous()))) {
		t.Fatalf("Add of contiguous operands %v, through a view %v", got, want)
	}
}

// A Go number beside a small contiguous tensor is passed to the kernel by
// value (elementwiseValue); the results are the bits of the 0-d tensor the
// general path makes, on either side, for every dtype and value.
func TestScalarOperandByValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	ops := []struct {
		name string
		f    func(x, y any) (*Tensor, error)
	}{{"mul", Mul}, {"add", Add}, {"sub", Sub}}
	for _, dt := range dtype.All {
		for _, s := range []any{3, 100000, int64(1<<62 + 1<<38 + 1), 16777217, -2.5, 0.1, 1e300, math.NaN(), math.Copysign(0, -1), true, complex(1.5, -2)} {
			for _, shp := range [][]int{{}, {1}, {7}, {3, 5}, {1000}} {
				x := tinyOperand(t, rng, dt, true, shp...)
				for _, op := range ops {
					if op.name == "sub" && (dt == Bool || s == true) {
						continue
					}
					for _, first := range []bool{false, true} {
						call := func(v any) (*Tensor, error) {
							if first {
								return op.f(v, x)
							}
							return op.f(x, v)
						}
						got, err := call(s)
						if err != nil {
							// Only an integer out of the result's range fails
							// (a bool tensor's result with an integer is int32).
							rdt := dt
							if dt == Bool {
								rdt = Int32
							}
							if !outOfRangeCandidate(s) || !errors.Is(err, ErrValue) || !strings.Contains(err.Error(), "outside the range of "+rdt.String()) {
								t.Fatalf("%s %v %v %v: %v", op.name, dt, s, shp, err)
							}
							continue
						}
						// The general path: the number as a 0-d tensor of the result dtype.
						var src *Tensor
						switch v := s.(type) {
						case int:
							src = ScalarOf(v)
						case int64:
							src = ScalarOf(v)
						case float64:
							src = ScalarOf(v)
						case bool:
							src = ScalarOf(v)
						case complex128:
							src = ScalarOf(v)
						}
						ref, err := src.AsType(got.dtype)
						if err != nil {
							t.Fatal(err)
						}
						want, err := call(ref)
						if err != nil {
							t.Fatal(err)
						}
						if got.dtype != want.dtype || !shape.Equal(got.shape, want.shape) || !bytes.Equal(rawBytes(got), rawBytes(want)) {
							t.Fatalf("%s %v %v %v (first %v): got %v %v, want %v %v", op.name, dt, s, shp, first, got.dtype, got, want.dtype, want)
						}
					}
				}
			}
		}
	}
}

// Axis of one axis and KeepDims return options made once; each still
// selects its own axis, whatever the caller does with its arguments after.
func TestSharedReduceOptions(t *testing.T) {
	m := Must(Must(Arange(2*3*4)).Reshape(2, 3, 4))
	for a := -3; a < 3; a++ {
		axes := []int{a}
		opt := Axis(axes...)
		axes[0] = 99 // must not reach the option
		mask, keep, err := ReduceAxes(m, opt, KeepDims(a%2 == 0))
		if err != nil {
			t.Fatalf("Axis(%d): %v", a, err)
		}
		for i, r := range mask {
			if r != (i == (a+3)%3) {
				t.Fatalf("Axis(%d) reduces %v", a, mask)
			}
		}
		if keep != (a%2 == 0) {
			t.Fatalf("KeepDims(%v) gave %v", a%2 == 0, keep)
		}
	}
	if _, _, err := ReduceAxes(m, Axis(7)); err == nil {
		t.Fatal("Axis(7) of a 3-d tensor: no error")
	}
}

// Headers of every rank, including views of 0-d tensors and ranks beyond
// the ones kept inside the header, have non-nil shapes and strides of
// their rank, and views read the same elements.
func TestHeadersOfEveryRank(t *testing.T) {
	s := ScalarOf(float32(2))
	v := s.Transpose()
	if v.shape == nil || v.strides == nil || v.NDim() != 0 {
		t.Fatalf("view of a 0-d tensor: shape %#v strides %#v", v.shape, v.strides)
	}
	a, _ := s.MarshalJSON()
	b, _ := v.MarshalJSON()
	if !bytes.Equal(a, b) {
		t.Fatalf("view of a 0-d tensor marshals as %s, want %s", b, a)
	}
	for rank := 0; rank <= 6; rank++ {
		dims := make([]int, rank)
		for i := range dims {
			dims[i] = 2
		}
		x := Must(Zeros(Float64, dims...))
		y := x.Transpose()
		for _, z := range []*Tensor{x, y} {
			if z.shape == nil || len(z.shape) != rank || len(z.strides) != rank || cap(z.shape) != rank {
				t.Fatalf("rank %d: shape %v strides %v (cap %d)", rank, z.shape, z.strides, cap(z.shape))
			}
		}
		if got := append(x.shape, 7); rank > 0 && &got[0] == &x.strides[0] {
			t.Fatalf("rank %d: appending to the shape overwrites the strides", rank)
		}
	}
}

// outOfRangeCandidate reports whether TestScalarOperandByValue's number s
// may be outside a tensor's range: its larger integers (2^24 + 1 and 2^62 + 2^38 + 1
// also tells one rounding to float32 from two through float64).
func outOfRangeCandidate(s any) bool {
	return s == 100000 || s == 16777217 || s == int64(1<<62+1<<38+1)
}

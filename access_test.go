package tensor

import (
	"errors"
	"reflect"
	"testing"

	"github.com/tensor-go/tensor/bfloat16"
	"github.com/x448/float16"
)

func TestAtEveryDType(t *testing.T) {
	cases := []any{
		[]bool{false, true},
		[]int8{-8, 7}, []int16{-16, 15}, []int32{-32, 31}, []int64{-64, 63},
		[]uint8{8, 255}, []uint16{16, 65535}, []uint32{32, 1 << 31}, []uint64{64, 1 << 63},
		[]float16.Float16{float16.Fromfloat32(0.5), float16.Fromfloat32(-2)},
		[]bfloat16.BFloat16{bfloat16.FromFloat32(0.25), bfloat16.FromFloat32(-3)},
		[]float32{1.5, -0.125}, []float64{2.5, 1e300},
		[]complex64{1 + 2i, -1i}, []complex128{3 - 4i, 1e-300i},
	}
	for _, c := range cases {
		x := Must(FromNested(c))
		want := reflect.ValueOf(c)
		for i := range 2 {
			got, err := x.At(i)
			if err != nil || got != want.Index(i).Interface() {
				t.Errorf("%T At(%d) = %v (%T), %v", c, i, got, got, err)
			}
			neg, _ := x.At(i - 2)
			if neg != got {
				t.Errorf("%T At(%d) = %v, want %v", c, i-2, neg, got)
			}
		}
	}
}

func TestAtErrors(t *testing.T) {
	x := arangeShaped(t, 2, 3)
	for _, idx := range [][]int{{}, {0}, {0, 0, 0}, {2, 0}, {0, 3}, {-3, 0}, {0, -4}} {
		if _, err := x.At(idx...); !errors.Is(err, ErrIndex) {
			t.Errorf("At(%v) error %v, want ErrIndex", idx, err)
		}
	}
	s := Must(Full(int16(5), Int16))
	if v, err := s.At(); err != nil || v != int16(5) {
		t.Errorf("0-d At() = %v, %v", v, err)
	}
}

func TestItem(t *testing.T) {
	x := Must(FromNested([][][]float64{{{2.5}}}))
	if v, err := x.Item(); err != nil || v != 2.5 {
		t.Errorf("Item() = %v, %v", v, err)
	}
	// The element of a view is the one the view points at.
	y := Must(arangeShaped(t, 2, 3).Slice(Span(1, 2), Span(2, 3)))
	if v, err := y.Item(); err != nil || v != int64(5) {
		t.Errorf("Item() of a view = %v, %v", v, err)
	}
	for _, s := range [][]int{{2}, {0}, {1, 2}} {
		if _, err := Must(Zeros(Float32, s...)).Item(); !errors.Is(err, ErrValue) {
			t.Errorf("Item() of shape %v: %v", s, err)
		}
	}
}

func TestToSlice(t *testing.T) {
	x := arangeShaped(t, 2, 3)
	if got := mustSlice[int64](t, x); !reflect.DeepEqual(got, []int64{0, 1, 2, 3, 4, 5}) {
		t.Errorf("contiguous %v", got)
	}
	// Go's int reads an int64 tensor on 64-bit platforms (an int32 one
	// where int has 32 bits).
	if _, wide := intBeyond32(); !wide {
		if _, err := ToSlice[int](x); !errors.Is(err, ErrDType) {
			t.Errorf("int64 elements as a 32-bit int: %v, want an ErrDType error", err)
		}
	} else if got := mustSlice[int](t, x.Transpose()); !reflect.DeepEqual(got, []int{0, 3, 1, 4, 2, 5}) {
		t.Errorf("transposed %v", got)
	}
	rev := Must(x.Slice(All().By(-1), From(1).By(-2)))
	if got := mustSlice[int64](t, rev); !reflect.DeepEqual(got, []int64{4, 1}) {
		t.Errorf("reversed %v", got)
	}
	b := Must(Must(Arange(2, Float32)).BroadcastTo(2, 2))
	if got := mustSlice[float32](t, b); !reflect.DeepEqual(got, []float32{0, 1, 0, 1}) {
		t.Errorf("broadcast %v", got)
	}
	if got := mustSlice[float32](t, Must(Zeros(Float32, 0, 4))); len(got) != 0 || got == nil {
		t.Errorf("empty %v", got)
	}
	// The copy is the caller's: changing it leaves the tensor alone.
	s := mustSlice[int64](t, x)
	s[0] = 42
	if v, _ := x.At(0, 0); v != int64(0) {
		t.Error("ToSlice returned the tensor's own memory")
	}
	if _, err := ToSlice[float32](x); !errors.Is(err, ErrDType) {
		t.Errorf("reading int64 as float32: %v", err)
	}
	if _, err := ToSlice[int32](x); !errors.Is(err, ErrDType) {
		t.Errorf("reading int64 as int32: %v", err)
	}
}

package tensor

import (
	"encoding"
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/x448/float16"
)

var (
	_ encoding.BinaryMarshaler   = (*Tensor)(nil)
	_ encoding.BinaryUnmarshaler = (*Tensor)(nil)
	_ json.Marshaler             = (*Tensor)(nil)
	_ json.Unmarshaler           = (*Tensor)(nil)
)

func TestMarshalBinaryRoundTrip(t *testing.T) {
	for _, x := range []*Tensor{
		arangeShaped(t, 2, 3).Transpose(),
		Must(FromSlice([]complex64{1 + 2i, -3i})),
		ScalarOf(float16.Fromfloat32(0.5)),
		Must(Zeros(Bool, 0, 2)),
	} {
		b, err := x.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if string(b[:6]) != "\x93NUMPY" {
			t.Fatalf("MarshalBinary does not start with the .npy magic: %q", b[:6])
		}
		var y Tensor
		if err := y.UnmarshalBinary(b); err != nil || !Equal(x, &y) {
			t.Fatalf("round trip of %v gave %v, %v", x, &y, err)
		}
		if err := y.UnmarshalBinary(append(b, 0)); !errors.Is(err, ErrFormat) {
			t.Errorf("trailing byte: %v", err)
		}
		if err := y.UnmarshalBinary(b[:len(b)-1]); len(b) > 128 && !errors.Is(err, ErrFormat) {
			t.Errorf("truncated: %v", err)
		}
	}
	if _, err := Must(Zeros(BFloat16, 2)).MarshalBinary(); !errors.Is(err, ErrDType) {
		t.Errorf("bfloat16 MarshalBinary: %v", err)
	}
}

func TestMarshalJSON(t *testing.T) {
	cases := []struct {
		x    *Tensor
		want string
	}{
		{arangeShaped(t, 2, 3).Transpose(), "[[0,3],[1,4],[2,5]]"},
		{Must(FromSlice([]float32{0.1, 1e-7, -2.5e20})), "[0.1,1e-07,-2.5e+20]"},
		{Must(Must(FromSlice([]float32{0.1})).AsType(Float16)), "[0.1]"},
		{Must(FromSlice([]bool{true, false})), "[true,false]"},
		{Must(FromSlice([]uint64{math.MaxUint64})), "[18446744073709551615]"},
		{ScalarOf(int8(-3)), "-3"},
		{Must(Zeros(Float64, 2, 0)), "[[],[]]"},
	}
	for _, c := range cases {
		b, err := json.Marshal(c.x)
		if err != nil || string(b) != c.want {
			t.Errorf("json.Marshal(%v) = %s, %v, want %s", c.x, b, err, c.want)
		}
		// A tensor inside a struct too: never {}.
		b, err = json.Marshal(struct{ W *Tensor }{c.x})
		if err != nil || string(b) != `{"W":`+c.want+`}` {
			t.Errorf("json.Marshal in a struct = %s, %v", b, err)
		}
	}
	for _, x := range []*Tensor{
		Must(FromSlice([]float64{1, math.NaN()})),
		Must(FromSlice([]float32{float32(math.Inf(-1))})),
		Must(FromSlice([]complex128{1})),
	} {
		if b, err := json.Marshal(x); err == nil {
			t.Errorf("json.Marshal(%v) = %s, want an error", x, b)
		}
	}
}

func TestUnmarshalJSON(t *testing.T) {
	cases := []struct {
		in   string
		want *Tensor
	}{
		{"[[0,3],[1,4]]", Must(FromNested([][]int64{{0, 3}, {1, 4}}))},
		{"[1, 2.5]", Must(FromSlice([]float64{1, 2.5}))},
		{"[true]", Must(FromSlice([]bool{true}))},
		{"7", ScalarOf(int64(7))},
		{"[]", Must(Zeros(Float64, 0))},
		{"[[],[]]", Must(Zeros(Float64, 2, 0))},
	}
	for _, c := range cases {
		var x Tensor
		if err := json.Unmarshal([]byte(c.in), &x); err != nil || !Equal(&x, c.want) {
			t.Errorf("json.Unmarshal(%s) = %v, %v, want %v", c.in, &x, err, c.want)
		}
	}
	for _, c := range []struct {
		in   string
		want error
	}{
		{"[[1,2],[3]]", ErrShape},
		{"[[1,2],3]", ErrShape},
		{"[1,[2]]", ErrShape},
		{"[1,true]", ErrDType},
		{`["a"]`, ErrDType},
		{"[null]", ErrDType},
		{"[1e400]", ErrValue},
	} {
		var x Tensor
		if err := x.UnmarshalJSON([]byte(c.in)); !errors.Is(err, c.want) {
			t.Errorf("UnmarshalJSON(%s) = %v, want %v", c.in, err, c.want)
		}
	}
	// What MarshalJSON writes reads back.
	x := Must(Rand(3, Float64, -1, 1, 3, 4))
	b, _ := json.Marshal(x)
	var y Tensor
	if err := json.Unmarshal(b, &y); err != nil || !Equal(x, &y) {
		t.Errorf("JSON round trip: %v", err)
	}
}

package tensor

import (
	"errors"
	"slices"
	"testing"
)

func TestConj(t *testing.T) {
	x := Must(FromSlice([]complex64{1 + 2i, -3 - 4i, 5, 6i}, 2, 2))
	c, err := Conj(x.Transpose())
	if err != nil {
		t.Fatal(err)
	}
	got, _ := ToSlice[complex64](c)
	if want := []complex64{1 - 2i, 5, -3 + 4i, -6i}; !slices.Equal(got, want) {
		t.Fatalf("Conj = %v, want %v", got, want)
	}
	y := Must(FromSlice([]complex128{1 + 1i}))
	if got, _ := ToSlice[complex128](Must(Conj(y))); got[0] != 1-1i {
		t.Fatalf("Conj complex128 = %v", got)
	}
	r := Must(FromSlice([]float32{1, 2}))
	if same, _ := Conj(r); same != r {
		t.Fatal("Conj of a real tensor is not the tensor itself")
	}
	s := Must(x.ToSparseCOO())
	cs := Must(Conj(s))
	if cs.Layout() != SparseCOO {
		t.Fatalf("Conj of COO has layout %v", cs.Layout())
	}
	got, _ = ToSlice[complex64](Must(cs.ToDense()))
	if want := []complex64{1 - 2i, -3 + 4i, 5, -6i}; !slices.Equal(got, want) {
		t.Fatalf("sparse Conj = %v, want %v", got, want)
	}
	x.Release()
	if _, err := Conj(x); !errors.Is(err, ErrReleased) {
		t.Fatalf("released: %v", err)
	}
	if _, err := Conj(nil); !errors.Is(err, ErrValue) {
		t.Fatalf("nil: %v", err)
	}
}

func TestVersionCountsIntoWrites(t *testing.T) {
	x := Must(FromSlice([]float64{1, 2, 3, 4}, 2, 2))
	v := Must(x.Slice(Index(1)))
	if x.Version() != 0 || v.Version() != 0 {
		t.Fatal("a new tensor has written versions")
	}
	if err := MulInto(v, v, 2); err != nil {
		t.Fatal(err)
	}
	if x.Version() != 1 || v.Version() != 1 {
		t.Fatalf("after MulInto through a view: %d %d, want 1 1", x.Version(), v.Version())
	}
	if err := ProdInto(Must(x.Slice(Index(0))), x, Axis(0)); err != nil {
		t.Fatal(err)
	}
	if err := MatmulInto(x, x, x); err != nil {
		t.Fatal(err)
	}
	if x.Version() != 3 {
		t.Fatalf("after ProdInto and MatmulInto: %d, want 3", x.Version())
	}
	if c := Must(x.Clone()); c.Version() != 0 {
		t.Fatal("a clone inherits the write count")
	}
	if x.Released() {
		t.Fatal("Released before Release")
	}
	x.Release()
	if !x.Released() {
		t.Fatal("not Released after Release")
	}
}

func TestReduceAxes(t *testing.T) {
	x := Must(Zeros(Float32, 2, 3, 4))
	mask, keep, err := ReduceAxes(x, Axis(-1, 0), KeepDims(true))
	if err != nil || !slices.Equal(mask, []bool{true, false, true}) || !keep {
		t.Fatalf("ReduceAxes = %v %v %v", mask, keep, err)
	}
	if mask, _, _ := ReduceAxes(x); !slices.Equal(mask, []bool{true, true, true}) {
		t.Fatalf("no axis: %v", mask)
	}
	if _, _, err := ReduceAxes(x, Axis(0, -3)); !errors.Is(err, ErrAxis) {
		t.Fatalf("repeated: %v", err)
	}
	if _, _, err := ReduceAxes(x, Axis(3)); !errors.Is(err, ErrAxis) {
		t.Fatalf("out of range: %v", err)
	}
	if p, _ := MatmulPrecisionOf(WithPrecision(TF32)); p != TF32 {
		t.Fatalf("MatmulPrecisionOf = %v", p)
	}
	if p, _ := MatmulPrecisionOf(); p != MatmulPrecision() {
		t.Fatalf("default MatmulPrecisionOf = %v", p)
	}
}

package autograd

import (
	"errors"
	"strings"
	"testing"

	"github.com/tensor-go/tensor"
)

func vec(t testing.TB, v ...float64) *tensor.Tensor {
	t.Helper()
	x, err := tensor.FromSlice(v)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestErrors(t *testing.T) {
	one := func(x *tensor.Tensor) []*tensor.Tensor { return []*tensor.Tensor{x} }
	t.Run("integer wrt", func(t *testing.T) {
		tp := New()
		i := tensor.Must(tensor.FromSlice([]int32{1, 2}))
		y, err := tp.Mul(i, 2.0)
		if err != nil {
			t.Fatal(err)
		}
		_, err = tp.VJP(one(y), one(tensor.Must(tensor.Ones(y.DType(), 2))), one(i))
		if !errors.Is(err, tensor.ErrDType) {
			t.Fatalf("got %v, want ErrDType", err)
		}
		if want := "with respect to an int32 tensor (0, shape [2])"; !strings.Contains(err.Error(), want) {
			t.Fatalf("got %q, want it to say %q", err, want)
		}
		b := tensor.Must(tensor.FromSlice([]bool{true}))
		if _, err := tp.Mul(b, 1.5); err != nil {
			t.Fatal(err)
		}
		if _, err := tp.VJP(one(y), one(tensor.Must(tensor.Ones(y.DType(), 2))), one(b)); !errors.Is(err, tensor.ErrDType) {
			t.Fatalf("bool: got %v, want ErrDType", err)
		}
	})
	x := vec(t, 1, 2, 3)
	tp := New()
	y, _ := tp.Mul(x, x)
	t.Run("seed shape", func(t *testing.T) {
		_, err := tp.VJP(one(y), one(vec(t, 1, 2)), one(x))
		if !errors.Is(err, tensor.ErrShape) {
			t.Fatalf("got %v, want ErrShape", err)
		}
	})
	t.Run("seed dtype", func(t *testing.T) {
		s := tensor.Must(tensor.Ones(tensor.Float32, 3))
		if _, err := tp.VJP(one(y), one(s), one(x)); !errors.Is(err, tensor.ErrDType) {
			t.Fatalf("got %v, want ErrDType", err)
		}
		c := tensor.Must(tensor.Ones(tensor.Complex128, 3))
		if _, err := tp.VJP(one(y), one(c), one(x)); !errors.Is(err, tensor.ErrDType) {
			t.Fatalf("complex seed: got %v, want ErrDType", err)
		}
	})
	t.Run("seed count", func(t *testing.T) {
		if _, err := tp.VJP(one(y), nil, one(x)); !errors.Is(err, tensor.ErrValue) {
			t.Fatalf("got %v, want ErrValue", err)
		}
	})
	t.Run("not on tape", func(t *testing.T) {
		z := vec(t, 1, 2, 3)
		seed := vec(t, 1, 1, 1)
		if _, err := tp.VJP(one(y), one(seed), one(z)); !errors.Is(err, ErrNotOnTape) {
			t.Fatalf("got %v, want ErrNotOnTape", err)
		}
		g, err := tp.VJP(one(y), one(seed), one(z), AllowUnused())
		if err != nil {
			t.Fatal(err)
		}
		if got := f64(t, g[0]); !sameBits(got, []float64{0, 0, 0}) {
			t.Fatalf("allow-unused gradient %v, want zeros", got)
		}
	})
	t.Run("unused", func(t *testing.T) {
		tp := New()
		a, b := vec(t, 1), vec(t, 2)
		ya, _ := tp.Mul(a, 3.0)
		if _, err := tp.Mul(b, 3.0); err != nil {
			t.Fatal(err)
		}
		if _, err := tp.VJP(one(ya), one(vec(t, 1)), one(b)); !errors.Is(err, ErrUnused) {
			t.Fatalf("got %v, want ErrUnused", err)
		}
	})
	t.Run("released", func(t *testing.T) {
		tp := New()
		a, b := vec(t, 1, 2), vec(t, 3, 4)
		y, _ := tp.Mul(a, b)
		b.Release()
		if _, err := tp.VJP(one(y), one(vec(t, 1, 1)), one(a)); !errors.Is(err, tensor.ErrReleased) {
			t.Fatalf("got %v, want ErrReleased", err)
		}
	})
	t.Run("overwritten", func(t *testing.T) {
		tp := New()
		a, b := vec(t, 1, 2), vec(t, 3, 4)
		y, _ := tp.Mul(a, b)
		// Write through a view of b: the storage is what counts.
		v, _ := b.Slice(tensor.From(1))
		if err := tensor.MulInto(v, v, 2); err != nil {
			t.Fatal(err)
		}
		if _, err := tp.VJP(one(y), one(vec(t, 1, 1)), one(a)); !errors.Is(err, ErrOverwritten) {
			t.Fatalf("got %v, want ErrOverwritten", err)
		}
		// The check covers every tensor the operation recorded, as
		// PyTorch's does for operands that require gradients.
		if _, err := tp.VJP(one(y), one(vec(t, 1, 1)), one(b)); !errors.Is(err, ErrOverwritten) {
			t.Fatalf("gradient with respect to b: got %v, want ErrOverwritten", err)
		}
		// A tape recorded after the write is fine.
		tp2 := New()
		y2, _ := tp2.Mul(a, b)
		if _, err := tp2.VJP(one(y2), one(vec(t, 1, 1)), one(a)); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("grad needs one real element", func(t *testing.T) {
		if _, err := tp.Grad(y, one(x)); !errors.Is(err, tensor.ErrValue) {
			t.Fatalf("got %v, want ErrValue", err)
		}
		c := tensor.Must(tensor.Ones(tensor.Complex64, 1))
		tp := New()
		z, _ := tp.Mul(c, c)
		if _, err := tp.Grad(z, one(c)); !errors.Is(err, tensor.ErrDType) {
			t.Fatalf("complex: got %v, want ErrDType", err)
		}
	})
	t.Run("nil", func(t *testing.T) {
		if _, err := tp.VJP(one(y), one(vec(t, 1, 1, 1)), one(nil)); !errors.Is(err, tensor.ErrValue) {
			t.Fatalf("got %v, want ErrValue", err)
		}
		if _, err := tp.Transpose(nil); !errors.Is(err, tensor.ErrValue) {
			t.Fatalf("got %v, want ErrValue", err)
		}
	})
}

func TestDependsOn(t *testing.T) {
	x, w, c := vec(t, 1, 2), vec(t, 3, 4), vec(t, 5, 6)
	i := tensor.Must(tensor.FromSlice([]int32{1, 2}))
	tp := New()
	y, _ := tp.Mul(x, w)
	z, _ := tp.Mul(c, 2.0)
	n, _ := tp.Mul(i, 2)
	m, _ := tp.Mul(n, x)
	for _, tc := range []struct {
		out  *tensor.Tensor
		wrt  []*tensor.Tensor
		want bool
	}{
		{y, []*tensor.Tensor{x}, true}, {y, []*tensor.Tensor{c}, false}, {z, []*tensor.Tensor{x, w}, false},
		{x, []*tensor.Tensor{x}, true}, {m, []*tensor.Tensor{i}, false}, {m, []*tensor.Tensor{x}, true},
	} {
		if got := tp.DependsOn(tc.out, tc.wrt); got != tc.want {
			t.Errorf("DependsOn = %v, want %v", got, tc.want)
		}
	}
}

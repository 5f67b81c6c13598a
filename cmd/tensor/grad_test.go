package main

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/tensor-go/tensor"
)

func TestEvalGradients(t *testing.T) {
	dir := t.TempDir()
	must := mustFor(t)
	x := must(tensor.FromSlice([]float64{2, 0, 4}))
	if err := tensor.SaveNPY(filepath.Join(dir, "x.npy"), x); err != nil {
		t.Fatal(err)
	}
	expect(t, dir, ok("(Tensor([0. 8. 0.], dtype=float64, device=xpux:0),)"), "eval", "grad(lambda a: prod(a), x)", "x=x.npy")
	// prod(b) = 0, so a's gradient is zeros; b's is (seed·a) times [0 8 0].
	expect(t, dir, ok("(Tensor([0. 0. 0.], dtype=float64, device=xpux:0), Tensor([ 0. 48.  0.], dtype=float64, device=xpux:0))"),
		"eval", "vjp(lambda a, b: a * prod(b), x, x, seed=[1., 2., 1.])", "x=x.npy")

	expect(t, dir, result{}, "eval", "-o", "g.npz", "vjp(lambda a, b: a * b, x, [1., 2., 3.], seed=x)", "x=x.npy")
	got, err := tensor.LoadNPZ(filepath.Join(dir, "g.npz"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "arr_0" || got[1].Name != "arr_1" {
		t.Fatalf("members %v, want arr_0 and arr_1", got)
	}
	a0, _ := tensor.ToSlice[float64](got[0].Tensor)
	a1, _ := tensor.ToSlice[float32](got[1].Tensor)
	if !slices.Equal(a0, []float64{2, 0, 12}) || !slices.Equal(a1, []float32{4, 0, 16}) {
		t.Fatalf("saved gradients %v %v", a0, a1)
	}

	expect(t, dir, result{}, "eval", "-o", "g.npy", "grad(lambda a: prod(a), x)", "x=x.npy")
	g := must(tensor.LoadNPY(filepath.Join(dir, "g.npy")))
	if v, _ := tensor.ToSlice[float64](g); !slices.Equal(v, []float64{0, 8, 0}) {
		t.Fatalf("saved gradient %v", v)
	}
	if r := runIn(t, dir, "eval", "-o", "two.npy", "vjp(lambda a, b: a * b, x, x, seed=x)", "x=x.npy"); r.code != 1 {
		t.Errorf("a tuple of two into .npy: exit %d, want 1", r.code)
	}
	for _, src := range []string{"grad(lambda a: a, x)", "grad(lambda a: prod(a * 1j), x)", "grad(lambda a: prod(a), [1, 2])"} {
		if r := runIn(t, dir, "eval", src, "x=x.npy"); r.code != 1 {
			t.Errorf("%s: exit %d, want 1", src, r.code)
		}
	}
}

// Binary and unary minus, their functions and gradients (PyTorch's values:
// torch.autograd.grad(((a - b) * -a).sum(), (a, b))).
func TestEvalSubNeg(t *testing.T) {
	dir := t.TempDir()
	expect(t, dir, ok("Tensor([-2.   1.5], device=xpux:0)"), "eval", "[1., 2.] - [3., 0.5]")
	expect(t, dir, ok("1"), "eval", "5 - 3 - 1")
	expect(t, dir, ok("Tensor([-8 -1], dtype=int32, device=xpux:0)"), "eval", "2 - 2 * [5, 2] + -[0, -1]")
	expect(t, dir, ok("Tensor([254 255], dtype=uint8, device=xpux:0)"), "eval", "tensor([1, 2], dtype=uint8) - 3")
	expect(t, dir, ok("Tensor([-0. -1.], device=xpux:0)"), "eval", "neg([0., 1.])")
	expect(t, dir, ok("Tensor([4. 5.], device=xpux:0)"), "eval", "tensor([5., 6.]).sub(1)")
	// Complex numbers written as PyTorch users write them, and other
	// arithmetic of numbers inside a list literal.
	expect(t, dir, ok("Tensor([1.+2.j 3.-1.j], dtype=complex64, device=xpux:0)"), "eval", "tensor([1+2j, 3-1j])")
	expect(t, dir, ok("Tensor([-1  6], dtype=int32, device=xpux:0)"), "eval", "[1-2, 3*2]")
	expect(t, dir, ok("(Tensor([ 1. -2.], device=xpux:0), Tensor([1. 2.], device=xpux:0))"),
		"eval", "grad(lambda a, b: sum((a - b) * -a), [1., 2.], [3., 2.])")
	for _, src := range []string{"tensor([True]) - tensor([False])", "-tensor([True])", "[1, 2] - True"} {
		if r := runIn(t, dir, "eval", src); r.code != 1 {
			t.Errorf("%s: exit %d, want 1 (bool subtraction is an error, as in PyTorch)", src, r.code)
		}
	}
}

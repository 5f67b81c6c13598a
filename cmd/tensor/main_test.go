package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/storage"
)

// bin is the command, built once for all tests; runner, when not empty,
// is the emulator (and its arguments) that runs it (see commandRunner).
var (
	bin    string
	runner []string
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tensor-cli-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "tensor")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building the command: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	if runner, err = commandRunner(bin); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is what one run of the command produced.
type result struct {
	stdout, stderr string
	code           int
}

// command returns the command line that runs the built command with args,
// through the emulator when there is one.
func command(args ...string) *exec.Cmd {
	if len(runner) > 0 {
		return exec.Command(runner[0], slices.Concat(runner[1:], []string{bin}, args)...)
	}
	return exec.Command(bin, args...)
}

// runIn runs the command in dir and checks that it never shows a panic.
func runIn(t *testing.T, dir string, args ...string) result {
	t.Helper()
	cmd := command(args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	r := result{stdout.String(), stderr.String(), code}
	for _, bad := range []string{"panic", "goroutine", "internal error"} {
		if strings.Contains(r.stderr, bad) {
			t.Fatalf("tensor %q: stderr shows %q:\n%s", args, bad, r.stderr)
		}
	}
	if r.stderr != "" && (strings.Count(r.stderr, "\n") != 1 || !strings.HasPrefix(r.stderr, "tensor: ")) {
		t.Errorf("tensor %q: stderr is not one 'tensor: ' line: %q", args, r.stderr)
	}
	return r
}

func expect(t *testing.T, dir string, want result, args ...string) {
	t.Helper()
	got := runIn(t, dir, args...)
	if got != want {
		t.Errorf("tensor %q\n got stdout %q stderr %q exit %d\nwant stdout %q stderr %q exit %d",
			args, got.stdout, got.stderr, got.code, want.stdout, want.stderr, want.code)
	}
}

func ok(stdout string) result { return result{stdout: stdout + "\n"} }

func failed(err error) result {
	if err == nil {
		return result{stderr: "expected the library to fail", code: -1}
	}
	// The command words the library's message as its users write (cliWords).
	return result{stderr: cliWords(err.Error()) + "\n", code: 1}
}

func usageErr(msg string) result { return result{stderr: "tensor: " + msg + "\n", code: 2} }

// libErr returns the error of a library call that the command must report
// unchanged, so the test does not restate the library's wording.
func libErr(_ *tensor.Tensor, err error) error { return err }

// mustFor returns a helper that unwraps a library result or fails t.
func mustFor(t *testing.T) func(*tensor.Tensor, error) *tensor.Tensor {
	return func(x *tensor.Tensor, err error) *tensor.Tensor {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
}

// TestSourceExamples runs every example of the three source documents,
// written as the command's expressions. The documents collapse NumPy's
// column padding; semantics §8 restores it.
// TestEvalSparse covers the sparse functions, SciPy .npz bindings and
// sparse -o output.
func TestEvalSparse(t *testing.T) {
	dir := t.TempDir()
	for name, fixture := range map[string]string{"a.npz": "csr_float64.npz", "wide.npz": "coo_int64_wide.npz"} {
		data, err := os.ReadFile("../../testdata/sparse/" + fixture)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := "tensor([[0, 2], [3, 0]])"
	for _, tc := range []struct{ expr, want string }{
		{"to_sparse_coo(" + m + ")", "Tensor(indices=[[0 1]\n [1 0]], values=[2 3], size=(2, 2), nnz=2, dtype=int32, layout=sparse_coo, device=xpux:0)"},
		{m + ".to_sparse()", "Tensor(indices=[[0 1]\n [1 0]], values=[2 3], size=(2, 2), nnz=2, dtype=int32, layout=sparse_coo, device=xpux:0)"},
		{"to_sparse_csr(" + m + ")", "Tensor(crow_indices=[0 1 2], col_indices=[1 0], values=[2 3], size=(2, 2), nnz=2, dtype=int32, layout=sparse_csr, device=xpux:0)"},
		{"to_dense(to_sparse_csr(" + m + ") * 2.5)", "Tensor([[0.  5. ]\n [7.5 0. ]], device=xpux:0)"},
		{"to_sparse_csr(" + m + ") @ tensor([1.0, 10.0])", "Tensor([20.  3.], device=xpux:0)"},
		{"tensor([[1.0, nan]]) @ to_sparse_coo(tensor([[1.0], [0.0]]))", "Tensor([[1.]], device=xpux:0)"},
		{"to_sparse_coo(" + m + ") @ to_sparse_csr(" + m + ")", "Tensor(indices=[[0 1]\n [0 1]], values=[6 6], size=(2, 2), nnz=2, dtype=int32, layout=sparse_coo, device=xpux:0)"},
		{"to_sparse_csr(" + m + ").T.to_dense()", "Tensor([[0 3]\n [2 0]], dtype=int32, device=xpux:0)"},
		{"to_sparse_csr(" + m + ").shape", "(2, 2)"},
	} {
		expect(t, dir, ok(tc.want), "eval", tc.expr)
	}
	// A SciPy file binds as a sparse tensor; a sparse result saves as SciPy's format.
	expect(t, dir, ok("Tensor([[ 4.      0.      2.25    0.    ]\n [ 0.      0.      0.      0.    ]\n [ 0.     10.5625  0.     16.    ]], dtype=float64, device=xpux:0)"),
		"eval", "to_dense(a * a.to_dense())", "a=a.npz")
	expect(t, dir, result{}, "eval", "-o", "c.npz", "a @ a.T", "a=a.npz")
	// A 3×(2^31+10) matrix: the memory budget counts its entries, not its
	// shape (with a 32-bit int the shape is refused).
	if strconv.IntSize == 64 {
		expect(t, dir, ok("Tensor(indices=[[0 2]\n [0 2]], values=[2. 8.], size=(3, 3), nnz=2, dtype=float64, layout=sparse_coo, device=xpux:0)"),
			"eval", "(x * 2).astype('float16') @ x.T", "x=wide.npz")
	}
	expect(t, dir, ok("a.npz: shape (3, 4), dtype float64, layout sparse_csr, nnz 4\nc.npz: shape (3, 3), dtype float64, layout sparse_csr, nnz 2"),
		"info", "a.npz", "c.npz")
	expect(t, dir, ok("Tensor([[ 6.25    0.      0.    ]\n [ 0.      0.      0.    ]\n [ 0.      0.     26.5625]], dtype=float64, device=xpux:0)"),
		"eval", "c.to_dense()", "c=c.npz")
	expect(t, dir, failed(fmt.Errorf(`tensor: eval: the result is a sparse_csr tensor, saved in SciPy's format: name the output FILE.npz, not "c.npy" (or call to_dense)`)),
		"eval", "-o", "c.npy", "a", "a=a.npz")
	expect(t, dir, failed(fmt.Errorf("tensor: prod: sparse_csr tensors of shape (3, 4) are not supported; convert with to_dense first")),
		"eval", "prod(a)", "a=a.npz")
	expect(t, dir, failed(fmt.Errorf("tensor: to_sparse_coo: sparse_coo tensors are 2-D; cannot convert shape (2, 2, 2)")),
		"eval", "to_sparse_coo(ones((2, 2, 2)))")

	// SciPy reads what the command writes, when it is installed.
	check := exec.Command("/usr/bin/python3", "-c", "import scipy.sparse as sp; c = sp.load_npz('c.npz'); print(c.format, c.toarray().tolist())")
	check.Dir = dir
	if out, err := check.Output(); err != nil {
		t.Logf("skipping the SciPy cross-check: %v", err)
	} else if got := string(out); got != "csr [[6.25, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 26.5625]]\n" {
		t.Errorf("SciPy reads c.npz as %q", got)
	}
}

func TestSourceExamples(t *testing.T) {
	dir := t.TempDir()
	x := `Tensor([[1, 2, 3], [4, 5, 6]])`
	for _, tc := range []struct{ expr, want string }{
		// mul.megengine.txt
		{"F.mul(1.0, 4.0)", "Tensor(4.0, device=xpux:0)"},
		{"F.mul(" + x + ", Tensor([[1, 1, 1], [2, 2, 2]]))", "Tensor([[ 1  2  3]\n [ 8 10 12]], dtype=int32, device=xpux:0)"},
		{"F.mul(" + x + ", 2)", "Tensor([[ 2  4  6]\n [ 8 10 12]], dtype=int32, device=xpux:0)"},
		{"mul(Tensor([[1, 2, 3], [4, 5, 6]]), 2)", "Tensor([[ 2  4  6]\n [ 8 10 12]], dtype=int32, device=xpux:0)"},
		{x + " * 2", "Tensor([[ 2  4  6]\n [ 8 10 12]], dtype=int32, device=xpux:0)"},
		// prod.megengine.txt
		{"F.prod(Tensor([536870910, 536870910, 536870910, 536870910]))", "Tensor(16, dtype=int32, device=xpux:0)"},
		{"F.prod(Tensor([]))", "Tensor(1.0, device=xpux:0)"},
		{"F.prod(Tensor([1, 2, 3]))", "Tensor(6, dtype=int32, device=xpux:0)"},
		{"F.prod(Tensor([0.5, 1.5]))", "Tensor(0.75, device=xpux:0)"},
		{"F.prod(" + x + ", axis=0)", "Tensor([ 4 10 18], dtype=int32, device=xpux:0)"},
		{"F.prod(" + x + ", axis=1)", "Tensor([  6 120], dtype=int32, device=xpux:0)"},
		{x + ".prod(axis=1)", "Tensor([  6 120], dtype=int32, device=xpux:0)"},
		// matmul.torch.ru.txt: torch.randn becomes zeros, .size() prints a tuple.
		{"torch.matmul(zeros(3), zeros(3)).size()", "()"},
		{"torch.matmul(zeros((3, 4)), zeros(4)).size()", "(3,)"},
		{"torch.matmul(zeros((10, 3, 4)), zeros(4)).size()", "(10, 3)"},
		{"torch.matmul(zeros((10, 3, 4)), zeros((10, 4, 5))).size()", "(10, 3, 5)"},
		{"torch.matmul(zeros((10, 3, 4)), zeros((4, 5))).size()", "(10, 3, 5)"},
		{"(zeros((10, 3, 4)) @ zeros((4,))).shape", "(10, 3)"},
		{"(zeros((2, 1, 3, 4)) @ zeros((5, 4, 6))).shape", "(2, 5, 3, 6)"},
	} {
		expect(t, dir, ok(tc.want), "eval", tc.expr)
	}
}

// TestEvalLanguage covers the rest of the language: literals, operators,
// subscripts, attributes, functions and the printing of non-tensors.
func TestEvalLanguage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ expr, want string }{
		{"[[1, 2], [3, 4]]", "Tensor([[1 2]\n [3 4]], dtype=int32, device=xpux:0)"},
		{"[0.5, 1]", "Tensor([0.5 1. ], device=xpux:0)"},
		{"[True, False]", "Tensor([ True False], dtype=bool, device=xpux:0)"},
		{"[]", "Tensor([], device=xpux:0)"},
		{"tensor([1, 2], dtype='int8') * 3", "Tensor([3 6], dtype=int8, device=xpux:0)"},
		{"tensor([100], dtype=int8) * 3", "Tensor([44], dtype=int8, device=xpux:0)"},
		{"tensor([1, 2], dtype=float16) * 2.5", "Tensor([2.5 5. ], dtype=float16, device=xpux:0)"},
		{"[1, 2] * 2.5", "Tensor([2.5 5. ], device=xpux:0)"},
		{"[1.0] * nan", "Tensor([nan], device=xpux:0)"},
		{"[1.0, -1.0] * inf", "Tensor([ inf -inf], device=xpux:0)"},
		{"-[1, 2]", "Tensor([-1 -2], dtype=int32, device=xpux:0)"},
		{"-tensor([1, 2], dtype=int16)", "Tensor([-1 -2], dtype=int16, device=xpux:0)"},
		{"-(-3)", "3"},
		{"-2.5", "-2.5"},
		{"2 * 3", "6"}, // Python numbers stay numbers,
		{"F.mul(-3, -4)", "Tensor(12, dtype=int32, device=xpux:0)"},
		{"1e-5", "1e-05"},
		{"0x10", "16"},
		{"(1,)", "(1,)"},
		{"()", "()"},
		{"None", "None"},
		{"True", "True"},
		{"'float16'", "float16"},
		{"arange(6).reshape(2, 3)", "Tensor([[0 1 2]\n [3 4 5]], dtype=int32, device=xpux:0)"},
		{"arange(6).reshape((3, -1)).T", "Tensor([[0 2 4]\n [1 3 5]], dtype=int32, device=xpux:0)"},
		{"arange(24).reshape(2, 3, 4)[1, ::2, -1]", "Tensor([15 23], dtype=int32, device=xpux:0)"},
		{"arange(24).reshape(2, 3, 4)[..., 0]", "Tensor([[ 0  4  8]\n [12 16 20]], dtype=int32, device=xpux:0)"},
		{"arange(24).reshape(2, 3, 4)[0, ...]", "Tensor([[ 0  1  2  3]\n [ 4  5  6  7]\n [ 8  9 10 11]], dtype=int32, device=xpux:0)"},
		{"arange(5)[::-2]", "Tensor([4 2 0], dtype=int32, device=xpux:0)"},
		{"arange(5)[1:-1]", "Tensor([1 2 3], dtype=int32, device=xpux:0)"},
		{"arange(24).reshape(2, 3, 4).mT.shape", "(2, 4, 3)"},
		{"arange(24).reshape(2, 3, 4).T.shape", "(4, 3, 2)"},
		{"transpose(arange(24).reshape(2, 3, 4), (1, 0, 2)).shape", "(3, 2, 4)"},
		{"arange(24).reshape(2, 3, 4).permute(2, 0, 1).shape", "(4, 2, 3)"},
		{"arange(6).reshape(2, 3).ndim", "2"},
		{"arange(6).reshape(2, 3).size", "6"},
		{"arange(6).dtype", "int32"},
		{"broadcast_to([1, 2], (2, 2))", "Tensor([[1 2]\n [1 2]], dtype=int32, device=xpux:0)"},
		{"ones((2, 2), dtype=int8)", "Tensor([[1 1]\n [1 1]], dtype=int8, device=xpux:0)"},
		{"zeros(2)", "Tensor([0. 0.], device=xpux:0)"},
		{"full((2,), 7)", "Tensor([7 7], dtype=int32, device=xpux:0)"},
		{"arange(0, 1, 0.25)", "Tensor([0.   0.25 0.5  0.75], device=xpux:0)"},
		{"arange(3, dtype=float64)", "Tensor([0. 1. 2.], dtype=float64, device=xpux:0)"},
		{"astype([1.5, -2.5], 'int32')", "Tensor([ 1 -2], dtype=int32, device=xpux:0)"},
		{"[1, 2].astype(float64)", "Tensor([1. 2.], dtype=float64, device=xpux:0)"},
		{"np.prod([[1, 2], [3, 4]], axis=(0, 1), keepdims=True)", "Tensor([[24]], dtype=int32, device=xpux:0)"},
		{"prod([[1, 2], [3, 4]], axis=(), keepdims=False)", "Tensor([[1 2]\n [3 4]], dtype=int32, device=xpux:0)"},
		{"prod([[1, 2], [3, 4]], axis=-1)", "Tensor([ 2 12], dtype=int32, device=xpux:0)"},
		{"[[1, 2], [3, 4]] @ [1, 1]", "Tensor([3 7], dtype=int32, device=xpux:0)"},
		{"matmul([[1, 0]], [[2], [inf]])", "Tensor([[nan]], device=xpux:0)"},
		{"[2j] * [1, 2]", "Tensor([0.+2.j 0.+4.j], dtype=complex64, device=xpux:0)"},
	} {
		expect(t, dir, ok(tc.want), "eval", tc.expr)
	}
}

// TestEvalFiles writes results with -o, reads them back as bindings and
// with info, and checks the Fortran layout of a transposed result.
func TestEvalFiles(t *testing.T) {
	dir := t.TempDir()
	expect(t, dir, result{}, "eval", "-o", "x.npy", "Tensor([[1, 2, 3], [4, 5, 6]])")
	expect(t, dir, result{}, "eval", "-o=y.npy", "Tensor([[1, 1, 1], [2, 2, 2]])")
	expect(t, dir, ok("Tensor([[ 1  2  3]\n [ 8 10 12]], dtype=int32, device=xpux:0)"), "eval", "F.mul(x, y)", "x=x.npy", "y=y.npy")
	expect(t, dir, ok("Tensor([[ -2  -4  -6]\n [ -8 -10 -12]], dtype=int32, device=xpux:0)"), "eval", "-x * 2", "x=x.npy")
	expect(t, dir, ok("Tensor([[ 2  4  6]\n [ 8 10 12]], dtype=int32, device=xpux:0)"), "eval", "--", "x * 2", "x=x.npy")
	expect(t, dir, result{}, "eval", "-o", "t.npy", "x.T", "x=x.npy")
	expect(t, dir, result{}, "eval", "-o", "s.npy", "x[:, ::2]", "x=x.npy")
	expect(t, dir, result{}, "eval", "-o", "n.npy", "2.5")
	expect(t, dir, ok("x.npy: shape (2, 3), dtype int32, order C, 24 bytes\n"+
		"t.npy: shape (3, 2), dtype int32, order F, 24 bytes\n"+
		"s.npy: shape (2, 2), dtype int32, order C, 16 bytes\n"+
		"n.npy: shape (), dtype float32, order C, 4 bytes"), "info", "x.npy", "t.npy", "s.npy", "n.npy")
	expect(t, dir, ok("Tensor([[1 4]\n [2 5]\n [3 6]], dtype=int32, device=xpux:0)"), "eval", "t", "t=t.npy")
	expect(t, dir, ok("Tensor([[1 3]\n [4 6]], dtype=int32, device=xpux:0)"), "eval", "s", "s=s.npy")
	expect(t, dir, failed(fmt.Errorf("tensor: save: the result is a tuple, not a tensor")), "eval", "-o", "u.npy", "x.shape", "x=x.npy")

	// NumPy reads what the command writes, when it is installed.
	py := "/usr/bin/python3"
	check := exec.Command(py, "-c", "import numpy as np; t = np.load('t.npy'); print(t.tolist(), t.flags.f_contiguous)")
	check.Dir = dir
	if out, err := check.Output(); err != nil {
		t.Logf("skipping the NumPy cross-check: %v", err)
	} else if got := string(out); got != "[[1, 4], [2, 5], [3, 6]] True\n" {
		t.Errorf("NumPy reads t.npy as %q", got)
	}
}

func TestInfoFixtures(t *testing.T) {
	dir, err := filepath.Abs("../../npy/testdata")
	if err != nil {
		t.Fatal(err)
	}
	// The expected lines were read from these files with NumPy.
	expect(t, dir, ok("int32_c.npy: shape (2, 3), dtype int32, order C, 24 bytes\n"+
		"float64_f.npy: shape (2, 3, 2), dtype float64, order F, 96 bytes\n"+
		"int16_be.npy: shape (2, 3), dtype int16, order C, 12 bytes, big-endian\n"+
		"bool_0d.npy: shape (), dtype bool, order C, 1 bytes\n"+
		"float64_empty2d.npy: shape (2, 0), dtype float64, order C, 0 bytes\n"+
		"complex128_be_f.npy: shape (2, 3), dtype complex128, order F, 96 bytes, big-endian"),
		"info", "int32_c.npy", "float64_f.npy", "int16_be.npy", "bool_0d.npy", "float64_empty2d.npy", "complex128_be_f.npy")
}

func TestInfoErrors(t *testing.T) {
	dir := t.TempDir()
	expect(t, dir, failed(errors.New("tensor: info: open missing.npy: no such file or directory")), "info", "missing.npy")
	raw, err := os.ReadFile("../../npy/testdata/int32_c.npy")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"short.npy": raw[:len(raw)-1], "long.npy": append(raw, 0)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	expect(t, dir, failed(errors.New("tensor: info: short.npy: malformed npy data: shape (2, 3) of int32 needs 24 data bytes, the file has 23")), "info", "short.npy")
	expect(t, dir, failed(errors.New("tensor: info: long.npy: malformed npy data: shape (2, 3) of int32 needs 24 data bytes, the file has 25")), "info", "long.npy")
}

func TestPrecisionFlag(t *testing.T) {
	dir := t.TempDir()
	// 1.0001 rounds to 1 in TF32 (10 mantissa bits) but not in float32.
	expr := "tensor([[1.0001]]) @ tensor([[1.0]])"
	expect(t, dir, ok("Tensor([[1.0001]], device=xpux:0)"), "eval", expr)
	expect(t, dir, ok("Tensor([[1.0001]], device=xpux:0)"), "eval", "--precision", "highest", expr)
	expect(t, dir, ok("Tensor([[1.]], device=xpux:0)"), "eval", "--precision", "tf32", expr)
	expect(t, dir, ok("Tensor([[1.]], device=xpux:0)"), "eval", "--precision=tf32", "matmul([[1.0001]], [[1.0]])")
	expect(t, dir, usageErr(`eval: --precision must be highest or tf32, not "fast"`), "eval", "--precision", "fast", expr)
}

// TestEvalFailures covers every class of failure: the expression is valid
// but the operation fails (exit 1, the library's message).
func TestEvalFailures(t *testing.T) {
	dir := t.TempDir()
	must := mustFor(t)
	z := func(s ...int) *tensor.Tensor { return must(tensor.Zeros(tensor.Float32, s...)) }
	i32 := func(v ...int32) *tensor.Tensor { return must(tensor.FromSlice(v)) }
	u64 := must(tensor.FromSlice([]uint64{1}))
	i8 := must(tensor.FromSlice([]int8{1}))

	expect(t, dir, failed(libErr(tensor.Mul(z(2, 3), z(4)))), "eval", "mul(zeros((2, 3)), zeros((4,)))")
	expect(t, dir, failed(libErr(tensor.Mul(z(2, 3), z(4)))), "eval", "zeros((2, 3)) * zeros(4)")
	expect(t, dir, failed(libErr(tensor.Matmul(z(2, 3), z(2, 3)))), "eval", "zeros((2, 3)) @ zeros((2, 3))")
	expect(t, dir, failed(libErr(tensor.Matmul(z(10, 3, 4), z(9, 4, 5)))), "eval", "matmul(zeros((10, 3, 4)), zeros((9, 4, 5)))")
	expect(t, dir, failed(libErr(tensor.Matmul(must(tensor.Scalar(2.0)), z(3)))), "eval", "matmul(2.0, zeros(3))")
	expect(t, dir, failed(libErr(tensor.Prod(z(2, 3), tensor.Axis(2)))), "eval", "prod(zeros((2, 3)), axis=2)")
	expect(t, dir, failed(libErr(tensor.Prod(z(2, 3, 4), tensor.Axis(0, -3)))), "eval", "prod(zeros((2, 3, 4)), axis=(0, -3))")
	expect(t, dir, failed(libErr(tensor.Mul(u64, i8))), "eval", `mul(tensor([1], dtype="uint64"), tensor([1], dtype="int8"))`)
	expect(t, dir, failed(libErr(tensor.Mul(i32(1, 2), int64(1)<<40))), "eval", "[1, 2] * 0x10000000000")
	expect(t, dir, failed(libErr(i32(1, 2, 3).Reshape(2, 2))), "eval", "reshape([1, 2, 3], (2, 2))")
	expect(t, dir, failed(libErr(i32(1, 2, 3).Slice(tensor.Index(3)))), "eval", "[1, 2, 3][3]")
	expect(t, dir, failed(libErr(i32(1, 2, 3).Slice(tensor.All().By(0)))), "eval", "[1, 2, 3][::0]")
	expect(t, dir, failed(libErr(i32(1).MT())), "eval", "[1].mT")
	expect(t, dir, failed(libErr(tensor.Zeros(tensor.Float32, -1))), "eval", "zeros(-1)")

	// Errors of the command's own conversions read the same way.
	for _, tc := range []struct{ expr, msg string }{
		{"tensor(3000000000)", "tensor: tensor: integer 3000000000 is out of the range of int32"},
		{"tensor([300], dtype=int8)", "tensor: tensor: integer 300 is out of the range of int8"},
		{"[[1, 2], [3]]", "tensor: tensor: ragged nested list: length 1 at depth 1, expected 2"},
		{"astype([1], 7)", `tensor: astype: dtype must be a name such as "float32", got int`},
		{"prod([1, 2], axis=1.5)", "tensor: prod: axis must be an int or a tuple of ints, got float"},
		{"prod([1, 2], keepdims=1)", "tensor: prod: keepdims must be True or False, got int"},
		{"mul((1, 2), 2)", "tensor: mul: expected a tensor or a number, got tuple"},
		{"[1, 2][1.5]", "tensor: index: indices must be integers, slices or '...', got float"},
		{"99999999999999999999", "tensor: literal: integer 99999999999999999999 does not fit in 64 bits"},
	} {
		expect(t, dir, result{stderr: tc.msg + "\n", code: 1}, "eval", tc.expr)
	}

	// Results larger than the memory available fail before allocating
	// (the Go runtime would abort the process with a trace). With a 32-bit
	// int no such shape exists: the library refuses it first.
	budgetErr := func(stderr string) bool {
		if strconv.IntSize < 64 {
			return strings.Contains(stderr, "shape (524288, 524288) has more elements than fit in an int")
		}
		return strings.Contains(stderr, "a result of shape (524288, 524288) and dtype ") && strings.Contains(stderr, "more than the")
	}
	for _, expr := range []string{"zeros((524288, 524288))", "broadcast_to(1.0, (524288, 524288)) * 2", "-broadcast_to(1, (524288, 524288))"} {
		got := runIn(t, dir, "eval", expr)
		if got.code != 1 || !budgetErr(got.stderr) {
			t.Errorf("eval %q = %+v, want the memory budget error", expr, got)
		}
	}
	got := runIn(t, dir, "eval", "-o", "big.npy", "broadcast_to(1.0, (524288, 524288))")
	if got.code != 1 || !budgetErr(got.stderr) || strconv.IntSize == 64 && !strings.HasPrefix(got.stderr, "tensor: save_npy: ") {
		t.Errorf("saving a huge broadcast view = %+v, want the memory budget error", got)
	}

	// Files: missing, malformed, and a dtype NumPy lacks.
	expect(t, dir, failed(errors.New("tensor: load_npy: open missing.npy: no such file or directory")), "eval", "x * 2", "x=missing.npy")
	if err := os.WriteFile(filepath.Join(dir, "bad.npy"), []byte("\x93NUMPY\x01\x00garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, badErr := tensor.LoadNPY(filepath.Join(dir, "bad.npy"))
	got = runIn(t, dir, "eval", "x", "x=bad.npy")
	if got.code != 1 || !strings.HasPrefix(got.stderr, "tensor: load_npy: bad.npy: ") || badErr == nil {
		t.Errorf("malformed file: got %+v (library: %v)", got, badErr)
	}
	bf16 := must(tensor.Zeros(tensor.BFloat16, 1))
	expect(t, dir, failed(errors.New(cliWords(tensor.SaveNPY(filepath.Join(dir, "b.npy"), bf16).Error()))), "eval", "-o", "b.npy", "zeros(1, dtype=bfloat16)")
	expect(t, dir, failed(errors.New("tensor: load_npy: open nodir/x.npy: no such file or directory")), "eval", "x", "x=nodir/x.npy")
}

// TestUsageErrors covers the command-line and expression errors (exit 2),
// each pointing at its column.
func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"eval", "mul(x,))"}, "syntax error at column 8: unexpected ')'"},
		{[]string{"eval", "mul(x, y"}, "syntax error at column 9: expected ')', found end of expression"},
		{[]string{"eval", "x / 1", "x=x.npy"}, "syntax error at column 3: operator '/' is not supported (only +, -, *, @ and unary -)"},
		{[]string{"eval", "a - / b"}, "syntax error at column 5: operator '/' is not supported (only +, -, *, @ and unary -)"},
		{[]string{"eval", ""}, "syntax error at column 1: unexpected end of expression"},
		{[]string{"eval", "[1, 2"}, "syntax error at column 6: expected ']', found end of expression"},
		{[]string{"eval", "x $ 2"}, "syntax error at column 3: unexpected character '$'"},
		{[]string{"eval", "foo(1)"}, "name error at column 1: unknown function 'foo'"},
		{[]string{"eval", "tensor([1], dtype='float8')"}, "name error at column 19: unknown dtype 'float8'"},
		{[]string{"eval", "F.foo(1)"}, "name error at column 3: unknown function 'foo'"},
		{[]string{"eval", "Mul(1, 2)"}, "name error at column 1: unknown function 'Mul' (did you mean 'mul'?)"},
		{[]string{"eval", "x * 2"}, "name error at column 1: unknown name 'x'"},
		{[]string{"eval", "2 * y", "x=missing.npy"}, "name error at column 5: unknown name 'y'"},
		{[]string{"eval", "mul"}, "name error at column 1: function 'mul' must be called: mul(...)"},
		{[]string{"eval", "[1].foo"}, "name error at column 5: unknown attribute 'foo' (known: T, mT, shape, ndim, size, dtype)"},
		{[]string{"eval", "[1].foo()"}, "name error at column 5: unknown method 'foo'"},
		{[]string{"eval", "zeros(2).zeros()"}, "name error at column 10: unknown method 'zeros'"},
		{[]string{"eval", "mul(1)"}, "call error at column 4: mul() is missing argument 'y'"},
		{[]string{"eval", "mul(1, 2, 3)"}, "call error at column 4: mul() takes at most 2 arguments, got 3"},
		{[]string{"eval", "prod([1], axes=0)"}, "call error at column 11: prod() has no parameter 'axes' (parameters: x, axis, keepdims, dtype)"},
		{[]string{"eval", "prod([1], 0, axis=0)"}, "call error at column 14: prod() got multiple values for 'axis'"},
		{[]string{"eval", "(1)(2)"}, "call error at column 4: only functions and methods can be called"},
		{[]string{"eval", "[1][..., ...]"}, "call error at column 10: an index can only have a single ellipsis ('...')"},
		{[]string{"eval"}, "eval: missing EXPR; usage: tensor eval [-o OUT.npy|OUT.npz] [--precision highest|tf32] [--max-ops N] EXPR [NAME=FILE.npy|FILE.npz ...]"},
		{[]string{"eval", "-o"}, "eval: flag -o needs a value"},
		{[]string{"eval", "x", "x"}, `eval: argument "x" after EXPR must be NAME=FILE.npy`},
		{[]string{"eval", "x", "1x=a.npy"}, `eval: "1x" is not a valid name (letters, digits and _, not starting with a digit)`},
		{[]string{"eval", "x", "x=a.npy", "x=b.npy"}, `eval: name "x" is bound twice`},
		{[]string{"eval", "x", "nan=a.npy"}, `eval: "nan" is a constant and cannot be bound`},
		{[]string{"eval", "x", "int8=a.npy"}, `eval: "int8" is a dtype name and cannot be bound`},
		{[]string{}, "missing command; run 'tensor help' for usage"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"; run 'tensor help' for usage`},
		{[]string{"info"}, "info: missing FILE.npy; usage: tensor info FILE.npy ..."},
		{[]string{"bench", "--threads", "0"}, `bench: --threads must be a positive integer, not "0"`},
		{[]string{"bench", "--frob", "1"}, "bench: unknown flag --frob"},
	} {
		expect(t, dir, usageErr(tc.msg), tc.args...)
	}
}

func TestHelp(t *testing.T) {
	for _, arg := range []string{"help", "-h", "--help"} {
		got := runIn(t, t.TempDir(), arg)
		if got.code != 0 || got.stderr != "" || got.stdout != usage {
			t.Errorf("tensor %s = %+v, want the usage text", arg, got)
		}
	}
}

// TestBench runs a small workloads file and checks the JSON lines carry
// the peers script's fields.
func TestBench(t *testing.T) {
	dir := t.TempDir()
	workloads := `{"workloads": [
	 {"name": "matmul/float32/8x8x8", "op": "matmul", "a": [8, 8], "b": [8, 8], "dtype": "float32", "flops": 1024},
	 {"name": "mul/int32/t", "op": "mul", "a": [4, 3], "b": [3, 4], "dtype": "int32", "transpose": true, "bytes": 144},
	 {"name": "mul/float32*int32/p", "op": "mul", "a": [16], "b": [16], "dtype": "float32", "bdtype": "int32", "bytes": 192},
	 {"name": "prod/float64/axes", "op": "prod", "a": [2, 3, 4], "axis": [0, 2], "dtype": "float64", "bytes": 192},
	 {"name": "prod/float32/all", "op": "prod", "a": [10], "axis": null, "dtype": "float32", "bytes": 40},
	 {"name": "add/int8/bt", "op": "add", "a": [3, 4], "b": [4, 3], "dtype": "int8", "b_transpose": true, "bytes": 36},
	 {"name": "sum/bfloat16/axis", "op": "sum", "a": [5, 3], "axis": 1, "dtype": "bfloat16", "bytes": 30},
	 {"name": "matmul/complex64/bt", "op": "matmul", "a": [3, 2], "b": [4, 2], "dtype": "complex64", "b_transpose": true, "flops": 192},
	 {"name": "spmm/float32/csr", "op": "matmul", "a": [10, 10], "a_sparse": "csr", "a_nnz": 5, "b": [10, 2], "dtype": "float32", "flops": 20},
	 {"name": "spmm/float64/coo", "op": "matmul", "a": [10, 10], "a_sparse": "coo", "a_nnz": 100, "b": [10, 2], "dtype": "float64", "flops": 400},
	 {"name": "spmm/int32/coo", "op": "matmul", "a": [10, 10], "a_sparse": "coo", "a_nnz": 3, "b": [10, 2], "dtype": "int32", "flops": 12},
	 {"name": "spgemm/float64/csr", "op": "matmul", "a": [20, 30], "a_sparse": "csr", "a_nnz": 40, "b": [30, 20], "b_sparse": "csr", "b_nnz": 40, "dtype": "float64", "flops": 106}
	]}`
	if err := os.WriteFile(filepath.Join(dir, "w.json"), []byte(workloads), 0o644); err != nil {
		t.Fatal(err)
	}
	got := runIn(t, dir, "bench", "--workloads", "w.json", "--threads", "1", "--budget", "0.03")
	if got.code != 0 || got.stderr != "" {
		t.Fatalf("bench: %+v", got)
	}
	lines := strings.Split(strings.TrimSuffix(got.stdout, "\n"), "\n")
	wantNames := []string{"matmul/float32/8x8x8", "mul/int32/t", "mul/float32*int32/p", "prod/float64/axes", "prod/float32/all",
		"add/int8/bt", "sum/bfloat16/axis", "matmul/complex64/bt",
		"spmm/float32/csr", "spmm/float64/coo", "spmm/int32/coo", "spgemm/float64/csr"}
	if len(lines) != len(wantNames) {
		t.Fatalf("bench printed %d lines, want %d:\n%s", len(lines), len(wantNames), got.stdout)
	}
	for i, line := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		if rec["lib"] != "tensor" || rec["name"] != wantNames[i] {
			t.Errorf("line %d = %q, want lib tensor, name %s", i, line, wantNames[i])
		}
		rate := "gbps"
		if strings.HasPrefix(wantNames[i], "matmul") || strings.HasPrefix(wantNames[i], "sp") {
			rate = "gflops"
		}
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range rec {
				if !yield(k) {
					return
				}
			}
		})
		if want := []string{rate, "kernels", "lib", "name", "seconds", "threads"}; !slices.Equal(keys, want) {
			t.Errorf("line %q has keys %v, want %v", line, keys, want)
		}
		if rec["threads"] != 1.0 || !(rec["seconds"].(float64) > 0) {
			t.Errorf("line %q: want threads 1 and positive seconds", line)
		}
		if !strings.HasPrefix(line, `{"lib": "tensor", "name": "`+wantNames[i]+`", "threads": 1, "seconds": `) {
			t.Errorf("line %q is not in the peers script's field order and spacing", line)
		}
	}
	// Filters select by substring.
	got = runIn(t, dir, "bench", "--workloads=w.json", "--budget=0.01", "prod/", "8x8")
	if n := strings.Count(got.stdout, "\n"); got.code != 0 || n != 3 {
		t.Errorf("filtered bench printed %d lines (exit %d), want 3:\n%s", n, got.code, got.stdout)
	}
}

// TestEmbeddedWorkloads checks that the embedded copy is the project's
// shared workloads file and that every workload is understood.
func TestEmbeddedWorkloads(t *testing.T) {
	shared, err := os.ReadFile("../../../shared/bench/workloads.json")
	if err == nil && !bytes.Equal(shared, defaultWorkloads) {
		t.Error("cmd/tensor/workloads.json differs from shared/bench/workloads.json; copy it again")
	}
	inRepo, err := os.ReadFile("../../bench/workloads.json")
	if err != nil || !bytes.Equal(inRepo, defaultWorkloads) {
		t.Errorf("cmd/tensor/workloads.json differs from bench/workloads.json, which bench/peers.py reads (%v); copy it again", err)
	}
	checkWorkloads(t, defaultWorkloads)
}

// TestSweepWorkloads checks that bench/sweep.json, which bench/sweep.py
// runs here and in the peers script, is understood: its names distinct,
// and the smallest ones built and run (the rest are checked for their
// fields, as building them all takes seconds).
func TestSweepWorkloads(t *testing.T) {
	data, err := os.ReadFile("../../bench/sweep.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range checkWorkloads(t, data) {
		// The product in float64: a sparse workload's dense shape
		// (100000²) wraps a 32-bit int on 386 to a small or negative one.
		n := 1.0
		for _, d := range append(slices.Clone(w.A), w.B...) {
			n *= float64(d)
		}
		if n > 1<<14 {
			continue
		}
		call, err := prepare(w, "")
		if err == nil {
			err = call()
		}
		if err != nil {
			t.Errorf("%s: %v", w.Name, err)
		}
	}
}

// checkWorkloads checks every workload of a file for what benchOne needs:
// a known op and dtypes, axes for reductions, one of flops and bytes, a
// name of its own. It returns the workloads.
func checkWorkloads(t *testing.T, data []byte) []workload {
	t.Helper()
	var file struct {
		Workloads []workload `json:"workloads"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, w := range file.Workloads {
		if seen[w.Name] {
			t.Errorf("%s: named twice", w.Name)
		}
		seen[w.Name] = true
		moves := true // the op moves elements, so it counts flops or bytes
		switch w.Op {
		case "matmul", "mul", "add", "sub", "neg", "astype":
		case "prod", "sum":
			if _, err := axisOptions(w.Axis); err != nil {
				t.Errorf("%s: %v", w.Name, err)
			}
		case "reshape", "transpose", "slice":
			moves = false // a view: nothing to count
		default:
			t.Errorf("%s: unknown op %q", w.Name, w.Op)
		}
		for _, name := range []string{w.DType, cmp.Or(w.BDType, w.DType)} {
			if _, err := dtype.Parse(name); err != nil {
				t.Errorf("%s: %v", w.Name, err)
			}
		}
		if moves && (w.Flops > 0) == (w.Bytes > 0) {
			t.Errorf("%s: needs exactly one of flops and bytes", w.Name)
		}
		if !moves && (w.Flops > 0 || w.Bytes > 0) {
			t.Errorf("%s: a view moves nothing, so counts neither flops nor bytes", w.Name)
		}
	}
	return file.Workloads
}

// TestDistinctPositions checks the sparse workloads' positions: n of them,
// increasing (so distinct) and in range, on both of its paths.
func TestDistinctPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		n     int
		total uint64
	}{{0, 10}, {5, 1 << 40}, {1000, 3000}, {2000, 3000}, {3000, 3000}, {1, 1}} {
		pos := distinctPositions(rng, c.n, c.total)
		if len(pos) != c.n {
			t.Fatalf("%+v: %d positions", c, len(pos))
		}
		for i, p := range pos {
			if p >= c.total || i > 0 && p <= pos[i-1] {
				t.Fatalf("%+v: positions not increasing within range at %d: %v", c, i, pos[max(i-1, 0):i+1])
			}
		}
	}
}

// TestLoopTime checks the peers script's protocol: one untimed call, then
// three blocks of at least a third of the budget each, and the best
// block's mean per call as the figure.
func TestLoopTime(t *testing.T) {
	const budget = 30 * time.Millisecond
	clock := time.Unix(0, 0)
	now := func() time.Time { return clock }
	calls := 0
	f := func() error { // calls of 1 ms on the test's clock, the fifth 9 ms
		calls++
		clock = clock.Add(time.Millisecond)
		if calls == 5 {
			clock = clock.Add(8 * time.Millisecond)
		}
		return nil
	}
	secs, err := loopTimeOn(now, f, budget)
	if err != nil {
		t.Fatal(err)
	}
	// The untimed call, a first block of calls 2 to 5 (12 ms, 3 ms a call),
	// then two blocks of ten 1 ms calls: the best block's mean is 1 ms.
	if calls != 25 {
		t.Errorf("loopTime made %d calls, want 25 (1 untimed, then blocks of 4, 10 and 10)", calls)
	}
	if secs != 0.001 {
		t.Errorf("loopTime = %v s, want the best block's mean, 0.001", secs)
	}
	calls = 0
	slow := func() error { calls++; clock = clock.Add(20 * time.Millisecond); return nil }
	if _, err := loopTimeOn(now, slow, budget); err != nil || calls != 4 {
		t.Errorf("calls longer than a block: %d calls (err %v), want 4, one per block after the untimed one", calls, err)
	}
	if _, err := loopTime(func() error { return errors.New("boom") }, budget); err == nil {
		t.Error("loopTime hid the call's error")
	}
	// On the real clock, the loop lasts at least its budget.
	start := time.Now()
	if _, err := loopTime(func() error { return nil }, budget); err != nil || time.Since(start) < budget {
		t.Errorf("loopTime on the real clock took %v (err %v), less than its budget %v", time.Since(start), err, budget)
	}
}

// TestBenchVariants checks what a timed call does with its result: the
// plain loop drops it (the pool is not told), --release hands it back,
// --into writes into one output made beforehand.
func TestBenchVariants(t *testing.T) {
	// Earlier tests' dropped results may hold the pool at its bound (512 MiB
	// where int has 32 bits), and beyond it buffers are untracked and
	// cannot be reused: a collection (the test's, never the library's)
	// hands them back first.
	runtime.GC()
	time.Sleep(20 * time.Millisecond) // the finalizers run on their own goroutine
	runtime.GC()
	w := workload{Name: "mm", Op: "matmul", A: []int{64, 64}, B: []int{64, 64}, DType: "float64"}
	run := func(variant string) (hits, grown int, allocs float64) {
		f, err := prepare(w, variant)
		if err != nil {
			t.Fatal(err)
		}
		if err := f(); err != nil {
			t.Fatal(err)
		}
		before := storage.ReadStats()
		allocs = testing.AllocsPerRun(5, func() {
			if err := f(); err != nil {
				t.Fatal(err)
			}
		})
		after := storage.ReadStats()
		return after.Hits - before.Hits, after.Grown - before.Grown, allocs
	}
	if hits, _, _ := run("release"); hits < 6 {
		t.Errorf("--release: %d of 6 calls reused the released result, want all", hits)
	}
	if hits, grown, allocs := run("into"); hits != 0 || grown != 0 || allocs != 0 {
		t.Errorf("--into: %d hits, %d new buffers, %v allocations a call, want none", hits, grown, allocs)
	}
	if _, err := prepare(workload{Name: "s", Op: "matmul", A: []int{4, 4}, ASparse: "csr", ANnz: 2, B: []int{4, 4}, BSparse: "csr", BNnz: 2, DType: "float32"}, "into"); err == nil {
		t.Error("--into with a sparse result was accepted")
	}
	expect(t, t.TempDir(), usageErr("bench: --release and --into exclude each other"), "bench", "--release", "--into")
	expect(t, t.TempDir(), usageErr(`bench: --budget must be a positive number of seconds, not "0"`), "bench", "--budget", "0")
}

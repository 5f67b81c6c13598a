package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/cmd/tensor/internal/expr"
	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/memlimit"
)

// evalArgs is the parsed command line of "tensor eval".
type evalArgs struct {
	out       string // -o: the .npy file to write, or "" to print
	precision tensor.Precision
	maxOps    int64 // --max-ops: the bound on element operations, 0 for none
	expr      string
	bindings  []binding
}

// binding is NAME=FILE.npy.
type binding struct{ name, file string }

// parseEvalArgs reads the flags (before EXPR), EXPR and the bindings.
// An argument starting with '-' that is not a known flag is taken as EXPR,
// so that "tensor eval '-x * 2' x=a.npy" needs no "--".
func parseEvalArgs(args []string) (*evalArgs, error) {
	a := &evalArgs{precision: tensor.Highest, maxOps: defaultMaxOps}
	i := 0
flags:
	for ; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			i++
			break flags
		}
		name, value, hasValue := strings.Cut(arg, "=")
		var set func(string) error
		switch name {
		case "-o", "--o", "-out", "--out":
			set = func(v string) error { a.out = v; return nil }
		case "-precision", "--precision":
			set = a.setPrecision
		case "-max-ops", "--max-ops":
			set = a.setMaxOps
		case "-h", "-help", "--help":
			return nil, usagef("usage: tensor eval [-o OUT.npy|OUT.npz] [--precision highest|tf32] [--max-ops N] EXPR [NAME=FILE.npy|FILE.npz ...]")
		default:
			break flags // the expression
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil, usagef("eval: flag %s needs a value", name)
			}
			i++
			value = args[i]
		}
		if err := set(value); err != nil {
			return nil, err
		}
	}
	if i >= len(args) {
		return nil, usagef("eval: missing EXPR; usage: tensor eval [-o OUT.npy|OUT.npz] [--precision highest|tf32] [--max-ops N] EXPR [NAME=FILE.npy|FILE.npz ...]")
	}
	a.expr = args[i]
	seen := map[string]bool{}
	for _, arg := range args[i+1:] {
		name, file, ok := strings.Cut(arg, "=")
		if !ok || file == "" {
			return nil, usagef("eval: argument %q after EXPR must be NAME=FILE.npy", arg)
		}
		if err := checkBindingName(name); err != nil {
			return nil, err
		}
		if seen[name] {
			return nil, usagef("eval: name %q is bound twice", name)
		}
		seen[name] = true
		a.bindings = append(a.bindings, binding{name, file})
	}
	return a, nil
}

func (a *evalArgs) setPrecision(v string) error {
	switch v {
	case "highest":
		a.precision = tensor.Highest
	case "tf32":
		a.precision = tensor.TF32
	default:
		return usagef("eval: --precision must be highest or tf32, not %q", v)
	}
	return nil
}

// checkBindingName accepts Python identifiers that are not constants.
func checkBindingName(name string) error {
	if name == "" {
		return usagef("eval: empty name in NAME=FILE.npy")
	}
	for i, c := range name {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return usagef("eval: %q is not a valid name (letters, digits and _, not starting with a digit)", name)
		}
	}
	switch name {
	case "True", "False", "None", "nan", "inf":
		return usagef("eval: %q is a constant and cannot be bound", name)
	}
	if _, err := dtype.Parse(name); err == nil {
		return usagef("eval: %q is a dtype name and cannot be bound", name)
	}
	return nil
}

// defaultMaxOps bounds the work of one evaluation unless --max-ops says
// otherwise: 2^33 element operations (a dense matrix product's
// multiply-adds count an eighth each), seconds to a minute at the slowest
// rate of any operation here (strided reductions, about 4 ns an element),
// so that no expression a user can type runs for hours;
// prod(broadcast_to(1., (100000, 100000))) asks for 10^10.
const defaultMaxOps = 1 << 33

// setMaxOps reads --max-ops: a non-negative integer, 0 for no bound.
func (a *evalArgs) setMaxOps(v string) error {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return usagef("eval: --max-ops must be a non-negative integer (0: no bound), not %q", v)
	}
	a.maxOps = n
	return nil
}

func runEval(args []string, stdout io.Writer) error {
	a, err := parseEvalArgs(args)
	if err != nil {
		return err
	}
	n, err := expr.Parse(a.expr)
	if err != nil {
		return err
	}
	env := &expr.Env{
		Vars:      map[string]*tensor.Tensor{},
		Matmul:    []tensor.MatmulOption{tensor.WithPrecision(a.precision)},
		MaxBytes:  memlimit.Available(),
		Available: memlimit.Available,
		MaxOps:    a.maxOps,
	}
	bound, npz := map[string]bool{}, map[string]bool{}
	for _, b := range a.bindings {
		bound[b.name], npz[b.name] = true, isNPZ(b.file)
	}
	env.NPZ = func(name string) bool { return npz[name] }
	if err := expr.CheckBindings(n, func(name string) bool { return bound[name] }, env.NPZ); err != nil {
		return err
	}
	for _, b := range a.bindings {
		if err := bindFile(env, b); err != nil {
			return err
		}
	}
	v, err := env.Eval(n)
	if err != nil {
		return err
	}
	if tup, ok := v.(expr.Tuple); ok && a.out != "" && tensorsOnly(tup) {
		return saveTuple(a.out, tup)
	}
	if a.out != "" {
		t, err := expr.AsTensor(v)
		if err != nil {
			return err
		}
		if t.Layout() != tensor.Strided {
			return saveSparse(a.out, t)
		}
		// Saving a view that is neither row- nor column-major copies it.
		if err := env.Reserve("save_npy", t.Shape(), t.DType()); err != nil {
			return err
		}
		return saveDense(a.out, t)
	}
	text, err := expr.Format(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, text)
	return err
}

// tensorsOnly reports whether a tuple holds tensors only (the gradients of
// vjp and grad), rather than numbers such as a shape.
func tensorsOnly(tup expr.Tuple) bool {
	for _, v := range tup {
		if _, ok := v.(*tensor.Tensor); !ok {
			return false
		}
	}
	return len(tup) > 0
}

// saveTuple writes a tuple result (the gradients of vjp and grad): to
// .npz as members arr_0, arr_1, … (numpy.savez's names for positional
// arrays), to .npy when it holds exactly one tensor. Sparse members are
// written dense, since one .npz archive cannot hold SciPy matrices as
// members.
func saveTuple(path string, tup expr.Tuple) error {
	ts := make([]tensor.NamedTensor, len(tup))
	for i, v := range tup {
		t, err := expr.AsTensor(v)
		if err != nil {
			return fmt.Errorf("%w (tuple element %d)", err, i)
		}
		if t.Layout() != tensor.Strided {
			if t, err = t.ToDense(); err != nil {
				return err
			}
		}
		ts[i] = tensor.NamedTensor{Name: fmt.Sprintf("arr_%d", i), Tensor: t}
	}
	if strings.HasSuffix(strings.ToLower(path), ".npz") {
		return tensor.SaveNPZ(path, ts, false)
	}
	if len(ts) != 1 {
		return fmt.Errorf("tensor: eval: the result is a tuple of %d tensors: write it to an .npz file (members arr_0, arr_1, ...), or index it ([0]) for %q", len(ts), path)
	}
	return tensor.SaveNPY(path, ts[0].Tensor)
}

// loadBinding reads the file of a NAME=FILE binding: a SciPy sparse matrix
// (scipy.sparse.save_npz) for .npz, a NumPy array otherwise.
func loadBinding(file string) (*tensor.Tensor, error) {
	if strings.HasSuffix(strings.ToLower(file), ".npz") {
		return tensor.LoadSparseNPZ(file)
	}
	return tensor.LoadNPY(file)
}

// saveSparse writes a sparse result in SciPy's .npz format, which needs
// the .npz name that numpy.load and scipy.sparse.load_npz expect.
func saveSparse(path string, t *tensor.Tensor) error {
	if !strings.HasSuffix(strings.ToLower(path), ".npz") {
		return fmt.Errorf("tensor: eval: the result is a %s tensor, saved in SciPy's format: name the output FILE.npz, not %q (or call to_dense)",
			t.Layout(), path)
	}
	return tensor.SaveSparseNPZ(path, t)
}

// isExprUsage reports whether err is a syntax or check error of the
// expression: the user's typing, like a bad flag.
func isExprUsage(err error) bool {
	var se *expr.SyntaxError
	var ce *expr.CheckError
	return errors.As(err, &se) || errors.As(err, &ce)
}

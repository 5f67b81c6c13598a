// Command tensor evaluates tensor expressions on .npy files, describes
// .npy files and benchmarks the library.
//
// Usage:
//
//	tensor eval [-o OUT.npy|OUT.npz] [--precision highest|tf32] [--max-ops N] EXPR [NAME=FILE.npy|FILE.npz ...]
//	tensor info FILE.npy ...
//	tensor bench [--workloads FILE] [--threads N] [--budget SECONDS] [--release|--into] [FILTER ...]
//	tensor help
//
// # eval
//
// EXPR is written in Python's expression syntax, so that examples from the
// MegEngine, NumPy and PyTorch documentation paste as they are:
//
//	tensor eval "mul(Tensor([[1, 2, 3], [4, 5, 6]]), 2)"
//	tensor eval "F.prod(x, axis=(0, 2), keepdims=True)" x=a.npy
//	tensor eval -o c.npy "a @ b.T" a=a.npy b=b.npy
//	tensor eval "matmul(zeros((10, 3, 4)), zeros((4,))).shape"
//
// Literals: integers and floats (weak scalars: they take the dtype of the
// tensor they multiply), nan, inf, imaginary numbers (2j), True, False,
// None, strings, tuples (axes and shapes) and nested lists, which are
// tensors of the default dtypes (int32 for ints, float32 if any element is
// a float, bool for bools; [] is float32 of shape (0,)). Dtype names may be
// written bare (int8) or quoted ("int8").
//
// Operators: + (add), - (sub), * (mul), @ (matmul), unary - (neg,
// keeping the dtype; a bool tensor is an error), parentheses, subscripts x[1, ::2, -1] and x[..., 0], and
// the attributes .T (all axes reversed), .mT (last two swapped), .shape
// (a tuple), .ndim, .size and .dtype.
//
// Functions, with Python's positional and keyword arguments: mul(x, y),
// add(x, y), sub(x, y) (also subtract), neg(x) (also negative),
// matmul(x, y), prod(x, axis=None, keepdims=False), tensor(data,
// dtype=None) (also Tensor and array), astype(x, dtype), transpose(x,
// axes=None), permute(x, axes), reshape(x, shape), broadcast_to(x, shape),
// zeros(shape, dtype=None), ones(shape, dtype=None), full(shape,
// fill_value, dtype=None), arange(start, stop=None, step=None, dtype=None).
// A prefix F., np., torch. or mge. is ignored. The functions that take a
// tensor first are also methods: x.prod(axis=0), x.reshape(2, 3),
// x.astype("float16"), and x.size() is the shape as in PyTorch.
//
// Sparse matrices: to_sparse_coo(x) (also x.to_sparse()), to_sparse_csr(x)
// and to_dense(x) convert 2-D tensors between layouts, and a binding
// NAME=FILE.npz loads a matrix saved by scipy.sparse.save_npz (csr, csc or
// coo). mul and matmul (* and @) accept sparse operands as the library
// does; a sparse result prints in PyTorch's style and -o OUT.npz writes it
// in SciPy's format:
//
//	tensor eval "to_sparse_csr(tensor([[0, 2], [3, 0]])) @ ones((2, 1))"
//	tensor eval -o c.npz "a @ a" a=a.npz
//
// A binding NAME=FILE.npz of a plain archive (numpy.savez) binds its
// members: NAME['member'] or NAME.member selects one, and an archive of a
// single member also stands for that member, so that what -o OUT.npz
// writes reads back as the tensor it holds:
//
//	tensor eval "x @ m['w'] * m.b" x=x.npy m=weights.npz
//
// Numbers multiplied with each other give a 0-d tensor of the default
// dtype, as the library's Mul does (2 * 3 prints Tensor(6, dtype=int32,
// device=xpux:0)); a number on its own prints as Python would.
//
// Without -o the result is printed: tensors as the library prints them,
// other values (tuples, ints, dtype names) as Python would. With -o a
// tensor result (or a number, as a 0-d tensor of its default dtype) is
// written to an .npy file, or, named OUT.npz, to an archive whose member
// arr_0 (numpy.savez's name) is the tensor.
//
// # Exit status
//
// 0 on success. 1 when the expression is well formed but evaluating it
// fails (shapes that do not broadcast, axes out of range, dtypes that do
// not promote, unreadable files), with one line "tensor: OP: DETAIL" on
// standard error. 2 for usage errors: bad flags or arguments, syntax
// errors, unknown names, functions or attributes, and calls with the wrong
// arguments, all detected before any file is read, each reported on one
// line with its column ("tensor: syntax error at column 7: unexpected ')'").
// An unknown dtype is such an error whether written bare (int4) or quoted
// ('float8'), and so is a bench FILTER that matches no workload. Messages
// name the command's functions (to_dense, astype), not the Go API's.
//
// # info
//
// Prints one line per file: "a.npy: shape (2, 3), dtype int32, order C,
// 24 bytes", where bytes counts the data; for a SciPy sparse .npz file,
// "a.npz: shape (3, 4), dtype float64, layout sparse_csr, nnz 4"; for a
// plain .npz archive, one line per member: "m.npz['w']: shape (2, 3),
// dtype float64, 48 bytes". A file that cannot be described is reported
// on standard error and the next one described all the same; the exit
// status is then 1.
//
// # bench
//
// Runs the workloads of workloads.json (an embedded copy, or --workloads
// FILE) whose names contain any FILTER, printing one JSON object per line
// with the fields of the peers script (lib, name, threads, seconds, gflops
// or gbps), so that the outputs compare line by line. Inputs follow the
// file's distributions: floats uniform in [0.9999, 1.0001), integers in
// {1, 2}. --threads sets GOMAXPROCS (default: the number of CPUs). Sparse
// operands have the workload's number of entries at distinct random
// positions (seeded), with values drawn as above. Each workload is timed as
// bench/peers.py --budget times its peers, the loop users write: one
// untimed call, then three blocks of calls of a third of --budget each
// (default 0.9 s), results dropped; the best block's mean per call is the
// figure. --release hands each result back with Tensor.Release, --into
// writes every call into one output; the line then says "variant". The
// line's "kernels" names the kernel set that ran.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1 // a valid request that failed
	exitUsage = 2 // a request that is not valid
)

const usage = `usage:
  tensor eval [-o OUT.npy|OUT.npz] [--precision highest|tf32] [--max-ops N] EXPR [NAME=FILE.npy|FILE.npz ...]
  tensor info FILE.npy ...
  tensor bench [--workloads FILE] [--threads N] [--budget SECONDS] [--release|--into] [FILTER ...]
  tensor help

eval evaluates EXPR, a Python expression over the named .npy files, and
prints the result or writes it to OUT.npy. Example:
  tensor eval "mul(Tensor([[1, 2, 3], [4, 5, 6]]), 2)"
  tensor eval "F.prod(x, axis=0)" x=a.npy

Operators: + - * @ unary - ( ) x[i, a:b:c, None, ...] .T .mT .shape .ndim .size .dtype
Functions: mul add sub neg matmul prod sum tensor astype transpose permute reshape
           broadcast_to zeros ones full arange (prefix F. np. torch. optional)
           to_sparse_coo to_sparse_csr to_dense (FILE.npz: SciPy sparse)
           NumPy's and PyTorch's spellings: swapaxes squeeze unsqueeze expand_dims
           flatten ravel view expand clone copy contiguous conj numel mm bmm mv dot
           .to() .double() .float() ...; dim= and keepdim= for axis= and keepdims=
Gradients: vjp(lambda a, b: EXPR, A, B, seed=S), grad(lambda x: EXPR, X)

Limits: results must fit the memory the process can still use (the lowest
of RAM, RLIMIT_AS, the cgroup's limit and GOMEMLIMIT, less what it holds);
an evaluation does at most --max-ops element operations (default 2^33, 0
for no bound). Beyond either, eval exits 1 before it starts the operation.

Exit status: 0 success, 1 the operation failed, 2 usage or syntax error.
`

// usageError is a bad command line: reported with exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line args and returns the exit status. A panic
// (a bug) is reported as one line rather than a trace.
func run(args []string, stdout, stderr io.Writer) (status int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "tensor: internal error: %v\n", r)
			status = exitFail
		}
	}()
	err := dispatch(args, stdout, stderr)
	if err == nil {
		return exitOK
	}
	if errors.Is(err, errReported) {
		return exitFail
	}
	// One line, whatever the error text holds, in the CLI's words.
	fmt.Fprintln(stderr, oneLine(err))
	if isUsage(err) {
		return exitUsage
	}
	return exitFail
}

// errReported is returned by a command that has already written its
// errors, one line each (info, which goes on past a bad file).
var errReported = errors.New("errors reported")

func dispatch(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("missing command; run 'tensor help' for usage")
	}
	switch args[0] {
	case "eval":
		return runEval(args[1:], stdout)
	case "info":
		return runInfo(args[1:], stdout, stderr)
	case "bench":
		return runBench(args[1:], stdout)
	case "help", "-h", "-help", "--help":
		_, err := io.WriteString(stdout, usage)
		return err
	}
	return usagef("unknown command %q; run 'tensor help' for usage", args[0])
}

// isUsage reports whether err is the user's typing rather than a failure.
func isUsage(err error) bool {
	var u *usageError
	return errors.As(err, &u) || isExprUsage(err)
}

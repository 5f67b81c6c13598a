package main

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tensor-go/tensor"
)

// runLines runs the command and returns stdout, stderr and the exit code,
// allowing several lines on stderr (info reports each bad file).
func runLines(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := command(args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	code := 0
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stderr.String(), "panic") {
		t.Fatalf("tensor %q panicked:\n%s", args, stderr.String())
	}
	return stdout.String(), stderr.String(), code
}

// TestOutputNPZIsAnArchive: -o OUT.npz of a dense result writes an archive
// whose member arr_0 is the tensor (numpy.savez's name), not .npy bytes.
func TestOutputNPZIsAnArchive(t *testing.T) {
	dir := t.TempDir()
	expect(t, dir, result{}, "eval", "-o", "d.npz", "tensor([[1, 2], [3, 4]]) * 2")
	members, err := tensor.LoadNPZ(filepath.Join(dir, "d.npz"))
	if err != nil {
		t.Fatalf("d.npz is not an archive: %v", err)
	}
	want := tensor.Must(tensor.FromNested([][]int32{{2, 4}, {6, 8}}))
	if len(members) != 1 || members[0].Name != "arr_0" || !tensor.Equal(members[0].Tensor, want) {
		t.Fatalf("d.npz holds %v", members)
	}
	// And it reads back as the tensor it holds.
	expect(t, dir, ok("Tensor([[ 4  8]\n [12 16]], dtype=int32, device=xpux:0)"), "eval", "d * 2", "d=d.npz")
	check := exec.Command("/usr/bin/python3", "-c", "import numpy as np; z = np.load('d.npz'); print(z.files, z['arr_0'].tolist())")
	check.Dir = dir
	if out, err := check.Output(); err != nil {
		t.Logf("skipping the NumPy cross-check: %v", err)
	} else if got := string(out); got != "['arr_0'] [[2, 4], [6, 8]]\n" {
		t.Errorf("NumPy reads d.npz as %q", got)
	}
}

// TestPlainArchiveBinding: NAME=FILE.npz of a numpy.savez archive binds the
// archive; members are NAME['member'] or NAME.member.
func TestPlainArchiveBinding(t *testing.T) {
	dir := t.TempDir()
	w := tensor.Must(tensor.FromNested([][]float32{{1, 2}, {3, 4}}))
	b := tensor.Must(tensor.FromSlice([]float32{10, 20}))
	if err := tensor.SaveNPZ(filepath.Join(dir, "m.npz"), []tensor.NamedTensor{{Name: "w", Tensor: w}, {Name: "b", Tensor: b}}, true); err != nil {
		t.Fatal(err)
	}
	expect(t, dir, ok("Tensor([[10. 40.]\n [30. 80.]], device=xpux:0)"), "eval", "m['w'] * m.b", "m=m.npz")
	expect(t, dir, ok("(2, 2)"), "eval", "m.w.T.shape", "m=m.npz")
	expect(t, dir, ok("Tensor([ 50. 110.], device=xpux:0)"), "eval", "m.w @ m['b']", "m=m.npz")
	expect(t, dir, usageErr("name error at column 3: archive 'm' has no member 'x' (members: 'w', 'b')"), "eval", "m.x", "m=m.npz")
	expect(t, dir, usageErr("name error at column 3: archive 'm' has no member 'x' (members: 'w', 'b')"), "eval", "m['x']", "m=m.npz")
	got := runIn(t, dir, "eval", "m * 2", "m=m.npz")
	if got.code != 1 || !strings.Contains(got.stderr, "archive of members 'w', 'b'") {
		t.Errorf("an archive of two members as a tensor: %+v", got)
	}
	// A SciPy matrix in a .npz still binds as a sparse tensor, with the
	// tensor attributes and no others.
	sparseFixture(t, dir, "s.npz")
	expect(t, dir, ok("(4, 3)"), "eval", "s.T.shape", "s=s.npz")
	expect(t, dir, usageErr("name error at column 3: unknown attribute 'w' of the sparse matrix 's' (known: T, mT, shape, ndim, size, dtype)"), "eval", "s.w", "s=s.npz")
}

func sparseFixture(t *testing.T, dir, name string) {
	t.Helper()
	s, err := tensor.LoadSparseNPZ("../../testdata/sparse/csr_float64.npz")
	if err != nil {
		t.Fatal(err)
	}
	if err := tensor.SaveSparseNPZ(filepath.Join(dir, name), s); err != nil {
		t.Fatal(err)
	}
}

// TestInfoDescribesEveryFile: a bad file does not stop info; each bad file
// is one line on stderr and the exit status is 1.
func TestInfoDescribesEveryFile(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.npy", "c.npy"} {
		if err := tensor.SaveNPY(filepath.Join(dir, name), tensor.Must(tensor.Zeros(tensor.Int8, 2))); err != nil {
			t.Fatal(err)
		}
	}
	if err := tensor.SaveNPZ(filepath.Join(dir, "m.npz"), []tensor.NamedTensor{{Name: "w", Tensor: tensor.Must(tensor.Zeros(tensor.Float64, 2, 3))}}, false); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runLines(t, dir, "info", "a.npy", "bad.npy", "c.npy", "m.npz", "worse.npz")
	wantOut := "a.npy: shape (2,), dtype int8, order C, 2 bytes\n" +
		"c.npy: shape (2,), dtype int8, order C, 2 bytes\n" +
		"m.npz['w']: shape (2, 3), dtype float64, 48 bytes\n"
	if stdout != wantOut || code != 1 {
		t.Errorf("info stdout %q exit %d, want %q exit 1", stdout, code, wantOut)
	}
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "tensor: info: open bad.npy") || !strings.Contains(lines[1], "worse.npz") {
		t.Errorf("info stderr %q, want one line for each of bad.npy and worse.npz", stderr)
	}
}

// TestBenchUnknownFilter: a filter that matches no workload is a usage
// error listing the workloads.
func TestBenchUnknownFilter(t *testing.T) {
	_, stderr, code := runLines(t, t.TempDir(), "bench", "nosuchworkload")
	if code != 2 || !strings.HasPrefix(stderr, `tensor: bench: no workload matches "nosuchworkload"; the workloads are: `) ||
		strings.Count(stderr, "\n") != 1 {
		t.Errorf("bench nosuchworkload: exit %d, stderr %q", code, stderr)
	}
}

// TestMessagesNameCLIFunctions: the library's Go names become the
// command's functions.
func TestMessagesNameCLIFunctions(t *testing.T) {
	dir := t.TempDir()
	sparseFixture(t, dir, "s.npz")
	got := runIn(t, dir, "eval", "prod(s)", "s=s.npz")
	if got.code != 1 || !strings.Contains(got.stderr, "convert with to_dense first") || strings.Contains(got.stderr, "ToDense") {
		t.Errorf("prod of a sparse matrix: %+v", got)
	}
	// A number typed in the expression is a scalar, not a Go one.
	got = runIn(t, dir, "eval", "tensor([1, 2], dtype=uint8) * -1")
	if got.code != 1 || got.stderr != "tensor: mul: scalar -1 is outside the range of uint8\n" {
		t.Errorf("uint8 * -1: %+v", got)
	}
	for msg, want := range map[string]string{
		"convert with ToDense first":                              "convert with to_dense first",
		"cast to float32 first with AsType(Float32)":              "cast to float32 first with astype(x, float32)",
		"use BroadcastTo or ToSparseCSR, ToSparseCOO":             "use broadcast_to or to_sparse_csr, to_sparse_coo",
		"mul: Go scalar -1 (int64) is outside the range of uint8": "mul: scalar -1 is outside the range of uint8",
	} {
		if got := cliWords(msg); got != want {
			t.Errorf("cliWords(%q) = %q, want %q", msg, got, want)
		}
	}
}

// TestUnknownDTypeOneExitCode: an unknown dtype is the same usage error
// bare or quoted.
func TestUnknownDTypeOneExitCode(t *testing.T) {
	dir := t.TempDir()
	for _, e := range []string{"astype(tensor([1]), int4)", "astype(tensor([1]), 'float8')", "zeros(2, dtype=\"int4\")", "tensor([1]).astype('float8')"} {
		if got := runIn(t, dir, "eval", e); got.code != 2 || !strings.Contains(got.stderr, "name error") {
			t.Errorf("eval %q = %+v, want exit 2 with a name error", e, got)
		}
	}
	expect(t, dir, ok("Tensor([1.], dtype=float64, device=xpux:0)"), "eval", "astype(tensor([1]), 'double')")
}

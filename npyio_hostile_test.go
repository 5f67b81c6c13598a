package tensor

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tensor-go/tensor/internal/storage"
	"github.com/tensor-go/tensor/npy"
)

// allocated returns how many bytes of Go heap f allocated, with the memory
// pool off so that a buffer it recycles does not hide an allocation.
func allocated(f func()) uint64 {
	defer func(on bool) { storage.Enabled = on }(storage.Enabled)
	storage.Enabled = false
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// zerosNPY returns an .npy file of n float64 zeros.
func zerosNPY(t *testing.T, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	h := npy.Header{DType: Float64, Shape: []int{n}}
	if err := npy.Write(&buf, &npy.Array{Header: h, Data: make([]byte, 8*n)}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestLoadNPYReadsIntoStorage checks that LoadNPY costs the file's size in
// memory once: the data is read into the tensor's storage, not read and
// then copied (which peaked at twice the file).
func TestLoadNPYReadsIntoStorage(t *testing.T) {
	const n = 5 << 20 // 40 MiB of float64
	path := filepath.Join(t.TempDir(), "big.npy")
	if err := os.WriteFile(path, zerosNPY(t, n), 0o644); err != nil {
		t.Fatal(err)
	}
	var x *Tensor
	var err error
	grew := allocated(func() { x, err = LoadNPY(path) })
	if err != nil || x.Size() != n {
		t.Fatalf("LoadNPY: %v", err)
	}
	if grew > 8*n+8*n/4 {
		t.Errorf("loading %d bytes allocated %d", 8*n, grew)
	}
}

// TestNPZBombInflatesOnce replays a zip bomb (a deflated member of zeros,
// inflating more than 500-fold): the tensor's storage is the only large
// allocation (before, inflating and then copying cost twice the output).
func TestNPZBombInflatesOnce(t *testing.T) {
	const n = 1 << 20
	z := spZip(t, map[string][]byte{"x.npy": zerosNPY(t, n)}, "x.npy")
	if len(z) > 8*n/500 {
		t.Fatalf("the bomb is %d bytes", len(z))
	}
	var got []NamedTensor
	var err error
	grew := allocated(func() { got, err = ReadNPZ(bytes.NewReader(z), int64(len(z))) })
	if err != nil || len(got) != 1 || got[0].Tensor.Size() != n {
		t.Fatalf("ReadNPZ: %v", err)
	}
	if grew > 8*n+8*n/4 {
		t.Errorf("inflating %d bytes allocated %d", 8*n, grew)
	}
	path := filepath.Join(t.TempDir(), "bomb.npz")
	if err := os.WriteFile(path, z, 0o644); err != nil {
		t.Fatal(err)
	}
	grew = allocated(func() { got, err = LoadNPZ(path) })
	if err != nil || got[0].Tensor.Size() != n || grew > 8*n+8*n/4 {
		t.Errorf("LoadNPZ of the bomb: %v, %d bytes allocated for %d", err, grew, 8*n)
	}
}

// TestSparseNPZBombInflatesOnce replays a SciPy CSR archive whose index and
// value members are bombs: the members land in the matrix's own arrays
// (before, each was grown, copied into a tensor, converted and cloned,
// about five times the output).
func TestSparseNPZBombInflatesOnce(t *testing.T) {
	const nnz = 1 << 19
	idx := make([]int64, nnz) // every entry in column 0 of row 0: valid, repeated
	z := spZip(t, map[string][]byte{
		"indices.npy": spNPY(t, Must(FromSlice(idx))),
		"indptr.npy":  spNPY(t, Must(FromSlice([]int64{0, nnz}))),
		"format.npy":  formatNPY(t, "csr"),
		"shape.npy":   spNPY(t, Must(FromSlice([]int64{1, 3}))),
		"data.npy":    zerosNPY(t, nnz),
	}, "indices.npy", "indptr.npy", "format.npy", "shape.npy", "data.npy")
	out := uint64(16 * nnz)
	var s *Tensor
	var err error
	grew := allocated(func() { s, err = ReadSparseNPZ(bytes.NewReader(z), int64(len(z))) })
	if err != nil || s.Nnz() != nnz {
		t.Fatalf("ReadSparseNPZ: %v", err)
	}
	if grew > out+out/4 {
		t.Errorf("a sparse matrix of %d bytes allocated %d", out, grew)
	}
}

// formatNPY returns the format member SciPy writes.
func formatNPY(t *testing.T, name string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := writeFormatArray(&buf, name); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestLoadedBoolsAreZeroOrOne checks that a bool file holding bytes 2 and
// 255 reads as true, and that true then counts as 1 in casts and products
// (before, astype(int32) gave 2 and 255, and x @ ones counted 258).
func TestLoadedBoolsAreZeroOrOne(t *testing.T) {
	var buf bytes.Buffer
	h := npy.Header{DType: Bool, Shape: []int{4}}
	if err := npy.Write(&buf, &npy.Array{Header: h, Data: []byte{0, 1, 2, 255}}); err != nil {
		t.Fatal(err)
	}
	x, err := ReadNPY(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ToSlice[int32](Must(x.AsType(Int32))); err != nil || got[0] != 0 || got[1] != 1 || got[2] != 1 || got[3] != 1 {
		t.Errorf("astype int32 of the bools: %v, want [0 1 1 1]", got)
	}
	count := Must(Matmul(x, Must(FromSlice([]int32{1, 1, 1, 1}))))
	if v, err := count.Item(); err != nil || v != int32(3) {
		t.Errorf("bools @ ones = %v (%v), want 3", v, err)
	}
}

// failingReader fails every read with its error.
type failingReader struct{ err error }

func (r failingReader) Read([]byte) (int, error) { return 0, r.err }

// TestIOErrorsKeepBothClasses checks that a missing file or a failing
// reader is an ErrIO error that also matches the cause, for every reader.
func TestIOErrorsKeepBothClasses(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	for _, tc := range []struct {
		op  string
		err error
	}{
		{"load_npy", func() error { _, err := LoadNPY(missing + ".npy"); return err }()},
		{"load_npz", func() error { _, err := LoadNPZ(missing + ".npz"); return err }()},
		{"load_sparse_npz", func() error { _, err := LoadSparseNPZ(missing + ".npz"); return err }()},
		{"save_npy", SaveNPY(filepath.Join(missing, "x.npy"), Must(Zeros(Float32, 2)))},
	} {
		if !errors.Is(tc.err, fs.ErrNotExist) || !errors.Is(tc.err, ErrIO) || !strings.HasPrefix(fmt_(tc.err), "tensor: "+tc.op+": ") {
			t.Errorf("%s of a missing file: %v, want fs.ErrNotExist and ErrIO named %s", tc.op, tc.err, tc.op)
		}
	}
	cause := errors.New("disk on fire")
	_, err := ReadNPY(failingReader{cause})
	if !errors.Is(err, cause) || !errors.Is(err, ErrIO) {
		t.Errorf("ReadNPY of a failing reader: %v, want ErrIO and the cause", err)
	}
	_, err = ReadNPY(io.MultiReader(bytes.NewReader(zerosNPY(t, 4)[:80]), failingReader{cause}))
	if !errors.Is(err, cause) || !errors.Is(err, ErrIO) {
		t.Errorf("ReadNPY failing in the data: %v, want ErrIO and the cause", err)
	}
}

func fmt_(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// FuzzSparseNPZSizes builds SciPy archives from fuzzed size fields: the
// shape member's two dimensions, the entry count, the row pointers' last
// value and the format. The reader must return a valid matrix or a classed
// error, and converting what it accepts must be a clean error or a result,
// never a panic or an allocation for 2^40 rows.
func FuzzSparseNPZSizes(f *testing.F) {
	f.Add(int64(1<<40), int64(1), uint8(3), int64(3), uint8(1))
	f.Add(int64(3), int64(1<<62), uint8(2), int64(2), uint8(0))
	f.Add(int64(-1), int64(4), uint8(1), int64(1), uint8(2))
	f.Add(int64(10_000_000_000), int64(0), uint8(0), int64(0), uint8(2))
	f.Add(int64(math.MaxInt64), int64(math.MaxInt64), uint8(4), int64(math.MaxInt64), uint8(0))
	f.Fuzz(func(t *testing.T, m, n int64, nnz uint8, last int64, format uint8) {
		k := int(nnz % 16)
		idx, vals := make([]int64, k), make([]float64, k)
		for i := range idx {
			idx[i], vals[i] = int64(i)%max(1, min(m, n, 7)), float64(i+1)
		}
		name := []string{"csr", "csc", "coo"}[int(format)%3]
		members := map[string][]byte{
			"format.npy": formatNPY(t, name),
			"shape.npy":  spNPY(t, Must(FromSlice([]int64{m, n}))),
			"data.npy":   spNPY(t, Must(FromSlice(vals))),
		}
		order := []string{"format.npy", "shape.npy", "data.npy"}
		if name == "coo" {
			members["row.npy"], members["col.npy"] = spNPY(t, Must(FromSlice(idx))), spNPY(t, Must(FromSlice(idx)))
			order = append(order, "row.npy", "col.npy")
		} else {
			ptr := []int64{0, last}
			members["indptr.npy"], members["indices.npy"] = spNPY(t, Must(FromSlice(ptr))), spNPY(t, Must(FromSlice(idx)))
			order = append(order, "indptr.npy", "indices.npy")
		}
		z := spZip(t, members, order...)
		s, err := ReadSparseNPZ(bytes.NewReader(z), int64(len(z)))
		if err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrDType) && !errors.Is(err, ErrShape) {
				t.Fatalf("unclassed error: %v", err)
			}
			return
		}
		rows := s.Shape()[0]
		for _, conv := range []func() (*Tensor, error){s.ToSparseCSR, s.ToSparseCOO} {
			if rows > 1<<20 && s.Layout() == SparseCOO {
				continue // its CSR form may be gigabytes of row pointers (see TestToSparseBoundsItsAllocation)
			}
			c, err := conv()
			if err != nil {
				if !errors.Is(err, ErrShape) {
					t.Fatalf("conversion of a %v %v: %v", s.Layout(), s.Shape(), err)
				}
				continue
			}
			if c.Nnz() > s.Nnz() {
				t.Fatalf("conversion grew %d entries to %d", s.Nnz(), c.Nnz())
			}
		}
	})
}

// TestCSCReadsInPlace checks that a CSC archive of every element size
// reads as the same matrix as Transpose gives (its values moved in place
// through the permutation's cycles), and that the read allocates little
// beyond the output: the old path's regrouped copy, permutation and
// gathered values cost about 2.8 times the output.
func TestCSCReadsInPlace(t *testing.T) {
	for _, dt := range []DType{Bool, Int16, Float32, Float64, Complex128} {
		dense := Must(Must(Rand(7, Float64, -2, 2, 37, 53)).AsType(dt))
		mask := Must(Rand(8, Float64, 0, 1, 37, 53))
		keep := floats(t, mask)
		vals := floats(t, Must(dense.AsType(Float64)))
		for i := range keep {
			if keep[i] < 0.7 {
				vals[i] = 0
			}
		}
		want := Must(Must(Must(FromSlice(vals, 37, 53)).AsType(dt)).ToSparseCSR())
		// The CSC form of want is the CSR form of its transpose.
		tr := Must(Must(Must(want.ToDense()).Transpose().Contiguous()).ToSparseCSR())
		crow, cols, v, err := tr.SparseParts()
		if err != nil {
			t.Fatal(err)
		}
		z := spZip(t, map[string][]byte{
			"indices.npy": spNPY(t, Must(Must(FromSlice(cols)).AsType(Int32))),
			"indptr.npy":  spNPY(t, Must(Must(FromSlice(crow)).AsType(Int32))),
			"format.npy":  formatNPY(t, "csc"),
			"shape.npy":   spNPY(t, Must(FromSlice([]int64{37, 53}))),
			"data.npy":    spNPY(t, v),
		}, "indices.npy", "indptr.npy", "format.npy", "shape.npy", "data.npy")
		got, err := ReadSparseNPZ(bytes.NewReader(z), int64(len(z)))
		if err != nil {
			t.Fatalf("%v: %v", dt, err)
		}
		spSame(t, "csc "+dt.String(), got, want)
	}
	const nnz = 1 << 19
	cols := make([]int64, nnz)
	for i := range cols {
		cols[i] = int64(i) * 7919 % 4096
	}
	z := spZip(t, map[string][]byte{
		"indices.npy": spNPY(t, Must(FromSlice(cols))),
		"indptr.npy":  spNPY(t, Must(FromSlice([]int64{0, nnz / 2, nnz}))),
		"format.npy":  formatNPY(t, "csc"),
		"shape.npy":   spNPY(t, Must(FromSlice([]int64{4096, 2}))),
		"data.npy":    zerosNPY(t, nnz),
	}, "indices.npy", "indptr.npy", "format.npy", "shape.npy", "data.npy")
	out := uint64(16 * nnz)
	var s *Tensor
	var err error
	grew := allocated(func() { s, err = ReadSparseNPZ(bytes.NewReader(z), int64(len(z))) })
	if err != nil || s.Nnz() != nnz || s.Layout() != SparseCSR {
		t.Fatalf("ReadSparseNPZ of a CSC bomb: %v", err)
	}
	if grew > out+out/2+out/8 {
		t.Errorf("a CSC matrix of %d bytes allocated %d", out, grew)
	}
}

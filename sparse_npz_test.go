package tensor

import (
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSparseNPZFixtures reads the matrices SciPy wrote (testdata/gen_sparse.py)
// and compares each with SciPy's own densified copy.
func TestSparseNPZFixtures(t *testing.T) {
	layouts := map[string]Layout{"csr": SparseCSR, "csc": SparseCSR, "coo": SparseCOO}
	files, _ := filepath.Glob("testdata/sparse/*.dense.npy")
	if len(files) < 8 {
		t.Fatalf("found %d fixtures", len(files))
	}
	for _, dense := range files {
		name := strings.TrimSuffix(filepath.Base(dense), ".dense.npy")
		t.Run(name, func(t *testing.T) {
			s, err := LoadSparseNPZ(filepath.Join("testdata/sparse", name+".npz"))
			if err != nil {
				t.Fatal(err)
			}
			want := Must(LoadNPY(dense))
			if s.Layout() != layouts[name[:3]] {
				t.Errorf("layout %v", s.Layout())
			}
			spSame(t, name, Must(s.ToDense()), want)
			// What we write reads back the same, in both member encodings.
			for _, compress := range []bool{false, true} {
				var buf bytes.Buffer
				if err := WriteSparseNPZ(&buf, s, compress); err != nil {
					t.Fatal(err)
				}
				back, err := ReadSparseNPZ(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
				if err != nil {
					t.Fatal(err)
				}
				if back.Layout() != s.Layout() || back.Nnz() != s.Nnz() {
					t.Fatalf("round trip: %v", back)
				}
				spSame(t, "round trip", Must(back.ToDense()), want)
			}
		})
	}
}

// TestSparseNPZWide reads a matrix whose column count needs int64 indices
// and writes it back with int64 indices.
func TestSparseNPZWide(t *testing.T) {
	s, err := LoadSparseNPZ("testdata/sparse/coo_int64_wide.npz")
	if _, ok := intBeyond32(); !ok {
		// No int holds the column count: a clean error, not a wrapped size.
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "2147483658") {
			t.Fatalf("a 2^31+10-column matrix with a 32-bit int: %v, want an ErrFormat error naming the shape", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	rows, cols, v, _ := s.SparseParts()
	if int64(s.Shape()[1]) != 1<<31+10 || !spEqualInts(rows, []int64{0, 2}) || !spEqualInts(cols, []int64{1<<31 + 5, 7}) ||
		spMust(ToSlice[float64](v))[1] != 2 {
		t.Fatalf("wide: %v %v %v", s.Shape(), rows, cols)
	}
	path := filepath.Join(t.TempDir(), "wide.npz")
	if err := SaveSparseNPZ(path, s); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		if f.Name == "col.npy" {
			rc, _ := f.Open()
			b := make([]byte, 128)
			n, _ := rc.Read(b)
			rc.Close()
			if !strings.Contains(string(b[:n]), "<i8") {
				t.Errorf("wide column indices not int64: %q", b[:n])
			}
		}
	}
	if strings.Join(names, ",") != "row.npy,col.npy,format.npy,shape.npy,data.npy" {
		t.Errorf("members %v, want save_npz's order", names)
	}
	back := Must(LoadSparseNPZ(path))
	if r, c, _, _ := back.SparseParts(); !spEqualInts(r, rows) || !spEqualInts(c, cols) {
		t.Errorf("reread %v %v", r, c)
	}
}

// spZip builds an archive from named members.
func spZip(t *testing.T, members map[string][]byte, order ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range order {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(members[name])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// spNPY returns t as .npy bytes.
func spNPY(t *testing.T, x *Tensor) []byte {
	var buf bytes.Buffer
	if err := WriteNPY(&buf, x); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestSparseNPZErrors(t *testing.T) {
	good := func() map[string][]byte {
		var f bytes.Buffer
		writeFormatArray(&f, "csr")
		return map[string][]byte{
			"indptr.npy":  spNPY(t, Must(FromSlice([]int32{0, 1, 2}))),
			"indices.npy": spNPY(t, Must(FromSlice([]int32{1, 0}))),
			"format.npy":  f.Bytes(),
			"shape.npy":   spNPY(t, Must(FromSlice([]int64{2, 2}))),
			"data.npy":    spNPY(t, Must(FromSlice([]float64{1, 2}))),
		}
	}
	all := []string{"indptr.npy", "indices.npy", "format.npy", "shape.npy", "data.npy"}
	read := func(b []byte) error {
		_, err := ReadSparseNPZ(bytes.NewReader(b), int64(len(b)))
		return err
	}
	if err := read(spZip(t, good(), all...)); err != nil {
		t.Fatalf("valid archive: %v", err)
	}
	cases := map[string]func(m map[string][]byte) []string{
		"missing indices": func(m map[string][]byte) []string {
			return []string{"indptr.npy", "format.npy", "shape.npy", "data.npy"}
		},
		"missing format": func(m map[string][]byte) []string {
			return []string{"indptr.npy", "indices.npy", "shape.npy", "data.npy"}
		},
		"index out of range": func(m map[string][]byte) []string {
			m["indices.npy"] = spNPY(t, Must(FromSlice([]int32{1, 2})))
			return all
		},
		"decreasing indptr": func(m map[string][]byte) []string {
			m["indptr.npy"] = spNPY(t, Must(FromSlice([]int32{0, 2, 1})))
			return all
		},
		"float indices": func(m map[string][]byte) []string {
			m["indices.npy"] = spNPY(t, Must(FromSlice([]float32{1, 0})))
			return all
		},
		"3-D shape": func(m map[string][]byte) []string {
			m["shape.npy"] = spNPY(t, Must(FromSlice([]int64{1, 2, 2})))
			return all
		},
		"unknown format": func(m map[string][]byte) []string {
			var f bytes.Buffer
			writeFormatArray(&f, "dia")
			m["format.npy"] = f.Bytes()
			return all
		},
		"format not a string": func(m map[string][]byte) []string {
			m["format.npy"] = spNPY(t, ScalarOf(int32(3)))
			return all
		},
		"truncated format": func(m map[string][]byte) []string {
			m["format.npy"] = m["format.npy"][:70]
			return all
		},
		"trailing bytes": func(m map[string][]byte) []string {
			m["data.npy"] = append(m["data.npy"], 0)
			return all
		},
		"not npy member": func(m map[string][]byte) []string {
			m["readme.txt"] = []byte("hi")
			return append(all, "readme.txt")
		},
	}
	for name, mutate := range cases {
		m := good()
		order := mutate(m)
		if err := read(spZip(t, m, order...)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v, want ErrFormat", name, err)
		}
	}
	if err := read([]byte("not a zip")); !errors.Is(err, ErrFormat) {
		t.Errorf("not a zip: %v", err)
	}
	if _, err := LoadSparseNPZ(filepath.Join(t.TempDir(), "missing.npz")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	// Writing: strided tensors and bfloat16 values are refused.
	if err := WriteSparseNPZ(&bytes.Buffer{}, Must(Zeros(Float32, 2, 2)), true); !errors.Is(err, ErrLayout) {
		t.Errorf("write strided: %v", err)
	}
	bf := Must(Must(Must(Ones(BFloat16, 2, 2)).ToSparseCSR()).AsType(BFloat16))
	if err := WriteSparseNPZ(&bytes.Buffer{}, bf, true); !errors.Is(err, ErrDType) {
		t.Errorf("write bfloat16: %v", err)
	}
}

// FuzzReadSparseNPZ feeds arbitrary bytes, seeded with SciPy's fixtures, to
// the reader: it returns a valid sparse tensor or a classed error.
func FuzzReadSparseNPZ(f *testing.F) {
	files, _ := filepath.Glob("testdata/sparse/*.npz")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ReadSparseNPZ(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrDType) && !errors.Is(err, ErrShape) {
				t.Fatalf("unclassed error: %v", err)
			}
			return
		}
		if s.Layout() == Strided {
			t.Fatal("strided result")
		}
		if int64(s.Shape()[0])*int64(s.Shape()[1]) < 1<<16 {
			spSame(t, "csr", Must(Must(s.ToSparseCSR()).ToDense()), Must(s.ToDense()))
		}
	})
}

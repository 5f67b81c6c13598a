package npy

import (
	"archive/zip"
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tensor-go/tensor/dtype"
)

func sampleEntries() []Entry {
	rng := rand.New(rand.NewPCG(7, 8))
	return []Entry{
		{"x", randomArray(rng, dtype.Float64, []int{3, 4}, false)},
		{"mask", randomArray(rng, dtype.Bool, []int{5}, false)},
		{"scalar", randomArray(rng, dtype.Complex128, []int{}, false)},
		{"f", randomArray(rng, dtype.Int32, []int{2, 3}, true)},
		{"empty", randomArray(rng, dtype.Uint8, []int{0, 2}, false)},
	}
}

func TestNPZRoundTrip(t *testing.T) {
	entries := sampleEntries()
	for _, compress := range []bool{false, true} {
		var buf bytes.Buffer
		if err := WriteNPZ(&buf, entries, compress); err != nil {
			t.Fatal(err)
		}
		zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		wantMethod := zip.Store
		if compress {
			wantMethod = zip.Deflate
		}
		for i, f := range zr.File {
			if f.Name != entries[i].Name+".npy" || f.Method != wantMethod {
				t.Errorf("member %d: name %q method %d, want %q method %d", i, f.Name, f.Method, entries[i].Name+".npy", wantMethod)
			}
		}
		got, err := ReadNPZ(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(entries) {
			t.Fatalf("%d entries, want %d", len(got), len(entries))
		}
		for i, e := range entries {
			g := got[i]
			if g.Name != e.Name || g.Array.DType != e.Array.DType || g.Array.Fortran != e.Array.Fortran ||
				!slices.Equal(g.Array.Shape, e.Array.Shape) || !bytes.Equal(g.Array.Data, e.Array.Data) {
				t.Errorf("compress=%v entry %q changed in the round trip", compress, e.Name)
			}
		}
	}
	path := t.TempDir() + "/a.npz"
	if err := WriteNPZFile(path, entries, true); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadNPZFile(path); err != nil || len(got) != len(entries) {
		t.Fatalf("file round trip: %d entries, %v", len(got), err)
	}
}

// zipOf builds a stored zip archive from member names and contents.
func zipOf(t *testing.T, members ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i < len(members); i += 2 {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: members[i], Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(members[i+1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestReadNPZErrors(t *testing.T) {
	var one bytes.Buffer
	if err := Write(&one, &Array{Header: Header{DType: dtype.Int64, Shape: []int{2}}, Data: make([]byte, 16)}); err != nil {
		t.Fatal(err)
	}
	npyText := one.String()

	corrupt := zipOf(t, "a.npy", npyText)
	i := bytes.Index(corrupt, []byte("\x93NUMPY"))
	corrupt[i+len(npyText)-1] ^= 0xff // last data byte: CRC no longer matches

	var stored bytes.Buffer
	if err := WriteNPZ(&stored, sampleEntries(), false); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name  string
		input []byte
		part  string
	}{
		{"not a zip", []byte("hello, world"), "npz archive"},
		{"truncated archive", stored.Bytes()[:stored.Len()/2], "npz archive"},
		{"not an npy member", zipOf(t, "a.npy", npyText, "readme.txt", "hi"), "not an .npy"},
		{"duplicate member", zipOf(t, "a.npy", npyText, "a.npy", npyText), "twice"},
		{"bad member", zipOf(t, "a.npy", "\x93NUMPY\x09\x00"), "version"},
		{"truncated member", zipOf(t, "a.npy", npyText[:len(npyText)-3]), "data length"},
		{"trailing bytes in member", zipOf(t, "a.npy", npyText+"x"), "extra bytes"},
		{"checksum", corrupt, "checksum"},
		{"member header lies", zipOf(t, "a.npy", string(rawNPY(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (200000000,)}", nil))), "data length"},
	}
	for _, c := range cases {
		_, err := ReadNPZ(bytes.NewReader(c.input), int64(len(c.input)))
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.part) {
			t.Errorf("%s: err = %v, want ErrFormat mentioning %q", c.name, err, c.part)
		}
	}
}

func TestWriteNPZErrors(t *testing.T) {
	a := &Array{Header: Header{DType: dtype.Int8, Shape: []int{1}}, Data: []byte{1}}
	cases := map[string][]Entry{
		"empty name": {{"", a}},
		"duplicate":  {{"a", a}, {"a", a}},
		"nil array":  {{"a", nil}},
	}
	for name, entries := range cases {
		var buf bytes.Buffer
		if err := WriteNPZ(&buf, entries, false); !errors.Is(err, ErrArray) {
			t.Errorf("%s: err = %v, want ErrArray", name, err)
		}
	}
	bf := &Array{Header: Header{DType: dtype.BFloat16, Shape: []int{1}}, Data: []byte{1, 2}}
	if err := WriteNPZ(&bytes.Buffer{}, []Entry{{"b", bf}}, true); !errors.Is(err, dtype.ErrDType) {
		t.Errorf("bfloat16 member: err = %v, want dtype.ErrDType", err)
	}
}

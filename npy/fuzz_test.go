package npy

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tensor-go/tensor/dtype"
)

// Run the fuzzers with, for example:
//
//	go test -run=XXX -fuzz=FuzzRead$ -fuzztime=10s ./npy
//
// Without -fuzz their seeds (every fixture) run as ordinary tests.

// addFixtureSeeds seeds f with every testdata file whose name has suffix.
func addFixtureSeeds(f *testing.F, suffix string) {
	paths, err := filepath.Glob(filepath.Join("testdata", "*"+suffix))
	if err != nil || len(paths) == 0 {
		f.Fatalf("no %s fixtures: %v", suffix, err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

func FuzzReadHeader(f *testing.F) {
	addFixtureSeeds(f, ".npy")
	f.Add(rawNPY(1, "{'descr': '<f4', 'fortran_order': False, 'shape': ((((3)),),), }", nil))
	f.Add(rawNPY(3, `{"descr": ">c16", "shape": [2, 0], "fortran_order": True}`, nil))
	f.Fuzz(func(t *testing.T, in []byte) {
		h, _, err := ReadHeader(bytes.NewReader(in))
		if err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, dtype.ErrDType) {
				t.Fatalf("error %v wraps neither ErrFormat nor dtype.ErrDType", err)
			}
			return
		}
		if _, err := h.DataLen(); err != nil {
			t.Fatalf("accepted header %+v has no valid data length: %v", h, err)
		}
	})
}

func FuzzRead(f *testing.F) {
	addFixtureSeeds(f, ".npy")
	f.Fuzz(func(t *testing.T, in []byte) {
		a, err := Read(bytes.NewReader(in))
		b, errUnsized := Read(onlyReader{bytes.NewReader(in)})
		if (err == nil) != (errUnsized == nil) {
			t.Fatalf("sized and unsized readers disagree: %v vs %v", err, errUnsized)
		}
		if err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, dtype.ErrDType) {
				t.Fatalf("error %v wraps neither ErrFormat nor dtype.ErrDType", err)
			}
			return
		}
		if !bytes.Equal(a.Data, b.Data) {
			t.Fatal("sized and unsized readers decoded different data")
		}
		// Whatever was accepted must write back and read back unchanged.
		var buf bytes.Buffer
		if err := Write(&buf, a); err != nil {
			t.Fatalf("Write of a decoded array: %v", err)
		}
		c, err := Read(&buf)
		if err != nil {
			t.Fatalf("Read of a written array: %v", err)
		}
		if c.DType != a.DType || c.Fortran != a.Fortran || !slices.Equal(c.Shape, a.Shape) || !bytes.Equal(c.Data, a.Data) {
			t.Fatal("decoded array changed through Write and Read")
		}
	})
}

func FuzzReadNPZ(f *testing.F) {
	addFixtureSeeds(f, ".npz")
	f.Fuzz(func(t *testing.T, in []byte) {
		entries, err := ReadNPZ(bytes.NewReader(in), int64(len(in)))
		if err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, dtype.ErrDType) {
				t.Fatalf("error %v wraps neither ErrFormat nor dtype.ErrDType", err)
			}
			return
		}
		for _, e := range entries {
			n, err := e.Array.DataLen()
			if err != nil || n != len(e.Array.Data) {
				t.Fatalf("entry %q: %d data bytes for a header of %d (%v)", e.Name, len(e.Array.Data), n, err)
			}
		}
		// Accepted archives must write back and read back to the same entries.
		var buf bytes.Buffer
		if err := WriteNPZ(&buf, entries, true); err != nil {
			if errors.Is(err, ErrArray) && strings.Contains(err.Error(), "empty name") {
				return // a member named just ".npy"; NumPy would call it "" too
			}
			t.Fatalf("WriteNPZ of decoded entries: %v", err)
		}
		again, err := ReadNPZ(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil || len(again) != len(entries) {
			t.Fatalf("re-read %d entries, want %d: %v", len(again), len(entries), err)
		}
		for i := range entries {
			if again[i].Name != entries[i].Name || !bytes.Equal(again[i].Array.Data, entries[i].Array.Data) {
				t.Fatalf("entry %q changed through WriteNPZ and ReadNPZ", entries[i].Name)
			}
		}
	})
}

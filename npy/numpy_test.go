package npy

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// python is the interpreter the NumPy cross-check runs; CI has none, so
// the test skips there.
const python = "/usr/bin/python3"

type manifestItem struct {
	File    string `json:"file"`
	Member  string `json:"member,omitempty"`
	Raw     string `json:"raw"`
	Descr   string `json:"descr"`
	Shape   []int  `json:"shape"`
	Fortran bool   `json:"fortran"`
}

// TestNumPyLoadsWrittenFiles writes every dtype and layout with Write and
// WriteNPZ, then asks NumPy (testdata/check_numpy_load.py) to load them and
// compare dtype, shape, layout and bytes with what was written.
func TestNumPyLoadsWrittenFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("needs Python")
	}
	if err := exec.Command(python, "-c", "import numpy").Run(); err != nil {
		t.Skipf("%s with numpy not available: %v", python, err)
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(13, 14))
	var manifest []manifestItem
	var entries []Entry
	add := func(file, member string, a *Array) {
		descr, err := descrOf(a.DType)
		if err != nil {
			t.Fatal(err)
		}
		raw := fmt.Sprintf("raw%d.bin", len(manifest))
		if err := os.WriteFile(filepath.Join(dir, raw), a.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		manifest = append(manifest, manifestItem{file, member, raw, descr, a.Shape, a.Fortran})
	}
	for _, d := range writable() {
		for si, shape := range roundTripShapes {
			for _, fortran := range []bool{false, true} {
				a := randomArray(rng, d, shape, fortran)
				file := fmt.Sprintf("%v_%d_%v.npy", d, si, fortran)
				if err := WriteFile(filepath.Join(dir, file), a); err != nil {
					t.Fatal(err)
				}
				add(file, "", a)
				if si == 5 {
					entries = append(entries, Entry{Name: file[:len(file)-4], Array: a})
				}
			}
		}
	}
	for _, compress := range []bool{false, true} {
		file := fmt.Sprintf("all_%v.npz", compress)
		if err := WriteNPZFile(filepath.Join(dir, file), entries, compress); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			add(file, e.Name, e.Array)
		}
	}
	js, err := json.Marshal(manifest)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), js, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(python, filepath.Join("testdata", "check_numpy_load.py"), dir).CombinedOutput()
	if err != nil {
		t.Fatalf("NumPy check failed: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

package tensor

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
)

// goldenCase is one array of testdata/format_golden.json, written by
// testdata/gen_format.py from NumPy's own printing.
type goldenCase struct {
	Note  string `json:"note"`
	DType string `json:"dtype"`
	Shape []int  `json:"shape"`
	Hex   string `json:"hex"`
	Want  string `json:"want"`
}

func loadGolden(t *testing.T) []goldenCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/format_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []goldenCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	return file.Cases
}

// fromBytes builds a contiguous tensor whose storage holds exactly the
// given little-endian bytes.
func fromBytes(t *testing.T, name string, s []int, data []byte) *Tensor {
	t.Helper()
	dt, err := dtype.Parse(name)
	if err != nil {
		t.Fatal(err)
	}
	x, err := empty(dt, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != x.n*dt.Size() {
		t.Fatalf("%d bytes for %d %v elements", len(data), x.n, dt)
	}
	copy(unsafe.Slice((*byte)(x.storage), len(data)), data)
	return x
}

func TestStringGolden(t *testing.T) {
	failures := 0
	for i, c := range loadGolden(t) {
		data, err := hex.DecodeString(c.Hex)
		if err != nil {
			t.Fatal(err)
		}
		x := fromBytes(t, c.DType, c.Shape, data)
		if got := x.String(); got != c.Want {
			t.Errorf("case %d (%s, %s %v):\n got %q\nwant %q", i, c.Note, c.DType, c.Shape, got, c.Want)
			if failures++; failures > 30 {
				t.Fatal("too many failures")
			}
		}
	}
}

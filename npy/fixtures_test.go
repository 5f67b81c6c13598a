package npy

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tensor-go/tensor/dtype"
)

// expectedArray is what testdata/expected.json records about one array
// NumPy wrote (see testdata/gen_fixtures.py).
type expectedArray struct {
	DType     string            `json:"dtype"`
	Shape     []int             `json:"shape"`
	Fortran   bool              `json:"fortran"`
	BigEndian bool              `json:"big_endian"`
	Version   []int             `json:"version"`
	Values    []json.RawMessage `json:"values"`
}

type expectedFile struct {
	NPY         map[string]expectedArray            `json:"npy"`
	NPZ         map[string]map[string]expectedArray `json:"npz"`
	Unsupported []string                            `json:"unsupported"`
}

func loadExpected(t testing.TB) expectedFile {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var e expectedFile
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	if len(e.NPY) == 0 || len(e.NPZ) == 0 || len(e.Unsupported) == 0 {
		t.Fatal("expected.json lists no fixtures")
	}
	return e
}

// checkArray asserts that a holds exactly what NumPy recorded in want.
func checkArray(t *testing.T, a *Array, want expectedArray) {
	t.Helper()
	d, err := dtype.Parse(want.DType)
	if err != nil {
		t.Fatal(err)
	}
	if a.DType != d || a.Fortran != want.Fortran || !slices.Equal(a.Shape, want.Shape) {
		t.Fatalf("header = %v fortran=%v shape=%v, want %v fortran=%v shape=%v",
			a.DType, a.Fortran, a.Shape, d, want.Fortran, want.Shape)
	}
	if len(a.Data) != len(want.Values)*d.Size() {
		t.Fatalf("data has %d bytes, want %d values of %d bytes", len(a.Data), len(want.Values), d.Size())
	}
	for i, raw := range want.Values {
		checkElement(t, i, d, a.Data[i*d.Size():(i+1)*d.Size()], raw)
	}
}

// checkElement compares one little-endian element with its JSON record.
func checkElement(t *testing.T, i int, d dtype.DType, b []byte, raw json.RawMessage) {
	t.Helper()
	switch {
	case d == dtype.Bool:
		var want bool
		mustUnmarshal(t, raw, &want)
		if b[0] > 1 || (b[0] == 1) != want {
			t.Errorf("element %d = byte %d, want %v", i, b[0], want)
		}
	case d.IsInteger():
		var want string
		mustUnmarshal(t, raw, &want)
		if got := intText(d, b); got != want {
			t.Errorf("element %d = %s, want %s", i, got, want)
		}
	case d.IsFloat():
		var want string
		mustUnmarshal(t, raw, &want)
		checkFloat(t, i, floatValue(d, b), want)
	case d.IsComplex():
		var want [2]string
		mustUnmarshal(t, raw, &want)
		half := d.Size() / 2
		part := dtype.Float32
		if d == dtype.Complex128 {
			part = dtype.Float64
		}
		checkFloat(t, i, floatValue(part, b[:half]), want[0])
		checkFloat(t, i, floatValue(part, b[half:]), want[1])
	default:
		t.Fatalf("no check for dtype %v", d)
	}
}

func mustUnmarshal(t *testing.T, raw json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("expected.json value %s: %v", raw, err)
	}
}

// intText formats the little-endian integer b of dtype d in decimal.
func intText(d dtype.DType, b []byte) string {
	var u uint64
	for k := len(b) - 1; k >= 0; k-- {
		u = u<<8 | uint64(b[k])
	}
	if d.IsSigned() {
		shift := 64 - 8*len(b)
		return strconv.FormatInt(int64(u<<shift)>>shift, 10) // sign-extend
	}
	return strconv.FormatUint(u, 10)
}

// floatValue decodes the little-endian float b of dtype d exactly.
func floatValue(d dtype.DType, b []byte) float64 {
	switch d {
	case dtype.Float16:
		return halfToFloat64(binary.LittleEndian.Uint16(b))
	case dtype.Float32:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b))
}

// halfToFloat64 decodes IEEE 754 binary16 bits, written out here so the
// test does not depend on the code paths it checks.
func halfToFloat64(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1f
	frac := float64(h & 0x3ff)
	switch exp {
	case 0:
		return sign * math.Ldexp(frac, -24)
	case 0x1f:
		if frac != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	}
	return sign * math.Ldexp(1+frac/1024, exp-15)
}

// checkFloat compares got with Python's repr of the same value; the sign of
// zero counts, NaN matches any NaN.
func checkFloat(t *testing.T, i int, got float64, want string) {
	t.Helper()
	w, err := strconv.ParseFloat(want, 64)
	if err != nil {
		t.Fatalf("expected.json float %q: %v", want, err)
	}
	if math.IsNaN(w) && math.IsNaN(got) {
		return
	}
	if math.Float64bits(got) != math.Float64bits(w) {
		t.Errorf("element %d = %v, want %s", i, got, want)
	}
}

func TestFixturesDecode(t *testing.T) {
	e := loadExpected(t)
	for name, want := range e.NPY {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", name)
			a, err := ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			checkArray(t, a, want)

			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			h, big, err := ReadHeader(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			if big != want.BigEndian || h.DType != a.DType {
				t.Errorf("ReadHeader: bigEndian=%v dtype=%v, want %v %v", big, h.DType, want.BigEndian, a.DType)
			}
			if int(raw[6]) != want.Version[0] {
				t.Errorf("fixture version %d, expected.json says %v", raw[6], want.Version)
			}
		})
	}
}

// TestWriteMatchesNumPy checks that Write reproduces, byte for byte, the
// little-endian files NumPy itself wrote (version 1.0 ones; NumPy writes
// the same header text, padding and alignment).
func TestWriteMatchesNumPy(t *testing.T) {
	e := loadExpected(t)
	compared := 0
	for name, want := range e.NPY {
		if want.BigEndian || want.Version[0] != 1 {
			continue
		}
		path := filepath.Join("testdata", name)
		a, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, a); err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), raw) {
			t.Errorf("%s: Write output differs from NumPy's:\n got %q\nwant %q", name, buf.Bytes(), raw)
		}
		compared++
	}
	if compared < 30 {
		t.Fatalf("compared only %d files", compared)
	}
}

func TestFixturesNPZ(t *testing.T) {
	e := loadExpected(t)
	for name, members := range e.NPZ {
		t.Run(name, func(t *testing.T) {
			entries, err := ReadNPZFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != len(members) {
				t.Fatalf("%d entries, want %d", len(entries), len(members))
			}
			for _, en := range entries {
				want, ok := members[en.Name]
				if !ok {
					t.Fatalf("unexpected entry %q", en.Name)
				}
				checkArray(t, en.Array, want)
			}
		})
	}
}

func TestFixturesUnsupported(t *testing.T) {
	e := loadExpected(t)
	for _, name := range e.Unsupported {
		_, err := ReadFile(filepath.Join("testdata", name))
		if !errors.Is(err, dtype.ErrDType) || errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "descr") {
			t.Errorf("%s: err = %v, want a descr error wrapping dtype.ErrDType (a valid NumPy file)", name, err)
		}
		t.Logf("%s: %v", name, err)
	}
}

func writeBytes(path string, b []byte) error { return os.WriteFile(path, b, 0o644) }

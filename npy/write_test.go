package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tensor-go/tensor/dtype"
)

// writable lists the dtypes NumPy can store: all but bfloat16.
func writable() []dtype.DType {
	var out []dtype.DType
	for _, d := range dtype.All {
		if d != dtype.BFloat16 {
			out = append(out, d)
		}
	}
	return out
}

var roundTripShapes = [][]int{{}, {0}, {2, 0}, {1}, {5}, {2, 3}, {2, 3, 4}, {1, 1, 1, 7}}

// randomArray builds an array of dtype d and shape with random bytes.
func randomArray(rng *rand.Rand, d dtype.DType, shape []int, fortran bool) *Array {
	h := Header{DType: d, Fortran: fortran, Shape: shape}
	n, err := h.DataLen()
	if err != nil {
		panic(err)
	}
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	if d == dtype.Bool {
		for i := range data {
			data[i] &= 1
		}
	}
	return &Array{Header: h, Data: data}
}

// onlyReader hides every method but Read, so Read cannot learn the length.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// checkPreamble asserts the byte-level properties of a written header:
// magic, version 1.0, the length field, 64-byte alignment, space padding,
// a final newline, and a dict that parses back to h.
func checkPreamble(t *testing.T, out []byte, h Header) {
	t.Helper()
	if string(out[:6]) != "\x93NUMPY" || out[6] != 1 || out[7] != 0 {
		t.Fatalf("preamble %q: want magic and version 1.0", out[:8])
	}
	hlen := int(binary.LittleEndian.Uint16(out[8:]))
	end := 10 + hlen
	if end%64 != 0 {
		t.Errorf("data starts at %d, not a multiple of 64", end)
	}
	text := string(out[10:end])
	if !strings.HasSuffix(text, "\n") {
		t.Errorf("header %q does not end with a newline", text)
	}
	dict := strings.TrimRight(text[:len(text)-1], " ")
	if strings.ContainsAny(dict, "\n\x00") || !strings.HasSuffix(dict, "}") {
		t.Errorf("header %q is not a dict padded with spaces", text)
	}
	got, big, err := parseHeaderDict([]byte(dict))
	if err != nil || big || got.DType != h.DType || got.Fortran != h.Fortran || !slices.Equal(got.Shape, h.Shape) {
		t.Errorf("header %q parses to %+v big=%v err=%v, want %+v", dict, got, big, err, h)
	}
	wantOrder := "'<"
	if h.DType.Size() == 1 {
		wantOrder = "'|"
	}
	if !strings.Contains(dict, "'descr': "+wantOrder) {
		t.Errorf("header %q: want byte order %s", dict, wantOrder[1:])
	}
}

func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, d := range writable() {
		for _, shape := range roundTripShapes {
			for _, fortran := range []bool{false, true} {
				a := randomArray(rng, d, shape, fortran)
				var buf bytes.Buffer
				if err := Write(&buf, a); err != nil {
					t.Fatalf("%v %v: %v", d, shape, err)
				}
				out := buf.Bytes()
				checkPreamble(t, out, a.Header)
				if !bytes.Equal(out[len(out)-len(a.Data):], a.Data) {
					t.Fatalf("%v %v: data not written verbatim", d, shape)
				}
				for _, r := range []io.Reader{bytes.NewReader(out), onlyReader{bytes.NewReader(out)}} {
					got, err := Read(r)
					if err != nil {
						t.Fatalf("%v %v: %v", d, shape, err)
					}
					if got.DType != d || got.Fortran != fortran || !slices.Equal(got.Shape, shape) ||
						!bytes.Equal(got.Data, a.Data) {
						t.Fatalf("%v %v fortran=%v: round trip changed the array", d, shape, fortran)
					}
				}
			}
		}
	}
}

func TestRoundTripFile(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	path := t.TempDir() + "/a.npy"
	a := randomArray(rng, dtype.Complex64, []int{3, 2}, true)
	if err := WriteFile(path, a); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Data, a.Data) || !slices.Equal(got.Shape, a.Shape) || !got.Fortran {
		t.Fatal("file round trip changed the array")
	}
}

// TestReadSequence checks that Read stops right after the data, so arrays
// saved one after another in one stream read back in turn.
func TestReadSequence(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var buf bytes.Buffer
	arrays := []*Array{
		randomArray(rng, dtype.Int16, []int{4}, false),
		randomArray(rng, dtype.Float64, []int{}, false),
		randomArray(rng, dtype.Bool, []int{2, 2}, true),
	}
	for _, a := range arrays {
		if err := Write(&buf, a); err != nil {
			t.Fatal(err)
		}
	}
	r := onlyReader{&buf}
	for i, want := range arrays {
		got, err := Read(r)
		if err != nil || !bytes.Equal(got.Data, want.Data) || got.DType != want.DType {
			t.Fatalf("array %d: %v", i, err)
		}
	}
	if _, err := Read(r); !errors.Is(err, ErrFormat) {
		t.Fatalf("read past the last array: err = %v, want ErrFormat", err)
	}
}

// TestWriteVersion2 checks the switch to format 2.0 when the dict no longer
// fits the 16-bit length of version 1.0 (only absurdly many dimensions do).
func TestWriteVersion2(t *testing.T) {
	shape := make([]int, 30000) // "1, " per dimension: about 90 KB of header
	for i := range shape {
		shape[i] = 1
	}
	a := &Array{Header: Header{DType: dtype.Float32, Shape: shape}, Data: make([]byte, 4)}
	a.Data[3] = 0x3f
	var buf bytes.Buffer
	if err := Write(&buf, a); err != nil {
		t.Fatal(err)
	}
	out := buf.Bytes()
	if out[6] != 2 || out[7] != 0 {
		t.Fatalf("version %d.%d, want 2.0", out[6], out[7])
	}
	hlen := int(binary.LittleEndian.Uint32(out[8:]))
	if hlen <= 65535 || (12+hlen)%64 != 0 || out[12+hlen-1] != '\n' {
		t.Fatalf("header length %d: want > 65535, aligned, newline-terminated", hlen)
	}
	got, err := Read(bytes.NewReader(out))
	if err != nil || len(got.Shape) != len(shape) || !bytes.Equal(got.Data, a.Data) {
		t.Fatalf("version 2.0 round trip: %v", err)
	}
}

func TestWriteErrors(t *testing.T) {
	cases := []struct {
		name string
		a    *Array
		want error
	}{
		{"bfloat16", &Array{Header: Header{DType: dtype.BFloat16, Shape: []int{1}}, Data: make([]byte, 2)}, dtype.ErrDType},
		{"invalid dtype", &Array{Header: Header{Shape: []int{1}}, Data: make([]byte, 1)}, dtype.ErrDType},
		{"negative dim", &Array{Header: Header{DType: dtype.Int8, Shape: []int{-1}}}, ErrArray},
		{"short data", &Array{Header: Header{DType: dtype.Int32, Shape: []int{2}}, Data: make([]byte, 7)}, ErrArray},
		{"long data", &Array{Header: Header{DType: dtype.Int32, Shape: []int{}}, Data: make([]byte, 5)}, ErrArray},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		err := Write(&buf, c.a)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: wrote %d bytes before failing", c.name, buf.Len())
		}
	}
	err := Write(io.Discard, &Array{Header: Header{DType: dtype.BFloat16}, Data: make([]byte, 2)})
	if err == nil || !strings.Contains(err.Error(), "float32") {
		t.Errorf("bfloat16 error %v should tell to cast to float32", err)
	}
}

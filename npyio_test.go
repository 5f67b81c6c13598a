package tensor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tensor-go/tensor/npy"
	"github.com/tensor-go/tensor/shape"
	"github.com/x448/float16"
)

// The fixtures of package npy were written by NumPy; expected.json records
// each one's dtype, layout, shape and element values in file order.
const npyTestdata = "npy/testdata"

type npyExpected struct {
	DType   string `json:"dtype"`
	Fortran bool   `json:"fortran"`
	Shape   []int  `json:"shape"`
	Values  []any  `json:"values"`
}

func loadNPYExpected(t *testing.T) (files map[string]npyExpected, archives map[string]map[string]npyExpected) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(npyTestdata, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		NPY map[string]npyExpected            `json:"npy"`
		NPZ map[string]map[string]npyExpected `json:"npz"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.NPY) == 0 {
		t.Fatal("expected.json lists no .npy fixtures")
	}
	return doc.NPY, doc.NPZ
}

// npyFileIndex returns the index of the element stored at position p of
// a file of the given shape and layout.
func npyFileIndex(p int, s []int, fortran bool) []int {
	idx := make([]int, len(s))
	if fortran {
		for d := range s {
			idx[d], p = p%s[d], p/s[d]
		}
		return idx
	}
	for d := len(s) - 1; d >= 0; d-- {
		idx[d], p = p%s[d], p/s[d]
	}
	return idx
}

// npySameValue compares an element read with At against a value of
// expected.json (bools, decimal strings, or [re, im] pairs of strings).
func npySameValue(got, want any) bool {
	num := func(w any) float64 {
		s, _ := w.(string)
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return math.Inf(-1) // never equal to a decoded value below
		}
		return f
	}
	sameFloat := func(g float64, w any) bool {
		f := num(w)
		return g == f && math.Signbit(g) == math.Signbit(f) || math.IsNaN(g) && math.IsNaN(f)
	}
	switch g := got.(type) {
	case bool:
		return g == want
	case int8, int16, int32, int64:
		return strconv.FormatInt(npyInt(g), 10) == want
	case uint8, uint16, uint32, uint64:
		return strconv.FormatUint(npyUint(g), 10) == want
	case float16.Float16:
		return sameFloat(float64(g.Float32()), want)
	case float32:
		return sameFloat(float64(g), want)
	case float64:
		return sameFloat(g, want)
	case complex64:
		pair, ok := want.([]any)
		return ok && len(pair) == 2 && sameFloat(float64(real(g)), pair[0]) && sameFloat(float64(imag(g)), pair[1])
	case complex128:
		pair, ok := want.([]any)
		return ok && len(pair) == 2 && sameFloat(real(g), pair[0]) && sameFloat(imag(g), pair[1])
	}
	return false
}

func npyInt(v any) int64 {
	switch v := v.(type) {
	case int8:
		return int64(v)
	case int16:
		return int64(v)
	case int32:
		return int64(v)
	}
	return v.(int64)
}

func npyUint(v any) uint64 {
	switch v := v.(type) {
	case uint8:
		return uint64(v)
	case uint16:
		return uint64(v)
	case uint32:
		return uint64(v)
	}
	return v.(uint64)
}

// checkNPYTensor asserts that x has the expected dtype, shape, layout and
// element values.
func checkNPYTensor(t *testing.T, name string, x *Tensor, want npyExpected) {
	t.Helper()
	if x.DType().String() != want.DType || !shape.Equal(x.Shape(), want.Shape) {
		t.Fatalf("%s: got %v %v, want %s %v", name, x.DType(), x.Shape(), want.DType, want.Shape)
	}
	wantStrides := shape.ContiguousStrides(want.Shape)
	if want.Fortran {
		wantStrides = fortranStrides(want.Shape)
	}
	if x.Size() > 0 && !shape.Equal(x.Strides(), wantStrides) {
		t.Errorf("%s: strides %v, want %v (fortran %v)", name, x.Strides(), wantStrides, want.Fortran)
	}
	if len(want.Values) != x.Size() {
		t.Fatalf("%s: %d expected values for %d elements", name, len(want.Values), x.Size())
	}
	for p, w := range want.Values {
		idx := npyFileIndex(p, want.Shape, want.Fortran)
		got, err := x.At(idx...)
		if err != nil {
			t.Fatal(err)
		}
		if !npySameValue(got, w) {
			t.Errorf("%s: element %v (file position %d) = %v, want %v", name, idx, p, got, w)
		}
	}
}

func TestLoadNPYFixtures(t *testing.T) {
	files, _ := loadNPYExpected(t)
	for name, want := range files {
		t.Run(name, func(t *testing.T) {
			x, err := LoadNPY(filepath.Join(npyTestdata, name))
			if err != nil {
				t.Fatal(err)
			}
			checkNPYTensor(t, name, x, want)

			raw, err := os.ReadFile(filepath.Join(npyTestdata, name))
			if err != nil {
				t.Fatal(err)
			}
			y, err := ReadNPY(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			checkNPYTensor(t, name+" via ReadNPY", y, want)
		})
	}
}

// TestNPYRoundTrip writes every fixture back and checks that the bytes
// describe the same array in the same layout (big-endian files come back
// little-endian, as NumPy's own default).
func TestNPYRoundTrip(t *testing.T) {
	files, _ := loadNPYExpected(t)
	for name, want := range files {
		t.Run(name, func(t *testing.T) {
			x, err := LoadNPY(filepath.Join(npyTestdata, name))
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := WriteNPY(&buf, x); err != nil {
				t.Fatal(err)
			}
			a, err := npy.Read(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			orig, err := npy.ReadFile(filepath.Join(npyTestdata, name))
			if err != nil {
				t.Fatal(err)
			}
			// A 1-D or smaller array is both C and Fortran; NumPy marks it C.
			wantFortran := orig.Fortran && len(orig.Shape) > 1
			if a.DType != orig.DType || !shape.Equal(a.Shape, orig.Shape) || a.Fortran != wantFortran {
				t.Errorf("header %+v, want %+v", a.Header, orig.Header)
			}
			if a.Fortran == orig.Fortran && !bytes.Equal(a.Data, orig.Data) {
				t.Errorf("data differs from the file's")
			}
			y, err := ReadNPY(&buf)
			if err != nil {
				t.Fatal(err)
			}
			checkNPYTensor(t, name+" rewritten", y, npyExpected{want.DType, a.Fortran, want.Shape, want.Values})
		})
	}
}

func TestSaveLoadNPYFile(t *testing.T) {
	x := Must(FromSlice([]float64{1, -2, math.Inf(1), math.NaN(), -0.0, 6}, 2, 3))
	path := filepath.Join(t.TempDir(), "x.npy")
	if err := SaveNPY(path, x); err != nil {
		t.Fatal(err)
	}
	y, err := LoadNPY(path)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := ToSlice[float64](y)
	want, _ := ToSlice[float64](x)
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Errorf("element %d = %v, want %v", i, got[i], want[i])
		}
	}
}

// TestWriteNPYLayouts checks that a column-major view is written in
// Fortran order without reordering and any other view as a row-major copy.
func TestWriteNPYLayouts(t *testing.T) {
	base := Must(Must(Arange(24)).Reshape(2, 3, 4)) // element (i,j,k) = 12i + 4j + k
	tests := []struct {
		name    string
		view    func() (*Tensor, error)
		fortran bool
		shape   []int
		elem    func(idx []int) int32 // the value at a logical index of the view
	}{
		{"C", func() (*Tensor, error) { return base, nil }, false, []int{2, 3, 4},
			func(i []int) int32 { return int32(12*i[0] + 4*i[1] + i[2]) }},
		{"transposed", func() (*Tensor, error) { return base.Transpose(), nil }, true, []int{4, 3, 2},
			func(i []int) int32 { return int32(12*i[2] + 4*i[1] + i[0]) }},
		{"permuted", func() (*Tensor, error) { return base.Permute(1, 0, 2) }, false, []int{3, 2, 4},
			func(i []int) int32 { return int32(12*i[1] + 4*i[0] + i[2]) }},
		{"stepped", func() (*Tensor, error) { return base.Slice(All(), All().By(-2), Span(1, 3)) }, false, []int{2, 2, 2},
			func(i []int) int32 { return int32(12*i[0] + 4*(2-2*i[1]) + 1 + i[2]) }},
		{"broadcast", func() (*Tensor, error) { return Must(base.Slice(Index(0), Index(1))).BroadcastTo(3, 4) }, false, []int{3, 4},
			func(i []int) int32 { return int32(4 + i[1]) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := tc.view()
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := WriteNPY(&buf, v); err != nil {
				t.Fatal(err)
			}
			a, err := npy.Read(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if a.Fortran != tc.fortran || !shape.Equal(a.Shape, tc.shape) || a.DType != Int32 {
				t.Fatalf("header %+v, want fortran %v shape %v int32", a.Header, tc.fortran, tc.shape)
			}
			n := len(a.Data) / 4
			for p := range n {
				idx := npyFileIndex(p, tc.shape, tc.fortran)
				got := int32(uint32(a.Data[4*p]) | uint32(a.Data[4*p+1])<<8 | uint32(a.Data[4*p+2])<<16 | uint32(a.Data[4*p+3])<<24)
				if want := tc.elem(idx); got != want {
					t.Errorf("file element %d (index %v) = %d, want %d", p, idx, got, want)
				}
			}
		})
	}
}

func TestNPYErrors(t *testing.T) {
	bf := Must(Zeros(BFloat16, 2))
	var buf bytes.Buffer
	err := WriteNPY(&buf, bf)
	if !errors.Is(err, ErrDType) || !strings.Contains(err.Error(), "float32") || buf.Len() != 0 {
		t.Errorf("WriteNPY(bfloat16) = %v (wrote %d bytes), want an ErrDType error suggesting float32 and nothing written", err, buf.Len())
	}
	if err := SaveNPZ(filepath.Join(t.TempDir(), "x.npz"), []NamedTensor{{"a", bf}}, false); !errors.Is(err, ErrDType) {
		t.Errorf("SaveNPZ(bfloat16) = %v, want ErrDType", err)
	}

	_, err = LoadNPY(filepath.Join(t.TempDir(), "missing.npy"))
	if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, ErrIO) || !strings.HasPrefix(err.Error(), "tensor: load_npy: ") {
		t.Errorf("LoadNPY(missing) = %v, want fs.ErrNotExist and ErrIO with the tensor: load_npy: prefix", err)
	}

	raw, err := os.ReadFile(filepath.Join(npyTestdata, "float64_c.npy"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]byte{raw[:len(raw)-1], raw[:20], []byte("not an npy file at all")} {
		_, err := ReadNPY(bytes.NewReader(bad))
		var oe *OpError
		if !errors.Is(err, ErrFormat) || !errors.As(err, &oe) || oe.Op != "read_npy" {
			t.Errorf("ReadNPY(%d bad bytes) = %v, want an ErrFormat OpError of read_npy", len(bad), err)
		}
	}
	for _, name := range []string{"unsupported_str.npy", "unsupported_longdouble.npy"} {
		if _, err := LoadNPY(filepath.Join(npyTestdata, name)); !errors.Is(err, ErrDType) || errors.Is(err, ErrFormat) {
			t.Errorf("LoadNPY(%s) = %v, want ErrDType (a valid NumPy file of a type the library lacks)", name, err)
		}
	}
	if err := WriteNPY(&buf, nil); !errors.Is(err, ErrValue) {
		t.Errorf("WriteNPY(nil) = %v, want ErrValue", err)
	}
}

func TestLoadNPZFixtures(t *testing.T) {
	_, archives := loadNPYExpected(t)
	for name, members := range archives {
		got, err := LoadNPZ(filepath.Join(npyTestdata, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got) != len(members) {
			t.Fatalf("%s: %d members, want %d", name, len(got), len(members))
		}
		for _, nt := range got {
			want, ok := members[nt.Name]
			if !ok {
				t.Fatalf("%s: unexpected member %q", name, nt.Name)
			}
			checkNPYTensor(t, name+"/"+nt.Name, nt.Tensor, want)
		}
	}
}

func TestNPZRoundTrip(t *testing.T) {
	in := []NamedTensor{
		{"z", Must(FromSlice([]int16{1, -2, 3, -4, 5, -6}, 2, 3)).Transpose()},
		{"a", Must(FromSlice([]complex64{1 + 2i, -3}))},
		{"scalar", Must(FromSlice([]bool{true}, []int{}...))},
	}
	for _, compress := range []bool{false, true} {
		var buf bytes.Buffer
		if err := WriteNPZ(&buf, in, compress); err != nil {
			t.Fatal(err)
		}
		out, err := ReadNPZ(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		if len(out) != len(in) {
			t.Fatalf("compress %v: %d members, want %d", compress, len(out), len(in))
		}
		for i := range in {
			if out[i].Name != in[i].Name || !sameNPYElements(t, out[i].Tensor, in[i].Tensor) {
				t.Errorf("compress %v: member %d = %s %v, want %s %v", compress, i, out[i].Name, out[i].Tensor, in[i].Name, in[i].Tensor)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "x.npz")
	if err := SaveNPZ(path, in, true); err != nil {
		t.Fatal(err)
	}
	out, err := LoadNPZ(path)
	if err != nil || len(out) != len(in) || out[0].Name != "z" || !sameNPYElements(t, out[0].Tensor, in[0].Tensor) {
		t.Errorf("LoadNPZ after SaveNPZ = %v, %v", out, err)
	}
	if err := WriteNPZ(&bytes.Buffer{}, []NamedTensor{{"a", in[1].Tensor}, {"a", in[1].Tensor}}, false); err == nil {
		t.Error("WriteNPZ with a repeated name succeeded")
	}
}

// sameNPYElements compares dtype, shape and the row-major element bytes.
func sameNPYElements(t *testing.T, x, y *Tensor) bool {
	t.Helper()
	if x.DType() != y.DType() || !shape.Equal(x.Shape(), y.Shape()) {
		return false
	}
	cx, err := x.Contiguous()
	if err != nil {
		t.Fatal(err)
	}
	cy, err := y.Contiguous()
	if err != nil {
		t.Fatal(err)
	}
	size := x.DType().Size()
	return bytes.Equal(storageBytes(cx)[cx.offset*size:(cx.offset+cx.Size())*size], storageBytes(cy)[cy.offset*size:(cy.offset+cy.Size())*size])
}

// A transposed tensor is saved in Fortran order without reordering, and
// loads back as a column-major view.
func ExampleSaveNPY() {
	dir, err := os.MkdirTemp("", "npy-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "x.npy")

	x := Must(FromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3))
	if err := SaveNPY(path, x.Transpose()); err != nil {
		panic(err)
	}
	y, err := LoadNPY(path)
	if err != nil {
		panic(err)
	}
	fmt.Println(y)
	fmt.Println(y.Shape(), y.Strides())
	// Output:
	// Tensor([[1 4]
	//  [2 5]
	//  [3 6]], dtype=int32, device=xpux:0)
	// [3 2] [1 3]
}

// TestWriteNPYEmptyViewPastStorage writes empty views whose offset lies
// past their empty storage (column 1 of a (0, 3) tensor): the differential
// checker (testdata/diffcheck.py) found that saving one sliced the storage
// beyond its end and panicked.
func TestWriteNPYEmptyViewPastStorage(t *testing.T) {
	base := Must(Ones(Float32, 3, 0))
	views := map[string]func() (*Tensor, error){
		"column of (0, 3)": func() (*Tensor, error) { return Must(base.MT()).Slice(All(), Index(-2)) },
		"reversed columns": func() (*Tensor, error) { return Must(base.MT()).Slice(All(), All().By(-1)) },
		"row of (3, 0)":    func() (*Tensor, error) { return base.Slice(Index(2)) },
	}
	for name, view := range views {
		v, err := view()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var buf bytes.Buffer
		if err := WriteNPY(&buf, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		a, err := npy.Read(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !shape.Equal(a.Shape, v.Shape()) || len(a.Data) != 0 {
			t.Errorf("%s: read back shape %v with %d bytes, want %v and none", name, a.Shape, len(a.Data), v.Shape())
		}
	}
}

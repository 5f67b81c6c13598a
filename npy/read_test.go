package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tensor-go/tensor/dtype"
)

// rawNPY assembles an .npy stream from a version, a header text (used
// verbatim, no padding) and data.
func rawNPY(major byte, header string, data []byte) []byte {
	out := []byte("\x93NUMPY")
	out = append(out, major, 0)
	if major == 1 {
		out = binary.LittleEndian.AppendUint16(out, uint16(len(header)))
	} else {
		out = binary.LittleEndian.AppendUint32(out, uint32(len(header)))
	}
	out = append(out, header...)
	return append(out, data...)
}

func TestHeaderSyntaxVariants(t *testing.T) {
	cases := []struct {
		header string
		want   Header
		big    bool
	}{
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", Header{dtype.Float32, false, []int{2, 3}}, false},
		{`{"shape": (3,), "fortran_order": True, "descr": ">i8"}`, Header{dtype.Int64, true, []int{3}}, true},
		{"{ 'shape' : ( ) ,'descr':'|b1','fortran_order':False }\n", Header{dtype.Bool, false, []int{}}, false},
		{"{'descr':'b1','fortran_order':False,'shape':(4,)}", Header{dtype.Bool, false, []int{4}}, false},
		{"{'descr': '<i1', 'fortran_order': False, 'shape': (3L, 2L), }", Header{dtype.Int8, false, []int{3, 2}}, false},
		{"{'descr': '>u1', 'fortran_order': False, 'shape': (1,)}", Header{dtype.Uint8, false, []int{1}}, false},
		{"{'descr': '=c16',\n\t'fortran_order': False,\r\n 'shape': ((1),),}  \n", Header{dtype.Complex128, false, []int{1}}, nativeBigEndian},
		{"{'descr': '<f2', 'fortran_order': False, 'shape': (0, " + strconv.Itoa(math.MaxInt) + "),}", Header{dtype.Float16, false, []int{0, math.MaxInt}}, false},
		{"{'descr': '>c8', 'fortran_order': False, 'shape': (+1_0,)}", Header{dtype.Complex64, false, []int{10}}, true},
	}
	for _, c := range cases {
		n, _ := c.want.DataLen()
		h, big, err := ReadHeader(bytes.NewReader(rawNPY(1, c.header, make([]byte, n))))
		if err != nil {
			t.Errorf("%q: %v", c.header, err)
			continue
		}
		if h.DType != c.want.DType || h.Fortran != c.want.Fortran || !slices.Equal(h.Shape, c.want.Shape) || big != c.big {
			t.Errorf("%q: got %+v big=%v, want %+v big=%v", c.header, h, big, c.want, c.big)
		}
	}
}

func TestReadBigEndianSwap(t *testing.T) {
	data := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	cases := []struct {
		descr string
		want  []byte
	}{
		{">i2", []byte{2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11, 14, 13, 16, 15}},
		{">f4", []byte{4, 3, 2, 1, 8, 7, 6, 5, 12, 11, 10, 9, 16, 15, 14, 13}},
		{">u8", []byte{8, 7, 6, 5, 4, 3, 2, 1, 16, 15, 14, 13, 12, 11, 10, 9}},
		{">c8", []byte{4, 3, 2, 1, 8, 7, 6, 5, 12, 11, 10, 9, 16, 15, 14, 13}},
		{">c16", []byte{8, 7, 6, 5, 4, 3, 2, 1, 16, 15, 14, 13, 12, 11, 10, 9}},
		{">i1", data},
		{"<i4", data},
	}
	for _, c := range cases {
		d, _, err := parseDescr(c.descr)
		if err != nil {
			t.Fatal(err)
		}
		header := "{'descr': '" + c.descr + "', 'fortran_order': False, 'shape': (" +
			strconv.Itoa(16/d.Size()) + ",)}"
		a, err := Read(bytes.NewReader(rawNPY(1, header, slices.Clone(data))))
		if err != nil {
			t.Fatalf("%s: %v", c.descr, err)
		}
		if !bytes.Equal(a.Data, c.want) {
			t.Errorf("%s: data %v, want %v", c.descr, a.Data, c.want)
		}
	}
}

func TestReadErrors(t *testing.T) {
	good := "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }"
	data8 := make([]byte, 8)
	withHeader := func(h string) []byte { return rawNPY(1, h, data8) }
	cases := []struct {
		name  string
		input []byte
		part  string // a word the error must contain
	}{
		{"empty", nil, "magic"},
		{"short magic", []byte("\x93NUM"), "magic"},
		{"bad magic", append([]byte("\x93NUMPZ\x01\x00"), rawNPY(1, good, data8)[8:]...), "magic"},
		{"version 4.0", rawNPY(4, good, data8), "version"},
		{"version 1.1", func() []byte { b := rawNPY(1, good, data8); b[7] = 1; return b }(), "version"},
		{"version 0.0", func() []byte { b := rawNPY(1, good, data8); b[6] = 0; return b }(), "version"},
		{"no header length", []byte("\x93NUMPY\x02\x00\x10\x00"), "header length"},
		{"header length past end", rawNPY(1, good, nil)[:40], "header length"},
		{"huge v2 header length", []byte("\x93NUMPY\x02\x00\xff\xff\xff\xff{'descr'"), "header length"},
		{"not a dict", withHeader("['descr', '<i4']"), "not a dict"},
		{"unclosed dict", withHeader("{'descr': '<i4', 'fortran_order': False, 'shape': (2,)"), "missing"},
		{"missing colon", withHeader("{'descr' '<i4'}"), "':'"},
		{"missing comma", withHeader("{'descr': '<i4' 'shape': (2,)}"), "','"},
		{"unterminated string", withHeader("{'descr': '<i4"), "unterminated"},
		{"misquoted key", withHeader("{'descr: '<i4', 'fortran_order': False}"), "':'"},
		{"newline in string", withHeader("{'descr': '<i\n4'}"), "newline"},
		{"sign without digits", withHeader("{'descr': '<i4', 'fortran_order': False, 'shape': (-,)}"), "sign"},
		{"unknown name", withHeader("{'descr': '<i4', 'fortran_order': false, 'shape': (2,)}"), "false"},
		{"junk after dict", withHeader(good + " x"), "after the dict"},
		{"deep nesting", withHeader(strings.Repeat("(", 100)), "nested"},
		{"missing descr", withHeader("{'fortran_order': False, 'shape': (2,)}"), "missing key 'descr'"},
		{"missing fortran_order", withHeader("{'descr': '<i4', 'shape': (2,)}"), "missing key 'fortran_order'"},
		{"missing shape", withHeader("{'descr': '<i4', 'fortran_order': False}"), "missing key 'shape'"},
		{"extra key", withHeader("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), 'x': 1}"), "unexpected key"},
		{"duplicate key", withHeader("{'descr': '<i4', 'descr': '<i4', 'fortran_order': False, 'shape': (2,)}"), "twice"},
		{"non-string key", withHeader("{1: '<i4'}"), "key is a integer"},
		{"fortran_order not bool", withHeader("{'descr': '<i4', 'fortran_order': 0, 'shape': (2,)}"), "fortran_order"},
		{"shape not tuple", withHeader("{'descr': '<i4', 'fortran_order': False, 'shape': 2}"), "shape"},
		{"shape a list", withHeader("{'descr': '<i4', 'fortran_order': False, 'shape': [2]}"), "shape is not valid"},
		{"unknown descr", withHeader("{'descr': '<zz', 'fortran_order': False, 'shape': (2,)}"), "descr"},
		{"unsupported descr, bad shape", withHeader("{'descr': '|O', 'fortran_order': False, 'shape': [2]}"), "shape"},
		{"shape (2) is an int", withHeader("{'descr': '<i4', 'fortran_order': False, 'shape': (2)}"), "shape"},
		{"shape of strings", withHeader("{'descr': '<i4', 'fortran_order': False, 'shape': ('2',)}"), "shape"},
		{"negative shape", withHeader("{'descr': '<i4', 'fortran_order': False, 'shape': (-2,)}"), "negative"},
		{"huge dimension", withHeader("{'descr': '<i4', 'fortran_order': False, 'shape': (99999999999999999999,)}"), "too large"},
		{"overflowing product", withHeader("{'descr': '<i4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}"), "shape"},
		// A dimension that fits in an int (of 32 or 64 bits) whose bytes do not.
		{"overflowing bytes", withHeader(fmt.Sprintf("{'descr': '<c16', 'fortran_order': False, 'shape': (%d,)}", math.MaxInt/16+1)), "bytes"},
		{"int descr", withHeader("{'descr': 4, 'fortran_order': False, 'shape': (2,)}"), "descr"},
		{"truncated data", rawNPY(1, good, data8[:5]), "data length"},
		{"no data", rawNPY(1, good, nil), "data length"},
		{"invalid utf-8 in v3", rawNPY(3, "{'descr': '<i4\xff', 'fortran_order': False, 'shape': (2,)}", data8), "UTF-8"},
	}
	for _, c := range cases {
		for _, sized := range []bool{true, false} {
			var err error
			if sized {
				_, err = Read(bytes.NewReader(c.input))
			} else {
				_, err = Read(onlyReader{bytes.NewReader(c.input)})
			}
			if !errors.Is(err, ErrFormat) {
				t.Errorf("%s: err = %v, want ErrFormat", c.name, err)
			} else if !strings.Contains(err.Error(), c.part) {
				t.Errorf("%s: error %q does not mention %q", c.name, err, c.part)
			}
		}
	}
}

// TestReadFileTrailingBytes checks that ReadFile refuses bytes after the
// data (Read, a stream reader, leaves them for the next call).
func TestReadFileTrailingBytes(t *testing.T) {
	path := t.TempDir() + "/t.npy"
	a := &Array{Header: Header{DType: dtype.Uint16, Shape: []int{2}}, Data: []byte{1, 2, 3, 4}}
	var buf bytes.Buffer
	if err := Write(&buf, a); err != nil {
		t.Fatal(err)
	}
	buf.WriteString("extra")
	if err := writeBytes(path, buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "extra bytes") {
		t.Fatalf("err = %v, want a trailing-bytes ErrFormat", err)
	}
	if _, err := Read(bytes.NewReader(buf.Bytes())); err != nil {
		t.Fatalf("Read with trailing bytes: %v", err)
	}
	if err := writeBytes(path, buf.Bytes()[:buf.Len()-7]); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "data length") {
		t.Fatalf("truncated file: err = %v, want a data length ErrFormat", err)
	}
}

// TestReadLyingHeaderMemory checks that a tiny input claiming a huge array
// fails without allocating anything like the claimed size, both when the
// reader can tell its length and when it cannot.
func TestReadLyingHeaderMemory(t *testing.T) {
	input := rawNPY(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,), }", make([]byte, 16))
	v2 := rawNPY(2, "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", nil)
	binary.LittleEndian.PutUint32(v2[8:], math.MaxUint32) // header "4 GiB long"
	for _, in := range [][]byte{input, v2} {
		for _, sized := range []bool{true, false} {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			var err error
			if sized {
				_, err = Read(bytes.NewReader(in))
			} else {
				_, err = Read(onlyReader{bytes.NewReader(in)})
			}
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("err = %v, want ErrFormat", err)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
				t.Errorf("sized=%v: allocated %d bytes for a %d-byte input", sized, grew, len(in))
			}
		}
	}
}

// failingReader delivers its bytes, then fails with err instead of EOF.
type failingReader struct {
	b   []byte
	err error
}

func (f *failingReader) Read(p []byte) (int, error) {
	if len(f.b) == 0 {
		return 0, f.err
	}
	n := copy(p, f.b)
	f.b = f.b[n:]
	return n, nil
}

// TestReadIOErrorPassesThrough checks that a failing reader's own error is
// returned, not disguised as malformed data, wherever the read fails.
func TestReadIOErrorPassesThrough(t *testing.T) {
	boom := errors.New("disk on fire")
	full := rawNPY(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", make([]byte, 8))
	for _, cut := range []int{0, 4, 9, 30, len(full) - 3} {
		_, err := Read(&failingReader{full[:cut], boom})
		if !errors.Is(err, boom) || errors.Is(err, ErrFormat) {
			t.Errorf("cut at %d: err = %v, want the reader's error only", cut, err)
		}
	}
	if err := Write(&bytes.Buffer{}, nil); !errors.Is(err, ErrArray) {
		t.Errorf("Write(nil) err = %v, want ErrArray", err)
	}
}

// TestReadUnsupportedDTypes checks that valid NumPy files of dtypes this
// package lacks are dtype errors, not format errors, and that the error
// names the type.
func TestReadUnsupportedDTypes(t *testing.T) {
	withHeader := func(h string) []byte { return rawNPY(1, h, make([]byte, 64)) }
	cases := []struct {
		name  string
		input []byte
		part  string
	}{
		{"string descr", withHeader("{'descr': '<U3', 'fortran_order': False, 'shape': (2,)}"), "descr"},
		{"object descr", withHeader("{'descr': '|O', 'fortran_order': False, 'shape': (2,)}"), "descr"},
		{"structured descr", withHeader("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (2,)}"), "structured"},
		{"datetime descr", withHeader("{'descr': '<M8[ns]', 'fortran_order': False, 'shape': (2,)}"), "descr"},
		{"long double", withHeader("{'descr': '<f16', 'fortran_order': False, 'shape': (2,)}"), "long double"},
		{"bytes", withHeader("{'descr': '|S5', 'fortran_order': False, 'shape': (2,)}"), "byte strings"},
	}
	for _, c := range cases {
		_, err := Read(bytes.NewReader(c.input))
		if !errors.Is(err, dtype.ErrDType) || errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.part) {
			t.Errorf("%s: err = %v, want a dtype.ErrDType error (not ErrFormat) mentioning %q", c.name, err, c.part)
		}
	}
}

// TestErrorQuotesAShortPrefix checks that an error repeats at most a short
// prefix of a huge header: a 4 MB descr or name once made a 4 MB message.
func TestErrorQuotesAShortPrefix(t *testing.T) {
	huge := strings.Repeat("x", 4<<20)
	for _, h := range []string{
		"{'descr': '<U" + huge + "', 'fortran_order': False, 'shape': (2,)}",
		"{'descr': '<" + huge + "', 'fortran_order': False, 'shape': (2,)}",
		"{'descr': '<i4', 'fortran_order': False, 'shape': (2,), '" + huge + "': 1}",
		"{'descr': '<i4', 'fortran_order': " + huge + ", 'shape': (2,)}",
	} {
		_, err := Read(bytes.NewReader(rawNPY(2, h, nil)))
		if err == nil || len(err.Error()) > 400 {
			t.Errorf("error of %d bytes for a %d-byte header: %.200s", len(fmt.Sprint(err)), len(h), err)
		}
	}
}

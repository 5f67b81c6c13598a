package npy

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/tensor-go/tensor/dtype"
)

// Hostile archives are built here, in the tests, rather than committed:
// the point of most is that a tiny file claims or inflates to a huge size.

// rawMember is one zip member written with CreateRaw, so that its sizes
// can be declared independently of its bytes.
type rawMember struct {
	name         string
	method       uint16
	body         []byte // the compressed bytes as stored
	uncompressed uint64 // the size the directory declares
	crc          uint32
}

func rawZip(t testing.TB, members ...rawMember) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		w, err := zw.CreateRaw(&zip.FileHeader{Name: m.name, Method: m.method, CRC32: m.crc,
			CompressedSize64: uint64(len(m.body)), UncompressedSize64: m.uncompressed})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(m.body)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// deflated returns b compressed as a raw deflate stream.
func deflated(t testing.TB, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	w, _ := flate.NewWriter(&out, flate.BestCompression)
	w.Write(b)
	w.Close()
	return out.Bytes()
}

// npyOf returns a version 1.0 .npy file of the given header and data.
func npyOf(header string, data []byte) []byte { return rawNPY(1, header, data) }

// TestNPZDeclaredSizesAreNotBelieved replays archives of a few hundred
// bytes whose directory or .npy header declares a terabyte: each must be a
// format error at once, without allocating what it claims (before, ReadNPZ
// allocated the declared size and the Go runtime aborted the process).
func TestNPZDeclaredSizesAreNotBelieved(t *testing.T) {
	small := npyOf("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", make([]byte, 16))
	// 1.6 GB claimed: a dimension that fits a 32-bit int too, so that the data
	// length is what refuses it on every platform.
	huge := npyOf("{'descr': '<f8', 'fortran_order': False, 'shape': (200000000,), }", make([]byte, 16))
	const tb = 1 << 40
	cases := []struct {
		name string
		zip  []byte
		part string
	}{
		{"stored member declaring 1 TB", rawZip(t, rawMember{"x.npy", zip.Store, small, tb, crc32.ChecksumIEEE(small)}), "declares"},
		{"deflated member declaring 1 TB", rawZip(t, rawMember{"x.npy", zip.Deflate, deflated(t, small), tb, crc32.ChecksumIEEE(small)}), "declares"},
		{"header claiming 1.6 GB in a stored member", rawZip(t, rawMember{"x.npy", zip.Store, huge, uint64(len(huge)), crc32.ChecksumIEEE(huge)}), "data length"},
		{"header claiming 1.6 GB in a deflated member", rawZip(t, rawMember{"x.npy", zip.Deflate, deflated(t, huge), uint64(len(huge)), crc32.ChecksumIEEE(huge)}), "data length"},
		{"header claiming 1.6 GB, directory 1 TB", rawZip(t, rawMember{"x.npy", zip.Deflate, deflated(t, huge), tb, crc32.ChecksumIEEE(huge)}), "declares"},
		{"directory declaring room for the header's 1.6 GB", rawZip(t, rawMember{"x.npy", zip.Deflate, deflated(t, huge), uint64(len(huge)) + tb, crc32.ChecksumIEEE(huge)}), "declares"},
	}
	for _, c := range cases {
		if len(c.zip) > 1024 {
			t.Fatalf("%s: the hostile archive is %d bytes; it should be tiny", c.name, len(c.zip))
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := ReadNPZ(bytes.NewReader(c.zip), int64(len(c.zip)))
		runtime.ReadMemStats(&after)
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.part) {
			t.Errorf("%s: err = %v, want ErrFormat mentioning %q", c.name, err, c.part)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
			t.Errorf("%s: allocated %d bytes for a %d-byte archive", c.name, grew, len(c.zip))
		}
	}
}

// duplicateEntry returns archive z (of one member) with a second central
// directory record for the same local data under another name of the same
// length: the overlapping-member zip bomb, where every record inflates the
// same small stream.
func duplicateEntry(t testing.TB, z []byte, name string) []byte {
	t.Helper()
	cd := bytes.Index(z, []byte("PK\x01\x02"))
	eocd := bytes.LastIndex(z, []byte("PK\x05\x06"))
	if cd < 0 || eocd < 0 {
		t.Fatal("no central directory")
	}
	rec := append([]byte(nil), z[cd:eocd]...)
	nameLen := int(binary.LittleEndian.Uint16(rec[28:]))
	if nameLen != len(name) {
		t.Fatalf("name %q must have %d bytes", name, nameLen)
	}
	dup := append([]byte(nil), rec...)
	copy(dup[46:], name)
	out := append(append(append([]byte(nil), z[:eocd]...), dup...), z[eocd:]...)
	end := out[len(out)-(len(z)-eocd):]
	binary.LittleEndian.PutUint16(end[8:], 2)
	binary.LittleEndian.PutUint16(end[10:], 2)
	binary.LittleEndian.PutUint32(end[12:], uint32(2*len(rec)))
	return out
}

// TestNPZOverlappingMembers checks that members sharing compressed data
// are refused, and that a member pointing outside the archive is too.
func TestNPZOverlappingMembers(t *testing.T) {
	a := npyOf("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", make([]byte, 16))
	z := rawZip(t, rawMember{"a.npy", zip.Deflate, deflated(t, a), uint64(len(a)), crc32.ChecksumIEEE(a)})
	if _, err := ReadNPZ(bytes.NewReader(z), int64(len(z))); err != nil {
		t.Fatalf("the honest archive: %v", err)
	}
	two := duplicateEntry(t, z, "b.npy")
	zr, err := zip.NewReader(bytes.NewReader(two), int64(len(two)))
	if err != nil || len(zr.File) != 2 {
		t.Fatalf("the doubled archive does not open as two members: %v", err)
	}
	if _, err := ReadNPZ(bytes.NewReader(two), int64(len(two))); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "share") {
		t.Errorf("overlapping members: err = %v, want ErrFormat saying they share data", err)
	}
}

// TestNPZInflationIsBounded inflates a real bomb (a small deflated member
// of zeros) and checks that ReadNPZWith allocates its output once: the
// data is inflated straight into the buffer the Allocator returns.
func TestNPZInflationIsBounded(t *testing.T) {
	const n = 8 << 20
	body := npyOf("{'descr': '<f8', 'fortran_order': False, 'shape': (1048576,), }", make([]byte, n))
	comp := deflated(t, body)
	z := rawZip(t, rawMember{"z.npy", zip.Deflate, comp, uint64(len(body)), crc32.ChecksumIEEE(body)})
	if len(z) > n/500 {
		t.Fatalf("the bomb is %d bytes, want a ratio over 500", len(z))
	}
	var into []byte
	alloc := func(h Header, size int) ([]byte, error) {
		if h.DType != dtype.Float64 || size != n {
			t.Errorf("Allocator called for %v %v of %d bytes", h.DType, h.Shape, size)
		}
		into = make([]byte, size)
		return into, nil
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	entries, err := ReadNPZWith(bytes.NewReader(z), int64(len(z)), alloc)
	runtime.ReadMemStats(&after)
	if err != nil || len(entries) != 1 || &entries[0].Array.Data[0] != &into[0] {
		t.Fatalf("ReadNPZWith: %v; the data must be the Allocator's buffer", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > n+n/4 {
		t.Errorf("inflating %d bytes allocated %d", n, grew)
	}
	// A stream that ends before what its header and directory declare is a
	// format error, not a short array.
	short := deflated(t, body[:len(body)-8])
	z = rawZip(t, rawMember{"z.npy", zip.Deflate, short, uint64(len(body)), crc32.ChecksumIEEE(body)})
	if _, err := ReadNPZ(bytes.NewReader(z), int64(len(z))); !errors.Is(err, ErrFormat) {
		t.Errorf("a short stream: err = %v, want ErrFormat", err)
	}
}

// TestReadBoolsNormalised checks that bool bytes other than 0 and 1 read as
// 1, so that casts and sums see true as 1 (NumPy's arithmetic does).
func TestReadBoolsNormalised(t *testing.T) {
	a, err := Read(bytes.NewReader(npyOf("{'descr': '|b1', 'fortran_order': False, 'shape': (5,), }", []byte{0, 1, 2, 255, 0})))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Data, []byte{0, 1, 1, 1, 0}) {
		t.Errorf("bool data %v, want [0 1 1 1 0]", a.Data)
	}
}

// FuzzNPZSizes builds a one-member archive whose directory declares any
// uncompressed size and whose .npy header any shape, over a stored or
// deflated body that may be cut short: reading must fail cleanly or decode
// exactly the declared data, and the Allocator may only ever be asked for
// a buffer the archive's own bytes can fill.
func FuzzNPZSizes(f *testing.F) {
	f.Add(uint64(1<<40), int64(2), uint16(0), true, uint8(0))
	f.Add(uint64(0), int64(137438953472), uint16(0), false, uint8(0))
	f.Add(uint64(1<<63), int64(-1), uint16(100), true, uint8(3))
	f.Add(uint64(144), int64(2), uint16(0), false, uint8(1))
	f.Add(uint64(math.MaxUint64), int64(math.MaxInt64), uint16(7), true, uint8(7))
	f.Fuzz(func(t *testing.T, declared uint64, dim int64, cut uint16, deflate bool, shapeKind uint8) {
		shapes := []string{"(%d,)", "(%d, 2)", "(0, %d)", "(%d, %d)", "[%d]", "(%d, 3, 0)", "()", "(1, %d)"}
		sh := shapes[int(shapeKind)%len(shapes)]
		if n := strings.Count(sh, "%d"); n > 0 {
			args := make([]any, n)
			for i := range args {
				args[i] = dim
			}
			sh = fmt.Sprintf(sh, args...)
		}
		body := npyOf("{'descr': '<f8', 'fortran_order': False, 'shape': "+sh+", }", make([]byte, 64))
		if int(cut) < len(body) {
			body = body[:len(body)-int(cut)]
		}
		m := rawMember{"x.npy", zip.Store, body, declared, crc32.ChecksumIEEE(body)}
		if deflate {
			m.method, m.body = zip.Deflate, deflated(t, body)
		}
		z := rawZip(t, m)
		alloc := func(h Header, n int) ([]byte, error) {
			if uint64(n) > uint64(len(z))*maxInflation+inflationSlack {
				t.Fatalf("Allocator asked for %d bytes by a %d-byte archive", n, len(z))
			}
			return make([]byte, n), nil
		}
		entries, err := ReadNPZWith(bytes.NewReader(z), int64(len(z)), alloc)
		if err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, dtype.ErrDType) {
				t.Fatalf("error %v wraps neither ErrFormat nor dtype.ErrDType", err)
			}
			if len(err.Error()) > 600 {
				t.Fatalf("error of %d bytes", len(err.Error()))
			}
			return
		}
		n, err := entries[0].Array.DataLen()
		if err != nil || n != len(entries[0].Array.Data) || declared != uint64(len(body)) {
			t.Fatalf("accepted %d data bytes for a header of %d (%v), %d declared for %d", len(entries[0].Array.Data), n, err, declared, len(body))
		}
	})
}

// TestAllocatorRefusalKeepsItsClass checks that an Allocator's error comes
// back as it made it, not as a malformed file.
func TestAllocatorRefusalKeepsItsClass(t *testing.T) {
	short := errors.New("no memory for this")
	refuse := func(Header, int) ([]byte, error) { return nil, short }
	body := npyOf("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", make([]byte, 16))
	z := rawZip(t, rawMember{"x.npy", zip.Deflate, deflated(t, body), uint64(len(body)), crc32.ChecksumIEEE(body)})
	_, err := ReadNPZWith(bytes.NewReader(z), int64(len(z)), refuse)
	if !errors.Is(err, short) || errors.Is(err, ErrFormat) {
		t.Errorf("ReadNPZWith with a refusing Allocator: %v, want its error and not ErrFormat", err)
	}
	if _, err := ReadWith(bytes.NewReader(body), refuse); !errors.Is(err, short) || errors.Is(err, ErrFormat) {
		t.Errorf("ReadWith with a refusing Allocator: %v", err)
	}
}

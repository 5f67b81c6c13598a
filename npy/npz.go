package npy

import (
	"archive/zip"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/tensor-go/tensor/dtype"
)

// Entry is one named array of an .npz archive.
type Entry struct {
	Name  string // the member name without its ".npy" suffix
	Array *Array
}

// npySuffix ends the name of every member numpy.savez writes.
const npySuffix = ".npy"

// ReadNPZ decodes the .npz archive (a zip of NAME.npy members, stored or
// deflated) held in the size bytes of r, returning its arrays in archive
// order. A member that is not an .npy file, a duplicate name, a damaged
// zip structure or a checksum mismatch is an error wrapping ErrFormat, and
// so is a member that declares more bytes than its compressed data can
// inflate to, or whose data overlaps another member's (see OpenNPZ).
func ReadNPZ(r io.ReaderAt, size int64) ([]Entry, error) { return ReadNPZWith(r, size, nil) }

// ReadNPZWith is ReadNPZ with each member's data read into the buffer
// alloc returns.
func ReadNPZWith(r io.ReaderAt, size int64, alloc Allocator) ([]Entry, error) {
	zr, err := OpenNPZ(r, size)
	if err != nil {
		return nil, err
	}
	entries := make([]Entry, 0, len(zr.File))
	seen := map[string]bool{}
	for _, f := range zr.File {
		name, ok := strings.CutSuffix(f.Name, npySuffix)
		if !ok {
			return nil, fmt.Errorf("%w: npz member %s is not an .npy file", ErrFormat, quote(f.Name))
		}
		if seen[name] {
			return nil, fmt.Errorf("%w: npz member %s appears twice", ErrFormat, quote(f.Name))
		}
		seen[name] = true
		a, err := ReadMember(f, alloc)
		if err != nil {
			return nil, fmt.Errorf("npz member %s: %w", quote(f.Name), err)
		}
		entries = append(entries, Entry{Name: name, Array: a})
	}
	return entries, nil
}

// maxInflation is the most bytes deflate can produce from one compressed
// byte: a stream of longest matches yields 258 bytes per 2 bits, at most
// 1032 to 1 (zlib's and Go's best compression of zeros reach 1029).
// inflationSlack covers the few bytes of a tiny stream's own framing.
const (
	maxInflation   = 1032
	inflationSlack = 4096
)

// OpenNPZ opens the zip archive held in the size bytes of r and checks
// what its directory declares before anything is read, so that no declared
// size is believed beyond what the file's own bytes can deliver: every
// member's compressed data lies inside the archive, no two members share
// compressed data (the overlapping-member zip bomb, where one small stream
// is listed many times), and no member declares more uncompressed bytes
// than its compressed bytes can produce (stored members exactly their
// size, deflated ones at most maxInflation times it). Violations are
// errors wrapping ErrFormat.
func OpenNPZ(r io.ReaderAt, size int64) (*zip.Reader, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("%w: npz archive: %w", ErrFormat, err)
	}
	type span struct {
		start, end int64
		name       string
	}
	spans := make([]span, 0, len(zr.File))
	for _, f := range zr.File {
		if _, err := memberBound(f); err != nil {
			return nil, fmt.Errorf("npz member %s: %w", quote(f.Name), err)
		}
		off, err := f.DataOffset()
		if err != nil {
			return nil, fmt.Errorf("%w: npz member %s: %w", ErrFormat, quote(f.Name), err)
		}
		if off < 0 || f.CompressedSize64 > uint64(size) || off > size-int64(f.CompressedSize64) {
			return nil, fmt.Errorf("%w: npz member %s: %d compressed bytes at offset %d lie outside the %d-byte archive",
				ErrFormat, quote(f.Name), f.CompressedSize64, off, size)
		}
		spans = append(spans, span{off, off + int64(f.CompressedSize64), f.Name})
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	for i := 1; i < len(spans); i++ {
		if spans[i].start < spans[i-1].end {
			return nil, fmt.Errorf("%w: npz members %s and %s share compressed data",
				ErrFormat, quote(spans[i-1].name), quote(spans[i].name))
		}
	}
	return zr, nil
}

// memberBound returns the uncompressed size f declares after checking it
// against what its compressed size can inflate to.
func memberBound(f *zip.File) (int64, error) {
	c, u := f.CompressedSize64, f.UncompressedSize64
	bound := uint64(math.MaxInt64)
	switch f.Method {
	case zip.Store:
		bound = c
	case zip.Deflate:
		if c < (math.MaxInt64-inflationSlack)/maxInflation {
			bound = c*maxInflation + inflationSlack
		}
	}
	if u > bound {
		return 0, fmt.Errorf("%w: declares %d uncompressed bytes, more than its %d compressed bytes can hold", ErrFormat, u, c)
	}
	return int64(u), nil
}

// OpenMember opens member f of an archive from OpenNPZ for reading. The
// reader delivers at most the member's declared size (archive/zip checks
// that, and the checksum at the end), which OpenNPZ has bounded by the
// compressed bytes; Read, ReadWith and this package's readers use that
// size to allocate the member's data once, and only within it.
func OpenMember(f *zip.File) (io.ReadCloser, error) {
	size, err := memberBound(f)
	if err != nil {
		return nil, err
	}
	rc, err := f.Open()
	if err != nil {
		return nil, asFormatError(err)
	}
	return &boundedReader{rc: rc, left: size}, nil
}

// boundedReader is a zip member's reader that knows how many bytes it may
// still deliver.
type boundedReader struct {
	rc   io.ReadCloser
	left int64
}

func (b *boundedReader) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.left = max(0, b.left-int64(n))
	return n, err
}

func (b *boundedReader) Close() error { return b.rc.Close() }

// ReadMember decodes member f of an archive from OpenNPZ as one .npy array
// with nothing after it, reading the data into the buffer alloc returns
// (make when nil). Errors wrap ErrFormat, or dtype.ErrDType for a valid
// array of a type this package lacks.
func ReadMember(f *zip.File, alloc Allocator) (*Array, error) {
	rc, err := OpenMember(f)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	a, err := readExact(rc, remaining(rc), alloc)
	if err != nil {
		return nil, asFormatError(err)
	}
	return a, nil
}

// asFormatError makes err wrap ErrFormat: errors from the zip layer
// (checksums, bad compressed streams) are format errors of the archive.
// Errors that already name their class (ErrFormat, dtype.ErrDType) keep
// it, and so do an Allocator's own.
func asFormatError(err error) error {
	var refused allocError
	if errors.Is(err, ErrFormat) || errors.Is(err, dtype.ErrDType) || errors.As(err, &refused) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrFormat, err)
}

// ReadNPZFile reads the .npz archive at path.
func ReadNPZFile(path string) ([]Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	entries, err := ReadNPZ(f, info.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return entries, nil
}

// WriteNPZ writes entries as an .npz archive, each as member NAME.npy,
// deflated when compress is set and stored otherwise, as numpy.savez_compressed
// and numpy.savez do. Names must be non-empty and distinct.
func WriteNPZ(w io.Writer, entries []Entry, compress bool) error {
	seen := map[string]bool{}
	for _, e := range entries {
		switch {
		case e.Name == "":
			return fmt.Errorf("npy: %w: npz entry with an empty name", ErrArray)
		case seen[e.Name]:
			return fmt.Errorf("npy: %w: npz entry name %q used twice", ErrArray, e.Name)
		case e.Array == nil:
			return fmt.Errorf("npy: %w: npz entry %q has no array", ErrArray, e.Name)
		}
		seen[e.Name] = true
	}
	method := zip.Store
	if compress {
		method = zip.Deflate
	}
	zw := zip.NewWriter(w)
	for _, e := range entries {
		mw, err := zw.CreateHeader(&zip.FileHeader{Name: e.Name + npySuffix, Method: method})
		if err != nil {
			return err
		}
		if err := Write(mw, e.Array); err != nil {
			return fmt.Errorf("npz entry %q: %w", e.Name, err)
		}
	}
	return zw.Close()
}

// WriteNPZFile writes entries as an .npz archive to the file at path.
func WriteNPZFile(path string, entries []Entry, compress bool) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := WriteNPZ(f, entries, compress); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

package npy

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
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
// zip structure or a checksum mismatch is an error wrapping ErrFormat.
func ReadNPZ(r io.ReaderAt, size int64) ([]Entry, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("%w: npz archive: %w", ErrFormat, err)
	}
	entries := make([]Entry, 0, len(zr.File))
	seen := map[string]bool{}
	for _, f := range zr.File {
		name, ok := strings.CutSuffix(f.Name, npySuffix)
		if !ok {
			return nil, fmt.Errorf("%w: npz member %q is not an .npy file", ErrFormat, f.Name)
		}
		if seen[name] {
			return nil, fmt.Errorf("%w: npz member %q appears twice", ErrFormat, f.Name)
		}
		seen[name] = true
		a, err := readMember(f)
		if err != nil {
			return nil, fmt.Errorf("npz member %q: %w", f.Name, err)
		}
		entries = append(entries, Entry{Name: name, Array: a})
	}
	return entries, nil
}

// readMember decodes one zip member. The size recorded in the zip directory
// bounds what the header may claim, and archive/zip refuses to deliver more
// than that size, so a forged header or a decompression bomb cannot make
// ReadNPZ allocate beyond the archive's own declarations and real output.
func readMember(f *zip.File) (*Array, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, asFormatError(err)
	}
	defer rc.Close()
	size := int64(-1)
	if f.UncompressedSize64 <= 1<<62 {
		size = int64(f.UncompressedSize64)
	}
	a, err := readExact(rc, size)
	if err != nil {
		return nil, asFormatError(err)
	}
	return a, nil
}

// asFormatError makes err wrap ErrFormat: errors from the zip layer
// (checksums, bad compressed streams) are format errors of the archive.
func asFormatError(err error) error {
	if errors.Is(err, ErrFormat) {
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

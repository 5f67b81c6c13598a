package npy

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/tensor-go/tensor/dtype"
)

// Array is a header plus its data as little-endian element bytes in the
// file's element order (C or Fortran, as Header says).
type Array struct {
	Header
	Data []byte
}

// An Allocator returns the buffer, of exactly n bytes, that the data of an
// array with header h is read into, so that a caller can have the bytes
// land in their final place (a tensor's storage) instead of being copied
// there. Readers call it only once the input is known to hold n more bytes
// (its length is known, or a zip member's declared size within its inflation
// bound), or, when the input's length cannot be known, once the bytes have
// arrived. A nil Allocator means make.
type Allocator func(h Header, n int) ([]byte, error)

// firstChunk is how much Read allocates before any data has arrived from a
// reader of unknown length. Later chunks double, so memory stays within
// twice what the input actually delivered, whatever the header claims.
const firstChunk = 1 << 20

// Read decodes one .npy array from r. Data stored big-endian is byte-swapped
// to little-endian, and bool bytes other than 0 read as 1 (as NumPy's
// comparisons and casts see them). Read consumes exactly the header and the
// data the header describes and leaves any further bytes unread, so several
// arrays written one after another (as repeated numpy.save calls on one file
// produce) can be read in turn. Data shorter than the header describes is
// an error wrapping ErrFormat.
func Read(r io.Reader) (*Array, error) { return ReadWith(r, nil) }

// ReadWith is Read with the data read into the buffer alloc returns.
func ReadWith(r io.Reader, alloc Allocator) (*Array, error) {
	h, big, _, err := readHeader(r)
	if err != nil {
		return nil, err
	}
	return readData(r, h, big, remaining(r), alloc)
}

// ReadFile reads the .npy file at path. Unlike Read it requires the data to
// end exactly at the end of the file: trailing bytes are reported as an
// error wrapping ErrFormat, since they usually mean a corrupt or mislabeled
// file. The data is read once, into one buffer of its size.
func ReadFile(path string) (*Array, error) { return ReadFileWith(path, nil) }

// ReadFileWith is ReadFile with the data read into the buffer alloc returns.
func ReadFileWith(path string, alloc Allocator) (*Array, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	a, err := readExact(f, remaining(f), alloc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// readExact reads one array from r, which holds size bytes (size < 0 when
// unknown), and insists that nothing follows it.
func readExact(r io.Reader, size int64, alloc Allocator) (*Array, error) {
	h, big, consumed, err := readHeader(r)
	if err != nil {
		return nil, err
	}
	left := int64(-1)
	if size >= 0 {
		left = max(0, size-consumed)
	}
	a, err := readData(r, h, big, left, alloc)
	if err != nil {
		return nil, err
	}
	var one [1]byte
	n, err := io.ReadFull(r, one[:])
	if n > 0 {
		return nil, fmt.Errorf("%w: data length: extra bytes after the %d data bytes", ErrFormat, len(a.Data))
	}
	if !errors.Is(err, io.EOF) {
		return nil, err // e.g. a checksum error from a zip member
	}
	return a, nil
}

// readData reads the data h describes from r, of which left bytes remain
// (left < 0 when unknown), swaps it to little-endian if big is set and
// normalises bools.
func readData(r io.Reader, h Header, big bool, left int64, alloc Allocator) (*Array, error) {
	n, err := h.DataLen()
	if err != nil {
		return nil, err
	}
	if alloc == nil {
		alloc = func(_ Header, n int) ([]byte, error) { return make([]byte, n), nil }
	}
	short := func(have int64) error {
		return fmt.Errorf("%w: data length: shape %v of %v needs %d bytes, input has %d",
			ErrFormat, h.Shape, h.DType, n, have)
	}
	var data []byte
	if left >= 0 || n <= firstChunk {
		if left >= 0 && int64(n) > left {
			return nil, short(left)
		}
		if data, err = alloc(h, n); err != nil {
			return nil, allocError{err}
		}
		if m, err := io.ReadFull(r, data); err != nil {
			if isEOF(err) {
				return nil, short(int64(m))
			}
			return nil, readError("data", err)
		}
	} else if data, err = readGrowing(r, h, n, alloc); err != nil {
		if isEOF(err) {
			return nil, short(int64(len(data)))
		}
		return nil, readError("data", err)
	}
	if big {
		swapBytes(data, h.DType)
	}
	if h.DType == dtype.Bool {
		normaliseBools(data)
	}
	return &Array{Header: h, Data: data}, nil
}

// readGrowing reads n bytes from a reader of unknown length in chunks that
// double, so that a header claiming more than the input holds costs only
// about what did arrive, and hands them to the buffer alloc returns once all
// have come. On a short input it returns the bytes read and an EOF error.
func readGrowing(r io.Reader, h Header, n int, alloc Allocator) ([]byte, error) {
	var chunks [][]byte
	got := 0
	for size := firstChunk; got < n; size *= 2 {
		c := make([]byte, min(size, n-got))
		m, err := io.ReadFull(r, c)
		chunks, got = append(chunks, c[:m]), got+m
		if err != nil {
			if errors.Is(err, io.EOF) && got > 0 {
				err = io.ErrUnexpectedEOF
			}
			return make([]byte, got), err
		}
	}
	data, err := alloc(h, n)
	if err != nil {
		return nil, allocError{err}
	}
	at := 0
	for _, c := range chunks {
		at += copy(data[at:], c)
	}
	return data, nil
}

// allocError is an Allocator's refusal, passed on as the Allocator made it
// (not as a malformed file: the file may be fine, the memory short).
type allocError struct{ error }

func (e allocError) Unwrap() error { return e.error }

// normaliseBools makes every nonzero bool byte 1, the only true value the
// library's kernels (and NumPy's arithmetic) expect.
func normaliseBools(data []byte) {
	for i, b := range data {
		if b > 1 {
			data[i] = 1
		}
	}
}

// readBounded reads exactly n bytes from r, of which left remain (left < 0
// when unknown). When left is known it checks n against it and allocates
// once; otherwise it allocates as data arrives, so a header that lies about
// its size costs at most about twice the real input in memory. On a short
// input it returns the bytes read and io.ErrUnexpectedEOF (or io.EOF if
// there were none).
func readBounded(r io.Reader, n, left int64) ([]byte, error) {
	if left >= 0 && n > left {
		return nil, io.ErrUnexpectedEOF
	}
	if left >= 0 || n <= firstChunk {
		buf := make([]byte, n)
		m, err := io.ReadFull(r, buf)
		return buf[:m], err
	}
	buf := make([]byte, 0, firstChunk)
	for int64(len(buf)) < n {
		if len(buf) == cap(buf) {
			grown := make([]byte, len(buf), min(n, 2*int64(cap(buf))))
			copy(grown, buf)
			buf = grown
		}
		m, err := io.ReadFull(r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if err != nil {
			if errors.Is(err, io.EOF) && len(buf) > 0 {
				err = io.ErrUnexpectedEOF
			}
			return buf, err
		}
	}
	return buf, nil
}

// remaining reports how many unread bytes r holds, or -1 when r cannot say.
// In-memory readers report it with Len; regular files through Stat and
// their current offset; a zip member (see readMember) through its bound.
func remaining(r io.Reader) int64 {
	switch r := r.(type) {
	case *boundedReader:
		return r.left
	case interface{ Len() int }:
		return int64(r.Len())
	case interface {
		Stat() (fs.FileInfo, error)
		io.Seeker
	}:
		info, err := r.Stat()
		if err != nil || !info.Mode().IsRegular() {
			return -1
		}
		off, err := r.Seek(0, io.SeekCurrent)
		if err != nil || off > info.Size() {
			return -1
		}
		return info.Size() - off
	}
	return -1
}

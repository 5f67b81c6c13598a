package npy

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Array is a header plus its data as little-endian element bytes in the
// file's element order (C or Fortran, as Header says).
type Array struct {
	Header
	Data []byte
}

// firstChunk is how much Read allocates before any data has arrived from a
// reader of unknown length. Later chunks double, so memory stays within
// twice what the input actually delivered, whatever the header claims.
const firstChunk = 1 << 20

// Read decodes one .npy array from r. Data stored big-endian is byte-swapped
// to little-endian. Read consumes exactly the header and the data the header
// describes and leaves any further bytes unread, so several arrays written
// one after another (as repeated numpy.save calls on one file produce) can be
// read in turn. Data shorter than the header describes is an error wrapping
// ErrFormat.
func Read(r io.Reader) (*Array, error) {
	h, big, _, err := readHeader(r)
	if err != nil {
		return nil, err
	}
	return readData(r, h, big, remaining(r))
}

// ReadFile reads the .npy file at path. Unlike Read it requires the data to
// end exactly at the end of the file: trailing bytes are reported as an
// error wrapping ErrFormat, since they usually mean a corrupt or mislabeled
// file.
func ReadFile(path string) (*Array, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	a, err := readExact(f, remaining(f))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// readExact reads one array from r, which holds size bytes (size < 0 when
// unknown), and insists that nothing follows it.
func readExact(r io.Reader, size int64) (*Array, error) {
	h, big, consumed, err := readHeader(r)
	if err != nil {
		return nil, err
	}
	left := int64(-1)
	if size >= 0 {
		left = max(0, size-consumed)
	}
	a, err := readData(r, h, big, left)
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
// (left < 0 when unknown), and swaps it to little-endian if big is set.
func readData(r io.Reader, h Header, big bool, left int64) (*Array, error) {
	n, err := h.DataLen()
	if err != nil {
		return nil, err
	}
	data, err := readBounded(r, int64(n), left)
	if err != nil {
		if isEOF(err) {
			have := int64(len(data))
			if have == 0 && left > 0 {
				have = left
			}
			return nil, fmt.Errorf("%w: data length: shape %v of %v needs %d bytes, input has %d",
				ErrFormat, h.Shape, h.DType, n, have)
		}
		return nil, readError("data", err)
	}
	if big {
		swapBytes(data, h.DType)
	}
	return &Array{Header: h, Data: data}, nil
}

// readBounded reads exactly n bytes from r. When left (the bytes r still
// holds) is known it checks n against it and allocates once; otherwise it
// allocates as data arrives, so a header that lies about its size costs
// at most about twice the real input in memory. On a short input it returns
// the bytes read and io.ErrUnexpectedEOF (or io.EOF if there were none).
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
// their current offset.
func remaining(r io.Reader) int64 {
	switch r := r.(type) {
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

package tensor

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"unsafe"

	"github.com/tensor-go/tensor/npy"
	"github.com/tensor-go/tensor/shape"
)

// This file binds tensors to NumPy's .npy and .npz files through package
// npy, which works on headers and raw little-endian bytes.
//
// Reading keeps the file's layout: a Fortran-order file becomes a tensor
// with column-major strides, a view of the bytes as they lie in the file,
// so no reordering pass is needed. Writing stores a row-major tensor as it
// is and a column-major one in Fortran order, both without reordering;
// any other view (sliced, broadcast, permuted) is written as its
// row-major copy.
//
// Reading allocates only in proportion to what the input really holds: the
// data is read straight into the tensor's storage, and only once the input
// is known to hold it (a file's size, a zip member's compressed bytes), so
// a header or zip directory that lies about sizes is an error, never an
// allocation. Bool bytes other than 0 read as true (1).
//
// Malformed files give errors wrapping ErrFormat, valid NumPy files of
// element types the library lacks (strings, objects, records, datetimes,
// long doubles) ErrDType, and the operating system's errors (missing
// files, permissions) and a reader's own ErrIO, with the cause kept so
// that errors.Is(err, fs.ErrNotExist) works too.

// NamedTensor is one named array of an .npz archive.
type NamedTensor struct {
	Name   string // the member name without its ".npy" suffix
	Tensor *Tensor
}

// ReadNPY reads one .npy array from r, leaving any bytes after it unread.
// Data stored big-endian is converted.
func ReadNPY(r io.Reader) (*Tensor, error) {
	const op = "read_npy"
	into := &storageAlloc{op: op}
	a, err := npy.ReadWith(r, into.alloc)
	if err != nil {
		into.release()
		return nil, npyErr(op, err)
	}
	return into.tensor(op, 0, a)
}

// LoadNPY reads the .npy file at path, which must hold exactly one array.
// The data is read straight into the tensor's storage: loading costs the
// file's size in memory, once.
func LoadNPY(path string) (*Tensor, error) {
	const op = "load_npy"
	into := &storageAlloc{op: op}
	a, err := npy.ReadFileWith(path, into.alloc)
	if err != nil {
		into.release()
		return nil, npyErr(op, err)
	}
	return into.tensor(op, 0, a)
}

// WriteNPY writes t to w as an .npy stream (format version 1.0 unless the
// header needs more). A bfloat16 tensor is an ErrDType error, since NumPy
// has no such type: cast it to float32 first.
func WriteNPY(w io.Writer, t *Tensor) error {
	a, err := toArray("write_npy", t)
	if err != nil {
		return err
	}
	return npyErr("write_npy", npy.Write(w, a))
}

// SaveNPY writes t to the .npy file at path, creating or truncating it.
func SaveNPY(path string, t *Tensor) error {
	a, err := toArray("save_npy", t)
	if err != nil {
		return err
	}
	return npyErr("save_npy", npy.WriteFile(path, a))
}

// ReadNPZ decodes the .npz archive held in the size bytes of r and returns
// its arrays in archive order (the order numpy.savez wrote them). Each
// member's data is inflated straight into its tensor's storage, and only
// once the archive's directory has proved that the member's compressed
// bytes can hold what it declares (see npy.OpenNPZ), so memory follows the
// arrays the archive really holds, never a size it merely claims.
func ReadNPZ(r io.ReaderAt, size int64) ([]NamedTensor, error) {
	return readNPZ("read_npz", r, size)
}

// LoadNPZ reads the .npz archive at path; see ReadNPZ.
func LoadNPZ(path string) ([]NamedTensor, error) {
	const op = "load_npz"
	f, err := os.Open(path)
	if err != nil {
		return nil, npyErr(op, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, npyErr(op, err)
	}
	ts, err := readNPZ(op, f, info.Size())
	if err != nil {
		var oe *OpError
		if errors.As(err, &oe) && oe.Class != ErrIO {
			oe.Detail = path + ": " + oe.Detail
		}
		return nil, err
	}
	return ts, nil
}

func readNPZ(op string, r io.ReaderAt, size int64) ([]NamedTensor, error) {
	into := &storageAlloc{op: op}
	entries, err := npy.ReadNPZWith(r, size, into.alloc)
	if err != nil {
		into.release()
		return nil, npyErr(op, err)
	}
	out := make([]NamedTensor, len(entries))
	for i, e := range entries {
		t, err := into.tensor(op, i, e.Array)
		if err != nil {
			return nil, fmt.Errorf("%w (member %s)", err, quoteInput(e.Name))
		}
		out[i] = NamedTensor{Name: e.Name, Tensor: t}
	}
	return out, nil
}

// WriteNPZ writes the tensors to w as an .npz archive in the given order,
// each as member NAME.npy; compress selects deflate (numpy.savez_compressed)
// over stored members (numpy.savez). Names must be non-empty and distinct.
func WriteNPZ(w io.Writer, tensors []NamedTensor, compress bool) error {
	entries, err := toEntries("write_npz", tensors)
	if err != nil {
		return err
	}
	return npyErr("write_npz", npy.WriteNPZ(w, entries, compress))
}

// SaveNPZ writes the tensors as an .npz archive to the file at path; see
// WriteNPZ.
func SaveNPZ(path string, tensors []NamedTensor, compress bool) error {
	entries, err := toEntries("save_npz", tensors)
	if err != nil {
		return err
	}
	return npyErr("save_npz", npy.WriteNPZFile(path, entries, compress))
}

// storageAlloc is the npy.Allocator of the readers: the data of each array
// is read into the storage of the tensor it becomes, so that loading costs
// the data's size once instead of twice (read, then copy).
type storageAlloc struct {
	op   string
	made []*Tensor // one per array, in the order the reader decoded them
}

func (s *storageAlloc) alloc(h npy.Header, n int) ([]byte, error) {
	t, err := newProductTensor(h.DType, h.Shape)
	if err != nil {
		detail, class := err.Error(), ErrShape
		var oe *OpError
		if errors.As(err, &oe) {
			detail, class = oe.Detail, oe.Class
		}
		return nil, fmt.Errorf("data of shape %s and dtype %v: %s: %w", shape.String(h.Shape), h.DType, detail, class)
	}
	if raw := storageBytes(t); len(raw) != n {
		t.Release()
		return nil, fmt.Errorf("shape %s of %v: %d data bytes for storage of %d: %w", shape.String(h.Shape), h.DType, n, len(raw), ErrFormat)
	}
	s.made = append(s.made, t)
	return storageBytes(t), nil
}

// tensor returns the tensor whose storage holds the data of a, the i-th
// array read, in the host's byte order and with C or Fortran strides as the
// header says.
func (s *storageAlloc) tensor(op string, i int, a *npy.Array) (*Tensor, error) {
	if i >= len(s.made) || len(a.Data) != len(storageBytes(s.made[i])) {
		// The readers call alloc once per array; this guards the pairing.
		return nil, opErr(op, ErrFormat, "internal error: the data of array %d was not read into its tensor", i)
	}
	t := s.made[i]
	fromLittleEndian(storageBytes(t), a.DType)
	if a.Fortran {
		t.strides = fortranStrides(t.shape)
	}
	return t, nil
}

// release gives back the storage of a read that failed.
func (s *storageAlloc) release() {
	for _, t := range s.made {
		t.Release()
	}
	s.made = nil
}

// toArray describes t's elements as an npy.Array. Row-major and
// column-major tensors lend their storage directly (on little-endian
// hosts); other views are copied to row-major order first.
func toArray(op string, t *Tensor) (*npy.Array, error) {
	if t == nil {
		return nil, opErr(op, ErrValue, "nil tensor")
	}
	if err := requireStrided(op, t); err != nil {
		return nil, err // SaveSparseNPZ writes SciPy's sparse format
	}
	if t.dtype == BFloat16 {
		return nil, opErr(op, ErrDType, "NumPy has no bfloat16; cast to float32 first with AsType(Float32)")
	}
	src, fortran := t, false
	switch {
	case t.IsContiguous():
	case len(t.shape) > 1 && t.Transpose().IsContiguous():
		src, fortran = t.Transpose(), true
	default:
		c, err := t.Contiguous()
		if err != nil {
			return nil, wrapErr(op, err)
		}
		src = c
	}
	size := t.dtype.Size()
	var data []byte
	if src.Size() > 0 {
		// An empty view may have an offset past its (empty) storage, such
		// as column 1 of a (0, 3) tensor: it has no bytes to slice.
		data = storageBytes(src)[src.offset*size : (src.offset+src.Size())*size]
	}
	if binary.NativeEndian.Uint16([]byte{0, 1}) == 1 {
		data = append([]byte(nil), data...)
		fromLittleEndian(data, t.dtype) // the swap is its own inverse
	}
	h := npy.Header{DType: t.dtype, Fortran: fortran, Shape: append([]int{}, t.shape...)}
	return &npy.Array{Header: h, Data: data}, nil
}

func toEntries(op string, tensors []NamedTensor) ([]npy.Entry, error) {
	out := make([]npy.Entry, len(tensors))
	for i, nt := range tensors {
		a, err := toArray(op, nt.Tensor)
		if err != nil {
			return nil, fmt.Errorf("%w (member %q)", err, nt.Name)
		}
		out[i] = npy.Entry{Name: nt.Name, Array: a}
	}
	return out, nil
}

// storageBytes returns the whole storage of t as bytes.
func storageBytes(t *Tensor) []byte {
	return unsafe.Slice((*byte)(t.storage), t.n*t.dtype.Size())
}

// fortranStrides returns the column-major element strides of s: the first
// dimension varies fastest.
func fortranStrides(s []int) []int {
	st := make([]int, len(s))
	step := 1
	for i, d := range s {
		st[i] = step
		if d > 1 && step <= math.MaxInt/d { // past MaxInt the shape is empty (see shape.ContiguousStrides)
			step *= d
		}
	}
	return st
}

// fromLittleEndian converts little-endian element bytes to the host's
// order in place. On little-endian hosts it does nothing. Complex numbers
// are two floats, each swapped on its own.
func fromLittleEndian(b []byte, dt DType) {
	if binary.NativeEndian.Uint16([]byte{0, 1}) != 1 {
		return
	}
	w := dt.Size()
	if dt.IsComplex() {
		w /= 2
	}
	for i := 0; i+w <= len(b); i += w {
		for lo, hi := i, i+w-1; lo < hi; lo, hi = lo+1, hi-1 {
			b[lo], b[hi] = b[hi], b[lo]
		}
	}
}

// npyErr turns an error from package npy into the library's error style:
// format problems wrap ErrFormat, element types ErrDType, inconsistent
// arrays ErrShape, and the operating system's and readers' errors (a
// missing file, a permission, a failing reader) ErrIO, keeping the cause
// so that errors.Is(err, fs.ErrNotExist) holds too.
func npyErr(op string, err error) error {
	if err == nil {
		return nil
	}
	class := ErrIO
	for _, c := range [...]struct{ match, class error }{
		{npy.ErrFormat, ErrFormat}, {ErrDType, ErrDType}, {npy.ErrArray, ErrShape},
		{ErrShape, ErrShape}, {ErrValue, ErrValue}, {ErrFormat, ErrFormat},
	} {
		if errors.Is(err, c.match) {
			class = c.class
			break
		}
	}
	return &OpError{Op: op, Detail: stripClass(err.Error(), class), Class: class, cause: err}
}

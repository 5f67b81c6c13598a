package tensor

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
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
// Malformed files give errors wrapping ErrFormat, element types NumPy or
// the library lacks give ErrDType, and the operating system's errors
// (missing files, permissions) are returned wrapped as "tensor: OP: ..."
// so that errors.Is(err, fs.ErrNotExist) still works.

// NamedTensor is one named array of an .npz archive.
type NamedTensor struct {
	Name   string // the member name without its ".npy" suffix
	Tensor *Tensor
}

// ReadNPY reads one .npy array from r, leaving any bytes after it unread.
// Data stored big-endian is converted.
func ReadNPY(r io.Reader) (*Tensor, error) {
	a, err := npy.Read(r)
	if err != nil {
		return nil, npyErr("read_npy", err)
	}
	return fromArray("read_npy", a)
}

// LoadNPY reads the .npy file at path, which must hold exactly one array.
func LoadNPY(path string) (*Tensor, error) {
	a, err := npy.ReadFile(path)
	if err != nil {
		return nil, npyErr("load_npy", err)
	}
	return fromArray("load_npy", a)
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
// its arrays in archive order (the order numpy.savez wrote them).
func ReadNPZ(r io.ReaderAt, size int64) ([]NamedTensor, error) {
	entries, err := npy.ReadNPZ(r, size)
	if err != nil {
		return nil, npyErr("read_npz", err)
	}
	return fromEntries("read_npz", entries)
}

// LoadNPZ reads the .npz archive at path; see ReadNPZ.
func LoadNPZ(path string) ([]NamedTensor, error) {
	entries, err := npy.ReadNPZFile(path)
	if err != nil {
		return nil, npyErr("load_npz", err)
	}
	return fromEntries("load_npz", entries)
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

// fromArray copies the array's bytes into new storage and describes them
// with C or Fortran strides as the header says.
func fromArray(op string, a *npy.Array) (*Tensor, error) {
	t, err := newProductTensor(a.DType, a.Shape)
	if err != nil {
		return nil, wrapErr(op, err)
	}
	raw := storageBytes(t)
	if len(raw) != len(a.Data) {
		// npy.Read guarantees the length; this guards the copy below anyway.
		return nil, opErr(op, ErrFormat, "shape %s of %v needs %d bytes, got %d", shape.String(a.Shape), a.DType, len(raw), len(a.Data))
	}
	copy(raw, a.Data)
	fromLittleEndian(raw, a.DType)
	if a.Fortran {
		t.strides = fortranStrides(t.shape)
	}
	return t, nil
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
	data := storageBytes(src)[src.offset*size : (src.offset+src.Size())*size]
	if binary.NativeEndian.Uint16([]byte{0, 1}) == 1 {
		data = append([]byte(nil), data...)
		fromLittleEndian(data, t.dtype) // the swap is its own inverse
	}
	h := npy.Header{DType: t.dtype, Fortran: fortran, Shape: append([]int{}, t.shape...)}
	return &npy.Array{Header: h, Data: data}, nil
}

func fromEntries(op string, entries []npy.Entry) ([]NamedTensor, error) {
	out := make([]NamedTensor, len(entries))
	for i, e := range entries {
		t, err := fromArray(op, e.Array)
		if err != nil {
			return nil, fmt.Errorf("%w (member %q)", err, e.Name)
		}
		out[i] = NamedTensor{Name: e.Name, Tensor: t}
	}
	return out, nil
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
		step *= max(d, 1)
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
// format problems wrap ErrFormat, element types ErrDType, and anything else
// (I/O) keeps its own identity under the "tensor: OP:" prefix.
func npyErr(op string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, npy.ErrFormat):
		return &OpError{Op: op, Detail: err.Error(), Class: ErrFormat, cause: err}
	case errors.Is(err, ErrDType):
		return &OpError{Op: op, Detail: err.Error(), Class: ErrDType, cause: err}
	case errors.Is(err, npy.ErrArray):
		return &OpError{Op: op, Detail: err.Error(), Class: ErrShape, cause: err}
	}
	return fmt.Errorf("tensor: %s: %w", op, err)
}

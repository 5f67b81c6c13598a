// Package npy reads and writes NumPy's .npy and .npz file formats.
//
// An .npy file is a magic string, a format version, a header that is a
// Python dict literal naming the element type ("descr"), the layout
// ("fortran_order") and the shape, and then the raw element bytes. An .npz
// file is a zip archive of such files. This package works on a Header plus
// the raw little-endian element bytes (an Array); it knows nothing of
// tensors, so that a thin layer elsewhere can turn an Array into one.
//
// Supported element types are those NumPy and the dtype package share:
// bool, int8 to int64, uint8 to uint64, float16, float32, float64,
// complex64 and complex128, in either byte order. Valid NumPy files of
// other types (strings, objects, records, datetimes, long doubles) are
// refused with an error wrapping dtype.ErrDType that names the type; a type
// NumPy itself would not know makes the file malformed. NumPy has no
// bfloat16, so Write refuses BFloat16 arrays. Bool bytes other than 0 read
// as 1. A shape must be a tuple, as NumPy requires ("shape is not valid").
//
// Decoding never trusts a declared size for memory: the element count is
// computed with overflow checks; the data buffer is allocated at once only
// when the input is known to hold it (a file's or an in-memory reader's
// length), and otherwise grows only as bytes actually arrive. An .npz
// archive's directory is checked before any member is read (OpenNPZ): each
// member's compressed bytes must lie inside the archive, no two members may
// share them (the overlapping-member zip bomb), and none may declare more
// than its compressed bytes can inflate to (its size when stored, 1032
// times it when deflated). Within that bound the declared size is what the
// member's reader may deliver, so a member's data is allocated once and
// inflated straight into it. An Allocator lets the caller supply that
// buffer (a tensor's storage), so that loading costs the data's size once.
//
// Malformed input yields an error wrapping ErrFormat that names the faulty
// part of the file. Error texts quote at most a short prefix of any text
// taken from the input.
//
// The fuzz targets run briefly with, for example:
//
//	go test -run=XXX -fuzz=FuzzRead$ -fuzztime=10s ./npy
//	go test -run=XXX -fuzz=FuzzReadHeader -fuzztime=10s ./npy
//	go test -run=XXX -fuzz=FuzzReadNPZ -fuzztime=10s ./npy
//
// Their seeds (the fixtures in testdata) also run as ordinary tests.
// testdata/gen_fixtures.py regenerates the fixtures with NumPy.
package npy

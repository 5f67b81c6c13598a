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
// complex64 and complex128, in either byte order. Strings, objects, records,
// datetimes and long doubles are refused with a clear error. NumPy has no
// bfloat16, so Write refuses BFloat16 arrays.
//
// Decoding never trusts the header for memory: the element count is
// computed with overflow checks, and when the input's length is unknown the
// data buffer grows only as bytes actually arrive. Malformed input yields
// an error wrapping ErrFormat that names the faulty part of the file.
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

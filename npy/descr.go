package npy

import (
	"encoding/binary"
	"fmt"

	"github.com/tensor-go/tensor/dtype"
)

// descrCodes maps the type part of a NumPy array-protocol type string
// (the "descr" without its byte-order character) to our dtypes. NumPy
// names complex types by their total size: c8 is two float32s.
var descrCodes = map[string]dtype.DType{
	"b1": dtype.Bool, "?": dtype.Bool,
	"i1": dtype.Int8, "i2": dtype.Int16, "i4": dtype.Int32, "i8": dtype.Int64,
	"u1": dtype.Uint8, "u2": dtype.Uint16, "u4": dtype.Uint32, "u8": dtype.Uint64,
	"f2": dtype.Float16, "f4": dtype.Float32, "f8": dtype.Float64,
	"c8": dtype.Complex64, "c16": dtype.Complex128,
}

// nativeBigEndian reports whether this machine stores numbers big-endian;
// NumPy's '=' (and '|' on a multi-byte type) means the reader's own order.
var nativeBigEndian = binary.NativeEndian.Uint16([]byte{0, 1}) == 1

// parseDescr turns a descr string such as "<f4" into a dtype and whether the
// file stores it big-endian.
func parseDescr(s string) (dtype.DType, bool, error) {
	order, code := byte('='), s
	if len(s) > 0 && (s[0] == '<' || s[0] == '>' || s[0] == '=' || s[0] == '|') {
		order, code = s[0], s[1:]
	}
	d, ok := descrCodes[code]
	if !ok {
		return dtype.Invalid, false, unsupportedDescr(s)
	}
	switch order {
	case '<':
		return d, false, nil
	case '>':
		return d, d.Size() > 1, nil
	default: // '=' and '|': native order; irrelevant for one-byte types
		return d, nativeBigEndian && d.Size() > 1, nil
	}
}

// unsupportedDescr explains why a NumPy type string has no dtype here,
// naming the NumPy type family when it is recognisable.
func unsupportedDescr(s string) error {
	code := s
	if len(code) > 0 && (code[0] == '<' || code[0] == '>' || code[0] == '=' || code[0] == '|') {
		code = code[1:]
	}
	what := "unknown type"
	if len(code) > 0 {
		switch code[0] {
		case 'S', 'a':
			what = "byte strings"
		case 'U':
			what = "unicode strings"
		case 'O':
			what = "Python objects"
		case 'V':
			what = "raw void records"
		case 'M', 'm':
			what = "datetimes and timedeltas"
		case 'f':
			what = "float of unsupported width, e.g. long double"
		case 'c':
			what = "complex of unsupported width, e.g. long double"
		case 'i', 'u':
			what = "integer of unsupported width"
		}
	}
	// A type NumPy itself would not know makes a malformed file; one it
	// knows and this package lacks is a dtype the library cannot hold.
	class := dtype.ErrDType
	if what == "unknown type" {
		class = ErrFormat
	}
	return fmt.Errorf("npy: header dict key 'descr': unsupported NumPy type %s (%s); "+
		"supported are bool, int8-64, uint8-64, float16/32/64, complex64/128: %w", quote(s), what, class)
}

// descrOf returns the little-endian descr Write stores for d: '|' marks a
// type with no byte order, as NumPy writes it.
func descrOf(d dtype.DType) (string, error) {
	switch d {
	case dtype.BFloat16:
		return "", fmt.Errorf("npy: bfloat16 has no NumPy dtype; cast the array to float32 first: %w", dtype.ErrDType)
	case dtype.Bool:
		return "|b1", nil
	case dtype.Int8:
		return "|i1", nil
	case dtype.Uint8:
		return "|u1", nil
	}
	for code, c := range descrCodes {
		if c == d && code != "?" {
			return "<" + code, nil
		}
	}
	return "", fmt.Errorf("npy: cannot write dtype %v: %w", d, dtype.ErrDType)
}

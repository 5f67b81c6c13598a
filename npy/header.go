package npy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tensor-go/tensor/dtype"
)

// ErrFormat is wrapped by every error that reports malformed or truncated
// .npy or .npz input. The message names the part of the file at fault.
var ErrFormat = errors.New("malformed npy data")

// magic opens every .npy file.
const magic = "\x93NUMPY"

// align is the boundary NumPy pads the header to so that the data can be
// memory-mapped with aligned elements.
const align = 64

// Header is what an .npy file says about its array.
type Header struct {
	DType   dtype.DType
	Fortran bool  // data in column-major (Fortran) order
	Shape   []int // empty for 0-d
}

// NumElements returns the number of elements the shape describes (1 for
// 0-d), or an error wrapping ErrFormat when a dimension is negative or the
// product does not fit in an int.
func (h Header) NumElements() (int, error) {
	empty := false
	for _, d := range h.Shape {
		if d < 0 {
			return 0, fmt.Errorf("%w: shape %v has a negative dimension", ErrFormat, h.Shape)
		}
		empty = empty || d == 0
	}
	if empty { // no elements, however large the other dimensions
		return 0, nil
	}
	n := 1
	for _, d := range h.Shape {
		hi, lo := bits.Mul64(uint64(n), uint64(d))
		if hi != 0 || lo > math.MaxInt {
			return 0, fmt.Errorf("%w: shape %v has more elements than fit in an int", ErrFormat, h.Shape)
		}
		n = int(lo)
	}
	return n, nil
}

// DataLen returns the number of data bytes the header describes, checking
// the shape and dtype.
func (h Header) DataLen() (int, error) {
	if !h.DType.Valid() {
		return 0, fmt.Errorf("npy: invalid dtype %v: %w", h.DType, dtype.ErrDType)
	}
	n, err := h.NumElements()
	if err != nil {
		return 0, err
	}
	size := h.DType.Size()
	if n > math.MaxInt/size {
		return 0, fmt.Errorf("%w: shape %v of %v is more than %d bytes", ErrFormat, h.Shape, h.DType, math.MaxInt)
	}
	return n * size, nil
}

// ReadHeader reads the magic string, version and header dict of an .npy
// stream and leaves r positioned at the first data byte. It accepts format
// versions 1.0, 2.0 and 3.0 (whose header is UTF-8). bigEndian reports that
// the data is stored big-endian; Read swaps such data for the caller.
func ReadHeader(r io.Reader) (h Header, bigEndian bool, err error) {
	h, bigEndian, _, err = readHeader(r)
	return h, bigEndian, err
}

// readHeader is ReadHeader that also returns how many bytes it consumed.
func readHeader(r io.Reader) (h Header, bigEndian bool, consumed int64, err error) {
	var pre [12]byte
	if _, err := io.ReadFull(r, pre[:8]); err != nil {
		return h, false, 0, readError("magic string", err)
	}
	if string(pre[:6]) != magic {
		return h, false, 0, fmt.Errorf("%w: magic string: got %q, want %q", ErrFormat, pre[:6], magic)
	}
	major, minor := pre[6], pre[7]
	lenSize := 4
	switch {
	case major == 1 && minor == 0:
		lenSize = 2
	case (major == 2 || major == 3) && minor == 0:
	default:
		return h, false, 0, fmt.Errorf("%w: version %d.%d (want 1.0, 2.0 or 3.0)", ErrFormat, major, minor)
	}
	if _, err := io.ReadFull(r, pre[8:8+lenSize]); err != nil {
		return h, false, 0, readError("header length", err)
	}
	var hlen int64
	if lenSize == 2 {
		hlen = int64(binary.LittleEndian.Uint16(pre[8:]))
	} else {
		hlen = int64(binary.LittleEndian.Uint32(pre[8:]))
	}
	// A header can claim up to 4 GiB; read it in growing chunks so a short
	// input fails before much memory is spent.
	text, err := readBounded(r, hlen, remaining(r))
	if err != nil {
		if isEOF(err) {
			return h, false, 0, fmt.Errorf("%w: header length %d: past the end of the input", ErrFormat, hlen)
		}
		return h, false, 0, readError("header", err)
	}
	if major == 3 && !utf8.Valid(text) {
		return h, false, 0, fmt.Errorf("%w: version 3.0 header is not valid UTF-8", ErrFormat)
	}
	h, bigEndian, err = parseHeaderDict(text)
	return h, bigEndian, int64(8+lenSize) + hlen, err
}

// isEOF reports whether err means the input ended early.
func isEOF(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// readError describes a failure to read part of the file: the input ending
// early is a format error; any other error is the reader's own and is
// passed on as it is.
func readError(part string, err error) error {
	if isEOF(err) {
		return fmt.Errorf("%w: %s: input truncated", ErrFormat, part)
	}
	return fmt.Errorf("npy: reading the %s: %w", part, err)
}

// parseHeaderDict decodes the dict literal of a header. NumPy requires
// exactly the keys descr, fortran_order and shape; so does this.
func parseHeaderDict(text []byte) (h Header, bigEndian bool, err error) {
	v, err := parsePyLiteral(text)
	if err != nil {
		return h, false, err
	}
	if v.kind != pyDict {
		return h, false, fmt.Errorf("%w: header is a %v, not a dict", ErrFormat, v.kind)
	}
	seen := map[string]bool{}
	// A dtype this package lacks is reported only once the rest of the
	// header has proved valid: it is then a valid NumPy file (ErrDType),
	// where anything else wrong makes it a malformed one (ErrFormat).
	var typeErr error
	for i := 0; i < len(v.items); i += 2 {
		key, val := v.items[i], v.items[i+1]
		if key.kind != pyStr {
			return h, false, fmt.Errorf("%w: header dict key is a %v, not a string", ErrFormat, key.kind)
		}
		if seen[key.str] {
			return h, false, fmt.Errorf("%w: header dict key %s appears twice", ErrFormat, quote(key.str))
		}
		seen[key.str] = true
		switch key.str {
		case "descr":
			h.DType, bigEndian, err = descrValue(val)
			if errors.Is(err, dtype.ErrDType) {
				typeErr, err = err, nil
			}
		case "fortran_order":
			if val.kind != pyBool {
				err = fmt.Errorf("%w: header dict key 'fortran_order' is a %v, not True or False", ErrFormat, val.kind)
			}
			h.Fortran = val.truth
		case "shape":
			h.Shape, err = shapeValue(val)
		default:
			err = fmt.Errorf("%w: header dict has unexpected key %s", ErrFormat, quote(key.str))
		}
		if err != nil {
			return Header{}, false, err
		}
	}
	for _, k := range []string{"descr", "fortran_order", "shape"} {
		if !seen[k] {
			return Header{}, false, fmt.Errorf("%w: header dict is missing key '%s'", ErrFormat, k)
		}
	}
	if typeErr != nil {
		return Header{}, false, typeErr
	}
	if _, err := h.DataLen(); err != nil {
		return Header{}, false, err
	}
	return h, bigEndian, nil
}

// descrValue decodes the value of the descr key. A list there describes a
// structured (record) dtype, which has no tensor counterpart.
func descrValue(v pyValue) (dtype.DType, bool, error) {
	switch v.kind {
	case pyStr:
		return parseDescr(v.str)
	case pyList:
		return dtype.Invalid, false, fmt.Errorf("npy: header dict key 'descr': structured (record) dtypes are not supported: %w", dtype.ErrDType)
	}
	return dtype.Invalid, false, fmt.Errorf("%w: header dict key 'descr' is a %v, not a string", ErrFormat, v.kind)
}

// shapeValue decodes the value of the shape key: a tuple of non-negative
// integers. A list is refused as NumPy refuses it ("shape is not valid"):
// the format defines a tuple.
func shapeValue(v pyValue) ([]int, error) {
	if v.kind != pyTuple {
		return nil, fmt.Errorf("%w: header dict key 'shape' is a %v, not a tuple: shape is not valid", ErrFormat, v.kind)
	}
	shape := make([]int, len(v.items))
	for i, d := range v.items {
		switch {
		case d.kind != pyInt:
			return nil, fmt.Errorf("%w: shape dimension %d is a %v, not an integer", ErrFormat, i, d.kind)
		case d.big || d.num > math.MaxInt:
			return nil, fmt.Errorf("%w: shape dimension %d is too large", ErrFormat, i)
		case d.num < 0:
			return nil, fmt.Errorf("%w: shape dimension %d is negative (%d)", ErrFormat, i, d.num)
		}
		shape[i] = int(d.num)
	}
	return shape, nil
}

// encodeHeader returns the complete preamble Write emits for h: magic,
// version, length and the dict padded with spaces and a final newline so
// that the data starts on a 64-byte boundary. It uses version 1.0 unless
// the header outgrows its 16-bit length field.
func encodeHeader(h Header) ([]byte, error) {
	descr, err := descrOf(h.DType)
	if err != nil {
		return nil, err
	}
	var dict strings.Builder
	dict.WriteString("{'descr': '")
	dict.WriteString(descr)
	dict.WriteString("', 'fortran_order': ")
	if h.Fortran {
		dict.WriteString("True")
	} else {
		dict.WriteString("False")
	}
	dict.WriteString(", 'shape': (")
	for i, d := range h.Shape {
		if i > 0 {
			dict.WriteString(", ")
		}
		dict.WriteString(strconv.Itoa(d))
	}
	if len(h.Shape) == 1 {
		dict.WriteByte(',') // (3,) is a tuple; (3) would be an int
	}
	dict.WriteString("), }")

	for _, lenSize := range []int{2, 4} {
		pre := len(magic) + 2 + lenSize
		total := pre + dict.Len() + 1 // +1 for the final newline
		total = (total + align - 1) / align * align
		hlen := total - pre
		if lenSize == 2 && hlen > math.MaxUint16 {
			continue
		}
		if uint64(hlen) > math.MaxUint32 {
			break
		}
		out := make([]byte, total)
		copy(out, magic)
		if lenSize == 2 {
			out[6] = 1
			binary.LittleEndian.PutUint16(out[8:], uint16(hlen))
		} else {
			out[6] = 2
			binary.LittleEndian.PutUint32(out[8:], uint32(hlen))
		}
		n := copy(out[pre:], dict.String())
		for i := pre + n; i < total-1; i++ {
			out[i] = ' '
		}
		out[total-1] = '\n'
		return out, nil
	}
	return nil, fmt.Errorf("npy: header of %d dimensions is too large for the format", len(h.Shape))
}

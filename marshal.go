package tensor

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/shape"
)

// MarshalBinary implements encoding.BinaryMarshaler: the bytes are the
// tensor as an .npy file (WriteNPY), which numpy.load reads. Tensors that
// .npy cannot hold (bfloat16, sparse) are errors, as in WriteNPY.
func (t *Tensor) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	if err := WriteNPY(&b, t); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// UnmarshalBinary implements encoding.BinaryUnmarshaler: data must be
// exactly one .npy array (ReadNPY), which replaces t's dtype, shape and
// elements; t then owns fresh memory. Bytes after the array are an
// ErrFormat error. t must not be in use by another goroutine.
func (t *Tensor) UnmarshalBinary(data []byte) error {
	r := bytes.NewReader(data)
	u, err := ReadNPY(r)
	if err != nil {
		return err
	}
	if r.Len() > 0 {
		return opErr("unmarshal_binary", ErrFormat, "%d bytes follow the .npy array", r.Len())
	}
	*t = *u
	return nil
}

// MarshalJSON implements json.Marshaler: the elements as nested JSON lists
// (a bare value for a 0-d tensor), row-major whatever the strides, so that
// numpy.array(json.loads(s)) gives the same array. Bools are true and
// false, integers exact, floats the shortest decimal that reads back as
// the same value of the tensor's float type. JSON has no NaN, infinity or
// complex number: such elements are an error, never a silent substitute;
// so are sparse and released tensors.
func (t *Tensor) MarshalJSON() ([]byte, error) {
	const op = "marshal_json"
	if err := requireStrided(op, t); err != nil {
		return nil, err
	}
	if t == nil {
		return []byte("null"), nil
	}
	if t.dtype.Kind() == dtype.KindComplex {
		return nil, opErr(op, ErrDType, "JSON has no complex numbers: marshal the real and imaginary parts of the %v tensor separately", t.dtype)
	}
	var b strings.Builder
	seq, k := t.positions(), 0
	var err error
	var nest func(d int)
	nest = func(d int) {
		if d == len(t.shape) {
			pos, _ := seq()
			if e := jsonElement(&b, t.elementAt(pos)); e != nil && err == nil {
				err = opErr(op, ErrValue, "element %d (row-major) is %v, which JSON cannot hold", k, e)
			}
			k++
			return
		}
		b.WriteByte('[')
		for i := range t.shape[d] {
			if i > 0 {
				b.WriteByte(',')
			}
			nest(d + 1)
		}
		b.WriteByte(']')
	}
	nest(0)
	if err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

// jsonElement writes one element; a NaN or an infinity is returned instead.
func jsonElement(b *strings.Builder, e any) any {
	switch v := e.(type) {
	case bool:
		b.WriteString(strconv.FormatBool(v))
		return nil
	case int8, int16, int32, int64, uint8, uint16, uint32, uint64:
		b.WriteString(integerString(v))
		return nil
	}
	f, bits := floatValue(e)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	if bits == 16 {
		// strconv has no float16: print as many digits as the shortest
		// decimal that reads back as the same float16.
		b.WriteString(strconv.FormatFloat(f, 'g', max(len(shortestDigits(f, 16).digits), 1), 64))
		return nil
	}
	b.WriteString(strconv.FormatFloat(f, 'g', -1, bits))
	return nil
}

// positions returns a function that yields the storage positions of t's
// elements in row-major order, one per call.
func (t *Tensor) positions() func() (int, bool) {
	idx := make([]int, len(t.shape))
	pos, left := t.offset, t.Size()
	return func() (int, bool) {
		if left == 0 {
			return 0, false
		}
		left--
		at := pos
		for d := len(idx) - 1; d >= 0; d-- {
			pos += t.strides[d]
			if idx[d]++; idx[d] < t.shape[d] {
				break
			}
			pos -= idx[d] * t.strides[d]
			idx[d] = 0
		}
		return at, true
	}
}

// UnmarshalJSON implements json.Unmarshaler, reading what MarshalJSON
// writes as numpy.array reads JSON lists: nested lists of one depth per
// dimension, rectangular (else ErrShape); all true/false gives bool, all
// integers int64, any other number float64 (convert with AsType for
// another dtype); a bare value gives a 0-d tensor, [] a float64 tensor of
// shape (0,). Mixed bools and numbers, strings and nulls are ErrDType
// errors. t is replaced and must not be in use by another goroutine.
func (t *Tensor) UnmarshalJSON(data []byte) error {
	const op = "unmarshal_json"
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return opErr(op, ErrFormat, "%v", err)
	}
	var dims []int
	for probe := v; ; {
		l, ok := probe.([]any)
		if !ok {
			break
		}
		dims = append(dims, len(l))
		if len(l) == 0 {
			break
		}
		probe = l[0]
	}
	var leaves []any
	var walk func(v any, d int) error
	walk = func(v any, d int) error {
		l, isList := v.([]any)
		switch {
		case d == len(dims) && isList:
			return opErr(op, ErrShape, "lists nest deeper than %d levels in places: not a rectangular array", len(dims))
		case d == len(dims):
			leaves = append(leaves, v)
			return nil
		case !isList || len(l) != dims[d]:
			return opErr(op, ErrShape, "dimension %d holds lists of different lengths (%d first): not a rectangular array", d, dims[d])
		}
		for _, e := range l {
			if err := walk(e, d+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(v, 0); err != nil {
		return err
	}
	u, err := tensorOfLeaves(op, leaves, dims)
	if err != nil {
		return err
	}
	*t = *u
	return nil
}

// tensorOfLeaves builds the tensor of the decoded JSON values in row-major
// order.
func tensorOfLeaves(op string, leaves []any, dims []int) (*Tensor, error) {
	bools, ints, floats := 0, 0, 0
	for _, l := range leaves {
		switch x := l.(type) {
		case bool:
			bools++
		case json.Number:
			if _, err := strconv.ParseInt(string(x), 10, 64); err == nil {
				ints++
			} else {
				floats++
			}
		default:
			return nil, opErr(op, ErrDType, "%T value %v is not a bool or a number", l, l)
		}
	}
	switch {
	case bools > 0 && bools < len(leaves):
		return nil, opErr(op, ErrDType, "bools and numbers are mixed")
	case bools > 0:
		out := make([]bool, len(leaves))
		for i, l := range leaves {
			out[i] = l.(bool)
		}
		return wrapped(out, dims), nil
	case ints == len(leaves) && ints > 0:
		out := make([]int64, len(leaves))
		for i, l := range leaves {
			out[i], _ = strconv.ParseInt(string(l.(json.Number)), 10, 64)
		}
		return wrapped(out, dims), nil
	}
	out := make([]float64, len(leaves))
	for i, l := range leaves {
		f, err := strconv.ParseFloat(string(l.(json.Number)), 64)
		if err != nil {
			return nil, opErr(op, ErrValue, "number %s: %v", l, err)
		}
		out[i] = f
	}
	if _, err := shape.Size(dims); err != nil {
		return nil, wrapErr(op, err)
	}
	return wrapped(out, dims), nil
}

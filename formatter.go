package tensor

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tensor-go/tensor/bfloat16"
	"github.com/tensor-go/tensor/shape"
	"github.com/x448/float16"
)

// Format implements fmt.Formatter, so that a tensor prints with any of
// fmt's verbs instead of its struct fields:
//
//   - %v and %s print String(); a width pads the whole text (%-40v on the
//     right).
//   - %+v and %#v add the metadata: shape, strides, offset, dtype (float32
//     included) and layout.
//   - %q prints String() quoted.
//   - Every other verb formats each element as fmt formats a Go value of
//     the element's type, with the verb's flags, width and precision, and
//     keeps the layout of String(): "%.3g" prints [0.333 0.667], "%8.2e"
//     and "%x" work as for a []float64. float16 and bfloat16 elements
//     format as float32 values, integer elements under a float verb (%g,
//     %e, %f and their capitals) as float64 values, so that "%.2f" of an
//     int32 tensor prints 3.00; bool elements print True and False. Without
//     an explicit width the elements are padded to the widest, right-aligned
//     (left with the - flag), so that columns line up as in String().
//   - A verb that fmt rejects for the element type prints as fmt prints a
//     bad verb: %!d(tensor=Tensor(...)).
//
// Sparse and released tensors print String() for every verb but %+v.
func (t *Tensor) Format(f fmt.State, verb rune) {
	switch {
	case verb == 'v' && (f.Flag('+') || f.Flag('#')):
		writePadded(f, t.metadataString())
	case verb == 'v' || verb == 's':
		writePadded(f, t.String())
	case verb == 'q':
		writePadded(f, strconv.Quote(t.String()))
	case t == nil || t.layout != Strided || t.released:
		writePadded(f, t.String())
	default:
		body, ok := t.formatElements(f, verb)
		if !ok {
			fmt.Fprintf(f, "%%!%c(tensor=%s)", verb, t.String())
			return
		}
		fmt.Fprint(f, t.envelope(body))
	}
}

// writePadded writes s padded to the state's width, on the left unless the
// - flag is set.
func writePadded(f fmt.State, s string) {
	w, ok := f.Width()
	if pad := w - len([]rune(s)); ok && pad > 0 {
		if f.Flag('-') {
			s += strings.Repeat(" ", pad)
		} else {
			s = strings.Repeat(" ", pad) + s
		}
	}
	fmt.Fprint(f, s)
}

// envelope wraps a body as String() does.
func (t *Tensor) envelope(body string) string {
	s := "Tensor(" + body
	if t.dtype != Float32 {
		s += ", dtype=" + t.dtype.String()
	}
	return s + ", device=" + Device + ")"
}

// metadataString is String() with every field of the tensor's metadata.
func (t *Tensor) metadataString() string {
	if t == nil {
		return "<nil>"
	}
	s := strings.TrimSuffix(t.String(), ")")
	if t.layout != Strided || t.released {
		return s + ", shape=" + shape.String(t.shape) + ", dtype=" + t.dtype.String() + ")"
	}
	s = strings.TrimSuffix(s, ", device="+Device)
	s = strings.TrimSuffix(s, ", dtype="+t.dtype.String())
	return fmt.Sprintf("%s, shape=%s, strides=%s, offset=%d, dtype=%v, layout=%v, device=%s)",
		s, shape.String(t.shape), shape.String(t.strides), t.offset, t.dtype, t.layout, Device)
}

// formatElements returns the body with every printed element formatted by
// fmt's directive for verb, or false when fmt rejects the verb for the
// element type.
func (t *Tensor) formatElements(f fmt.State, verb rune) (string, bool) {
	directive := fmt.FormatString(f, verb)
	_, explicitWidth := f.Width()
	floatVerb := strings.ContainsRune("eEfFgG", verb)
	ok := true
	words := func(elems []any) []string {
		out := make([]string, len(elems))
		width := 0
		for i, e := range elems {
			if b, isBool := e.(bool); isBool {
				out[i] = "False"
				if b {
					out[i] = "True"
				}
			} else {
				out[i] = fmt.Sprintf(directive, formattable(e, floatVerb))
				if strings.HasPrefix(out[i], "%!") {
					ok = false
				}
			}
			width = max(width, len(out[i]))
		}
		if explicitWidth && t.dtype != Bool {
			return out // fmt has padded them as asked
		}
		for i, w := range out {
			pad := strings.Repeat(" ", width-len(w))
			if f.Flag('-') {
				out[i] = w + pad
			} else {
				out[i] = pad + w
			}
		}
		return out
	}
	body := t.bodyOf(words)
	return body, ok
}

// formattable converts an element to the Go value fmt formats for it.
func formattable(e any, floatVerb bool) any {
	switch v := e.(type) {
	case float16.Float16:
		return v.Float32()
	case bfloat16.BFloat16:
		return v.Float32()
	}
	if !floatVerb {
		return e
	}
	switch v := e.(type) {
	case int8, int16, int32, int64:
		n, _ := strconv.ParseInt(integerString(v), 10, 64)
		return float64(n)
	case uint8, uint16, uint32, uint64:
		n, _ := strconv.ParseUint(integerString(v), 10, 64)
		return float64(n)
	}
	return e
}

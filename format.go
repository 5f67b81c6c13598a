package tensor

import (
	"math"
	"strconv"
	"strings"

	"github.com/tensor-go/tensor/bfloat16"
	"github.com/tensor-go/tensor/shape"
	"github.com/x448/float16"
)

// Printing follows semantics §8: the body is what NumPy's str() prints for
// the same array under np.set_printoptions(precision=4, suppress=True), so
// that output can be compared with MegEngine's and NumPy's character for
// character. The constants below are those options and NumPy's defaults.
const (
	printPrecision = 4    // digits after the point, at most
	printThreshold = 1000 // more elements than this are summarised
	printEdgeItems = 3    // elements kept at each end of a summarised axis
	printLineWidth = 75   // rows wrap beyond this many characters
)

// String formats t as MegEngine does: Tensor(<body>, dtype=<name>,
// device=xpux:0), with the dtype left out for float32. The body is
// exactly NumPy's str() of the array, so continuation lines are indented
// by one space per open bracket and not by the length of "Tensor(":
// MegEngine pastes str(self.numpy()) after the prefix.
func (t *Tensor) String() string {
	if t == nil {
		return "<nil>"
	}
	if t.layout != Strided {
		return t.sparseString() // sparse.go
	}
	if label := t.unusableLabel(); label != "" {
		return "Tensor(<" + label + ">, shape=" + shape.String(t.shape) + ", dtype=" + t.dtype.String() + ")"
	}
	var b strings.Builder
	b.WriteString("Tensor(")
	b.WriteString(t.body())
	if t.dtype != Float32 {
		b.WriteString(", dtype=")
		b.WriteString(t.dtype.String())
	}
	b.WriteString(", device=" + Device + ")")
	return b.String()
}

// body returns NumPy's str() of the tensor's elements.
func (t *Tensor) body() string {
	if len(t.shape) == 0 {
		return scalarString(t.elementAt(t.offset))
	}
	return t.bodyOf(formatWords)
}

// bodyOf lays out the printed elements, each formatted by words (which sees
// them all at once, so that it can give them one width), in NumPy's nested
// brackets: summarised beyond printThreshold elements, wrapped at
// printLineWidth.
func (t *Tensor) bodyOf(words func([]any) []string) string {
	if len(t.shape) == 0 {
		return words([]any{t.elementAt(t.offset)})[0]
	}
	if t.Size() == 0 {
		return "[]"
	}
	axes := make([]printedAxis, len(t.shape))
	summarise := t.Size() > printThreshold
	for d, n := range t.shape {
		axes[d] = printedAxis{lead: n}
		if summarise && n > 2*printEdgeItems {
			axes[d] = printedAxis{lead: printEdgeItems, trail: printEdgeItems, elided: true}
		}
	}
	p := printer{axes: axes, words: words(t.printedElements(axes))}
	return p.array(0, " ", printLineWidth)
}

// printedAxis says which positions of one axis are printed: the first
// lead, then (if elided) "..." and the last trail.
type printedAxis struct {
	lead, trail int
	elided      bool
}

// positions lists the printed positions of an axis of size n.
func (a printedAxis) positions(n int) []int {
	out := make([]int, 0, a.lead+a.trail)
	for i := range a.lead {
		out = append(out, i)
	}
	for i := n - a.trail; i < n; i++ {
		out = append(out, i)
	}
	return out
}

// printedElements returns the elements that will be printed, in row-major
// order. As in NumPy, only they decide the column width and float style.
func (t *Tensor) printedElements(axes []printedAxis) []any {
	pos := make([][]int, len(t.shape))
	count := 1
	for d, n := range t.shape {
		pos[d] = axes[d].positions(n)
		count *= len(pos[d])
	}
	out := make([]any, 0, count)
	idx := make([]int, len(t.shape))
	for range count {
		at := t.offset
		for d, i := range idx {
			at += pos[d][i] * t.strides[d]
		}
		out = append(out, t.elementAt(at))
		for d := len(idx) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < len(pos[d]) {
				break
			}
			idx[d] = 0
		}
	}
	return out
}

// printer lays formatted elements out in nested brackets, wrapping rows
// at the line width exactly as NumPy's _formatArray does.
type printer struct {
	axes  []printedAxis
	words []string // formatted elements in row-major order
	next  int      // the next word to place
}

// array formats the sub-array at the given axis. hang is the indentation
// of its continuation lines (one space per enclosing bracket) and width
// the room left before the closing brackets.
func (p *printer) array(axis int, hang string, width int) string {
	if axis == len(p.axes) {
		w := p.words[p.next]
		p.next++
		return w
	}
	a := p.axes[axis]
	total := a.lead + a.trail
	var s strings.Builder
	if axis == len(p.axes)-1 {
		// A row: words separated by spaces, wrapped before a word that
		// would reach the closing bracket's column.
		line := hang
		limit := width - len("]")
		for i := range total {
			if a.elided && i == a.lead {
				line = extendLine(&s, line, "...", limit, hang) + " "
			}
			word := p.array(axis+1, hang+" ", width-1)
			line = extendLine(&s, line, word, limit, hang)
			if i < total-1 {
				line += " "
			}
		}
		s.WriteString(line)
	} else {
		// Higher axes: one sub-array per line, with a blank line per
		// extra axis between blocks.
		sep := strings.Repeat("\n", len(p.axes)-axis-1)
		for i := range total {
			if a.elided && i == a.lead {
				s.WriteString(hang + "..." + sep)
			}
			s.WriteString(hang)
			s.WriteString(p.array(axis+1, hang+" ", width-1))
			if i < total-1 {
				s.WriteString(sep)
			}
		}
	}
	return "[" + s.String()[len(hang):] + "]"
}

// extendLine appends word to the current line, first moving the line to s
// and starting a new one at indent when the word would pass limit (unless
// the line holds nothing but its indent, where wrapping would not help).
func extendLine(s *strings.Builder, line, word string, limit int, indent string) string {
	if len(line)+len(word) > limit && len(line) > len(indent) {
		s.WriteString(strings.TrimRight(line, " "))
		s.WriteString("\n")
		line = indent
	}
	return line + word
}

// formatWords formats every printed element with one formatter for all of
// them, so that columns line up: integers right-aligned to the widest,
// floats aligned on the decimal point.
func formatWords(elems []any) []string {
	words := make([]string, len(elems))
	switch elems[0].(type) {
	case bool:
		for i, e := range elems {
			words[i] = "False"
			if e.(bool) {
				words[i] = " True"
			}
		}
	case int8, int16, int32, int64, uint8, uint16, uint32, uint64:
		width := 0
		for i, e := range elems {
			words[i] = integerString(e)
			width = max(width, len(words[i]))
		}
		for i, w := range words {
			words[i] = strings.Repeat(" ", width-len(w)) + w
		}
	case complex64, complex128:
		bits := 64
		if _, ok := elems[0].(complex64); ok {
			bits = 32
		}
		re, im := make([]float64, len(elems)), make([]float64, len(elems))
		for i, e := range elems {
			c := complexValue(e)
			re[i], im[i] = real(c), imag(c)
		}
		fr, fi := newFloatFormat(re, bits, false), newFloatFormat(im, bits, true)
		for i := range elems {
			r, j := fr.format(re[i]), fi.format(im[i])
			// The j goes right after the digits, before any padding.
			k := len(strings.TrimRight(j, " "))
			words[i] = r + j[:k] + "j" + j[k:]
		}
	default:
		vals := make([]float64, len(elems))
		bits := 64
		for i, e := range elems {
			vals[i], bits = floatValue(e)
		}
		f := newFloatFormat(vals, bits, false)
		for i, v := range vals {
			words[i] = f.format(v)
		}
	}
	return words
}

// integerString formats a Go integer in decimal.
func integerString(e any) string {
	switch v := e.(type) {
	case int8:
		return strconv.FormatInt(int64(v), 10)
	case int16:
		return strconv.FormatInt(int64(v), 10)
	case int32:
		return strconv.FormatInt(int64(v), 10)
	case int64:
		return strconv.FormatInt(v, 10)
	case uint8:
		return strconv.FormatUint(uint64(v), 10)
	case uint16:
		return strconv.FormatUint(uint64(v), 10)
	case uint32:
		return strconv.FormatUint(uint64(v), 10)
	case uint64:
		return strconv.FormatUint(v, 10)
	}
	panic("unreachable: not an integer element")
}

// floatValue returns a real float element as a float64 (exactly) and the
// width in bits of the format whose shortest digits print it. bfloat16
// prints as the float32 it widens to.
func floatValue(e any) (float64, int) {
	switch v := e.(type) {
	case float16.Float16:
		return float64(v.Float32()), 16
	case bfloat16.BFloat16:
		return v.Float64(), 32
	case float32:
		return float64(v), 32
	case float64:
		return v, 64
	}
	panic("unreachable: not a float element")
}

// complexValue returns a complex element as a complex128 (exactly).
func complexValue(e any) complex128 {
	if c, ok := e.(complex64); ok {
		return complex128(c)
	}
	return e.(complex128)
}

// scalarString formats a 0-d tensor's element as NumPy's str() of a
// scalar: unlike arrays, floats show all their shortest digits.
func scalarString(e any) string {
	switch v := e.(type) {
	case bool:
		if v {
			return "True"
		}
		return "False"
	case complex64:
		return complexScalarString(complex128(v), 32)
	case complex128:
		return complexScalarString(v, 64)
	case float16.Float16, bfloat16.BFloat16, float32, float64:
		f, bits := floatValue(v)
		return floatScalarString(f, bits, true)
	}
	return integerString(e)
}

// floatScalarString formats f as Python's repr formats a float, with the
// shortest digits of its own format: positional for 1e-4 <= |f| < 1e16
// (and zero), scientific otherwise. keepPoint adds Python's ".0" to whole
// numbers; complex parts leave it out.
func floatScalarString(f float64, bits int, keepPoint bool) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	d := shortestDigits(f, bits)
	if a := math.Abs(f); a == 0 || (a >= 1e-4 && a < 1e16) {
		s := d.positional(-1, 0)
		if strings.HasSuffix(s, ".") {
			if keepPoint {
				return s + "0"
			}
			return s[:len(s)-1]
		}
		return s
	}
	s := d.scientific(-1, 0, 2)
	return strings.Replace(s, ".e", "e", 1)
}

// complexScalarString formats c as NumPy prints a complex scalar: "1j"
// when the real part is +0, "(1+2j)" otherwise.
func complexScalarString(c complex128, bits int) string {
	im := floatScalarString(imag(c), bits, false)
	if real(c) == 0 && !math.Signbit(real(c)) {
		return im + "j"
	}
	if !strings.HasPrefix(im, "-") {
		im = "+" + im
	}
	return "(" + floatScalarString(real(c), bits, false) + im + "j)"
}

// decimalDigits is a finite float as a decimal digit string: the value is
// 0.digits × 10^point, negated if neg. Zero has no digits.
type decimalDigits struct {
	neg    bool
	digits string // no leading or trailing zeros
	point  int
	value  float64 // the exact value, for re-rounding to fewer digits
}

// parseDecimal reads strconv's 'e' format ("-1.2500e+03") into a decimalDigits.
func parseDecimal(s string, value float64) decimalDigits {
	d := decimalDigits{value: value}
	if s[0] == '-' {
		d.neg, s = true, s[1:]
	}
	mant, exp, _ := strings.Cut(s, "e")
	e, _ := strconv.Atoi(exp)
	d.digits = strings.TrimRight(strings.Replace(mant, ".", "", 1), "0")
	d.point = e + 1
	if d.digits == "" {
		d.point = 0
	}
	return d
}

// shortestDigits returns the shortest decimal that reads back as f in the
// binary format of the given width (16, 32 or 64 bits), the closest to f
// when several are that short: NumPy's "unique" digits.
func shortestDigits(f float64, bits int) decimalDigits {
	if bits == 16 {
		return shortestHalf(f)
	}
	return parseDecimal(strconv.FormatFloat(f, 'e', -1, bits), f)
}

// shortestHalf is shortest for float16, which strconv does not know: it
// tries ever more digits until the decimal rounds back to f, that is, lies
// inside f's rounding interval (its ends included when f's last bit is
// even, since ties round to even).
func shortestHalf(f float64) decimalDigits {
	h := halfFromFloat64(f)
	if f == 0 {
		return decimalDigits{neg: math.Signbit(f), value: f}
	}
	a := math.Abs(f)
	mag := h.Bits() & 0x7fff
	below := 0.0
	if mag > 0 {
		below = float64(float16.Frombits(mag - 1).Float32())
	}
	above := float64(float16.Frombits(mag + 1).Float32())
	if math.IsInf(above, 0) {
		above = a + (a - below) // the next value the exponent range would have
	}
	lo, hi := (below+a)/2, (a+above)/2
	even := h.Bits()&1 == 0
	inside := func(v float64) bool {
		return (lo < v && v < hi) || (even && (v == lo || v == hi))
	}
	for p := 1; ; p++ {
		s := strconv.FormatFloat(a, 'e', p-1, 64)
		if v, _ := strconv.ParseFloat(s, 64); inside(v) {
			return withSignOf(parseDecimal(s, a), f)
		}
		// The nearest p-digit decimal may miss a lopsided interval (at a
		// power of two the gap below is half the gap above) while the
		// next one up is inside.
		mant, exp, _ := strings.Cut(s, "e")
		m, _ := strconv.Atoi(strings.Replace(mant, ".", "", 1))
		e, _ := strconv.Atoi(exp)
		up := strconv.Itoa(m+1) + "e" + strconv.Itoa(e-(p-1))
		if v, _ := strconv.ParseFloat(up, 64); inside(v) {
			return withSignOf(parseDecimal(strconv.FormatFloat(v, 'e', -1, 64), a), f)
		}
	}
}

// withSignOf gives d the sign of f and f's exact value.
func withSignOf(d decimalDigits, f float64) decimalDigits {
	d.neg, d.value = math.Signbit(f), f
	return d
}

// exactWhole returns d with its exact digits when the shortest ones stop
// before the point (only whole numbers, beyond the format's integer
// precision, have such digits): NumPy's Dragon4 prints every digit before
// the point in arrays, 65504 for float16 where the shortest digits say
// 65500.
func (d decimalDigits) exactWhole() decimalDigits {
	if d.point <= len(d.digits) {
		return d
	}
	return parseFixed(strconv.FormatFloat(d.value, 'f', 0, 64), d.value)
}

// positional formats d without an exponent, rounded to at most precision
// digits after the point (no limit when negative) and padded with zeros to
// at least minDigits; the point is always kept ("1.").
func (d decimalDigits) positional(precision, minDigits int) string {
	if precision >= 0 && len(d.digits)-d.point > precision {
		// Round the exact value, not the shortest digits: NumPy's Dragon4
		// rounds the true remainder, half to even, as strconv does.
		d = parseFixed(strconv.FormatFloat(d.value, 'f', precision, 64), d.value)
	}
	var b strings.Builder
	if d.neg {
		b.WriteByte('-')
	}
	if d.point <= 0 {
		b.WriteByte('0')
	} else {
		b.WriteString(d.digits[:min(d.point, len(d.digits))])
		b.WriteString(strings.Repeat("0", max(d.point-len(d.digits), 0)))
	}
	b.WriteByte('.')
	frac := ""
	if d.point < len(d.digits) {
		frac = strings.Repeat("0", max(-d.point, 0)) + d.digits[max(d.point, 0):]
	}
	b.WriteString(frac)
	b.WriteString(strings.Repeat("0", max(minDigits-len(frac), 0)))
	return b.String()
}

// parseFixed reads strconv's 'f' format ("-0.0013") into a decimalDigits.
func parseFixed(s string, value float64) decimalDigits {
	d := decimalDigits{value: value}
	if s[0] == '-' {
		d.neg, s = true, s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	all := whole + frac
	trimmed := strings.TrimLeft(all, "0")
	d.point = len(whole) - (len(all) - len(trimmed))
	d.digits = strings.TrimRight(trimmed, "0")
	if d.digits == "" {
		d.point = 0
	}
	return d
}

// scientific formats d as "d.ddde+XX", rounded to at most precision digits
// after the point (no limit when negative), padded with zeros to at least
// minDigits, with at least expDigits exponent digits.
func (d decimalDigits) scientific(precision, minDigits, expDigits int) string {
	if precision >= 0 && len(d.digits)-1 > precision {
		d = parseDecimal(strconv.FormatFloat(d.value, 'e', precision, 64), d.value)
	}
	var b strings.Builder
	if d.neg {
		b.WriteByte('-')
	}
	exp := 0
	if d.digits == "" {
		b.WriteString("0.")
	} else {
		b.WriteString(d.digits[:1] + "." + d.digits[1:])
		exp = d.point - 1
	}
	b.WriteString(strings.Repeat("0", max(minDigits-max(len(d.digits)-1, 0), 0)))
	b.WriteByte('e')
	if exp < 0 {
		b.WriteByte('-')
		exp = -exp
	} else {
		b.WriteByte('+')
	}
	e := strconv.Itoa(exp)
	b.WriteString(strings.Repeat("0", max(expDigits-len(e), 0)))
	b.WriteString(e)
	return b.String()
}

// floatFormat is NumPy's FloatingFormat for precision 4, floatmode
// "maxprec" and suppress=True: every element gets the same number of
// characters before and after the point, so that the points line up, and
// scientific notation is used only when some value reaches 1e8.
type floatFormat struct {
	bits      int
	plus      bool // print + for non-negative values (imaginary parts)
	exp       bool // scientific notation
	padLeft   int  // characters before the point
	padRight  int  // characters after it (in scientific notation, including the exponent)
	precision int  // scientific: digits after the point
	expDigits int  // scientific: digits of the exponent
}

// newFloatFormat measures the values that will be printed.
func newFloatFormat(vals []float64, bits int, plus bool) *floatFormat {
	f := &floatFormat{bits: bits, plus: plus}
	var finite []float64
	maxAbs := 0.0
	for _, v := range vals {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			finite = append(finite, v)
			maxAbs = max(maxAbs, math.Abs(v))
		}
	}
	f.exp = maxAbs >= 1e8
	for _, v := range finite {
		var s, whole, frac string
		if f.exp {
			s = f.sign(v) + shortestDigits(v, bits).scientific(printPrecision, 0, 2)
			mant, exp, _ := strings.Cut(s, "e")
			whole, frac, _ = strings.Cut(mant, ".")
			f.expDigits = max(f.expDigits, len(exp)-1)
			f.precision = max(f.precision, len(frac))
		} else {
			s = f.sign(v) + shortestDigits(v, bits).exactWhole().positional(printPrecision, 0)
			whole, frac, _ = strings.Cut(s, ".")
			f.padRight = max(f.padRight, len(frac))
		}
		f.padLeft = max(f.padLeft, len(whole))
	}
	if f.exp {
		f.padRight = f.expDigits + 2 + f.precision
	}
	if len(finite) < len(vals) {
		// Leave room for nan and inf, which are right-aligned with the rest.
		infLen := len("inf")
		for _, v := range vals {
			if plus || math.IsInf(v, -1) {
				infLen = len("-inf")
			}
		}
		f.padLeft = max(f.padLeft, len("nan")-f.padRight-1, infLen-f.padRight-1)
	}
	return f
}

// sign returns the explicit sign the format puts before non-negative v.
func (f *floatFormat) sign(v float64) string {
	if f.plus && !math.Signbit(v) {
		return "+"
	}
	return ""
}

// format formats one value in the measured layout.
func (f *floatFormat) format(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		s := "nan"
		switch {
		case math.IsNaN(v):
			if f.plus {
				s = "+nan"
			}
		case v < 0:
			s = "-inf"
		case f.plus:
			s = "+inf"
		default:
			s = "inf"
		}
		return strings.Repeat(" ", max(f.padLeft+f.padRight+1-len(s), 0)) + s
	}
	d := shortestDigits(v, f.bits)
	var s string
	if f.exp {
		s = f.sign(v) + d.scientific(f.precision, f.precision, f.expDigits)
		whole, _, _ := strings.Cut(s, ".")
		return strings.Repeat(" ", max(f.padLeft-len(whole), 0)) + s
	}
	s = f.sign(v) + d.exactWhole().positional(printPrecision, 0)
	whole, frac, _ := strings.Cut(s, ".")
	return strings.Repeat(" ", max(f.padLeft-len(whole), 0)) + s + strings.Repeat(" ", max(f.padRight-len(frac), 0))
}

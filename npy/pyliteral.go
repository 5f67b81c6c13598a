package npy

import (
	"fmt"
	"math"
)

// The header of an .npy file is a Python dict literal. This file parses the
// small subset of Python literal syntax that can appear there: strings,
// integers, True/False/None, tuples, lists and dicts. It is a tokenizer plus
// a recursive-descent parser rather than pattern matching, so key order,
// quoting style, spacing and trailing commas do not matter, just as they do
// not matter to NumPy, which evaluates the header with ast.literal_eval.

// pyKind says which Python type a pyValue holds.
type pyKind uint8

const (
	pyStr pyKind = iota + 1
	pyInt
	pyBool
	pyNone
	pyTuple
	pyList
	pyDict
)

func (k pyKind) String() string {
	switch k {
	case pyStr:
		return "string"
	case pyInt:
		return "integer"
	case pyBool:
		return "bool"
	case pyNone:
		return "None"
	case pyTuple:
		return "tuple"
	case pyList:
		return "list"
	case pyDict:
		return "dict"
	}
	return "value"
}

// pyValue is one parsed Python literal. Only the fields its kind names are
// meaningful.
type pyValue struct {
	kind  pyKind
	str   string    // pyStr
	num   int64     // pyInt
	big   bool      // pyInt whose value does not fit in an int64
	truth bool      // pyBool
	items []pyValue // pyTuple, pyList; for pyDict alternating key, value
}

// maxNesting bounds the depth of nested containers so that a hostile header
// of a million '(' cannot exhaust the stack.
const maxNesting = 32

// pyParser walks a header one token at a time.
type pyParser struct {
	src   []byte
	pos   int
	depth int
}

// parsePyLiteral parses src as exactly one Python literal surrounded by
// optional whitespace.
func parsePyLiteral(src []byte) (pyValue, error) {
	p := &pyParser{src: src}
	v, err := p.value()
	if err != nil {
		return pyValue{}, err
	}
	p.skipSpace()
	if p.pos != len(p.src) {
		return pyValue{}, p.errorf("unexpected %q after the dict", p.src[p.pos])
	}
	return v, nil
}

func (p *pyParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: header dict at byte %d: %s", ErrFormat, p.pos, fmt.Sprintf(format, args...))
}

func (p *pyParser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			p.pos++
		default:
			return
		}
	}
}

// peek returns the next non-space byte without consuming it, or 0 at the end.
func (p *pyParser) peek() byte {
	p.skipSpace()
	if p.pos == len(p.src) {
		return 0
	}
	return p.src[p.pos]
}

func (p *pyParser) value() (pyValue, error) {
	c := p.peek()
	switch {
	case c == 0:
		return pyValue{}, p.errorf("unexpected end of header")
	case c == '\'' || c == '"':
		s, err := p.stringLit()
		return pyValue{kind: pyStr, str: s}, err
	case c == '-' || c == '+' || isDigit(c):
		return p.intLit()
	case c == '(' || c == '[' || c == '{':
		return p.container()
	case isIdentStart(c):
		return p.keyword()
	}
	return pyValue{}, p.errorf("unexpected %q", c)
}

func isDigit(c byte) bool      { return '0' <= c && c <= '9' }
func isIdentStart(c byte) bool { return c == '_' || 'a' <= c|0x20 && c|0x20 <= 'z' }

// keyword parses True, False and None, the only names a literal may hold.
func (p *pyParser) keyword() (pyValue, error) {
	start := p.pos
	for p.pos < len(p.src) && (isIdentStart(p.src[p.pos]) || isDigit(p.src[p.pos])) {
		p.pos++
	}
	switch word := string(p.src[start:p.pos]); word {
	case "True":
		return pyValue{kind: pyBool, truth: true}, nil
	case "False":
		return pyValue{kind: pyBool}, nil
	case "None":
		return pyValue{kind: pyNone}, nil
	default:
		p.pos = start
		return pyValue{}, p.errorf("unknown name %s", quote(word))
	}
}

// intLit parses a decimal integer. Values beyond int64 are flagged rather
// than rejected here, so the caller can say which key was too large. A
// trailing 'L' is accepted because Python 2 era NumPy wrote shapes like (3L,).
func (p *pyParser) intLit() (pyValue, error) {
	neg := false
	if c := p.src[p.pos]; c == '-' || c == '+' {
		neg = c == '-'
		p.pos++
		p.skipSpace()
	}
	if p.pos == len(p.src) || !isDigit(p.src[p.pos]) {
		return pyValue{}, p.errorf("sign without digits")
	}
	var mag uint64 // magnitude; limit is 2^63 so that -2^63 fits
	big := false
	for ; p.pos < len(p.src) && (isDigit(p.src[p.pos]) || p.src[p.pos] == '_'); p.pos++ {
		if p.src[p.pos] == '_' {
			continue
		}
		d := uint64(p.src[p.pos] - '0')
		if mag > (1<<63-d)/10 {
			big = true
			continue
		}
		mag = mag*10 + d
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'L' || p.src[p.pos] == 'l') {
		p.pos++
	}
	if !big && !neg && mag > math.MaxInt64 {
		big = true
	}
	v := pyValue{kind: pyInt, big: big}
	if !big {
		v.num = int64(mag) // wraps to MinInt64 only when neg and mag == 2^63
		if neg {
			v.num = -v.num
		}
	}
	return v, nil
}

// stringLit parses a quoted string with Python's simple backslash escapes.
func (p *pyParser) stringLit() (string, error) {
	quote := p.src[p.pos]
	p.pos++
	var out []byte
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		p.pos++
		switch c {
		case quote:
			return string(out), nil
		case '\n':
			return "", p.errorf("newline inside a string")
		case '\\':
			if p.pos == len(p.src) {
				return "", p.errorf("unterminated string")
			}
			e := p.src[p.pos]
			p.pos++
			switch e {
			case 'n':
				out = append(out, '\n')
			case 't':
				out = append(out, '\t')
			case 'r':
				out = append(out, '\r')
			case '0':
				out = append(out, 0)
			case '\\', '\'', '"':
				out = append(out, e)
			default: // Python keeps unknown escapes verbatim
				out = append(out, '\\', e)
			}
		default:
			out = append(out, c)
		}
	}
	return "", p.errorf("unterminated string")
}

// container parses a tuple, list or dict. "(x)" is a parenthesized value,
// not a tuple, exactly as in Python; "(x,)" and "()" are tuples.
func (p *pyParser) container() (pyValue, error) {
	open := p.src[p.pos]
	if p.depth == maxNesting {
		return pyValue{}, p.errorf("containers nested deeper than %d", maxNesting)
	}
	p.depth++
	defer func() { p.depth-- }()
	p.pos++

	var closer byte
	v := pyValue{}
	switch open {
	case '(':
		closer, v.kind = ')', pyTuple
	case '[':
		closer, v.kind = ']', pyList
	default:
		closer, v.kind = '}', pyDict
	}
	sawComma := false
	for {
		if p.peek() == closer {
			p.pos++
			break
		}
		item, err := p.value()
		if err != nil {
			return pyValue{}, err
		}
		v.items = append(v.items, item)
		if v.kind == pyDict {
			if p.peek() != ':' {
				return pyValue{}, p.errorf("expected ':' after dict key")
			}
			p.pos++
			val, err := p.value()
			if err != nil {
				return pyValue{}, err
			}
			v.items = append(v.items, val)
		}
		switch p.peek() {
		case ',':
			p.pos++
			sawComma = true
		case closer:
		case 0:
			return pyValue{}, p.errorf("missing %q", closer)
		default:
			return pyValue{}, p.errorf("expected ',' or %q, found %q", closer, p.src[p.pos])
		}
	}
	if v.kind == pyTuple && len(v.items) == 1 && !sawComma {
		return v.items[0], nil
	}
	return v, nil
}

// Package expr parses and evaluates the expression language of the tensor
// command: a small subset of Python's expression syntax (literals, lists,
// tuples, names, calls with keyword arguments, attributes, subscripts and
// slices, unary minus, and the binary operators * and @).
//
// Parsing is separate from evaluation so that every syntax error, unknown
// name and badly formed call is reported, with its column, before any file
// is read or any tensor computed. Columns count characters (runes) from 1.
package expr

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind is the kind of a token.
type Kind uint8

// The token kinds.
const (
	EOF    Kind = iota
	Int         // 12, 0x1f, 1_000
	Float       // 1.5, 1e-3, .5
	Imag        // 2j, 1.5j
	String      // 'abc' or "abc"
	Name        // identifiers and keywords (True, False, None)
	Op          // punctuation and operators: ( ) [ ] , : . * @ - = ... and the unsupported ones
)

// Token is one lexical unit. Text is the source text, except for strings,
// whose Text is the decoded value. Col is the 1-based column of its first
// character.
type Token struct {
	Kind Kind
	Text string
	Col  int
}

// describe names the token for an error message, as Python would quote it.
func (t Token) describe() string {
	switch t.Kind {
	case EOF:
		return "end of expression"
	case String:
		return fmt.Sprintf("string %q", t.Text)
	}
	return "'" + t.Text + "'"
}

// SyntaxError is a malformed expression. Col is the 1-based column of the
// offending character.
type SyntaxError struct {
	Col int
	Msg string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("syntax error at column %d: %s", e.Col, e.Msg)
}

// operators lists the punctuation the lexer knows, longest first so that
// "..." and "**" win over "." and "*". Operators the language does not
// support are still lexed whole so that the parser can name them.
var operators = []string{
	"...", "**", "//", "==", "!=", "<=", ">=", "<<", ">>", "->",
	"(", ")", "[", "]", "{", "}", ",", ":", ".", "*", "@", "-", "+", "=",
	"/", "%", "<", ">", "&", "|", "^", "~", ";",
}

// Lex splits src into tokens, ending with an EOF token.
func Lex(src string) ([]Token, error) {
	l := lexer{src: src, col: 1}
	var toks []Token
	for {
		t, err := l.next()
		if err != nil {
			return nil, err
		}
		toks = append(toks, t)
		if t.Kind == EOF {
			return toks, nil
		}
	}
}

// lexer walks the source keeping the byte offset and the rune column
// together.
type lexer struct {
	src string
	off int
	col int
}

func (l *lexer) peek(k int) byte {
	if l.off+k < len(l.src) {
		return l.src[l.off+k]
	}
	return 0
}

// advance moves past n bytes, which must be whole runes.
func (l *lexer) advance(n int) {
	l.col += utf8.RuneCountInString(l.src[l.off : l.off+n])
	l.off += n
}

func (l *lexer) errorf(col int, format string, args ...any) error {
	return &SyntaxError{Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (l *lexer) next() (Token, error) {
	for l.off < len(l.src) && strings.IndexByte(" \t\r\n", l.src[l.off]) >= 0 {
		l.advance(1)
	}
	if l.off >= len(l.src) {
		return Token{Kind: EOF, Col: l.col}, nil
	}
	c := l.src[l.off]
	switch {
	case isDigit(c) || c == '.' && isDigit(l.peek(1)):
		return l.number()
	case c == '\'' || c == '"':
		return l.str()
	case c == '_' || c < utf8.RuneSelf && unicode.IsLetter(rune(c)):
		return l.name(), nil
	}
	for _, op := range operators {
		if strings.HasPrefix(l.src[l.off:], op) {
			t := Token{Kind: Op, Text: op, Col: l.col}
			l.advance(len(op))
			return t, nil
		}
	}
	r, _ := utf8.DecodeRuneInString(l.src[l.off:])
	if r == utf8.RuneError {
		return Token{}, l.errorf(l.col, "invalid UTF-8 byte 0x%02x", c)
	}
	return Token{}, l.errorf(l.col, "unexpected character %q", r)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isNameByte(c byte) bool {
	return c == '_' || isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'z'
}

// name lexes an ASCII identifier. Python allows Unicode identifiers, but no
// name the language defines needs them.
func (l *lexer) name() Token {
	start, col := l.off, l.col
	for l.off < len(l.src) && isNameByte(l.src[l.off]) {
		l.advance(1)
	}
	return Token{Kind: Name, Text: l.src[start:l.off], Col: col}
}

// number lexes Python's integer, float and imaginary literals: decimal,
// 0x/0o/0b integers, underscores between digits, fractions and exponents,
// and a trailing j. The text is kept; the parser converts it.
func (l *lexer) number() (Token, error) {
	start, col := l.off, l.col
	kind := Int
	if l.src[l.off] == '0' && strings.IndexByte("xXoObB", l.peek(1)) >= 0 {
		ok := map[byte]func(byte) bool{
			'x': func(c byte) bool { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' },
			'o': func(c byte) bool { return '0' <= c && c <= '7' },
			'b': func(c byte) bool { return c == '0' || c == '1' },
		}[l.peek(1)|0x20]
		l.advance(2)
		if l.peek(0) == '_' { // Python allows 0x_1f
			l.advance(1)
		}
		if !ok(l.peek(0)) {
			return Token{}, l.errorf(col, "invalid number %q: no digits after the base prefix", l.src[start:l.off+min(1, len(l.src)-l.off)])
		}
		l.digits(ok)
	} else {
		l.digits(isDigit)
		if l.peek(0) == '.' {
			kind = Float
			l.advance(1)
			l.digits(isDigit)
		}
		if c := l.peek(0); c == 'e' || c == 'E' {
			kind = Float
			l.advance(1)
			if c := l.peek(0); c == '+' || c == '-' {
				l.advance(1)
			}
			if !isDigit(l.peek(0)) {
				return Token{}, l.errorf(l.col, "invalid number %q: exponent has no digits", l.src[start:l.off])
			}
			l.digits(isDigit)
		}
		if c := l.peek(0); c == 'j' || c == 'J' {
			kind = Imag
			l.advance(1)
		}
	}
	if isNameByte(l.peek(0)) {
		for l.off < len(l.src) && isNameByte(l.src[l.off]) {
			l.advance(1)
		}
		return Token{}, l.errorf(col, "invalid number %q", l.src[start:l.off])
	}
	text := l.src[start:l.off]
	if kind == Int && len(text) > 1 && text[0] == '0' && isDigit(text[1]) && strings.Trim(text, "0_") != "" {
		// Python refuses 010 rather than reading it as octal, as Go would.
		return Token{}, l.errorf(col, "invalid number %q: leading zeros in decimal integers are not permitted; use 0o for octal", text)
	}
	return Token{Kind: kind, Text: text, Col: col}, nil
}

// digits consumes digits accepted by ok, with single underscores between
// them as Python allows.
func (l *lexer) digits(ok func(byte) bool) {
	for l.off < len(l.src) {
		c := l.src[l.off]
		if ok(c) || c == '_' && ok(l.peek(1)) {
			l.advance(1)
			continue
		}
		return
	}
}

// str lexes a single- or double-quoted string with the common backslash
// escapes. Triple quotes and prefixes (r, b, f) are not supported.
func (l *lexer) str() (Token, error) {
	quote, col := l.src[l.off], l.col
	l.advance(1)
	var b strings.Builder
	for {
		if l.off >= len(l.src) {
			return Token{}, l.errorf(col, "unterminated string")
		}
		c := l.src[l.off]
		switch {
		case c == quote:
			l.advance(1)
			return Token{Kind: String, Text: b.String(), Col: col}, nil
		case c == '\n':
			return Token{}, l.errorf(col, "unterminated string")
		case c == '\\' && l.off+1 < len(l.src):
			esc := l.src[l.off+1]
			switch esc {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '\\', '\'', '"':
				b.WriteByte(esc)
			default:
				b.WriteByte('\\')
				b.WriteByte(esc)
			}
			if esc >= utf8.RuneSelf {
				// Keep multi-byte runes whole: write the rest of the rune.
				_, size := utf8.DecodeRuneInString(l.src[l.off+1:])
				b.WriteString(l.src[l.off+2 : l.off+1+size])
				l.advance(1 + size)
				continue
			}
			l.advance(2)
		default:
			_, size := utf8.DecodeRuneInString(l.src[l.off:])
			b.WriteString(l.src[l.off : l.off+size])
			l.advance(size)
		}
	}
}

package expr

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// sexpr renders a tree compactly so tests can state the expected structure.
func sexpr(n Node) string {
	switch n := n.(type) {
	case *IntLit:
		return n.Text
	case *FloatLit:
		return fmt.Sprintf("%gf", n.Value)
	case *ImagLit:
		return fmt.Sprintf("%gj", n.Value)
	case *StringLit:
		return fmt.Sprintf("%q", n.Value)
	case *Ident:
		return n.Name
	case *ListLit:
		return "[" + list(n.Elems) + "]"
	case *TupleLit:
		return "(tuple " + list(n.Elems) + ")"
	case *Unary:
		return "(neg " + sexpr(n.X) + ")"
	case *Binary:
		return "(" + n.Op + " " + sexpr(n.X) + " " + sexpr(n.Y) + ")"
	case *Attr:
		return "(. " + sexpr(n.X) + " " + n.Name + ")"
	case *Call:
		s := "(call " + sexpr(n.Fn)
		for _, a := range n.Args {
			s += " " + sexpr(a)
		}
		for _, kw := range n.Kwargs {
			s += " " + kw.Name + "=" + sexpr(kw.Value)
		}
		return s + ")"
	case *Index:
		return "(index " + sexpr(n.X) + " " + list(n.Items) + ")"
	case *Slice:
		part := func(p Node) string {
			if p == nil {
				return "_"
			}
			return sexpr(p)
		}
		return part(n.Lo) + ":" + part(n.Hi) + ":" + part(n.Step)
	case *Ellipsis:
		return "..."
	}
	return fmt.Sprintf("?%T", n)
}

func list(ns []Node) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = sexpr(n)
	}
	return strings.Join(parts, " ")
}

func TestParse(t *testing.T) {
	tests := []struct{ src, want string }{
		{"1", "1"},
		{"0x1F", "0x1F"},
		{"1_000", "1_000"},
		{"0o17", "0o17"},
		{"0b_101", "0b_101"},
		{"000", "000"},
		{"0.5e1_0", "5e+09f"},
		{"1.5", "1.5f"},
		{".5", "0.5f"},
		{"5.", "5f"},
		{"1e3", "1000f"},
		{"2.5E-1", "0.25f"},
		{"2j", "2j"},
		{"1e999", "+Inf" + "f"},
		{`"int8"`, `"int8"`},
		{`'a\'b'`, `"a'b"`},
		{"x", "x"},
		{"[]", "[]"},
		{"[1, 2,]", "[1 2]"},
		{"[[1, 2], [3, 4]]", "[[1 2] [3 4]]"},
		{"()", "(tuple )"},
		{"(1,)", "(tuple 1)"},
		{"(1)", "1"},
		{"(0, 2)", "(tuple 0 2)"},
		{"a * b @ c", "(@ (* a b) c)"},
		{"a * (b @ c)", "(* a (@ b c))"},
		{"-x * y", "(* (neg x) y)"},
		{"--x", "(neg (neg x))"},
		{"-x[0]", "(neg (index x 0))"},
		{"-x.T", "(neg (. x T))"},
		{"x.T.mT", "(. (. x T) mT)"},
		{"F.mul(x, 2)", "(call (. F mul) x 2)"},
		{"prod(x, axis=(0, 2), keepdims=True)", "(call prod x axis=(tuple 0 2) keepdims=True)"},
		{"f()", "(call f)"},
		{"f(a,)", "(call f a)"},
		{"x.size()", "(call (. x size))"},
		{"x[1, ::2, -1]", "(index x 1 _:_:2 (neg 1))"},
		{"x[..., 0]", "(index x ... 0)"},
		{"x[:]", "(index x _:_:_)"},
		{"x[1:]", "(index x 1:_:_)"},
		{"x[:2]", "(index x _:2:_)"},
		{"x[::]", "(index x _:_:_)"},
		{"x[a:b:c,]", "(index x a:b:c)"},
		{"x[0][1]", "(index (index x 0) 1)"},
		{" \t x \n", "x"},
	}
	for _, tc := range tests {
		n, err := Parse(tc.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.src, err)
			continue
		}
		if got := sexpr(n); got != tc.want {
			t.Errorf("Parse(%q) = %s, want %s", tc.src, got, tc.want)
		}
	}
}

func TestParseColumns(t *testing.T) {
	n, err := Parse("mul(a, b) @ x[1]")
	if err != nil {
		t.Fatal(err)
	}
	b := n.(*Binary)
	call := b.X.(*Call)
	idx := b.Y.(*Index)
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"@", b.At, 11},
		{"call (", call.At, 4},
		{"callee", call.Fn.Col(), 1},
		{"arg b", call.Args[1].Col(), 8},
		{"index [", idx.At, 14},
		{"index x", idx.X.Col(), 13},
	} {
		if c.got != c.want {
			t.Errorf("column of %s = %d, want %d", c.what, c.got, c.want)
		}
	}
	// Columns count characters, not bytes.
	n, err = Parse(`["é", x]`)
	if err != nil {
		t.Fatal(err)
	}
	if got := n.(*ListLit).Elems[1].Col(); got != 7 {
		t.Errorf("column after a 2-byte rune = %d, want 7", got)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		src string
		col int
		msg string
	}{
		{"", 1, "unexpected end of expression"},
		{"mul(x, y))", 10, "unexpected ')'"},
		{"mul(x, y", 9, "expected ')', found end of expression"},
		{"(x", 3, "expected ',', found end of expression"},
		{"[1, 2", 6, "expected ']', found end of expression"},
		{"x -", 4, "unexpected end of expression"},
		{"x +", 4, "unexpected end of expression"},
		{"a - * b", 5, "unexpected '*'"},
		{"a / b", 3, "operator '/' is not supported"},
		{"a ** 2", 3, "operator '**' is not supported"},
		{"x[]", 3, "unexpected ']'"},
		{"x.", 3, "expected an attribute name after '.', found end of expression"},
		{"x.1", 2, "unexpected '.1'"}, // ".1" lexes as a float
		{"f(a=1, 2)", 8, "positional argument follows keyword argument"},
		{"f(a=1, a=2)", 8, "keyword argument 'a' repeated"},
		{"x $ y", 3, "unexpected character '$'"},
		{"'abc", 1, "unterminated string"},
		{"12abc", 1, `invalid number "12abc"`},
		{"1e+", 4, "exponent has no digits"},
		{"1 2", 3, "unexpected '2'"},
		{"mul(x y)", 7, "expected ')', found 'y'"},
		{"[1 2]", 4, "expected ']', found '2'"},
		{"\xff", 1, "invalid UTF-8"},
		{"é", 1, "unexpected character 'é'"},
		{"x = 1", 3, "unexpected '='"},
		{"[0x]", 2, `invalid number "0x]": no digits after the base prefix`},
		{"0b2", 1, `invalid number "0b2": no digits after the base prefix`},
		{"0o8", 1, `invalid number "0o8"`},
		{"010", 1, "leading zeros in decimal integers are not permitted"},
	}
	for _, tc := range tests {
		_, err := Parse(tc.src)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) error = %v, want a SyntaxError", tc.src, err)
			continue
		}
		if se.Col != tc.col || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("Parse(%q) = column %d %q, want column %d containing %q", tc.src, se.Col, se.Msg, tc.col, tc.msg)
		}
		want := fmt.Sprintf("syntax error at column %d: ", se.Col)
		if !strings.HasPrefix(se.Error(), want) {
			t.Errorf("Error() = %q, want prefix %q", se.Error(), want)
		}
	}
}

func TestParseDepthLimit(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("(", 10000) + "1" + strings.Repeat(")", 10000),
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
		strings.Repeat("-", 10000) + "1",
		strings.Repeat("f(", 10000),
	} {
		_, err := Parse(src)
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(se.Msg, "nested more than") {
			t.Errorf("Parse(%.20q...) error = %v, want the nesting limit", src, err)
		}
	}
	// Each parenthesis costs the parser two levels (group and expression),
	// so a quarter of the limit parses.
	deep := strings.Repeat("(", maxDepth/4) + "1" + strings.Repeat(")", maxDepth/4)
	if _, err := Parse(deep); err != nil {
		t.Errorf("Parse of %d nested parentheses: %v", maxDepth/4, err)
	}
}

func TestLexTokens(t *testing.T) {
	toks, err := Lex(`x[...] ** 2j "s" // 0b101`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tk := range toks {
		got = append(got, fmt.Sprintf("%d:%d:%s", tk.Kind, tk.Col, tk.Text))
	}
	want := []string{"5:1:x", "6:2:[", "6:3:...", "6:6:]", "6:8:**", "3:11:2j", "4:14:s", "6:18://", "1:21:0b101", "0:26:"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Lex = %v\nwant  %v", got, want)
	}
}

// FuzzParse checks that no input makes the parser panic or hang, and that
// every error is a SyntaxError with a column inside the input (or just
// past its end).
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"mul(Tensor([[1, 2, 3], [4, 5, 6]]), 2)",
		"F.prod(x, axis=(0, 2), keepdims=True)",
		"x[1, ::2, -1] @ y.mT",
		"x[..., 0] * -2.5e-3",
		"tensor([], dtype='int8')",
		"(((", "[1,", "a ** b", "'\\", "0x", "1_", "\xff\xfe", "é(",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		n, err := Parse(src)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) returned %T, want *SyntaxError", src, err)
			}
			if se.Col < 1 || se.Col > len(src)+1 {
				t.Fatalf("Parse(%q): column %d outside 1..%d", src, se.Col, len(src)+1)
			}
			return
		}
		// Check must not panic on any tree either.
		_ = Check(n, func(name string) bool { return name == "x" })
	})
}

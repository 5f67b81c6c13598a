package expr

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// maxDepth bounds nesting so that a hostile expression cannot exhaust the
// stack of the recursive-descent parser (or of the evaluator after it).
const maxDepth = 1000

// Parse parses one expression. The grammar, from loosest to tightest:
//
//	expr    = term { ("+" | "-") term }
//	term    = unary { ("*" | "@") unary }
//	unary   = "-" unary | postfix
//	postfix = atom { "." NAME | "(" args ")" | "[" items "]" }
//	atom    = NUMBER | STRING | NAME | "(" [expr {"," expr} [","]] ")" | "[" [expr {"," expr} [","]] "]"
//	args    = [arg {"," arg} [","]],  arg = expr | NAME "=" expr
//	items   = item {"," item} [","],  item = expr | [expr] ":" [expr] [":" [expr]] | "..."
//
// As in Python, unary minus binds looser than subscripts and calls
// (-x[0] is -(x[0])) and tighter than * and @, which share one level and
// group left to right; + and - are looser than both and group left to
// right, as in Python (a - b - c is (a - b) - c).
func Parse(src string) (Node, error) {
	toks, err := Lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	n, err := p.expr()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.Kind != EOF {
		return nil, p.unexpected(t)
	}
	return n, nil
}

type parser struct {
	toks  []Token
	pos   int
	depth int
}

func (p *parser) peek() Token { return p.toks[p.pos] }

func (p *parser) take() Token {
	t := p.toks[p.pos]
	if t.Kind != EOF {
		p.pos++
	}
	return t
}

func (p *parser) isOp(text string) bool {
	t := p.peek()
	return t.Kind == Op && t.Text == text
}

// expect consumes the operator text or fails naming what came instead.
func (p *parser) expect(text string) (Token, error) {
	t := p.peek()
	if t.Kind != Op || t.Text != text {
		return t, &SyntaxError{Col: t.Col, Msg: fmt.Sprintf("expected '%s', found %s", text, t.describe())}
	}
	return p.take(), nil
}

// unsupported are Python operators the language leaves out; naming them
// gives a clearer error than "unexpected".
var unsupported = map[string]bool{
	"/": true, "//": true, "%": true, "**": true,
	"==": true, "!=": true, "<": true, ">": true, "<=": true, ">=": true,
	"<<": true, ">>": true, "&": true, "|": true, "^": true, "~": true,
}

func (p *parser) unexpected(t Token) error {
	if t.Kind == Op && unsupported[t.Text] {
		return &SyntaxError{Col: t.Col, Msg: fmt.Sprintf("operator '%s' is not supported (only +, -, *, @ and unary -)", t.Text)}
	}
	return &SyntaxError{Col: t.Col, Msg: "unexpected " + t.describe()}
}

// enter guards recursion depth; every call must be paired with leave.
func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return &SyntaxError{Col: p.peek().Col, Msg: fmt.Sprintf("expression nested more than %d deep", maxDepth)}
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

func (p *parser) expr() (Node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	x, err := p.term()
	if err != nil {
		return nil, err
	}
	for p.isOp("+") || p.isOp("-") {
		op := p.take()
		y, err := p.term()
		if err != nil {
			return nil, err
		}
		x = &Binary{At: op.Col, Op: op.Text, X: x, Y: y}
	}
	return x, nil
}

func (p *parser) term() (Node, error) {
	x, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.isOp("*") || p.isOp("@") {
		op := p.take()
		y, err := p.unary()
		if err != nil {
			return nil, err
		}
		x = &Binary{At: op.Col, Op: op.Text, X: x, Y: y}
	}
	return x, nil
}

func (p *parser) unary() (Node, error) {
	if !p.isOp("-") {
		return p.postfix()
	}
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	op := p.take()
	x, err := p.unary()
	if err != nil {
		return nil, err
	}
	return &Unary{At: op.Col, Op: "-", X: x}, nil
}

func (p *parser) postfix() (Node, error) {
	x, err := p.atom()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.isOp("."):
			dot := p.take()
			name := p.take()
			if name.Kind != Name {
				return nil, &SyntaxError{Col: name.Col, Msg: "expected an attribute name after '.', found " + name.describe()}
			}
			x = &Attr{At: dot.Col, X: x, Name: name.Text}
		case p.isOp("("):
			x, err = p.call(x)
		case p.isOp("["):
			x, err = p.index(x)
		default:
			return x, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func (p *parser) call(fn Node) (Node, error) {
	open := p.take()
	c := &Call{At: open.Col, Fn: fn}
	for !p.isOp(")") {
		if t := p.peek(); t.Kind == Name && p.toks[p.pos+1].Kind == Op && p.toks[p.pos+1].Text == "=" {
			p.take()
			p.take()
			for _, kw := range c.Kwargs {
				if kw.Name == t.Text {
					return nil, &SyntaxError{Col: t.Col, Msg: fmt.Sprintf("keyword argument '%s' repeated", t.Text)}
				}
			}
			v, err := p.expr()
			if err != nil {
				return nil, err
			}
			c.Kwargs = append(c.Kwargs, Kwarg{At: t.Col, Name: t.Text, Value: v})
		} else {
			if len(c.Kwargs) > 0 {
				return nil, &SyntaxError{Col: t.Col, Msg: "positional argument follows keyword argument"}
			}
			v, err := p.expr()
			if err != nil {
				return nil, err
			}
			c.Args = append(c.Args, v)
		}
		if !p.isOp(",") {
			break
		}
		p.take()
	}
	if _, err := p.expect(")"); err != nil {
		return nil, err
	}
	return c, nil
}

func (p *parser) index(x Node) (Node, error) {
	open := p.take()
	n := &Index{At: open.Col, X: x}
	for {
		item, err := p.item()
		if err != nil {
			return nil, err
		}
		n.Items = append(n.Items, item)
		if !p.isOp(",") {
			break
		}
		p.take()
		if p.isOp("]") {
			break
		}
	}
	if _, err := p.expect("]"); err != nil {
		return nil, err
	}
	return n, nil
}

// endsItem reports whether the next token closes a subscript item.
func (p *parser) endsItem() bool {
	return p.isOp(",") || p.isOp("]") || p.isOp(":")
}

// item parses one subscript: an index expression, a slice or "...".
func (p *parser) item() (Node, error) {
	if t := p.peek(); p.isOp("...") {
		p.take()
		return &Ellipsis{At: t.Col}, nil
	}
	start := p.peek()
	var lo Node
	if !p.endsItem() {
		var err error
		if lo, err = p.expr(); err != nil {
			return nil, err
		}
	}
	if !p.isOp(":") {
		if lo == nil {
			return nil, p.unexpected(p.peek())
		}
		return lo, nil
	}
	s := &Slice{At: start.Col, Lo: lo}
	var err error
	p.take()
	if !p.endsItem() {
		if s.Hi, err = p.expr(); err != nil {
			return nil, err
		}
	}
	if p.isOp(":") {
		p.take()
		if !p.endsItem() {
			if s.Step, err = p.expr(); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

func (p *parser) atom() (Node, error) {
	t := p.peek()
	switch t.Kind {
	case Int:
		p.take()
		return &IntLit{At: t.Col, Text: t.Text}, nil
	case Float, Imag:
		p.take()
		text := strings.ReplaceAll(strings.TrimRight(t.Text, "jJ"), "_", "")
		v, err := strconv.ParseFloat(text, 64)
		if err != nil && !isRangeErr(err) { // out of range parses to ±inf or 0, as in Python
			return nil, &SyntaxError{Col: t.Col, Msg: fmt.Sprintf("invalid number %q", t.Text)}
		}
		if t.Kind == Imag {
			return &ImagLit{At: t.Col, Value: v}, nil
		}
		return &FloatLit{At: t.Col, Value: v}, nil
	case String:
		p.take()
		return &StringLit{At: t.Col, Value: t.Text}, nil
	case Name:
		if t.Text == "lambda" {
			return p.lambda()
		}
		p.take()
		return &Ident{At: t.Col, Name: t.Text}, nil
	case Op:
		switch t.Text {
		case "(":
			return p.group()
		case "[":
			p.take()
			elems, err := p.elems("]")
			if err != nil {
				return nil, err
			}
			return &ListLit{At: t.Col, Elems: elems}, nil
		}
	}
	return nil, p.unexpected(t)
}

// lambda parses "lambda a, b: body". The body is a whole expression, so a
// lambda among call arguments ends at the next top-level comma, as in
// Python.
func (p *parser) lambda() (Node, error) {
	kw := p.take()
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	n := &Lambda{At: kw.Col}
	for !p.isOp(":") {
		t := p.take()
		if t.Kind != Name || t.Text == "lambda" {
			return nil, &SyntaxError{Col: t.Col, Msg: "expected a parameter name in lambda, found " + t.describe()}
		}
		if slices.Contains(n.Params, t.Text) {
			return nil, &SyntaxError{Col: t.Col, Msg: fmt.Sprintf("duplicate argument '%s' in lambda", t.Text)}
		}
		n.Params = append(n.Params, t.Text)
		if !p.isOp(",") {
			break
		}
		p.take()
	}
	if _, err := p.expect(":"); err != nil {
		return nil, err
	}
	body, err := p.expr()
	if err != nil {
		return nil, err
	}
	n.Body = body
	return n, nil
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// group parses a parenthesized expression or a tuple: (x) is x, while (),
// (x,) and (x, y) are tuples, as in Python.
func (p *parser) group() (Node, error) {
	open := p.take()
	if p.isOp(")") {
		p.take()
		return &TupleLit{At: open.Col}, nil
	}
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	first, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.isOp(")") {
		p.take()
		return first, nil
	}
	if _, err := p.expect(","); err != nil {
		t := p.peek()
		if t.Kind != EOF && t.Kind != Op || t.Kind == Op && unsupported[t.Text] {
			return nil, p.unexpected(t)
		}
		return nil, err
	}
	rest, err := p.elems(")")
	if err != nil {
		return nil, err
	}
	return &TupleLit{At: open.Col, Elems: append([]Node{first}, rest...)}, nil
}

// elems parses comma-separated expressions up to and including the closing
// bracket, allowing a trailing comma.
func (p *parser) elems(close string) ([]Node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	var out []Node
	for !p.isOp(close) {
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		out = append(out, e)
		if !p.isOp(",") {
			break
		}
		p.take()
	}
	if _, err := p.expect(close); err != nil {
		t := p.peek()
		if t.Kind == Op && unsupported[t.Text] {
			return nil, p.unexpected(t)
		}
		return nil, err
	}
	return out, nil
}

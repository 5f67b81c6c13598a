package expr

// Node is a node of the syntax tree. Col is the column its error messages
// point at.
type Node interface {
	Col() int
}

// The node types. Each records the column of its first token, except
// binary operations, calls, attributes and subscripts, which point at
// their operator, parenthesis, dot or bracket: that is where an error of
// the operation is best shown.
type (
	// IntLit is an integer literal; Text is its source.
	IntLit struct {
		At   int
		Text string
	}
	// FloatLit is a float literal (nan and inf are names, not literals).
	FloatLit struct {
		At    int
		Value float64
	}
	// ImagLit is an imaginary literal such as 2j.
	ImagLit struct {
		At    int
		Value float64
	}
	// StringLit is a quoted string.
	StringLit struct {
		At    int
		Value string
	}
	// Ident is a name: a bound tensor, a constant (True, nan) or a function.
	Ident struct {
		At   int
		Name string
	}
	// ListLit is [a, b, ...].
	ListLit struct {
		At    int
		Elems []Node
	}
	// TupleLit is (a, b, ...), (a,) or ().
	TupleLit struct {
		At    int
		Elems []Node
	}
	// Unary is -X (the only unary operator).
	Unary struct {
		At int
		Op string
		X  Node
	}
	// Binary is X * Y, X @ Y or X + Y.
	Binary struct {
		At   int
		Op   string
		X, Y Node
	}
	// Attr is X.Name.
	Attr struct {
		At   int
		X    Node
		Name string
	}
	// Call is Fn(Args..., Kwargs...).
	Call struct {
		At     int
		Fn     Node
		Args   []Node
		Kwargs []Kwarg
	}
	// Index is X[Items...]; items are expressions, *Slice or *Ellipsis.
	Index struct {
		At    int
		X     Node
		Items []Node
	}
	// Slice is Lo:Hi:Step inside a subscript; absent parts are nil.
	Slice struct {
		At           int
		Lo, Hi, Step Node
	}
	// Ellipsis is ... inside a subscript.
	Ellipsis struct {
		At int
	}
	// Lambda is lambda a, b: Body, the function argument of vjp and grad.
	Lambda struct {
		At     int
		Params []string
		Body   Node
	}
)

// Kwarg is name=value in a call.
type Kwarg struct {
	At    int
	Name  string
	Value Node
}

func (n *IntLit) Col() int    { return n.At }
func (n *FloatLit) Col() int  { return n.At }
func (n *ImagLit) Col() int   { return n.At }
func (n *StringLit) Col() int { return n.At }
func (n *Ident) Col() int     { return n.At }
func (n *ListLit) Col() int   { return n.At }
func (n *TupleLit) Col() int  { return n.At }
func (n *Unary) Col() int     { return n.At }
func (n *Binary) Col() int    { return n.At }
func (n *Attr) Col() int      { return n.At }
func (n *Call) Col() int      { return n.At }
func (n *Index) Col() int     { return n.At }
func (n *Slice) Col() int     { return n.At }
func (n *Ellipsis) Col() int  { return n.At }
func (n *Lambda) Col() int    { return n.At }

package expr

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tensor-go/tensor/dtype"
)

// CheckError is a well-formed expression that cannot be evaluated whatever
// the data: an unknown name, function or attribute, or a call with the
// wrong arguments. Like a SyntaxError it is the user's typing, so the
// command reports both the same way.
type CheckError struct {
	Col  int
	Kind string // "name" for names, functions and attributes; "call" for arguments
	Msg  string
}

func (e *CheckError) Error() string {
	return fmt.Sprintf("%s error at column %d: %s", e.Kind, e.Col, e.Msg)
}

// nameErrorf reports an unknown or misused name.
func nameErrorf(col int, format string, args ...any) error {
	return &CheckError{Col: col, Kind: "name", Msg: fmt.Sprintf(format, args...)}
}

// callErrorf reports arguments that do not fit a function's parameters.
func callErrorf(col int, format string, args ...any) error {
	return &CheckError{Col: col, Kind: "call", Msg: fmt.Sprintf(format, args...)}
}

// modules are the prefixes that may stand before a function or constant
// name, so that examples written for MegEngine (F.mul), NumPy (np.prod)
// or PyTorch (torch.matmul) paste as they are. A bound name shadows them.
var modules = map[string]bool{"F": true, "np": true, "numpy": true, "torch": true, "mge": true, "megengine": true}

// attributes are the attributes a tensor value has without a call.
var attributes = map[string]string{
	"T":     "the view with all axes reversed",
	"mT":    "the view with the last two axes swapped",
	"shape": "the shape, as a tuple",
	"ndim":  "the number of dimensions",
	"size":  "the number of elements (x.size() is the shape, as in PyTorch)",
	"dtype": "the dtype name",
}

// Check reports the first name, attribute or call in n that cannot be
// evaluated: names must be bound (bound reports whether a name is a
// tensor the caller supplies), constants or functions, and every call
// must match its function's parameters.
func Check(n Node, bound func(string) bool) error {
	c := checker{bound: bound}
	return c.node(n)
}

// CheckBindings is Check for names some of which (npz reports which) are
// bound to .npz files, plain archives or SciPy matrices: what an
// attribute of such a name means is known only once the file is read, so
// Eval checks it then.
func CheckBindings(n Node, bound, npz func(string) bool) error {
	c := checker{bound: bound, npz: npz}
	return c.node(n)
}

type checker struct {
	bound func(string) bool
	npz   func(string) bool // see CheckBindings; nil for none
}

// constant reports whether name is a built-in constant or dtype name.
func constant(name string) bool {
	switch name {
	case "True", "False", "None", "nan", "inf":
		return true
	}
	return isDTypeName(name)
}

// isDTypeName reports whether name is a dtype spelled as the library
// prints it (float32, bfloat16, ...), so that np.float32 and dtype=int8
// work without quotes.
func isDTypeName(name string) bool {
	for _, d := range dtype.All {
		if d.String() == name {
			return true
		}
	}
	return false
}

// isModule reports whether x is a module prefix such as F in F.mul.
func (c *checker) isModule(x Node) bool {
	id, ok := x.(*Ident)
	return ok && modules[id.Name] && !c.bound(id.Name)
}

func (c *checker) node(n Node) error {
	switch n := n.(type) {
	case *Ident:
		switch {
		case c.bound(n.Name) || constant(n.Name):
			return nil
		case functions[n.Name] != nil:
			return nameErrorf(n.At, "function '%s' must be called: %s(...)", n.Name, n.Name)
		case modules[n.Name]:
			return nameErrorf(n.At, "'%s' is a module prefix; use %s.NAME", n.Name, n.Name)
		}
		return nameErrorf(n.At, "unknown name '%s'%s", n.Name, suggest(n.Name))
	case *Attr:
		if c.isModule(n.X) {
			if constant(n.Name) {
				return nil
			}
			if functions[n.Name] != nil {
				return nameErrorf(n.At, "function '%s' must be called", n.Name)
			}
			return nameErrorf(n.At+1, "unknown name '%s'", n.Name)
		}
		if id, ok := n.X.(*Ident); ok && c.npz != nil && c.npz(id.Name) {
			return nil
		}
		if _, ok := attributes[n.Name]; !ok {
			return nameErrorf(n.At+1, "unknown attribute '%s' (known: T, mT, shape, ndim, size, dtype)", n.Name)
		}
		return c.node(n.X)
	case *Call:
		if name, ok := c.gradCallee(n); ok {
			return c.gradCall(n, name)
		}
		return c.call(n)
	case *Lambda:
		return callErrorf(n.At, "a lambda can only be the first argument of vjp or grad")
	case *Unary:
		return c.node(n.X)
	case *Binary:
		if err := c.node(n.X); err != nil {
			return err
		}
		return c.node(n.Y)
	case *ListLit:
		return c.nodes(n.Elems)
	case *TupleLit:
		return c.nodes(n.Elems)
	case *Index:
		if err := c.node(n.X); err != nil {
			return err
		}
		ellipses := 0
		for _, it := range n.Items {
			if _, ok := it.(*Ellipsis); ok {
				if ellipses++; ellipses > 1 {
					return callErrorf(it.Col(), "an index can only have a single ellipsis ('...')")
				}
			}
		}
		return c.nodes(n.Items)
	case *Slice:
		for _, part := range []Node{n.Lo, n.Hi, n.Step} {
			if part != nil {
				if err := c.node(part); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (c *checker) nodes(ns []Node) error {
	for _, n := range ns {
		if err := c.node(n); err != nil {
			return err
		}
	}
	return nil
}

// call checks the callee, the binding of the arguments and the arguments.
func (c *checker) call(n *Call) error {
	fn, name, method, err := c.callee(n)
	if err != nil {
		return err
	}
	if method != nil {
		if err := c.node(method); err != nil {
			return err
		}
	}
	slots, err := bind(name, fn, n, method != nil)
	if err != nil {
		return err
	}
	if err := checkDTypeLiteral(fn, slots); err != nil {
		return err
	}
	if err := c.nodes(n.Args); err != nil {
		return err
	}
	for _, kw := range n.Kwargs {
		if err := c.node(kw.Value); err != nil {
			return err
		}
	}
	return nil
}

// callee resolves what a call calls: a function name (mul), a module
// function (F.mul) or a method of a value (x.prod), returned as the
// receiver expression.
func (c *checker) callee(n *Call) (fn *function, name string, receiver Node, err error) {
	switch f := n.Fn.(type) {
	case *Ident:
		if fn := functions[f.Name]; fn != nil && !c.bound(f.Name) {
			if fn.methodOnly {
				return nil, "", nil, nameErrorf(f.At, "'%s' is only a method: x.%s()", f.Name, f.Name)
			}
			return fn, f.Name, nil, nil
		}
		if c.bound(f.Name) || constant(f.Name) {
			return nil, "", nil, nameErrorf(f.At, "'%s' is not a function", f.Name)
		}
		return nil, "", nil, nameErrorf(f.At, "unknown function '%s'%s", f.Name, suggest(f.Name))
	case *Attr:
		if c.isModule(f.X) {
			if fn := functions[f.Name]; fn != nil && !fn.methodOnly {
				return fn, f.Name, nil, nil
			}
			return nil, "", nil, nameErrorf(f.At+1, "unknown function '%s'%s", f.Name, suggest(f.Name))
		}
		if fn := functions[f.Name]; fn != nil && fn.method {
			return fn, f.Name, f.X, nil
		}
		return nil, "", nil, nameErrorf(f.At+1, "unknown method '%s'", f.Name)
	}
	return nil, "", nil, callErrorf(n.At, "only functions and methods can be called")
}

// suggest offers the known function whose name differs only in case or
// underscores, the most common slip.
func suggest(name string) string {
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "") }
	for _, known := range slices.Sorted(maps.Keys(functions)) {
		if norm(known) == norm(name) && !functions[known].methodOnly {
			return fmt.Sprintf(" (did you mean '%s'?)", known)
		}
	}
	return ""
}

// bind matches a call's arguments to fn's parameters as Python does and
// returns the argument node of each parameter (nil when absent). With
// method set, the receiver fills the first parameter; its slot is left nil
// for the caller to fill. A method call of a function marked packsShape
// with several positional arguments packs them into one tuple, as in
// x.reshape(2, 3).
func bind(name string, fn *function, n *Call, method bool) ([]Node, error) {
	args := packShape(fn, n.Args, method, len(n.Kwargs) > 0)
	slots := make([]Node, len(fn.params))
	first := 0
	if method {
		first = 1
	}
	if first+len(args) > len(fn.params) {
		return nil, callErrorf(n.At, "%s() takes at most %d arguments, got %d", name, len(fn.params), first+len(args))
	}
	for i, a := range args {
		slots[first+i] = a
	}
	for _, kw := range n.Kwargs {
		i := paramIndex(fn, kw.Name)
		switch {
		case i < 0:
			return nil, callErrorf(kw.At, "%s() has no parameter '%s' (parameters: %s)", name, kw.Name, strings.Join(fn.params, ", "))
		case i < first || slots[i] != nil:
			return nil, callErrorf(kw.At, "%s() got multiple values for '%s'", name, kw.Name)
		}
		slots[i] = kw.Value
	}
	for i := first; i < fn.required; i++ {
		if slots[i] == nil {
			return nil, callErrorf(n.At, "%s() is missing argument '%s'", name, fn.params[i])
		}
	}
	return slots, nil
}

// packShape gathers positional arguments into one shape tuple where the
// function takes a shape spelled out: x.reshape(2, 3) and x.permute(2, 0, 1)
// as methods, and PyTorch's torch.ones(2, 3) (leading integer literals) as
// a function. A method whose function swaps a pair keeps exactly two
// arguments apart: x.transpose(0, 1) swaps dims 0 and 1, as in PyTorch.
func packShape(fn *function, args []Node, method, kwargs bool) []Node {
	if !fn.packsShape || len(args) < 2 {
		return args
	}
	if method {
		if kwargs || (fn.swapsPair && len(args) == 2) {
			return args
		}
		return []Node{&TupleLit{At: args[0].Col(), Elems: args}}
	}
	if fn.method { // as a function the shape is one argument: reshape(x, (2, 3))
		return args
	}
	ints := 0
	for ints < len(args) && isIntLiteral(args[ints]) {
		ints++
	}
	if ints < 2 {
		return args
	}
	shape := &TupleLit{At: args[0].Col(), Elems: args[:ints:ints]}
	return append([]Node{shape}, args[ints:]...)
}

// isIntLiteral reports whether n is an integer literal, negated or not.
func isIntLiteral(n Node) bool {
	if u, ok := n.(*Unary); ok {
		n = u.X
	}
	_, ok := n.(*IntLit)
	return ok
}

func paramIndex(fn *function, name string) int {
	if alias, ok := fn.kwAliases[name]; ok {
		name = alias
	}
	for i, p := range fn.params {
		if p == name {
			return i
		}
	}
	return -1
}

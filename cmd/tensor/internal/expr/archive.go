package expr

import (
	"strings"

	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/dtype"
)

// Archive is a plain .npz archive (numpy.savez) bound to a name: its
// members in archive order. NAME['member'] and NAME.member select one; an
// archive of a single member also stands for that member wherever a
// tensor is expected, so that an archive written with -o OUT.npz reads
// back as the tensor it holds.
type Archive []tensor.NamedTensor

// names lists the member names for messages: 'a', 'b'.
func (a Archive) names() string {
	parts := make([]string, len(a))
	for i, m := range a {
		parts[i] = "'" + m.Name + "'"
	}
	return strings.Join(parts, ", ")
}

func (a Archive) member(name string) (*tensor.Tensor, bool) {
	for _, m := range a {
		if m.Name == name {
			return m.Tensor, true
		}
	}
	return nil, false
}

// value is what the bare name evaluates to: the only member, or the
// archive itself.
func (a Archive) value() Value {
	if len(a) == 1 {
		return a[0].Tensor
	}
	return a
}

// archiveOf returns the archive bound to the name n is, if any.
func (env *Env) archiveOf(n Node) (Archive, *Ident, bool) {
	id, ok := n.(*Ident)
	if !ok {
		return nil, nil, false
	}
	if _, shadowed := env.Vars[id.Name]; shadowed {
		return nil, nil, false // a lambda's parameter of the same name
	}
	a, ok := env.Archives[id.Name]
	return a, id, ok
}

// archiveAttr evaluates NAME.member for an archive, and the attributes of
// a name bound to a .npz file that held a SciPy matrix (whose attributes
// Check could not know before the file was read). ok is false for other
// attributes, which Eval handles.
func (env *Env) archiveAttr(n *Attr) (v Value, ok bool, err error) {
	if a, id, isArchive := env.archiveOf(n.X); isArchive {
		if t, found := a.member(n.Name); found {
			return t, true, nil
		}
		if _, known := attributes[n.Name]; known && len(a) == 1 {
			return nil, false, nil // x.T of a one-member archive: the tensor's
		}
		return nil, true, nameErrorf(n.At+1, "archive '%s' has no member '%s' (members: %s)", id.Name, n.Name, a.names())
	}
	if id, isIdent := n.X.(*Ident); isIdent && env.NPZ != nil && env.NPZ(id.Name) {
		if _, known := attributes[n.Name]; !known {
			return nil, true, nameErrorf(n.At+1, "unknown attribute '%s' of the sparse matrix '%s' (known: T, mT, shape, ndim, size, dtype)", n.Name, id.Name)
		}
	}
	return nil, false, nil
}

// archiveIndex evaluates NAME['member']; ok is false for any other
// subscript.
func (env *Env) archiveIndex(n *Index) (v Value, ok bool, err error) {
	a, id, isArchive := env.archiveOf(n.X)
	if !isArchive || len(n.Items) != 1 {
		return nil, false, nil
	}
	s, isString := n.Items[0].(*StringLit)
	if !isString {
		return nil, false, nil
	}
	if t, found := a.member(s.Value); found {
		return t, true, nil
	}
	return nil, true, nameErrorf(s.At, "archive '%s' has no member '%s' (members: %s)", id.Name, s.Value, a.names())
}

// formatArchive prints an archive as its members, one per line.
func formatArchive(a Archive) string {
	lines := make([]string, len(a))
	for i, m := range a {
		lines[i] = "'" + m.Name + "': " + m.Tensor.String()
	}
	return strings.Join(lines, "\n")
}

// checkDTypeLiteral reports a quoted dtype argument that names no dtype,
// as an unknown bare name is reported: astype(x, 'float8') is the same
// mistake as astype(x, float8).
func checkDTypeLiteral(fn *function, slots []Node) error {
	for i, p := range fn.params {
		if p != "dtype" || i >= len(slots) {
			continue
		}
		if s, ok := slots[i].(*StringLit); ok {
			if _, err := dtype.Parse(s.Value); err != nil {
				return nameErrorf(s.At, "unknown dtype '%s'", s.Value)
			}
		}
	}
	return nil
}

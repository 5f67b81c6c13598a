package kernels

// Table holds what one package's kernel family provides per set, and keeps
// the package's dispatch variable pointing at the entry of the active set.
// A set with no entry of its own is served by the entry of its Lower set,
// so a family that has, say, only AVX-512 and Go kernels runs the Go ones
// under the avx2 set, and gains AVX2 kernels by one more Add.
//
// Tables are filled in package initialisation (NewTable in a variable
// declaration, Add in init functions) and read-only afterwards, except
// through Use in tests.
type Table[K any] struct {
	dst     *K
	entries map[*Set]K
}

// NewTable returns the table whose Generic entry is generic and sets *dst
// to it; later Adds move *dst to the active set's entry.
func NewTable[K any](dst *K, generic K) *Table[K] {
	*dst = generic
	return &Table[K]{dst: dst, entries: map[*Set]K{Generic: generic}}
}

// Add registers k as the entry of set s. Entries of sets this processor
// does not run are kept (tests list them as skipped) but never used.
func (t *Table[K]) Add(s *Set, k K) {
	t.entries[s] = k
	*t.dst = t.For(Active())
}

// For returns the entry that serves set s: its own, or its Lower set's.
func (t *Table[K]) For(s *Set) K {
	for ; s != nil; s = s.Lower {
		if k, ok := t.entries[s]; ok {
			return k
		}
	}
	return t.entries[Generic]
}

// owner returns the set whose own entry serves s.
func (t *Table[K]) owner(s *Set) *Set {
	for ; s != nil; s = s.Lower {
		if _, ok := t.entries[s]; ok {
			return s
		}
	}
	return Generic
}

// Variant is one distinct entry of a table with the set it belongs to.
type Variant[K any] struct {
	Set *Set
	K   K
}

// Name is the variant's set name, for test and benchmark names.
func (v Variant[K]) Name() string { return v.Set.Name }

// Variants returns the distinct entries that the runnable sets (see
// Runnable) use, best first, ending with the Go twins: what a test that
// compares kernels with their twins iterates.
func (t *Table[K]) Variants() []Variant[K] {
	var out []Variant[K]
	seen := map[*Set]bool{}
	for _, s := range Runnable() {
		o := t.owner(s)
		if !seen[o] {
			seen[o] = true
			out = append(out, Variant[K]{o, t.entries[o]})
		}
	}
	return out
}

// Use points the dispatch variable at the entry serving s and returns the
// function that restores the previous one (for tests and benchmarks; not
// safe while other goroutines use the package).
func (t *Table[K]) Use(s *Set) (restore func()) {
	old := *t.dst
	*t.dst = t.For(s)
	return func() { *t.dst = old }
}

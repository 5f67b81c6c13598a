// Package kernels chooses the kernel set the library runs: one set per
// instruction-set extension (avx512, avx2 on amd64; generic, the Go twins,
// everywhere), described as data, the way BLIS configures one context per
// architecture.
//
// A Set here says only what the whole processor must offer (features) and
// which set stands in for the families it lacks (Lower). What a set
// provides, and the tiles, block sizes and thresholds that go with it, are
// tables in the packages that own the kernels (gemm, vec, sparse, cast):
// each registers its entries with a Table, which writes the entry for the
// active set into the package's dispatch variable.
//
// The active set is the best one the processor supports, unless the
// environment variable TENSOR_KERNELS names a lower one: it is a ceiling,
// so TENSOR_KERNELS=avx2 runs the AVX2 kernels on an AVX-512 machine and
// TENSOR_KERNELS=generic runs only the Go twins. A name the processor
// cannot run gives the best set below it; an unknown name gives the best
// supported set and a one-line warning on standard error. See
// docs/kernels.md.
package kernels

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
)

// Set is one kernel set.
type Set struct {
	// Name is the value of TENSOR_KERNELS that selects the set.
	Name string
	// Requires lists the processor features every kernel of the set may
	// use, as the processor manuals name them.
	Requires []string
	// Lower is the set whose entries serve the families this set has no
	// kernel of its own for (nil only for Generic).
	Lower *Set
	// supported reports whether this processor has the set's features.
	supported bool
	// permission, when not nil, is what the operating system must grant
	// before the set's own kernels run; it is asked once, at the first
	// call that needs it, never at start-up (see Permitted).
	permission *permission
}

// Supported reports whether this processor runs the set. For a set that
// needs the operating system's permission (amx) it asks for it, once.
func (s *Set) Supported() bool { return s.supported && s.Permitted() }

// Permitted reports whether the operating system lets this process run the
// set's own kernels, asking it the first time (for every set but amx there
// is nothing to ask). A package whose kernels need the permission calls it
// before their first use, so that importing the library asks nothing of
// the operating system: Linux's grant of the AMX tile data, for one, is
// for the whole process and makes it refuse signal stacks too small for
// the tiles from then on.
func (s *Set) Permitted() bool { return s.permission == nil || s.permission.granted() }

// permission is a grant asked of the operating system once.
type permission struct {
	ask     func() bool
	once    sync.Once
	decided atomic.Bool // set once the answer is in
	yes     atomic.Bool
}

func (p *permission) granted() bool {
	p.once.Do(func() {
		p.yes.Store(p.ask())
		p.decided.Store(true)
	})
	return p.yes.Load()
}

// refused reports whether the permission was asked and refused.
func (p *permission) refused() bool { return p.decided.Load() && !p.yes.Load() }

func (s *Set) String() string { return s.Name }

// Generic is the set of Go twins: every kernel in plain Go, the whole
// implementation on architectures without assembly and under the purego
// build tag.
var Generic = &Set{Name: "generic", supported: true}

// sets lists the sets of this architecture, best first, Generic last;
// architecture files prepend theirs in init.
var sets = []*Set{Generic}

// register puts architecture sets, best first, ahead of those already
// listed. Only init functions of this package call it, before any use.
func register(best ...*Set) { sets = append(best, sets...) }

// Sets returns every set of this architecture, best first, supported or
// not.
func Sets() []*Set { return append([]*Set(nil), sets...) }

// selection is the outcome of reading TENSOR_KERNELS, made once.
// It is made at the first call from another package, after the
// architecture files of this one have registered their sets in init; a
// misspelt TENSOR_KERNELS is reported then, once, on standard error, since
// the process would otherwise run (and benchmark) a set nobody asked for.
var selection = sync.OnceValue(func() choice {
	c := choose(os.Getenv(envName), sets)
	if c.warn != "" {
		fmt.Fprintln(os.Stderr, c.warn)
	}
	return c
})

// envName is the environment variable that caps the kernel set.
const envName = "TENSOR_KERNELS"

type choice struct {
	active *Set
	why    string // how the set was chosen, for tensor bench and tests
	warn   string // non-empty when the request could not be honoured
}

// Active returns the kernel set in use. A set that needs a permission is
// chosen on its features alone (nothing is asked at start-up); once its
// permission has been asked and refused, the best supported set below it
// is the one in use and is returned instead.
func Active() *Set { return inUse(selection().active) }

// inUse is the set in use when s is chosen: s, or the best supported set
// below it once s's permission has been refused.
func inUse(s *Set) *Set {
	for s.permission != nil && s.permission.refused() {
		s = s.Lower
		for !s.supported {
			s = s.Lower
		}
	}
	return s
}

// Why says how the active set was chosen: "best supported",
// "TENSOR_KERNELS=avx2", or what was requested and why it was not
// honoured.
func Why() string { return selection().why }

// Runnable returns the active set and every supported set below it, best
// first, ending with Generic: what tests must check on this machine under
// this TENSOR_KERNELS.
func Runnable() []*Set {
	var out []*Set
	started := false
	for _, s := range sets {
		started = started || s == Active()
		if started && s.Supported() {
			out = append(out, s)
		}
	}
	return out
}

// choose picks the set for the request req (TENSOR_KERNELS) from list.
func choose(req string, list []*Set) choice {
	best := func(from int) *Set {
		for _, s := range list[from:] {
			if s.supported {
				return s
			}
		}
		return Generic
	}
	req = strings.ToLower(strings.TrimSpace(req))
	if req == "" {
		return choice{active: best(0), why: "best supported"}
	}
	for i, s := range list {
		if s.Name != req {
			continue
		}
		got := best(i)
		if got == s {
			return choice{active: s, why: envName + "=" + req}
		}
		why := fmt.Sprintf("%s=%s, which this processor cannot run (it needs %s): %s", envName, req, strings.Join(s.Requires, ", "), got.Name)
		return choice{active: got, why: why}
	}
	got := best(0)
	why := fmt.Sprintf("%s=%q names no kernel set (%s): %s", envName, req, names(list), got.Name)
	return choice{active: got, why: why, warn: "tensor: " + why}
}

// names lists the names of sets, separated by commas.
func names(list []*Set) string {
	var ns []string
	for _, s := range list {
		ns = append(ns, s.Name)
	}
	return strings.Join(ns, ", ")
}

package autograd

import (
	"math/bits"
	"slices"

	"github.com/tensor-go/tensor"
)

// The exclusive products behind Prod's gradient, as an operation of their
// own so that their gradients, of any order, are exact too.
//
// For x and r direction tensors d₁…d_r of x's shape, exclusive returns, at
// each position k of every group of elements that the reduction combines,
//
//	F_r(x; d₁…d_r)_k = [ε₁…ε_r] ∏_{j≠k} (x_j + ε₁d₁_j + … + ε_r d_r_j)
//
// with ε_s² = 0: the coefficient of ε₁…ε_r in the product of the other
// elements of the group taken as truncated polynomials. F_0 is the product
// of all the other elements; F_1(x; d)_k = Σ_{i≠k} d_i ∏_{j∉{i,k}} x_j.
// Each is computed from prefix and suffix products, multiplying only, so a
// zero, a signed zero, NaN or an infinity anywhere gives the exact result.
// The family is closed under differentiation: since ∂F_r(x; d)_k/∂x_m is
// the same product without m, the vector-Jacobian products are
//
//	x̄ = conj(F_{r+1}(x; d₁…d_r, conj(c)))
//	d̄_s = conj(F_r(x; d₁…d_r with d_s replaced by conj(c)))
//
// (the polynomial is holomorphic in all its arguments).
func (b builder) exclusive(x *tensor.Tensor, mask []bool, dirs []*tensor.Tensor) (*tensor.Tensor, error) {
	out, err := exclusiveProducts(x, mask, dirs)
	if err != nil {
		return nil, err
	}
	bw := func(b builder, c *tensor.Tensor, need []bool) ([]*tensor.Tensor, error) {
		cc, err := b.conj(c)
		if err != nil {
			return nil, err
		}
		grads := make([]*tensor.Tensor, 1+len(dirs))
		for i := range grads {
			if !need[i] {
				continue
			}
			var e *tensor.Tensor
			if i == 0 {
				e, err = b.exclusive(x, mask, append(slices.Clone(dirs), cc))
			} else {
				d := slices.Clone(dirs)
				d[i-1] = cc
				e, err = b.exclusive(x, mask, d)
			}
			if err != nil {
				return nil, err
			}
			if grads[i], err = b.conj(e); err != nil {
				return nil, err
			}
		}
		return grads, nil
	}
	inputs := make([]any, 0, 1+len(dirs))
	inputs = append(inputs, x)
	for _, d := range dirs {
		inputs = append(inputs, d)
	}
	saved := append([]*tensor.Tensor{x}, dirs...)
	return b.record("exclusive_prod", b.fresh(out), inputs, saved, bw), nil
}

// groups describes how the reduced elements lie in the buffers exclusive
// works on: outer groups of n elements, each element a run of inner
// consecutive positions (the kept dimensions after the reduced ones).
type groups struct{ outer, n, inner int }

// exclusiveLayout returns the permutation that brings the reduced axes
// together (nil when they already are), and the group layout after it.
func exclusiveLayout(s []int, mask []bool) (perm []int, g groups) {
	first, last := -1, -1
	for i, m := range mask {
		if m {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	g = groups{1, 1, 1}
	if first < 0 {
		for _, d := range s {
			g.outer *= d
		}
		return nil, g
	}
	run := true
	for i := first; i <= last; i++ {
		run = run && mask[i]
	}
	if !run {
		for i, m := range mask {
			if !m {
				perm = append(perm, i)
				g.outer *= s[i]
			}
		}
		for i, m := range mask {
			if m {
				perm = append(perm, i)
				g.n *= s[i]
			}
		}
		return perm, g
	}
	for i, d := range s {
		switch {
		case i < first:
			g.outer *= d
		case i <= last:
			g.n *= d
		default:
			g.inner *= d
		}
	}
	return nil, g
}

// exclusiveProducts computes F_r (see exclusive) as a new tensor of x's
// shape, in the dtype gradients of x are computed in. F_0 is the library's
// tensor.ExclusiveProd; higher orders are computed here.
func exclusiveProducts(x *tensor.Tensor, mask []bool, dirs []*tensor.Tensor) (*tensor.Tensor, error) {
	if x.Layout() != tensor.Strided {
		return nil, gradErr("prod backward", tensor.ErrLayout, "a sparse tensor has no product")
	}
	wdt := gradDType(x.DType())
	if len(dirs) == 0 {
		var axes []int
		for i, m := range mask {
			if m {
				axes = append(axes, i)
			}
		}
		w := x
		if w.DType() != wdt {
			var err error
			if w, err = x.AsType(wdt); err != nil {
				return nil, err
			}
		}
		return tensor.ExclusiveProd(w, tensor.Axis(axes...))
	}
	s := x.Shape()
	perm, g := exclusiveLayout(s, mask)
	arrange := func(t *tensor.Tensor) (*tensor.Tensor, error) {
		if perm == nil {
			return t, nil
		}
		return t.Permute(perm...)
	}
	ps := s
	if perm != nil {
		ps = make([]int, len(s))
		for i, p := range perm {
			ps[i] = s[p]
		}
	}
	var out *tensor.Tensor
	var err error
	if wdt.IsComplex() {
		out, err = exclusiveGeneral[complex128](tensor.Complex128, x, dirs, arrange, ps, g)
	} else {
		out, err = exclusiveGeneral[float64](tensor.Float64, x, dirs, arrange, ps, g)
	}
	if err != nil {
		return nil, err
	}
	if out.DType() != wdt {
		if out, err = out.AsType(wdt); err != nil {
			return nil, err
		}
	}
	if perm == nil {
		return out, nil
	}
	inv := make([]int, len(perm))
	for i, p := range perm {
		inv[p] = i
	}
	v, err := out.Permute(inv...)
	if err != nil {
		return nil, err
	}
	return v.Contiguous()
}

// elements returns t (arranged) as a slice of T, converting it to dt.
func elements[T tensor.Element](t *tensor.Tensor, dt tensor.DType, arrange func(*tensor.Tensor) (*tensor.Tensor, error)) ([]T, error) {
	a, err := arrange(t)
	if err != nil {
		return nil, err
	}
	if a.DType() != dt {
		if a, err = a.AsType(dt); err != nil {
			return nil, err
		}
	}
	return tensor.ToSlice[T](a)
}

// exclusiveGeneral is F_r in T (float64 or complex128): each element is a
// truncated polynomial of 2^r coefficients, indexed by the set of ε's.
//
// A product of c elements has no terms in more than c ε's: those
// coefficients are structurally zero and are never multiplied, since an
// infinity times such a zero would make a NaN the sum of the actual terms
// does not have. So the runs carry how many elements they hold.
func exclusiveGeneral[T float64 | complex128](dt tensor.DType, x *tensor.Tensor, dirs []*tensor.Tensor,
	arrange func(*tensor.Tensor) (*tensor.Tensor, error), ps []int, g groups) (*tensor.Tensor, error) {
	r := len(dirs)
	if r > 16 {
		return nil, gradErr("prod backward", tensor.ErrValue, "derivatives of order %d are not supported", r+1)
	}
	m := 1 << r
	parts := make([][]T, 1+r)
	for i, t := range append([]*tensor.Tensor{x}, dirs...) {
		var err error
		if parts[i], err = elements[T](t, dt, arrange); err != nil {
			return nil, err
		}
	}
	out := make([]T, len(parts[0]))
	prefix := make([]T, g.n*g.inner*m) // the exclusive prefix of each position
	run := make([]T, g.inner*m)
	tmp := make([]T, m)
	block := g.n * g.inner
	for o := 0; o < g.outer; o++ {
		for i := 0; i < g.n; i++ { // run holds elements 0…i-1
			for j := 0; j < g.inner; j++ {
				k := i*g.inner + j
				rj := run[j*m : (j+1)*m]
				copy(prefix[k*m:(k+1)*m], rj)
				timesElement(tmp, rj, i, parts, o*block+k)
				copy(rj, tmp)
			}
		}
		for i := g.n - 1; i >= 0; i-- { // run holds elements i+1…n-1
			for j := 0; j < g.inner; j++ {
				k := i*g.inner + j
				rj := run[j*m : (j+1)*m]
				out[o*block+k] = polyTop(prefix[k*m:(k+1)*m], i, rj, g.n-1-i)
				timesElement(tmp, rj, g.n-1-i, parts, o*block+k)
				copy(rj, tmp)
			}
		}
	}
	return tensor.FromSlice(out, ps...)
}

// timesElement sets c = a·(x + Σ ε_s d_s) for the element at pos, where a
// is a product of count elements (ignored when count is 0: the empty
// product).
func timesElement[T float64 | complex128](c, a []T, count int, parts [][]T, pos int) {
	x := parts[0][pos]
	if count == 0 {
		clear(c)
		c[0] = x
		for s := 1; s < len(parts); s++ {
			c[1<<(s-1)] = parts[s][pos]
		}
		return
	}
	for set := range c {
		bits := popcount(set)
		if bits > count+1 {
			c[set] = 0
			continue
		}
		var sum T
		started := false
		if bits <= count {
			sum, started = a[set]*x, true
		}
		for s := 0; s+1 < len(parts); s++ {
			if set&(1<<s) == 0 {
				continue
			}
			term := a[set&^(1<<s)] * parts[s+1][pos]
			if started {
				sum += term
			} else {
				sum, started = term, true
			}
		}
		c[set] = sum
	}
}

// polyTop is the coefficient of every ε in a·b, where a holds ca elements
// and b holds cb.
func polyTop[T float64 | complex128](a []T, ca int, b []T, cb int) T {
	s := len(a) - 1
	switch {
	case ca == 0 && cb == 0:
		if s == 0 {
			return 1
		}
		return 0
	case ca == 0:
		return b[s]
	case cb == 0:
		return a[s]
	}
	var sum T
	started := false
	for t := s; ; t = (t - 1) & s {
		if popcount(t) <= ca && popcount(s&^t) <= cb {
			if term := a[t] * b[s&^t]; started {
				sum += term
			} else {
				sum, started = term, true
			}
		}
		if t == 0 {
			break
		}
	}
	return sum
}

func popcount(v int) int { return bits.OnesCount(uint(v)) }

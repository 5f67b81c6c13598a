package sparse

import "github.com/tensor-go/tensor/internal/kernels"

// rowKernels holds the row kernels SpMM runs for one element type: the Go
// loops below, or for float32 and float64 assembly (axpy_amd64.go).
type rowKernels[T Number] struct {
	axpy  func(y []T, a T, x []T)
	axpy4 func(y []T, a0, a1, a2, a3 T, x0, x1, x2, x3 []T)

	// gather computes one row of SpMM: it sets out to +0 plus
	// vals[p]·(row cols[p] of b) for p in [0, len(vals)), added one
	// product at a time in that order. b's rows must be contiguous (CS 1,
	// or one column) and at least len(out) long, every cols[p] one of
	// them; cols may go on past len(vals), with the entries of the rows
	// that come next, which a kernel may prefetch.
	gather func(out []T, b Dense[T], cols []int64, vals []T)

	// rows, where a set has it, computes rows [lo, hi) of c = a·b as
	// gather would row by row, for the widths of b it takes, and reports
	// whether it took this one; nil takes none.
	rows func(a *CSR[T], b, c Dense[T], lo, hi int) bool
}

// withGather returns k with gather g, or, for g nil, with gather's Go twin
// on k's own axpy kernels.
func withGather[T Number](k rowKernels[T], g func(out []T, b Dense[T], cols []int64, vals []T)) rowKernels[T] {
	if g == nil {
		axpys := k
		g = func(out []T, b Dense[T], cols []int64, vals []T) {
			clear(out)
			addRowsContiguous(axpys, out, cols[:len(vals)], vals, b)
		}
	}
	k.gather = g
	return k
}

// kernelSet is what this package takes from one kernel set.
type kernelSet struct {
	f32 rowKernels[float32]
	f64 rowKernels[float64]
}

// active is the entry of the active kernel set; kernelSets keeps it so
// (architecture files add their entries in init).
var (
	active     kernelSet
	kernelSets = kernels.NewTable(&active, kernelSet{f32: goKernels[float32](), f64: goKernels[float64]()})
)

// goKernels returns the Go twins for T.
func goKernels[T Number]() rowKernels[T] {
	return withGather(rowKernels[T]{axpy: axpy[T], axpy4: axpy4[T]}, nil)
}

// kernelsFor returns the kernels for T.
func kernelsFor[T Number]() rowKernels[T] {
	switch k := any(active.f32).(type) {
	case rowKernels[T]:
		return k
	}
	switch k := any(active.f64).(type) {
	case rowKernels[T]:
		return k
	}
	return goKernels[T]()
}

// axpy computes y[j] += a*x[j] for j in [0, len(y)).
func axpy[T Number](y []T, a T, x []T) {
	x = x[:len(y)]
	cmul := productOf[T]() // rounds each product, as the assembly does (round.go)
	for j := range y {
		y[j] += product(a, x[j], cmul)
	}
}

// axpy4 computes y[j] = (((y[j] + a0*x0[j]) + a1*x1[j]) + a2*x2[j]) + a3*x3[j]
// for j in [0, len(y)).
func axpy4[T Number](y []T, a0, a1, a2, a3 T, x0, x1, x2, x3 []T) {
	x0, x1, x2, x3 = x0[:len(y)], x1[:len(y)], x2[:len(y)], x3[:len(y)]
	cmul := productOf[T]()
	for j := range y {
		t := y[j]
		t += product(a0, x0[j], cmul)
		t += product(a1, x1[j], cmul)
		t += product(a2, x2[j], cmul)
		t += product(a3, x3[j], cmul)
		y[j] = t
	}
}

// withRows returns k with the multi-row kernel rows.
func withRows[T Number](k rowKernels[T], rows func(a *CSR[T], b, c Dense[T], lo, hi int) bool) rowKernels[T] {
	k.rows = rows
	return k
}

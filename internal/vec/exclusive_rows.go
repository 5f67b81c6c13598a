package vec

import (
	"unsafe"

	"github.com/tensor-go/tensor/internal/kernels"
)

// Both passes of the exclusive products over four float32 or float64 rows
// at once, in place in their matrix: the rows' running products side by
// side, four rows by four columns a step, turned into columns and back in
// registers, so that a row-wise gradient needs neither a strip in the
// cache nor a transpose through memory. The products and their roundings
// are exclusiveRow1's (the root package's) row by row, in its order.

// rowsKernels is one implementation of the four-row passes over whole
// blocks of four columns. prefix4 runs blocks from the rows' starts,
// storing each element's rounded prefix product in o (in any order within
// its 4×4 block that the set's suffix4 reads back: the AVX2 kernels keep
// a block by columns) and carrying run;
// suffix4 runs blocks from the last back, turning each prefix in o into
// the exclusive product (times s[r], one product in the rows' type, when
// s is not nil) and carrying run. Row r of x and o starts r·stride elements on.
type rowsKernels struct {
	prefix4 func(x, o *float32, stride, blocks int, run *[4]float64)
	suffix4 func(x, o *float32, stride, blocks int, run *[4]float64, s *float32)
	// prefix4F64 and suffix4F64 are the same for float64 rows.
	prefix4F64 func(x, o *float64, stride, blocks int, run *[4]float64)
	suffix4F64 func(x, o *float64, stride, blocks int, run *[4]float64, s *float64)
	// fromF32 and fromF64 are the shortest rows the set's kernels take;
	// shorter ones go through the Go twins, which were as fast or faster
	// there (the entries say where that was measured).
	fromF32, fromF64 int
	// preferred says that the root package should take these passes for
	// float32 rows instead of its transposed strips (measured faster on
	// the processors the set was measured on).
	preferred bool
}

// rowsGo is the Go twins' entry.
var rowsGo = rowsKernels{
	prefix4: prefix4Go[float32], suffix4: suffix4Go[float32],
	prefix4F64: prefix4Go[float64], suffix4F64: suffix4Go[float64],
}

var (
	rowsImpl  rowsKernels
	rowsTable = kernels.NewTable(&rowsImpl, rowsGo)
)

// ExclusiveRowsPreferred reports whether the active kernel set computes
// row-wise float32 exclusive products best with ExclusiveRows4F32 rather
// than transposed strips.
func ExclusiveRowsPreferred() bool { return rowsImpl.preferred }

// ExclusiveRows4F32 computes in o the exclusive products of four rows of
// n elements of x, rows stride elements apart in both, each times s[r]
// when s is not nil:
//
//	p := 1.0
//	for i := range n { o[i] = float32(p); p *= float64(x[i]) }
//	p = 1
//	for i := n-1; i >= 0; i-- { o[i] = s[r] * float32(float64(o[i])*p); p *= float64(x[i]) }
//
// It panics when a row lies outside x or o, or s has fewer than four
// elements.
func ExclusiveRows4F32(x, o []float32, stride, n int, s []float32) {
	k := &rowsImpl
	if n < k.fromF32 {
		k = &rowsGo
	}
	exclusiveRows4(x, o, stride, n, s, k.prefix4, k.suffix4)
}

// ExclusiveRows4F64 is ExclusiveRows4F32 for float64 rows, whose products
// need no rounding but the multiplications' own.
func ExclusiveRows4F64(x, o []float64, stride, n int, s []float64) {
	k := &rowsImpl
	if n < k.fromF64 {
		k = &rowsGo
	}
	exclusiveRows4(x, o, stride, n, s, k.prefix4F64, k.suffix4F64)
}

// exclusiveRows4 is ExclusiveRows4F32 and ExclusiveRows4F64 with the
// kernels prefix and suffix for T: the whole blocks of four columns
// through them, the last n%4 columns here (the suffix pass's first).
func exclusiveRows4[T float32 | float64](x, o []T, stride, n int, s []T,
	prefix func(x, o *T, stride, blocks int, run *[4]float64),
	suffix func(x, o *T, stride, blocks int, run *[4]float64, s *T)) {
	if n <= 0 {
		return
	}
	if stride < n || 3*stride+n > len(x) || 3*stride+n > len(o) || s != nil && len(s) < 4 {
		panic("vec: ExclusiveRows4: rows out of their slices")
	}
	blocks := n / 4
	run := [4]float64{1, 1, 1, 1}
	if blocks > 0 {
		prefix(&x[0], &o[0], stride, blocks, &run)
	}
	for r := range 4 {
		xr, or := x[r*stride:][:n], o[r*stride:][:n]
		for i := blocks * 4; i < n; i++ {
			or[i] = T(run[r])
			run[r] *= float64(xr[i])
		}
	}
	run = [4]float64{1, 1, 1, 1}
	for r := range 4 {
		xr, or := x[r*stride:][:n], o[r*stride:][:n]
		for i := n - 1; i >= blocks*4; i-- {
			e := T(float64(or[i]) * run[r])
			if s != nil {
				e = s[r] * e
			}
			or[i] = e
			run[r] *= float64(xr[i])
		}
	}
	if blocks > 0 {
		var sp *T
		if s != nil {
			sp = &s[0]
		}
		suffix(&x[0], &o[0], stride, blocks, &run, sp)
	}
}

// prefix4Go is the Go twin of the prefix pass: the four running products
// are independent chains, advanced together so that each multiply's
// latency hides behind the other three.
func prefix4Go[T float32 | float64](x, o *T, stride, blocks int, run *[4]float64) {
	n := blocks * 4
	xs, os := rows4(x, stride, n), rows4(o, stride, n)
	x0, x1, x2, x3 := xs[0], xs[1][:len(xs[0])], xs[2][:len(xs[0])], xs[3][:len(xs[0])]
	o0, o1, o2, o3 := os[0][:len(x0)], os[1][:len(x0)], os[2][:len(x0)], os[3][:len(x0)]
	p0, p1, p2, p3 := run[0], run[1], run[2], run[3]
	for i := range x0 {
		o0[i], o1[i], o2[i], o3[i] = T(p0), T(p1), T(p2), T(p3)
		p0 *= float64(x0[i])
		p1 *= float64(x1[i])
		p2 *= float64(x2[i])
		p3 *= float64(x3[i])
	}
	*run = [4]float64{p0, p1, p2, p3}
}

// suffix4Go is the Go twin of the suffix pass.
func suffix4Go[T float32 | float64](x, o *T, stride, blocks int, run *[4]float64, s *T) {
	n := blocks * 4
	xs, os := rows4(x, stride, n), rows4(o, stride, n)
	x0, x1, x2, x3 := xs[0], xs[1][:len(xs[0])], xs[2][:len(xs[0])], xs[3][:len(xs[0])]
	o0, o1, o2, o3 := os[0][:len(x0)], os[1][:len(x0)], os[2][:len(x0)], os[3][:len(x0)]
	p0, p1, p2, p3 := run[0], run[1], run[2], run[3]
	f0, f1, f2, f3 := T(1), T(1), T(1), T(1)
	scaled := s != nil
	if scaled {
		f := unsafe.Slice(s, 4)
		f0, f1, f2, f3 = f[0], f[1], f[2], f[3]
	}
	for i := len(x0) - 1; i >= 0; i-- {
		e0 := T(float64(o0[i]) * p0)
		e1 := T(float64(o1[i]) * p1)
		e2 := T(float64(o2[i]) * p2)
		e3 := T(float64(o3[i]) * p3)
		if scaled {
			e0, e1, e2, e3 = f0*e0, f1*e1, f2*e2, f3*e3
		}
		o0[i], o1[i], o2[i], o3[i] = e0, e1, e2, e3
		p0 *= float64(x0[i])
		p1 *= float64(x1[i])
		p2 *= float64(x2[i])
		p3 *= float64(x3[i])
	}
	*run = [4]float64{p0, p1, p2, p3}
}

// rows4 returns the four rows of n elements from p, stride apart.
func rows4[T any](p *T, stride, n int) [4][]T {
	all := unsafe.Slice(p, 3*stride+n)
	return [4][]T{all[:n], all[stride : stride+n], all[2*stride : 2*stride+n], all[3*stride : 3*stride+n]}
}

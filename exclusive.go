package tensor

import (
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/cast"
	"github.com/tensor-go/tensor/internal/cmul"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/vec"
	"github.com/tensor-go/tensor/shape"
)

// ExclusiveProd returns a tensor of x's shape and dtype holding, at each
// element, the product of the other elements of its group: of the elements
// that Prod(x, opts...) multiplies into the same result (the axes and
// keepdims options mean what they mean for Prod; keepdims changes
// nothing here). It is the gradient of Prod, and package autograd uses it
// so.
//
// The products are formed from prefix and suffix products, never by
// dividing Prod's result by the element, so zeros, signed zeros, NaN and
// infinities give the exact answer: [2, 0, 4] → [0, 8, 0], [0, 3, 0] →
// [0, 0, 0], [inf, 1, 2] → [2, inf, inf]. float32 and complex64 products
// are carried in float64 (complex128) and rounded to x's dtype after each
// of the two passes; float16 and bfloat16 are computed in float32 and
// rounded once. Each element is computed in an order fixed by the shape,
// so the result does not depend on the number of goroutines. Integer and
// bool tensors are an ErrDType error.
func ExclusiveProd(x *Tensor, opts ...ReduceOption) (*Tensor, error) {
	const op = "exclusive_prod"
	if err := requireStrided(op, x); err != nil {
		return nil, err
	}
	if !x.dtype.IsFloat() && !x.dtype.IsComplex() {
		return nil, opErr(op, ErrDType, "needs a float or complex tensor, got %v", x.dtype)
	}
	if x.dtype == Float16 || x.dtype == BFloat16 {
		w, err := x.AsType(Float32)
		if err != nil {
			return nil, err
		}
		e, err := ExclusiveProd(w, opts...)
		if err != nil {
			return nil, err
		}
		return e.AsType(x.dtype)
	}
	mask, _, err := ReduceAxes(x, opts...)
	if err != nil {
		return nil, wrapErr(op, err)
	}
	src, perm, g, err := groupedSource(x, mask)
	if err != nil {
		return nil, err
	}
	var out *Tensor
	if x.dtype == Float32 || x.dtype == Float64 {
		out, err = exclusiveFusedInto(src, nil, g)
	} else if g.inner == 1 && g.outer >= transposeGroups && g.n > 1 && x.dtype.IsFloat() {
		out, err = exclusiveTransposed(src, g)
	} else {
		out, err = exclusiveInto(src, g)
	}
	if err != nil {
		return nil, wrapErr(op, err)
	}
	return unpermute(op, out, perm)
}

// unpermute returns out, computed on x permuted by perm (nil: not
// permuted), in x's order as a new contiguous tensor.
func unpermute(op string, out *Tensor, perm []int) (*Tensor, error) {
	if perm == nil {
		return out, nil
	}
	inv := make([]int, len(perm))
	for i, p := range perm {
		inv[p] = i
	}
	back, err := out.Permute(inv...)
	if err != nil {
		return nil, err
	}
	return back.copyContiguous(op)
}

// transposeGroups is the number of groups of one run each from which
// the groups are turned into columns first (a transposing copy), so that
// the passes run down rows with the vector kernels instead of along each
// group one element at a time.
const transposeGroups = 64

// exclusiveTransposed is exclusiveInto for many groups of one run each:
// on the transpose, each group is a column and the passes go row by row.
// Every element is multiplied in the same order either way, so the bits
// are those of exclusiveInto.
func exclusiveTransposed(src *Tensor, g groups) (*Tensor, error) {
	m, err := src.Reshape(g.outer, g.n)
	if err != nil {
		return nil, err
	}
	cols, err := m.Transpose().copyContiguous("exclusive_prod")
	if err != nil {
		return nil, err
	}
	e, err := exclusiveInto(cols, groups{1, g.n, g.outer})
	if err != nil {
		return nil, err
	}
	back, err := e.Transpose().copyContiguous("exclusive_prod")
	if err != nil {
		return nil, err
	}
	back.shape, back.strides = append([]int{}, src.shape...), shape.ContiguousStrides(src.shape)
	return back, nil
}

// exclusiveInto computes the exclusive products of the contiguous src,
// whose elements fall into groups g, into a new tensor of its shape.
func exclusiveInto(src *Tensor, g groups) (*Tensor, error) {
	out, err := newProductTensor(src.dtype, src.shape)
	if err != nil || out.n == 0 {
		return out, err
	}
	switch src.dtype {
	case Float32:
		exclusiveRuns(contiguousData[float32](src), contiguousData[float32](out), g, realKernels[float32]())
	case Float64:
		exclusiveRuns(contiguousData[float64](src), contiguousData[float64](out), g, realKernels[float64]())
	case Complex64:
		exclusiveRuns(contiguousData[complex64](src), contiguousData[complex64](out), g, complexKernels[complex64]())
	default:
		exclusiveRuns(contiguousData[complex128](src), contiguousData[complex128](out), g, complexKernels[complex128]())
	}
	return out, nil
}

// groups says how the elements of a contiguous tensor fall into the groups
// of a reduction: outer blocks of n elements, each element a run of inner
// consecutive positions.
type groups struct{ outer, n, inner int }

// groupedSource is x with the reduced axes (mask) grouped as groupLayout
// arranges them, made contiguous, with the permutation that undoes it (nil
// when none was needed) and the grouping: what both the exclusive product
// and its fused form with a cotangent walk.
func groupedSource(x *Tensor, mask []bool) (src *Tensor, perm []int, g groups, err error) {
	perm, g = groupLayout(x.shape, mask)
	src = x
	if perm != nil {
		if src, err = x.Permute(perm...); err != nil {
			return nil, nil, g, err
		}
	}
	if src, err = src.Contiguous(); err != nil {
		return nil, nil, g, err
	}
	return src, perm, g, nil
}

// groupLayout returns the permutation that brings the reduced axes
// together after the kept ones (nil when they already form one run of
// axes), and the groups of the tensor so arranged.
func groupLayout(s []int, mask []bool) (perm []int, g groups) {
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
		g.outer = shape.MustSize(s)
		return nil, g
	}
	for i := first; i <= last; i++ {
		if !mask[i] {
			for j, m := range mask {
				if !m {
					perm = append(perm, j)
					g.outer *= s[j]
				}
			}
			for j, m := range mask {
				if m {
					perm = append(perm, j)
					g.n *= s[j]
				}
			}
			return perm, g
		}
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

// rowKernels are the two passes over a row of inner elements, with the
// running products carried at the wide precision A: prefix stores
// o[j] = run[j] and then multiplies run[j] by x[j]; suffix sets o[j] =
// o[j]·run[j] and multiplies likewise (tmp is scratch of the row's
// length). strided is the same over one element of each of len(run)
// groups, n apart, for groups that are one long run each.
type rowKernels[T any, A float64 | complex128] struct {
	prefix, suffix func(o, x []T, run, tmp []A)
	strided        func(o, x []T, run []A, n int)
}

// narrowF64 rounds a float64 row into a float32 one with the library's
// conversion kernel.
var narrowF64 = cast.Kernel(dtype.Float32, dtype.Float64)

func narrow(o []float32, v []float64) {
	if len(o) > 0 {
		narrowF64(unsafe.Pointer(&o[0]), 4, unsafe.Pointer(&v[0]), 8, len(o))
	}
}

// The real kernels are the library's vector products.
func realKernels[T float32 | float64]() rowKernels[T, float64] {
	k := rowKernels[T, float64]{strided: stridedReal[T]}
	var zero T
	if _, single := any(zero).(float32); single {
		k.prefix = func(o, x []T, run, tmp []float64) {
			o32, x32 := any(o).([]float32), any(x).([]float32)
			narrow(o32, run)
			vec.MulF64F32(run, run, x32)
		}
		k.suffix = func(o, x []T, run, tmp []float64) {
			o32, x32 := any(o).([]float32), any(x).([]float32)
			vec.MulF64F32(tmp, run, o32)
			narrow(o32, tmp)
			vec.MulF64F32(run, run, x32)
		}
		return k
	}
	k.prefix = func(o, x []T, run, tmp []float64) {
		o64, x64 := any(o).([]float64), any(x).([]float64)
		copy(o64, run)
		vec.MulF64(run, run, x64)
	}
	k.suffix = func(o, x []T, run, tmp []float64) {
		o64, x64 := any(o).([]float64), any(x).([]float64)
		vec.MulF64(o64, o64, run)
		vec.MulF64(run, run, x64)
	}
	return k
}

func complexKernels[T complex64 | complex128]() rowKernels[T, complex128] {
	return rowKernels[T, complex128]{
		prefix: func(o, x []T, run, tmp []complex128) {
			for j := range o {
				o[j] = T(run[j])
				run[j] = cmul.Mul128(run[j], complex128(x[j])) // no fused multiply-add, on any machine
			}
		},
		suffix: func(o, x []T, run, tmp []complex128) {
			for j := range o {
				o[j] = T(cmul.Mul128(complex128(o[j]), run[j]))
				run[j] = cmul.Mul128(run[j], complex128(x[j]))
			}
		},
		strided: stridedComplex[T],
	}
}

// stridedComplex is stridedReal's job for complex groups, one group at a
// time (a complex product is four independent multiplications already).
func stridedComplex[T complex64 | complex128](o, x []T, run []complex128, n int) {
	for q := range run {
		ob, xb := o[q*n:(q+1)*n], x[q*n:(q+1)*n]
		r := complex128(1)
		for i := range ob {
			ob[i] = T(r)
			r = cmul.Mul128(r, complex128(xb[i]))
		}
		r = 1
		for i := n - 1; i >= 0; i-- {
			ob[i] = T(cmul.Mul128(complex128(ob[i]), r))
			r = cmul.Mul128(r, complex128(xb[i]))
		}
	}
}

// stridedReal is both passes over len(run) consecutive groups of n
// elements each (inner = 1). Walking the groups side by side element by
// element would read len(run) streams a power of two apart, which share
// cache sets; instead each chunk of the groups is transposed into a small
// buffer, so the side-by-side products run over contiguous memory.
func stridedReal[T float32 | float64](o, x []T, run []float64, n int) {
	const chunk = 256
	g := len(run)
	var buf [chunk * 8]float64
	tile := buf[:chunk*g]
	load := func(src []T, i0, c int) {
		for q := 0; q < g; q++ {
			row := src[q*n+i0 : q*n+i0+c]
			for i, v := range row {
				tile[i*g+q] = float64(v)
			}
		}
	}
	for q := range run {
		run[q] = 1
	}
	for i0 := 0; i0 < n; i0 += chunk {
		c := min(chunk, n-i0)
		load(x, i0, c)
		for i := 0; i < c; i++ {
			r := tile[i*g : i*g+g]
			for q, v := range r {
				r[q] = run[q]
				run[q] *= v
			}
		}
		for q := 0; q < g; q++ {
			row := o[q*n+i0 : q*n+i0+c]
			for i := range row {
				row[i] = T(tile[i*g+q])
			}
		}
	}
	for q := range run {
		run[q] = 1
	}
	for end := n; end > 0; end -= chunk {
		i0 := max(0, end-chunk)
		c := end - i0
		load(x, i0, c)
		for i := c - 1; i >= 0; i-- {
			r := tile[i*g : i*g+g]
			for q, v := range r {
				r[q] = run[q]
				run[q] *= v
			}
		}
		for q := 0; q < g; q++ {
			row := o[q*n+i0 : q*n+i0+c]
			for i := range row {
				row[i] = T(float64(row[i]) * tile[i*g+q])
			}
		}
	}
}

// exclusiveRuns fills out with the exclusive products of x's groups: a
// prefix pass stores the product of the elements before each one, a
// suffix pass multiplies in the product of those after it. Groups, or
// for a single group its inner columns, are shared between goroutines.
func exclusiveRuns[T any, A float64 | complex128](x, out []T, g groups, k rowKernels[T, A]) {
	block := g.n * g.inner
	// interleave is how many groups of one run each go through the
	// strided kernel together.
	const interleave = 8
	pass := func(o0, o1, j0, j1 int) {
		if g.inner == 1 {
			run := make([]A, interleave)
			for o := o0; o < o1; o += interleave {
				q := min(interleave, o1-o)
				k.strided(out[o*g.n:(o+q)*g.n], x[o*g.n:(o+q)*g.n], run[:q], g.n)
			}
			return
		}
		run, tmp := make([]A, j1-j0), make([]A, j1-j0)
		for o := o0; o < o1; o++ {
			xb, ob := x[o*block:(o+1)*block], out[o*block:(o+1)*block]
			for j := range run {
				run[j] = 1
			}
			for i := 0; i < g.n; i++ {
				k.prefix(ob[i*g.inner+j0:i*g.inner+j1], xb[i*g.inner+j0:i*g.inner+j1], run, tmp)
			}
			for j := range run {
				run[j] = 1
			}
			for i := g.n - 1; i >= 0; i-- {
				k.suffix(ob[i*g.inner+j0:i*g.inner+j1], xb[i*g.inner+j0:i*g.inner+j1], run, tmp)
			}
		}
	}
	w := iter.Workers(len(x))
	switch {
	case w <= 1:
		pass(0, g.outer, 0, g.inner)
	case g.outer >= w*interleave:
		iter.Parallel((g.outer+interleave-1)/interleave, w, func(lo, hi int) {
			pass(lo*interleave, min(hi*interleave, g.outer), 0, g.inner)
		})
	default:
		// Few groups: split the columns into one wide strip per goroutine
		// (whole cache lines), so that each pass streams long runs of
		// every row rather than hopping a page per short piece.
		const line = 16
		strip := ((g.inner+w-1)/w + line - 1) / line * line
		iter.Parallel((g.inner+strip-1)/strip, w, func(lo, hi int) {
			for o := 0; o < g.outer; o++ {
				pass(o, o+1, lo*strip, min(hi*strip, g.inner))
			}
		})
	}
}

// ExclusiveProdMul returns g times ExclusiveProd(x, opts...), g having the
// shape of Prod(x, opts...) and standing for each of its group's
// elements: Prod's gradient for the cotangent g (of a real x; complex
// gradients take the conjugate). The bits are those of Mul(gk,
// ExclusiveProd(x, opts...)), gk being g with the reduced dimensions as
// size 1. For float32 and float64 x and g of x's dtype the product is
// taken in the suffix pass, with no tensor in between.
func ExclusiveProdMul(x, g *Tensor, opts ...ReduceOption) (*Tensor, error) {
	const op = "exclusive_prod_mul"
	if err := requireStrided(op, x, g); err != nil {
		return nil, err
	}
	mask, keep, err := ReduceAxes(x, opts...)
	if err != nil {
		return nil, wrapErr(op, err)
	}
	kept, want := make([]int, 0, len(mask)), make([]int, 0, len(mask))
	for i, m := range mask {
		switch {
		case !m:
			kept, want = append(kept, x.shape[i]), append(want, x.shape[i])
		case keep:
			kept, want = append(kept, 1), append(want, 1)
		default:
			kept = append(kept, 1)
		}
	}
	if !shape.Equal(g.shape, want) {
		return nil, opErr(op, ErrShape, "g has shape %s, Prod's result over x of shape %s has %s",
			shape.String(g.shape), shape.String(x.shape), shape.String(want))
	}
	if (x.dtype != Float32 && x.dtype != Float64) || g.dtype != x.dtype {
		e, err := ExclusiveProd(x, opts...)
		if err != nil {
			return nil, err
		}
		gk, err := g.Reshape(kept...)
		if err != nil {
			return nil, err
		}
		return Mul(gk, e)
	}
	src, perm, grp, err := groupedSource(x, mask)
	if err != nil {
		return nil, err
	}
	scale, err := g.Contiguous()
	if err != nil {
		return nil, err
	}
	out, err := exclusiveFusedInto(src, scale, grp)
	if err != nil {
		return nil, wrapErr(op, err)
	}
	return unpermute(op, out, perm)
}

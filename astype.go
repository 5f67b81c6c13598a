package tensor

import (
	"slices"
	"unsafe"

	"github.com/tensor-go/tensor/internal/cast"
	"github.com/tensor-go/tensor/internal/ewise"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/shape"
)

// AsType returns a new contiguous tensor with t's values converted to dt,
// like NumPy's astype. It always copies, even when dt is t's dtype, so the
// result never shares storage with t.
//
// Conversions follow NumPy: integers wrap to narrower integers (int32 300 →
// int8 44, -1 → uint8 255); floats truncate toward zero into integers
// (2.7 → 2, -1.5 → uint8 255), and NaN, ±Inf and values beyond 64 bits
// become the pattern 1<<63 before wrapping (int64 min; 0 for narrower
// types); every conversion into a float rounds once to nearest even (so
// float64 → float16 is not float64 → float32 → float16), NaN stays NaN and
// overflow gives ±Inf; complex → real keeps the real part; anything → bool
// is x != 0 (NaN is true); bool → number is 0 or 1.
//
// An invalid dt is an ErrDType error.
func (t *Tensor) AsType(dt DType) (*Tensor, error) {
	if t == nil {
		return nil, opErr("astype", ErrValue, "nil *Tensor")
	}
	if t.layout != Strided {
		return t.sparseAsType(dt) // the values convert; the pattern is kept
	}
	if !dt.Valid() {
		return nil, opErr("astype", ErrDType, "invalid dtype %v", dt)
	}
	out, err := empty(dt, t.shape)
	if err != nil {
		return nil, wrapErr("astype", err)
	}
	if err := copyInto(out, t); err != nil {
		return nil, wrapErr("astype", err)
	}
	return out, nil
}

// copyInto converts or copies every element of src (any view) into dst,
// which has the same shape and any strides and dtype: the library's one
// strided conversion loop, by the rules AsType documents. Its only error is
// a shape mismatch (ErrShape, op "copy").
//
// dst and src may share storage. When dst is exactly src's view the call
// does nothing; any other overlap is resolved by copying src first, so the
// result is always as if src had been read completely before dst was
// written. dst must not have overlapping elements itself (a broadcast
// view is no destination).
//
// Tensors of ewise.MinParallel elements or more are split between up to
// GOMAXPROCS goroutines, by runs or, for a single run, by parts of it; a
// fresh destination's first touch (its page faults) is shared out too.
func copyInto(dst, src *Tensor) error {
	if !shape.Equal(dst.shape, src.shape) {
		return opErr("copy", ErrShape, "cannot copy shape %s into shape %s",
			shape.String(src.shape), shape.String(dst.shape))
	}
	if dst.Size() == 0 {
		return nil
	}
	if dst.storage == src.storage {
		if dst.dtype == src.dtype && dst.offset == src.offset && sameSteps(dst, src) {
			return nil // copying a view onto itself
		}
		tmp, err := empty(src.dtype, src.shape)
		if err != nil {
			return wrapErr("copy", err)
		}
		copyInto(tmp, src) // fresh storage: cannot overlap
		src = tmp
	}
	convert := cast.Kernel(dst.dtype, src.dtype)
	n, workers := dst.Size(), ewise.Workers(dst.Size())
	if dst.IsContiguous() && src.IsContiguous() {
		d, s := firstElement(dst), firstElement(src)
		ds, ss := dst.dtype.Size(), src.dtype.Size()
		ewise.Parallel(n, workers, func(lo, hi int) {
			convert(unsafe.Add(d, lo*ds), ds, unsafe.Add(s, lo*ss), ss, hi-lo)
		})
		return nil
	}
	plan := iter.NewPlan(dst.shape, stridesInBytes(dst), stridesInBytes(src))
	if transposing(plan) {
		copyTiles(plan, firstElement(dst), firstElement(src), convert, workers)
		return nil
	}
	bases := []unsafe.Pointer{firstElement(dst), firstElement(src)}
	kernel := func(ptrs []unsafe.Pointer, strides []int, n int) {
		convert(ptrs[0], strides[0], ptrs[1], strides[1], n)
	}
	if runs := plan.Runs(); runs > 1 {
		ewise.Parallel(runs, min(workers, runs), func(lo, hi int) {
			plan.RunRange(bases, lo, hi, kernel)
		})
		return nil
	}
	parts := plan.SplitInner(workers, ewise.MinParallel/2) // one long strided run
	ewise.Parallel(len(parts), len(parts), func(lo, hi int) {
		for _, p := range parts[lo:hi] {
			p.Run(bases, kernel)
		}
	})
	return nil
}

// tile is the side of the square blocks copyTiles walks: 32 rows of 32
// elements of up to 16 bytes is 16 KiB per operand, within L1 together.
const tile = 32

// transposing reports whether the plan (dst first, src second) runs dst's
// fastest dimension innermost while src moves faster along the next one
// out and far along the inner one: a transposing copy, where a run-by-run
// walk would touch a new cache line of src for every element.
func transposing(p *iter.Plan) bool {
	s := p.Shape()
	k := len(s)
	if k < 2 || s[k-1] < tile || s[k-2] < tile {
		return false
	}
	src := p.Strides(1)
	return abs(src[k-2]) < abs(src[k-1]) && abs(src[k-1]) >= 64
}

// copyTiles performs a transposing copy in tile×tile blocks of the plan's
// two inner dimensions, so that the lines of src a block reads are reused
// by all its rows before they leave the cache. Bands of tile rows are
// shared between workers.
func copyTiles(p *iter.Plan, dst, src unsafe.Pointer, convert func(unsafe.Pointer, int, unsafe.Pointer, int, int), workers int) {
	s, ds, ss := p.Shape(), p.Strides(0), p.Strides(1)
	k := len(s)
	rows, cols := s[k-2], s[k-1]
	outer := 1
	for _, d := range s[:k-2] {
		outer *= d
	}
	bands := (rows + tile - 1) / tile
	ewise.Parallel(outer*bands, min(workers, outer*bands), func(lo, hi int) {
		for item := lo; item < hi; item++ {
			// Locate the outer index of this band, innermost dimension last.
			dOff, sOff := 0, 0
			rest := item / bands
			for d := k - 3; d >= 0; d-- {
				i := rest % s[d]
				rest /= s[d]
				dOff += i * ds[d]
				sOff += i * ss[d]
			}
			first := item % bands * tile
			last := min(first+tile, rows)
			for c := 0; c < cols; c += tile {
				n := min(tile, cols-c)
				for r := first; r < last; r++ {
					convert(unsafe.Add(dst, dOff+r*ds[k-2]+c*ds[k-1]), ds[k-1],
						unsafe.Add(src, sOff+r*ss[k-2]+c*ss[k-1]), ss[k-1], n)
				}
			}
		}
	})
}

// sameSteps reports whether a and b (of one shape) step alike through
// memory, ignoring dimensions of size 1, whose strides are never used.
func sameSteps(a, b *Tensor) bool {
	for i, d := range a.shape {
		if d != 1 && a.strides[i] != b.strides[i] {
			return false
		}
	}
	return true
}

// firstElement returns the address of t's element at index (0, ..., 0).
func firstElement(t *Tensor) unsafe.Pointer {
	return unsafe.Add(t.storage, t.offset*t.dtype.Size())
}

// stridesInBytes returns t's strides in bytes, as the iteration engine and
// the cast kernels take them.
func stridesInBytes(t *Tensor) []int {
	st := slices.Clone(t.strides)
	for i := range st {
		st[i] *= t.dtype.Size()
	}
	return st
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

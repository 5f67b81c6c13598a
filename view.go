package tensor

import (
	"fmt"
	"math"
	"sync/atomic"
	"unsafe"

	"github.com/tensor-go/tensor/shape"
)

// Views share storage with the tensor they come from: they only compute a
// new shape, new strides and a new offset. Writing through one is seen by
// the others.

// view returns a tensor on t's storage with the given metadata (copied,
// into the view's own allocation: callers may pass scratch slices), and
// marks t as viewed so that Release leaves the shared storage alone. A
// view of a released tensor is released.
func (t *Tensor) view(shape, strides []int, offset int) *Tensor {
	atomic.StoreUint32(&t.viewed, 1)
	v, vs, vst := newHeader(len(shape))
	copy(vs, shape)
	copy(vst, strides)
	v.dtype, v.offset, v.storage, v.n, v.released = t.dtype, offset, t.storage, t.n, t.released
	v.writes = unsafe.Pointer(t.writeCount())
	return v
}

// Reshape returns t with a new shape of the same size. One dimension may be
// -1: it is inferred from the others. The result is a view whenever t's
// strides allow it, which includes every contiguous tensor and those
// non-contiguous ones whose merged or split dimensions are laid out evenly
// (a transposed matrix can gain unit dimensions but not be flattened);
// otherwise it is a contiguous copy.
func (t *Tensor) Reshape(newShape ...int) (*Tensor, error) {
	if err := requireStrided("reshape", t); err != nil {
		return nil, err
	}
	const op = "reshape"
	// Scratch for the new shape and strides, which view copies: a reshape
	// of up to reshapeRoom dimensions allocates only the view.
	var room [2][reshapeRoom]int
	target, err := inferShape(newShape, t.Size(), room[0][:])
	if err != nil {
		return nil, wrapErr(op, fmt.Errorf("cannot reshape %s into %s: %w", shape.String(t.shape), shape.String(newShape), err))
	}
	if strides, ok := reshapeStrides(t.shape, t.strides, target, room[1][:]); ok {
		return t.view(target, strides, t.offset), nil
	}
	c, err := t.copyContiguous(op)
	if err != nil {
		return nil, err
	}
	c.shape = append([]int{}, target...)
	c.strides = shape.ContiguousStrides(c.shape)
	return c, nil
}

// reshapeRoom is the rank up to which Reshape works in scratch on the stack.
const reshapeRoom = 8

// inferShape replaces a single -1 in s by the dimension that makes the
// shape hold size elements, and checks that the result does. The result
// is in room when it fits.
func inferShape(s []int, size int, room []int) ([]int, error) {
	out := room[:0]
	if len(s) > len(room) {
		out = make([]int, 0, len(s))
	}
	out = append(out, s...)
	free := -1
	known := 1
	for i, d := range out {
		switch {
		case d == -1 && free < 0:
			free = i
		case d == -1:
			return nil, fmt.Errorf("only one dimension can be -1: %w", ErrShape)
		case d < 0:
			return nil, fmt.Errorf("negative dimension %d: %w", d, ErrShape)
		case d > 0 && known > math.MaxInt/d:
			return nil, fmt.Errorf("more elements than fit in an int: %w", ErrShape)
		default:
			known *= d
		}
	}
	if free >= 0 {
		// With a zero among the known dimensions any value would fit, so
		// the free one is ambiguous, as NumPy also finds.
		if known == 0 || size%known != 0 {
			return nil, fmt.Errorf("the size %d is not a multiple of %d: %w", size, known, ErrShape)
		}
		out[free] = size / known
		known = size
	}
	if len(out) > shape.MaxRank {
		return nil, fmt.Errorf("more than %d dimensions: %w", shape.MaxRank, ErrShape)
	}
	if known != size {
		return nil, fmt.Errorf("%d elements do not fit %d: %w", size, known, ErrShape)
	}
	return out, nil
}

// reshapeStrides returns strides that let a tensor of shape oldShape and
// strides oldStrides be read as newShape (of the same size) without a
// copy, if there are any.
//
// Both shapes are cut into the shortest runs of dimensions with equal
// products. A run of old dimensions can be re-split in any way exactly when
// it is evenly laid out, each dimension's stride being the next one's
// stride times its size; the new strides of the run then follow from the
// stride of its innermost old dimension. Dimensions of size 1 never
// constrain anything and are left out of the runs.
// The result is in room when it fits.
func reshapeStrides(oldShape, oldStrides, newShape, room []int) ([]int, bool) {
	var newStrides []int
	if len(newShape) <= len(room) {
		newStrides = room[:len(newShape)]
	} else {
		newStrides = make([]int, len(newShape))
	}
	if shape.MustSize(oldShape) == 0 {
		shape.FillContiguousStrides(newStrides, newShape)
		return newStrides, true
	}
	var keptRoom [2][reshapeRoom]int
	dims, strides := keptRoom[0][:0], keptRoom[1][:0]
	for i, d := range oldShape {
		if d != 1 {
			dims = append(dims, d)
			strides = append(strides, oldStrides[i])
		}
	}
	oi, ni := 0, 0
	for oi < len(dims) && ni < len(newShape) {
		oj, nj := oi+1, ni+1
		oldProd, newProd := dims[oi], newShape[ni]
		for oldProd != newProd {
			if newProd < oldProd {
				newProd *= newShape[nj]
				nj++
			} else {
				oldProd *= dims[oj]
				oj++
			}
		}
		for k := oi; k < oj-1; k++ {
			if strides[k] != strides[k+1]*dims[k+1] {
				return nil, false
			}
		}
		newStrides[nj-1] = strides[oj-1]
		for k := nj - 1; k > ni; k-- {
			newStrides[k-1] = newStrides[k] * newShape[k]
		}
		oi, ni = oj, nj
	}
	// Trailing new dimensions are all of size 1; any stride will do.
	for ; ni < len(newShape); ni++ {
		newStrides[ni] = 1
	}
	return newStrides, true
}

// Transpose returns the view of t with its axes reversed (the matrix
// transpose for 2-D tensors; 0-d and 1-d tensors come back unchanged).
// A sparse tensor comes back transposed as a new sparse tensor (see Layout).
func (t *Tensor) Transpose() *Tensor {
	if t.layout != Strided {
		return t.sparseTranspose() // a sparse tensor in its own layout
	}
	n := len(t.shape)
	s, st := make([]int, n), make([]int, n)
	for i := range n {
		s[i], st[i] = t.shape[n-1-i], t.strides[n-1-i]
	}
	return t.view(s, st, t.offset)
}

// Permute returns the view of t whose dimension i is t's dimension
// axes[i]. The axes must name every dimension once; negative axes count from
// the end. Otherwise it is an ErrAxis error.
func (t *Tensor) Permute(axes ...int) (*Tensor, error) {
	if err := requireStrided("permute", t); err != nil {
		return nil, err
	}
	const op = "permute"
	n := len(t.shape)
	if len(axes) != n {
		return nil, opErr(op, ErrAxis, "%d axes %v for a tensor of %d dimensions", len(axes), axes, n)
	}
	seen := make([]bool, n)
	s, st := make([]int, n), make([]int, n)
	for i, a := range axes {
		ax, err := shape.NormalizeAxis(a, n)
		if err != nil {
			return nil, wrapErr(op, err)
		}
		if seen[ax] {
			return nil, opErr(op, ErrAxis, "axis %d is repeated in %v", a, axes)
		}
		seen[ax] = true
		s[i], st[i] = t.shape[ax], t.strides[ax]
	}
	return t.view(s, st, t.offset), nil
}

// MT returns the view of t with its last two dimensions swapped: the
// transpose of each matrix in a batch. It needs at least two dimensions.
func (t *Tensor) MT() (*Tensor, error) {
	if err := requireStrided("mT", t); err != nil {
		return nil, err
	}
	n := len(t.shape)
	if n < 2 {
		return nil, opErr("mT", ErrAxis, "needs at least 2 dimensions, got shape %s", shape.String(t.shape))
	}
	s, st := append([]int{}, t.shape...), append([]int{}, t.strides...)
	s[n-1], s[n-2] = s[n-2], s[n-1]
	st[n-1], st[n-2] = st[n-2], st[n-1]
	return t.view(s, st, t.offset), nil
}

// BroadcastTo returns the view of t stretched to the given shape, with
// which t's shape must broadcast (semantics §2) without changing it: new
// leading dimensions and stretched dimensions of size 1 get stride 0, so
// all their positions share the same elements.
func (t *Tensor) BroadcastTo(to ...int) (*Tensor, error) {
	if err := requireStrided("broadcast_to", t); err != nil {
		return nil, err
	}
	const op = "broadcast_to"
	if _, err := shape.Size(to); err != nil {
		return nil, wrapErr(op, err)
	}
	st, err := shape.BroadcastStrides(t.shape, t.strides, to)
	if err != nil {
		return nil, wrapErr(op, err)
	}
	return t.view(append([]int{}, to...), st, t.offset), nil
}

// Contiguous returns t itself when its elements are already one row-major
// run of storage, and otherwise a contiguous copy.
func (t *Tensor) Contiguous() (*Tensor, error) {
	if err := requireStrided("contiguous", t); err != nil {
		return nil, err
	}
	if t.IsContiguous() {
		return t, nil
	}
	return t.copyContiguous("contiguous")
}

// Clone returns a contiguous copy of t that shares nothing with it.
func (t *Tensor) Clone() (*Tensor, error) {
	if err := requireStrided("clone", t); err != nil {
		return nil, err
	}
	return t.copyContiguous("clone")
}

// copyContiguous returns a new contiguous tensor with t's shape and
// elements.
func (t *Tensor) copyContiguous(op string) (*Tensor, error) {
	out, err := newProductTensor(t.dtype, t.shape)
	if err != nil {
		return nil, wrapErr(op, err)
	}
	if out.n == 0 {
		return out, nil
	}
	if err := copyInto(out, t); err != nil {
		return nil, wrapErr(op, err)
	}
	return out, nil
}

// Range selects positions along one dimension for Slice, as a Python slice
// or index does. The zero Range selects the whole dimension. Build others
// with All, Span, From, Until and Index, and reverse or skip with By:
//
//	Python          Go
//	a[:, 1:3]       a.Slice(All(), Span(1, 3))
//	a[::-1]         a.Slice(All().By(-1))
//	a[2:, ::2]      a.Slice(From(2), All().By(2))
//	a[-1]           a.Slice(Index(-1))
type Range struct {
	start, stop       int
	hasStart, hasStop bool
	step              int  // 0 means 1, so that the zero Range is All()
	zeroStep          bool // an explicit By(0), which Slice rejects
	index             bool
}

// All selects every position of a dimension: Python's ":".
func All() Range { return Range{} }

// Span selects positions start <= i < stop: Python's "start:stop".
// Negative bounds count from the end, and bounds beyond the dimension are
// clamped to it.
func Span(start, stop int) Range {
	return Range{start: start, stop: stop, hasStart: true, hasStop: true}
}

// From selects the positions from start to the end: Python's "start:".
func From(start int) Range { return Range{start: start, hasStart: true} }

// Until selects the positions before stop: Python's ":stop".
func Until(stop int) Range { return Range{stop: stop, hasStop: true} }

// Index selects the single position i (negative counts from the end) and
// drops the dimension, as Python's a[i] does.
func Index(i int) Range { return Range{start: i, hasStart: true, index: true} }

// By returns r with a step: every step-th position, walking backwards for
// a negative step (Python's "start:stop:step"; omitted bounds then start
// from the end). A zero step is an error when the Range is used.
//
// Every int is a valid step, as in Python: a step beyond the dimension
// selects the first position only (All().By(math.MaxInt) on 3 elements
// is one element, as NumPy's a[::sys.maxsize]), and math.MinInt walks
// backwards from the last.
func (r Range) By(step int) Range {
	r.step, r.zeroStep = step, step == 0
	return r
}

// String formats r as Python slice syntax.
func (r Range) String() string {
	if r.index {
		return fmt.Sprint(r.start)
	}
	s := ""
	if r.hasStart {
		s = fmt.Sprint(r.start)
	}
	s += ":"
	if r.hasStop {
		s += fmt.Sprint(r.stop)
	}
	switch {
	case r.zeroStep:
		s += ":0"
	case r.step != 0 && r.step != 1:
		s += ":" + fmt.Sprint(r.step)
	}
	return s
}

// resolve returns the first position, the count and the step that r
// selects in a dimension of size n, with Python's clamping. An Index out
// of range and a zero step are errors.
func (r Range) resolve(n int) (first, count, step int, err error) {
	if r.index {
		i := r.start
		if i < -n || i >= n {
			return 0, 0, 0, fmt.Errorf("index %d is out of range for size %d: %w", i, n, ErrIndex)
		}
		if i < 0 {
			i += n
		}
		return i, 1, 1, nil
	}
	step = r.step
	switch {
	case r.zeroStep:
		return 0, 0, 0, fmt.Errorf("slice step cannot be zero: %w", ErrValue)
	case step == 0:
		step = 1
	}
	// clamp maps a bound into [lo, hi] after counting negatives from the end.
	clamp := func(b, lo, hi int) int {
		if b < 0 {
			b += n
		}
		return min(max(b, lo), hi)
	}
	if step > 0 {
		start, stop := 0, n
		if r.hasStart {
			start = clamp(r.start, 0, n)
		}
		if r.hasStop {
			stop = clamp(r.stop, 0, n)
		}
		if stop > start {
			// (stop-start-1)/step + 1, not the rounded-up quotient, whose
			// numerator overflows for steps near math.MaxInt.
			count = (stop-start-1)/step + 1
		}
		return start, count, step, nil
	}
	// Walking backwards, -1 stands for "before the first position".
	start, stop := n-1, -1
	if r.hasStart {
		start = clamp(r.start, -1, n-1)
	}
	if r.hasStop {
		stop = clamp(r.stop, -1, n-1)
	}
	if start > stop {
		// In unsigned arithmetic, since -math.MinInt overflows an int.
		count = int(uint(start-stop-1)/(-uint(step))) + 1
	}
	return start, count, step, nil
}

// Slice returns the view of t selecting, in each leading dimension, the
// positions its Range names; dimensions beyond the ranges given are kept
// whole, and dimensions selected with Index are dropped. Out-of-range
// slice bounds are clamped as in Python; an out-of-range Index or more
// ranges than dimensions is an ErrIndex error.
func (t *Tensor) Slice(ranges ...Range) (*Tensor, error) {
	if err := requireStrided("slice", t); err != nil {
		return nil, err
	}
	const op = "slice"
	if len(ranges) > len(t.shape) {
		return nil, opErr(op, ErrIndex, "%d ranges for a tensor of %d dimensions %s", len(ranges), len(t.shape), shape.String(t.shape))
	}
	s := make([]int, 0, len(t.shape))
	st := make([]int, 0, len(t.shape))
	offset := t.offset
	for d, n := range t.shape {
		if d >= len(ranges) {
			s, st = append(s, n), append(st, t.strides[d])
			continue
		}
		first, count, step, err := ranges[d].resolve(n)
		if err != nil {
			return nil, wrapErr(op, fmt.Errorf("dimension %d: %w", d, err))
		}
		if count > 0 {
			offset += first * t.strides[d]
		}
		// With two or more positions the step is at most the dimension,
		// so the stride cannot overflow; with fewer it is never taken,
		// and a huge step must not make it overflow.
		stride := t.strides[d]
		if count > 1 {
			stride *= step
		}
		if !ranges[d].index {
			s, st = append(s, count), append(st, stride)
		}
	}
	return t.view(s, st, offset), nil
}

// Squeeze returns the view of t without the given dimensions of size 1
// (negative axes count from the end), or without every dimension of size
// 1 when no axis is given. Naming a dimension whose size is not 1 is an
// ErrShape error; an axis out of range or repeated is an ErrAxis error.
func (t *Tensor) Squeeze(axes ...int) (*Tensor, error) {
	if err := requireStrided("squeeze", t); err != nil {
		return nil, err
	}
	const op = "squeeze"
	drop := make([]bool, len(t.shape))
	if len(axes) == 0 {
		for d, n := range t.shape {
			drop[d] = n == 1
		}
	} else {
		mask, err := shape.ReduceAxes(axes, len(t.shape))
		if err != nil {
			return nil, wrapErr(op, err)
		}
		for d, m := range mask {
			if m && t.shape[d] != 1 {
				return nil, opErr(op, ErrShape, "cannot squeeze axis %d of size %d in shape %s", d, t.shape[d], shape.String(t.shape))
			}
		}
		drop = mask
	}
	var s, st []int
	for d, n := range t.shape {
		if !drop[d] {
			s, st = append(s, n), append(st, t.strides[d])
		}
	}
	return t.view(s, st, t.offset), nil
}

// ExpandDims returns the view of t with a new dimension of size 1 at
// position axis of the result, which may be negative: -1 appends it.
// An axis outside [-ndim-1, ndim] is an ErrAxis error.
func (t *Tensor) ExpandDims(axis int) (*Tensor, error) {
	if err := requireStrided("expand_dims", t); err != nil {
		return nil, err
	}
	n := len(t.shape)
	ax, err := shape.NormalizeAxis(axis, n+1)
	if err != nil {
		return nil, wrapErr("expand_dims", err)
	}
	if n+1 > shape.MaxRank {
		return nil, opErr("expand_dims", ErrShape, "more than %d dimensions", shape.MaxRank)
	}
	// The new dimension is never stepped through; give it the stride a
	// contiguous layout would have, so contiguous tensors stay recognisably so.
	stride := 1
	if ax < n {
		stride = t.strides[ax] * t.shape[ax]
	}
	s := append(append(append([]int{}, t.shape[:ax]...), 1), t.shape[ax:]...)
	st := append(append(append([]int{}, t.strides[:ax]...), stride), t.strides[ax:]...)
	return t.view(s, st, t.offset), nil
}

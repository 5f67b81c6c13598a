package tensor

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"testing"
)

// pySlice returns the positions Python's a[start:stop:step] selects in a
// dimension of size n (an omitted bound when has is false), computed the
// slow, obvious way: clamp as slice.indices does, then walk, stopping
// before the walk would overflow.
func pySlice(n int, start, stop, step int, hasStart, hasStop bool) []int {
	lower, upper := 0, n
	if step < 0 {
		lower, upper = -1, n-1
	}
	clamp := func(b int) int {
		if b < 0 {
			b += n
			return max(b, lower)
		}
		return min(b, upper)
	}
	s, e := lower, upper
	if step < 0 {
		s, e = upper, lower
	}
	if hasStart {
		s = clamp(start)
	}
	if hasStop {
		e = clamp(stop)
	}
	var out []int
	for i := s; step > 0 && i < e || step < 0 && i > e; {
		out = append(out, i)
		if step > 0 && i > math.MaxInt-step || step < 0 && i < math.MinInt-step {
			break
		}
		i += step
	}
	return out
}

// TestSliceExtremeSteps checks steps at the ends of int: one element for
// a step beyond the dimension either way, as NumPy gives (before,
// By(math.MaxInt) made a dimension of -1 and By(math.MinInt) read as the
// zero step).
func TestSliceExtremeSteps(t *testing.T) {
	x := Must(FromSlice([]int64{10, 11, 12}))
	for _, c := range []struct {
		r    Range
		want []int64
	}{
		{All().By(math.MaxInt), []int64{10}},
		{All().By(math.MinInt), []int64{12}},
		{All().By(math.MinInt + 1), []int64{12}},
		{From(1).By(math.MaxInt), []int64{11}},
		{Span(math.MinInt, math.MaxInt).By(2), []int64{10, 12}},
		{Span(math.MaxInt, math.MinInt).By(-1), []int64{12, 11, 10}},
		{Span(math.MaxInt, math.MinInt).By(math.MinInt), []int64{12}},
		{Until(math.MinInt).By(-1), []int64{12, 11, 10}},
	} {
		v, err := x.Slice(c.r)
		if err != nil {
			t.Errorf("Slice(%v): %v", c.r, err)
			continue
		}
		if got := mustInts(t, v); !slices.Equal(got, c.want) || v.Size() != len(c.want) {
			t.Errorf("Slice(%v) = %v (size %d), want %v", c.r, got, v.Size(), c.want)
		}
		_ = v.String() // must not panic
	}
	if _, err := x.Slice(All().By(0)); !errors.Is(err, ErrValue) {
		t.Errorf("By(0): %v, want ErrValue", err)
	}
	if s := All().By(math.MinInt).String(); s != "::"+strconv.Itoa(math.MinInt) {
		t.Errorf("By(math.MinInt) prints as %q", s)
	}
}

// fuzzInts are the integers the slicing fuzzers seed with: the ends of
// int and the neighbourhood of the small dimensions.
var fuzzInts = []int64{0, 1, -1, 2, -2, 3, -3, 7, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1, 1 << 32, -1 << 32}

// FuzzSlice compares Slice on a 3-D tensor with the obvious walk of
// Python's rules, for any integers: the view's shape and elements must
// match, and no size may be negative.
func FuzzSlice(f *testing.F) {
	for i, a := range fuzzInts {
		b, c := fuzzInts[(i+3)%len(fuzzInts)], fuzzInts[(i+5)%len(fuzzInts)]
		f.Add(a, b, c, uint8(i), uint8(i%3))
	}
	x := Must(Must(Arange(60, Int64)).Reshape(3, 4, 5))
	f.Fuzz(func(t *testing.T, start, stop, step int64, flags, dim uint8) {
		d := int(dim % 3)
		n := x.shape[d]
		hasStart, hasStop, index := flags&1 != 0, flags&2 != 0, flags&4 != 0
		r := Range{start: int(start), stop: int(stop), hasStart: hasStart, hasStop: hasStop}
		if flags&8 != 0 {
			r = r.By(int(step))
		}
		if index {
			r = Index(int(start))
		}
		ranges := make([]Range, d+1)
		ranges[d] = r
		v, err := x.Slice(ranges...)
		var want []int
		switch {
		case index:
			if i := int(start); i >= -n && i < n {
				want = []int{(i + n) % n}
			}
		case flags&8 != 0 && int(step) == 0: // as the Range has it (a 32-bit int keeps the low bits)
		default:
			st := 1
			if flags&8 != 0 {
				st = int(step)
			}
			want = pySlice(n, int(start), int(stop), st, hasStart, hasStop)
		}
		if err != nil {
			if want != nil || !index && !(flags&8 != 0 && int(step) == 0) {
				t.Fatalf("Slice(%v) on dimension %d of %d: %v, want positions %v", r, d, n, err, want)
			}
			return
		}
		for _, s := range v.shape {
			if s < 0 {
				t.Fatalf("Slice(%v) made shape %v", r, v.shape)
			}
		}
		got := mustInts(t, v)
		ref := x
		if !index {
			if v.shape[d] != len(want) {
				t.Fatalf("Slice(%v) on dimension %d of %d: size %d, want %d (%v)", r, d, n, v.shape[d], len(want), want)
			}
		}
		// The reference: take the wanted positions of dimension d one by one.
		var expect []int64
		full := mustInts(t, ref)
		outer, inner := 1, 1
		for k := 0; k < d; k++ {
			outer *= x.shape[k]
		}
		for k := d + 1; k < 3; k++ {
			inner *= x.shape[k]
		}
		for o := 0; o < outer; o++ {
			for _, p := range want {
				expect = append(expect, full[(o*n+p)*inner:(o*n+p+1)*inner]...)
			}
		}
		if !slices.Equal(got, expect) && len(got)+len(expect) > 0 {
			t.Fatalf("Slice(%v) on dimension %d: %v, want %v", r, d, got, expect)
		}
	})
}

// FuzzReshape reshapes a 24-element tensor (and an empty one) to any three
// integers: an error, or a view or copy of the same elements in the same
// order, never a panic or a negative size.
func FuzzReshape(f *testing.F) {
	for i, a := range fuzzInts {
		f.Add(a, fuzzInts[(i+1)%len(fuzzInts)], fuzzInts[(i+7)%len(fuzzInts)], i%2 == 0)
	}
	f.Add(int64(2), int64(-1), int64(4), false)
	f.Add(int64(0), int64(-1), int64(math.MaxInt64), true)
	full := Must(Must(Arange(24, Int64)).Reshape(2, 3, 4))
	empty := Must(Zeros(Int64, 0, 5))
	f.Fuzz(func(t *testing.T, a, b, c int64, useEmpty bool) {
		x := full
		if useEmpty {
			x = empty
		}
		for _, src := range []*Tensor{x, x.Transpose()} {
			v, err := src.Reshape(int(a), int(b), int(c))
			if err != nil {
				if !errors.Is(err, ErrShape) {
					t.Fatalf("Reshape(%d, %d, %d): %v, want ErrShape", a, b, c, err)
				}
				continue
			}
			for _, s := range v.shape {
				if s < 0 {
					t.Fatalf("Reshape(%d, %d, %d) made shape %v", a, b, c, v.shape)
				}
			}
			if v.Size() != src.Size() {
				t.Fatalf("Reshape(%d, %d, %d) of %d elements has %d", a, b, c, src.Size(), v.Size())
			}
			if !slices.Equal(mustInts(t, v), mustInts(t, src)) {
				t.Fatalf("Reshape(%d, %d, %d) reordered the elements", a, b, c)
			}
		}
	})
}

// FuzzRange builds ranges from any integers and resolves them in any
// dimension size: the count is never negative and never more than the
// size, and the positions it names lie inside the dimension.
func FuzzRange(f *testing.F) {
	for i, a := range fuzzInts {
		f.Add(a, fuzzInts[(i+2)%len(fuzzInts)], fuzzInts[(i+4)%len(fuzzInts)], uint8(i), fuzzInts[(i+6)%len(fuzzInts)])
	}
	f.Fuzz(func(t *testing.T, start, stop, step int64, flags uint8, size int64) {
		n := int(size)
		if n < 0 {
			n = -(n + 1) // every non-negative size, math.MaxInt included
		}
		r := Range{start: int(start), stop: int(stop), hasStart: flags&1 != 0, hasStop: flags&2 != 0, index: flags&4 != 0}
		if flags&8 != 0 {
			r = r.By(int(step))
		}
		first, count, st, err := r.resolve(n)
		if err != nil {
			return
		}
		if count < 0 || count > n || st == 0 {
			t.Fatalf("%v in size %d: first %d, count %d, step %d", r, n, first, count, st)
		}
		if count > 0 {
			last := first + (count-1)*st // at most n-1 away: cannot overflow
			if first < 0 || first >= n || last < 0 || last >= n {
				t.Fatalf("%v in size %d: positions %d..%d by %d leave the dimension", r, n, first, last, st)
			}
		}
		_ = r.String()
	})
}

// mustInts returns the elements of an int64 tensor.
func mustInts(t *testing.T, x *Tensor) []int64 {
	t.Helper()
	s, err := ToSlice[int64](x)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

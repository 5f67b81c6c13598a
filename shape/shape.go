// Package shape holds the pure shape rules of the tensor library: element
// counts with overflow checks, contiguous strides, broadcasting, reduction
// axes and the shapes of a matrix product. Nothing here touches data.
package shape

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Sentinel errors; every error of this package wraps one of them.
var (
	// ErrShape: shapes that do not fit together or are not valid shapes.
	ErrShape = errors.New("shape error")
	// ErrAxis: an axis out of range or repeated.
	ErrAxis = errors.New("axis error")
)

// MaxRank is the largest number of dimensions a tensor may have, as in NumPy.
const MaxRank = 64

// String formats a shape as Python prints a tuple: "()", "(3,)", "(2, 3)".
func String(s []int) string {
	if len(s) == 1 {
		return "(" + strconv.Itoa(s[0]) + ",)"
	}
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = strconv.Itoa(d)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// Size returns the number of elements of a tensor of shape s. It fails for
// negative dimensions, too many dimensions, and counts that overflow int.
func Size(s []int) (int, error) {
	if len(s) > MaxRank {
		return 0, fmt.Errorf("shape %s has %d dimensions, more than %d: %w", String(s), len(s), MaxRank, ErrShape)
	}
	n := 1
	for _, d := range s {
		if d < 0 {
			return 0, fmt.Errorf("shape %s has a negative dimension: %w", String(s), ErrShape)
		}
	}
	for _, d := range s {
		if d == 0 {
			return 0, nil
		}
		if n > math.MaxInt/d {
			return 0, fmt.Errorf("shape %s has more elements than fit in an int: %w", String(s), ErrShape)
		}
		n *= d
	}
	return n, nil
}

// MustSize is Size for shapes already known valid (those of existing tensors).
func MustSize(s []int) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// ContiguousStrides returns the row-major (C order) element strides of s.
func ContiguousStrides(s []int) []int {
	strides := make([]int, len(s))
	FillContiguousStrides(strides, s)
	return strides
}

// FillContiguousStrides writes ContiguousStrides(s) into strides, which has
// len(s) elements, so that a caller with room for them allocates nothing.
func FillContiguousStrides(strides, s []int) {
	step := 1
	for i := len(s) - 1; i >= 0; i-- {
		strides[i] = step
		// A product past math.MaxInt can only come from an empty shape
		// (say (0, 2^62, 2^62)), whose strides are never stepped through:
		// the step stops growing instead of wrapping to nonsense.
		if s[i] > 1 && step <= math.MaxInt/s[i] {
			step *= s[i]
		}
	}
}

// Equal reports whether two shapes are the same.
func Equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Broadcast returns the shape that shapes a and b broadcast to (semantics
// §2): aligned on the right, each pair of dimensions equal or one of them 1.
func Broadcast(a, b []int) ([]int, error) {
	out := make([]int, max(len(a), len(b)))
	if err := BroadcastInto(out, a, b); err != nil {
		return nil, err
	}
	return out, nil
}

// BroadcastInto is Broadcast writing the shape into out, which has
// max(len(a), len(b)) elements, so that a caller with room for it
// allocates nothing.
func BroadcastInto(out, a, b []int) error {
	n := len(out)
	for i := 1; i <= n; i++ {
		da, db := dimFromRight(a, i), dimFromRight(b, i)
		switch {
		case da == db || db == 1:
			out[n-i] = da
		case da == 1:
			out[n-i] = db
		default:
			return fmt.Errorf("shapes %s and %s do not broadcast (dimension %d: %d vs %d): %w",
				String(a), String(b), n-i, da, db, ErrShape)
		}
	}
	return nil
}

// dimFromRight returns the i-th dimension of s counted from the right
// (1-based), or 1 where s is too short: the implicit leading ones.
func dimFromRight(s []int, i int) int {
	if i > len(s) {
		return 1
	}
	return s[len(s)-i]
}

// BroadcastStrides returns the strides with which a tensor of shape s and
// strides st is seen as the (broadcast-compatible) shape to: prepended and
// stretched dimensions get stride 0.
func BroadcastStrides(s, st, to []int) ([]int, error) {
	if len(s) > len(to) {
		return nil, fmt.Errorf("cannot broadcast shape %s to %s: %w", String(s), String(to), ErrShape)
	}
	out := make([]int, len(to))
	lead := len(to) - len(s)
	for i, d := range s {
		switch {
		case d == to[lead+i]:
			out[lead+i] = st[i]
		case d == 1:
			out[lead+i] = 0
		default:
			return nil, fmt.Errorf("cannot broadcast shape %s to %s: %w", String(s), String(to), ErrShape)
		}
	}
	return out, nil
}

// NormalizeAxis maps a possibly negative axis into [0, rank).
func NormalizeAxis(axis, rank int) (int, error) {
	if axis < -rank || axis >= rank {
		return 0, fmt.Errorf("axis %d is out of range for %d dimensions: %w", axis, rank, ErrAxis)
	}
	if axis < 0 {
		axis += rank
	}
	return axis, nil
}

// ReduceAxes normalizes a set of reduction axes for a tensor of the given
// rank and returns a mask with one entry per dimension. Negative axes count
// from the end; repeated axes (after normalizing) and out-of-range axes are
// errors. A nil axes slice is not special here: callers that mean "all
// axes" pass every axis.
func ReduceAxes(axes []int, rank int) ([]bool, error) {
	mask := make([]bool, rank)
	for _, a := range axes {
		n, err := NormalizeAxis(a, rank)
		if err != nil {
			return nil, err
		}
		if mask[n] {
			return nil, fmt.Errorf("axis %d is repeated in %v: %w", a, axes, ErrAxis)
		}
		mask[n] = true
	}
	return mask, nil
}

// Reduced returns the shape left after reducing the masked dimensions of s,
// keeping them as size 1 when keepdims is set.
func Reduced(s []int, mask []bool, keepdims bool) []int {
	out := make([]int, 0, len(s))
	for i, d := range s {
		switch {
		case !mask[i]:
			out = append(out, d)
		case keepdims:
			out = append(out, 1)
		}
	}
	return out
}

package shape

import (
	"math"
	"slices"
	"testing"
)

// TestContiguousStrides checks the row-major strides, and that an empty
// shape whose other dimensions multiply past math.MaxInt gets strides that
// stop growing rather than wrap (negative or zero strides, before).
func TestContiguousStrides(t *testing.T) {
	for _, c := range []struct{ shape, want []int }{
		{[]int{}, []int{}},
		{[]int{3}, []int{1}},
		{[]int{2, 3, 4}, []int{12, 4, 1}},
		{[]int{2, 1, 4}, []int{4, 4, 1}},
		{[]int{0, 5}, []int{5, 1}},
		{[]int{0, math.MaxInt/2 + 1, math.MaxInt/2 + 1}, []int{math.MaxInt/2 + 1, math.MaxInt/2 + 1, 1}}, // 2^62 (2^30 with a 32-bit int)
		{[]int{math.MaxInt, 0, 3}, []int{3, 3, 1}},
	} {
		if got := ContiguousStrides(c.shape); !slices.Equal(got, c.want) {
			t.Errorf("ContiguousStrides(%v) = %v, want %v", c.shape, got, c.want)
		}
		for _, st := range ContiguousStrides(c.shape) {
			if st <= 0 {
				t.Errorf("ContiguousStrides(%v) has stride %d", c.shape, st)
			}
		}
	}
}

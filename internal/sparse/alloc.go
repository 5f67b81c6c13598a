package sparse

import (
	"math"
	"strings"
	"unsafe"
)

// minUninitialized is the size in bytes from which uninitialized skips
// make's clearing: below it the clearing is cheap and the memory comes
// from small size classes.
const minUninitialized = 64 << 10

// uninitialized returns a slice of n elements of unspecified contents, for
// a caller that overwrites every element it keeps. SpGEMM writes each
// element of its result exactly once; clearing the arrays first, as make
// does, would add a full pass over the largest arrays of the product (a
// sixth of its time, and a serial one).
//
// Go has no public way to allocate without clearing except through the
// standard library's own buffers: strings.Builder grows into memory it
// does not clear, as it only ever exposes what it has written. The builder's
// array is taken over as n elements of E. E holds no pointers (Number), so
// the garbage collector, which sees a pointer-free byte array, is right;
// a large array is page-aligned, so E's alignment holds. Should the
// builder ever clear its memory, this is merely as fast as make.
func uninitialized[E Number](n int) []E {
	var e E
	size := int(unsafe.Sizeof(e))
	if n < minUninitialized/size || n > math.MaxInt/size {
		return make([]E, n) // make reports an impossible size itself
	}
	var sb strings.Builder
	sb.Grow(n * size)
	sb.WriteByte(0) // a non-empty string, whose data pointer is specified
	return unsafe.Slice((*E)(unsafe.Pointer(unsafe.StringData(sb.String()))), n)
}

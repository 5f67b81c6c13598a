package sparse

import (
	"math"
	"unsafe"

	"github.com/tensor-go/tensor/internal/storage"
)

// uninitialized returns a slice of n elements of unspecified contents, for
// a caller that overwrites every element it keeps. SpGEMM writes each
// element of its result exactly once; clearing the arrays first, as make
// does, would add a full pass over the largest arrays of the product (a
// sixth of its time, and a serial one). The memory comes from package
// storage, which also hands back the arrays of dropped results, still
// mapped, instead of fresh pages the kernel must fault in. E holds no
// pointers (Number) and storage aligns every buffer to 8 bytes, which is
// all any E needs.
func uninitialized[E Number](n int) []E {
	var e E
	size := int(unsafe.Sizeof(e))
	if n == 0 || n > math.MaxInt/size {
		return make([]E, n) // make reports an impossible size itself
	}
	return unsafe.Slice((*E)(storage.Get(n*size, false)), n)
}

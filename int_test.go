package tensor

import (
	"math"
	"strconv"
)

// hugeInt is 2^62 where int has 64 bits and 2^30 where it has 32 (386,
// arm): a size whose square overflows int, so that the overflow cases of
// the shape checks compile, and hold, on both.
const hugeInt = math.MaxInt/2 + 1

// intBeyond32 returns 2^40 as an int and whether int holds it (not on 386
// or arm): cases that need a Go int outside int32's range run only where
// there is one.
func intBeyond32() (int, bool) {
	v := int64(1) << 40
	return int(v), int64(int(v)) == v
}

// goIntDType and goUintDType are the dtypes of Go's int and uint: 64 bits
// wide, or 32 where int is.
var goIntDType, goUintDType = Int64, Uint64

func init() {
	if strconv.IntSize == 32 {
		goIntDType, goUintDType = Int32, Uint32
	}
}

package tensor

import (
	"math"

	"github.com/tensor-go/tensor/internal/memlimit"
)

// maxBytes bounds every single allocation, so that a bad shape fails with
// an error instead of aborting the process when the runtime cannot satisfy
// it (Go's out-of-memory failure cannot be recovered): the lowest of RAM
// plus swap, RLIMIT_AS, the cgroup's memory limit and 1 TiB, read once.
var maxBytes = min(memlimit.Total(), min(1<<40, math.MaxInt)) // the largest int on 32-bit machines

// checkedBytes is the size from which an allocation is also checked
// against what may be allocated now (GOMEMLIMIT as the program set it last,
// the address space left under RLIMIT_AS): reading that costs microseconds,
// nothing beside touching 64 MiB.
const checkedBytes = 64 << 20

// allocLimit returns the most bytes an allocation of bytes may take, or 0
// when it fits.
func allocLimit(bytes int) int {
	if bytes < checkedBytes {
		return 0
	}
	if limit := memlimit.Allocatable(); bytes > limit {
		return limit
	}
	return 0
}

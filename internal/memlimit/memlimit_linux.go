package memlimit

import (
	"math"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// ramAndSwap is the machine's RAM plus swap, unlimited if the kernel does
// not say.
func ramAndSwap() int {
	var info unix.Sysinfo_t
	if unix.Sysinfo(&info) != nil {
		return unlimited
	}
	unit := uint64(max(info.Unit, 1))
	total := (uint64(info.Totalram) + uint64(info.Totalswap)) * unit
	if total == 0 || total > math.MaxInt {
		return unlimited
	}
	return int(total)
}

// addressSpaceLimit is RLIMIT_AS's soft limit, unlimited when unset.
func addressSpaceLimit() int {
	var r unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_AS, &r) != nil || r.Cur == unix.RLIM_INFINITY || uint64(r.Cur) > math.MaxInt {
		return unlimited
	}
	return int(r.Cur)
}

// mappedBytes is the process's mapped address space (VmSize), which
// RLIMIT_AS bounds, from /proc/self/statm.
func mappedBytes() int {
	statm := readFile("/proc/self/statm")
	pages, _, _ := strings.Cut(string(statm), " ")
	n, err := strconv.Atoi(pages)
	if err != nil {
		return 0
	}
	page := os.Getpagesize()
	return min(n, math.MaxInt/page) * page // a 32-bit int holds 2 GiB
}

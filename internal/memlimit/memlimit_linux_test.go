package memlimit

import (
	"math"
	"testing"

	"golang.org/x/sys/unix"
)

// TestAddressSpaceLimit lowers RLIMIT_AS's soft limit (to far above what
// the test uses) and reads it back; the hard limit lets it be raised again.
func TestAddressSpaceLimit(t *testing.T) {
	var old unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_AS, &old); err != nil {
		t.Skip(err)
	}
	const limit = min(1<<44, math.MaxInt) // 2 GiB where int is 32 bits
	if old.Cur != unix.RLIM_INFINITY && old.Cur < limit {
		t.Skip("RLIMIT_AS is lower than the test's value already")
	}
	if err := unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: limit, Max: old.Max}); err != nil {
		t.Skip(err)
	}
	defer unix.Setrlimit(unix.RLIMIT_AS, &old)
	// qemu's user-mode emulation accepts but does not apply RLIMIT_AS
	// (it would limit the emulator itself) and reports the old value.
	var now unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_AS, &now) != nil || now.Cur != limit {
		t.Skip("RLIMIT_AS is not applied here (an emulator)")
	}
	if got := addressSpaceLimit(); got != limit {
		t.Errorf("addressSpaceLimit = %d, want %d", got, limit)
	}
	if m := mappedBytes(); m <= 0 || m >= limit {
		t.Errorf("mappedBytes = %d, want the process's positive VmSize", m)
	}
}

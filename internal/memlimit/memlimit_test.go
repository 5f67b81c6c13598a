package memlimit

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// write creates root/name with contents, and its directories.
func write(t *testing.T, root, name, contents string) {
	t.Helper()
	p := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(contents), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCgroupV2LowestAlongThePath(t *testing.T) {
	root := t.TempDir()
	write(t, root, "sys/fs/cgroup/memory.max", "max\n")
	write(t, root, "sys/fs/cgroup/app/memory.max", "1073741824\n")
	write(t, root, "sys/fs/cgroup/app/job/memory.max", "max\n")
	write(t, root, "sys/fs/cgroup/app/memory.current", "52428800\n")
	self := []byte("0::/app/job\n")
	if got, dir := cgroupLimit(root, self); got != 1<<30 || dir != filepath.Join(root, "sys/fs/cgroup/app") {
		t.Errorf("cgroupLimit = %d in %s, want 1 GiB set by app", got, dir)
	}
	if got, ok := cgroupUsage(root, self); !ok || got != 50<<20 {
		t.Errorf("cgroupUsage = %d, %v, want 50 MiB", got, ok)
	}
}

func TestCgroupV1MemoryController(t *testing.T) {
	root := t.TempDir()
	write(t, root, "sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n")
	write(t, root, "sys/fs/cgroup/memory/box/memory.limit_in_bytes", "536870912\n")
	write(t, root, "sys/fs/cgroup/memory/box/memory.usage_in_bytes", "1048576\n")
	// A hybrid system lists the v2 hierarchy too; the v1 memory controller is the one that limits.
	self := []byte("12:cpu,cpuacct:/\n4:memory:/box\n0::/\n")
	if got, _ := cgroupLimit(root, self); got != 512<<20 {
		t.Errorf("cgroupLimit = %d, want 512 MiB", got)
	}
	if got, ok := cgroupUsage(root, self); !ok || got != 1<<20 {
		t.Errorf("cgroupUsage = %d, %v, want 1 MiB", got, ok)
	}
}

func TestNoCgroupIsUnlimited(t *testing.T) {
	root := t.TempDir()
	for _, self := range []string{"", "garbage", "0::/\n", "4:memory:/gone\n"} {
		if got, _ := cgroupLimit(root, []byte(self)); got != unlimited {
			t.Errorf("cgroupLimit with %q and no files = %d, want unlimited", self, got)
		}
		if _, ok := cgroupUsage(root, []byte(self)); ok {
			t.Errorf("cgroupUsage with %q and no files reported a usage", self)
		}
	}
}

func TestGOMEMLIMITIsTheLowest(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	before := Total()
	debug.SetMemoryLimit(300 << 20)
	if got := Total(); got != min(before, 300<<20) {
		t.Errorf("Total with GOMEMLIMIT 300 MiB = %d, want %d", got, min(before, 300<<20))
	}
	if got := Available(); got > 300<<20 || got <= 0 {
		t.Errorf("Available with GOMEMLIMIT 300 MiB = %d, want positive and below it", got)
	}
	// What the process holds counts: 64 MiB more held live is 64 MiB less available.
	a0 := Available()
	hold := make([]byte, 64<<20)
	for i := range hold {
		hold[i] = 1
	}
	if a1 := Available(); a1 > a0-60<<20 {
		t.Errorf("Available %d after holding 64 MiB more, was %d", a1, a0)
	}
	_ = hold[len(hold)-1]
}

// TestMeminfoSaturates checks that MemAvailable and SwapFree add up in
// bytes, and that a total no int holds (the RAM of most machines, for a
// 32-bit build) is unlimited rather than wrapped to a negative or zero
// budget: a 386 CLI refused every result for "0 bytes of memory".
func TestMeminfoSaturates(t *testing.T) {
	info := "MemTotal: 9 kB\nMemAvailable:       3 kB\nSwapFree: 2 kB\n"
	if got := parseMeminfo([]byte(info)); got != 5<<10 {
		t.Errorf("3 kB + 2 kB = %d bytes, want %d", got, 5<<10)
	}
	huge := "MemAvailable: 9007199254740992 kB\nSwapFree: 1 kB\n" // 2^63 bytes
	if got := parseMeminfo([]byte(huge)); got != unlimited {
		t.Errorf("2^53 kB = %d, want unlimited", got)
	}
	if got := parseMeminfo([]byte("SwapFree: 1 kB\n")); got != unlimited {
		t.Errorf("no MemAvailable: %d, want unlimited", got)
	}
}

// Package memlimit says how much memory the process may use, so that the
// library refuses an allocation that cannot succeed with an error instead
// of letting the Go runtime abort the process (a failed allocation is a
// fatal error no recover catches).
//
// Four limits apply, and the lowest wins: the machine's RAM plus swap; the
// address-space limit RLIMIT_AS (ulimit -v, prlimit --as), where Go's
// mappings count whether resident or not; the memory limit of the
// process's cgroup (v2 memory.max, v1 memory.limit_in_bytes, the lowest
// along the path to the root), which is what containers set; and the Go
// runtime's soft limit (GOMEMLIMIT or debug.SetMemoryLimit), which the
// program's owner set for this process.
package memlimit

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"path"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
)

// unlimited stands for "no limit": a bound far above any machine.
const unlimited = math.MaxInt

// static holds the limits that do not change while the process runs, read
// once: RAM plus swap, RLIMIT_AS and the cgroup's limit.
var static = sync.OnceValue(func() (s struct{ ram, as, cgroup int }) {
	s.ram, s.as = ramAndSwap(), addressSpaceLimit()
	s.cgroup, _ = cgroupLimit("/", readFile("/proc/self/cgroup"))
	return s
})

// Total returns the lowest of the four limits in bytes: no single
// allocation larger than that can succeed (or, for GOMEMLIMIT, should be
// made). GOMEMLIMIT is read at each call, since the program may set it at
// any time.
func Total() int {
	s := static()
	return min(s.ram, s.as, s.cgroup, goLimit())
}

// Allocatable returns the most bytes one allocation may take now: the
// lowest of RAM plus swap, the cgroup's limit, GOMEMLIMIT and, when
// RLIMIT_AS is set, the address space left under it (mappings cannot be
// reclaimed by a collection, and exceeding the limit aborts the process).
func Allocatable() int {
	s := static()
	limit := min(s.ram, s.cgroup, goLimit())
	if s.as != unlimited {
		limit = min(limit, max(s.as-mappedBytes()-asHeadroom+goMemory().reusable, 0))
	}
	return limit
}

// Available returns how many more bytes the process can allocate now
// under each limit, the lowest of them: the kernel's MemAvailable plus
// free swap; RLIMIT_AS less the address space mapped already (less
// headroom for the Go runtime's own mappings), plus what the Go heap has
// mapped and free to reuse; the cgroup's limit less its usage; GOMEMLIMIT
// less what the Go runtime holds. Everything the process keeps live counts
// against it.
func Available() int {
	s := static()
	mem := goMemory()
	avail := min(availableRAM(), goLimit()-mem.used)
	if s.as != unlimited {
		avail = min(avail, s.as-mappedBytes()-asHeadroom+mem.reusable)
	}
	if s.cgroup != unlimited {
		if usage, ok := cgroupUsage("/", readFile("/proc/self/cgroup")); ok {
			avail = min(avail, s.cgroup-usage)
		}
	}
	return max(avail, 0)
}

// asHeadroom is the address space kept back under RLIMIT_AS for the Go
// runtime itself: a new allocation maps a whole 64 MiB heap arena and
// metadata beside it, and the runtime's own stacks and structures grow.
const asHeadroom = 128 << 20

// goLimit is the Go runtime's soft memory limit, unlimited when unset.
func goLimit() int {
	if l := debug.SetMemoryLimit(-1); l < math.MaxInt {
		return int(l)
	}
	return unlimited
}

// NearGoLimit reports whether GOMEMLIMIT is set and the Go runtime's
// memory is within 1/fraction of it.
func NearGoLimit(fraction int) bool {
	limit := goLimit()
	return limit != unlimited && goMemory().used > limit-limit/fraction
}

// goMemoryUse is what the Go runtime holds: used is what GOMEMLIMIT
// counts (everything mapped less the heap pages given back to the
// kernel); reusable is heap memory mapped but free, which a new
// allocation takes before it maps more.
type goMemoryUse struct{ used, reusable int }

func goMemory() goMemoryUse {
	samples := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
	}
	metrics.Read(samples)
	v := func(i int) int {
		if samples[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int(min(samples[i].Value.Uint64(), math.MaxInt))
	}
	return goMemoryUse{used: v(0) - v(1), reusable: v(1) + v(2)}
}

// readFile returns a file's contents, nil when it cannot be read.
func readFile(name string) []byte {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	return b
}

// availableRAM is MemAvailable plus SwapFree from /proc/meminfo, unlimited
// where the file does not exist.
func availableRAM() int {
	return parseMeminfo(readFile("/proc/meminfo"))
}

// parseMeminfo is availableRAM of the text of /proc/meminfo. A total past
// the largest int (a machine's RAM in bytes, for a 32-bit build) counts
// as unlimited, not as a wrapped, negative or zero budget.
func parseMeminfo(info []byte) int {
	if info == nil {
		return unlimited
	}
	total, found := 0, false
	sc := bufio.NewScanner(bytes.NewReader(info))
	for sc.Scan() {
		key, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || key != "MemAvailable" && key != "SwapFree" {
			continue
		}
		kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
		if err != nil {
			continue
		}
		if kb < 0 || kb > (unlimited-total)>>10 {
			total = unlimited
		} else {
			total += kb << 10
		}
		found = found || key == "MemAvailable"
	}
	if !found {
		return unlimited
	}
	return total
}

// cgroupDirs returns the directories of the process's memory cgroup under
// root, from the contents of /proc/self/cgroup, from the process's own
// up to the hierarchy's root (each may set a limit), and whether the
// hierarchy is cgroup v2.
func cgroupDirs(root string, self []byte) (dirs []string, v2 bool) {
	var rel string
	found := false
	for line := range strings.Lines(string(self)) {
		fields := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(fields) != 3 {
			continue
		}
		if fields[0] == "0" && fields[1] == "" && !found {
			// v2 unless a v1 memory controller (below) takes over.
			rel, v2 = fields[2], true
			continue
		}
		for _, c := range strings.Split(fields[1], ",") {
			if c == "memory" {
				rel, v2, found = fields[2], false, true
			}
		}
	}
	if rel == "" && !v2 {
		return nil, false
	}
	base := path.Join(root, "sys/fs/cgroup")
	if !v2 {
		base = path.Join(base, "memory")
	}
	for dir := path.Clean("/" + rel); ; dir = path.Dir(dir) {
		dirs = append(dirs, path.Join(base, dir))
		if dir == "/" {
			return dirs, v2
		}
	}
}

// cgroupLimit returns the lowest memory limit along the process's cgroup
// path (unlimited when none is set) and the directory that sets it.
func cgroupLimit(root string, self []byte) (limit int, dir string) {
	dirs, v2 := cgroupDirs(root, self)
	file := "memory.limit_in_bytes"
	if v2 {
		file = "memory.max"
	}
	limit = unlimited
	for _, d := range dirs {
		if l, ok := parseBytes(readFile(path.Join(d, file))); ok && l < limit {
			limit, dir = l, d
		}
	}
	return limit, dir
}

// cgroupUsage returns the memory the cgroup that sets the limit uses now.
func cgroupUsage(root string, self []byte) (int, bool) {
	_, dir := cgroupLimit(root, self)
	if dir == "" {
		return 0, false
	}
	_, v2 := cgroupDirs(root, self)
	file := "memory.usage_in_bytes"
	if v2 {
		file = "memory.current"
	}
	return parseBytes(readFile(path.Join(dir, file)))
}

// parseBytes reads a cgroup memory file: a number of bytes, or "max". v1
// spells "no limit" as a number near 2^63 rounded to pages, which counts
// as a limit no machine reaches and so changes nothing.
func parseBytes(b []byte) (int, bool) {
	s := strings.TrimSpace(string(b))
	if s == "" || s == "max" {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, false
	}
	return int(min(n, math.MaxInt)), true
}

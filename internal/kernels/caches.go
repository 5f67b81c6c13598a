package kernels

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Caches are the sizes in bytes of the data caches one core uses: L1D and
// L2 of the core (whatever its hyperthreads share), L3 of the whole
// package. Kernel packages derive block sizes and thresholds from them
// instead of constants tuned on one machine.
type Caches struct {
	L1D, L2, L3 int
	// Source says where the sizes came from: "cpuid", "sysfs" or
	// "defaults".
	Source string
}

// defaultCaches are used when the processor does not say: the L1D and L2
// of an AMD Zen 3 core, the smallest of current x86 server and desktop
// cores (Arm Neoverse cores have 64 KiB and 1 MiB), so that blocks sized
// for them stay in cache everywhere, at a few percent below the best on
// larger caches.
var defaultCaches = Caches{L1D: 32 << 10, L2: 512 << 10, L3: 8 << 20, Source: "defaults"}

// CacheSizes returns the detected cache sizes (detected once).
func CacheSizes() Caches { return detected() }

var detected = sync.OnceValue(func() Caches {
	for _, probe := range cacheProbes {
		if c, ok := probe(); ok && plausible(c) {
			if c.L3 == 0 {
				c.L3 = max(c.L2, defaultCaches.L3)
			}
			return c
		}
	}
	return defaultCaches
})

// cacheProbes are tried in order; architecture files prepend theirs.
var cacheProbes = []func() (Caches, bool){sysfsCaches}

// plausible rejects sizes no real core has (a hypervisor's zeros, say).
func plausible(c Caches) bool {
	return c.L1D >= 4<<10 && c.L1D <= 1<<20 && c.L2 >= 64<<10 && c.L2 <= 64<<20
}

// sysfsCaches reads Linux's description of cpu0's caches.
func sysfsCaches() (Caches, bool) {
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	c := Caches{Source: "sysfs"}
	for _, d := range dirs {
		read := func(name string) string {
			b, _ := os.ReadFile(filepath.Join(d, name))
			return strings.TrimSpace(string(b))
		}
		size := parseSize(read("size"))
		switch typ := read("type"); {
		case typ == "Instruction" || size == 0:
		case read("level") == "1":
			c.L1D = size
		case read("level") == "2":
			c.L2 = size
		case read("level") == "3":
			c.L3 = size
		}
	}
	return c, c.L1D > 0 && c.L2 > 0
}

// parseSize reads sysfs sizes such as "48K" or "2M".
func parseSize(s string) int {
	mult := 1
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, s[:len(s)-1]
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return n * mult
}

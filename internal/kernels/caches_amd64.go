//go:build !purego

package kernels

// cpuid executes CPUID with EAX = leaf and ECX = sub (cpuid_amd64.s).
//
//go:noescape
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// CPUID answers on every x86 operating system and inside containers that
// hide sysfs, so it goes first.
func init() { cacheProbes = append([]func() (Caches, bool){cpuidCaches}, cacheProbes...) }

// cpuidCaches reads the deterministic cache parameters: leaf 4 on Intel,
// leaf 0x8000001D (the same layout) on AMD, where leaf 4 is reserved.
func cpuidCaches() (Caches, bool) {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if c, ok := cacheLeaf(4, maxLeaf >= 4); ok {
		return c, true
	}
	maxExt, _, _, _ := cpuid(0x80000000, 0)
	return cacheLeaf(0x8000001D, maxExt >= 0x8000001D)
}

// cacheLeaf walks the sub-leaves of a deterministic cache parameters leaf.
func cacheLeaf(leaf uint32, present bool) (Caches, bool) {
	c := Caches{Source: "cpuid"}
	if !present {
		return c, false
	}
	for sub := uint32(0); sub < 16; sub++ {
		eax, ebx, ecx, _ := cpuid(leaf, sub)
		typ, level := eax&0x1f, (eax>>5)&7
		if typ == 0 {
			break
		}
		if typ == 2 { // instruction cache
			continue
		}
		// ways × partitions × line size × sets
		size := int((ebx>>22)+1) * int((ebx>>12)&0x3ff+1) * int(ebx&0xfff+1) * int(ecx+1)
		switch level {
		case 1:
			c.L1D = size
		case 2:
			c.L2 = size
		case 3:
			c.L3 = size
		}
	}
	return c, c.L1D > 0 && c.L2 > 0
}

package tensor

import "golang.org/x/sys/unix"

// memoryLimit returns the machine's RAM plus swap in bytes, or fallback
// when the kernel does not say.
func memoryLimit(fallback int) int {
	var info unix.Sysinfo_t
	if unix.Sysinfo(&info) != nil {
		return fallback
	}
	unit := uint64(max(info.Unit, 1))
	total := (uint64(info.Totalram) + uint64(info.Totalswap)) * unit
	if total == 0 || total > uint64(fallback) {
		return fallback
	}
	return int(total)
}

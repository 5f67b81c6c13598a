//go:build !linux

package memlimit

// On systems other than Linux the package does not ask the kernel: only
// GOMEMLIMIT applies.

func ramAndSwap() int        { return unlimited }
func addressSpaceLimit() int { return unlimited }
func mappedBytes() int       { return 0 }

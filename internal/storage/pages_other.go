//go:build !linux

package storage

import "unsafe"

// returnPages leaves a dropped buffer's pages to the garbage collector,
// which frees them at its next cycle; elsewhere than on Linux the pool
// does not hand pages back itself.
func returnPages(p unsafe.Pointer, size int) int { return 0 }

// populate leaves a fresh buffer's pages to fault in as they are written:
// only Linux maps a range of pages in one call (MADV_POPULATE_WRITE).
func populate(p unsafe.Pointer, size int) int { return 0 }

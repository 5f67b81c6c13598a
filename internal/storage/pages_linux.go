package storage

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

var pageSize = os.Getpagesize()

// returnPages hands the whole pages of the size bytes at p back to the
// kernel (MADV_DONTNEED) and returns how many bytes that was. The buffer
// stays valid Go memory: the pool is letting it go, its contents do not
// matter, and if the garbage collector hands its pages out again they read
// as zeros or are cleared, as fresh memory is. The buffer holds no
// pointers, so the collector never reads it.
func returnPages(p unsafe.Pointer, size int) int {
	start := (uintptr(p) + uintptr(pageSize) - 1) &^ uintptr(pageSize-1)
	end := (uintptr(p) + uintptr(size)) &^ uintptr(pageSize-1)
	if end <= start {
		return 0
	}
	n := int(end - start)
	if unix.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, start-uintptr(p))), n), unix.MADV_DONTNEED) != nil {
		return 0
	}
	return n
}

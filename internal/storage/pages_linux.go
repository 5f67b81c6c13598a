package storage

import (
	"errors"
	"os"
	"sync/atomic"
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
	start, n := wholePages(p, size)
	if n == 0 {
		return 0
	}
	if unix.Madvise(unsafe.Slice((*byte)(start), n), unix.MADV_DONTNEED) != nil {
		return 0
	}
	return n
}

// wholePages returns the first whole page of the size bytes at p and the
// bytes of whole pages from there.
func wholePages(p unsafe.Pointer, size int) (unsafe.Pointer, int) {
	start := (uintptr(p) + uintptr(pageSize) - 1) &^ uintptr(pageSize-1)
	end := (uintptr(p) + uintptr(size)) &^ uintptr(pageSize-1)
	if end <= start {
		return nil, 0
	}
	return unsafe.Add(p, start-uintptr(p)), int(end - start)
}

// populateOff is set once the kernel has refused MADV_POPULATE_WRITE
// (before Linux 5.14): the pool then lets fresh pages fault in one by one.
var populateOff atomic.Bool

// minPopulateRun is the fewest absent pages in a row that populate maps
// with one call: a shorter run costs the call more than its faults.
const minPopulateRun = 4

// populate maps the absent pages of a fresh buffer that the caller is about
// to overwrite, run by run of absent pages, with MADV_POPULATE_WRITE, and
// returns how many pages it mapped. Under KVM a page fault costs 1.4 µs
// here (Xeon Sapphire Rapids), more than computing into the page; one call
// maps a run of pages for about two thirds of that. It is a hint only: a
// present page is left as it is (asking the kernel to populate present
// pages would cost 20 ns each, hence the mincore first, about 1 µs a 4 MiB
// buffer), an absent one reads as zeros either way, and the memory was
// going to be resident as soon as the result was written. It changes no
// accounting the Go runtime does: the buffer is heap memory either way.
func populate(p unsafe.Pointer, size int) int {
	if populateOff.Load() {
		return 0
	}
	start, n := wholePages(p, size)
	var vec [1024]byte // residency of 4 MiB of pages per mincore call
	mapped := 0
	for off := 0; off < n; off += len(vec) * pageSize {
		chunk := min(n-off, len(vec)*pageSize)
		pages := chunk / pageSize
		base := unsafe.Add(start, off)
		if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(base), uintptr(chunk), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
			return mapped
		}
		for i := 0; i < pages; {
			if vec[i]&1 != 0 {
				i++
				continue
			}
			j := i + 1
			for j < pages && vec[j]&1 == 0 {
				j++
			}
			if j-i >= minPopulateRun {
				err := unix.Madvise(unsafe.Slice((*byte)(unsafe.Add(base, i*pageSize)), (j-i)*pageSize), unix.MADV_POPULATE_WRITE)
				if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
					populateOff.Store(true)
					return mapped
				}
				if err == nil {
					mapped += j - i
				}
			}
			i = j
		}
	}
	return mapped
}

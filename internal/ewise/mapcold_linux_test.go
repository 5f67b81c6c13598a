package ewise

import (
	"os"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/tensor-go/tensor/internal/storage"
)

// TestMapColdMapsEveryPage maps fresh anonymous memory with MapCold on one
// and on two goroutines, at an offset that is no page boundary and a
// length that is no whole number of pieces, and checks with mincore that
// every whole page of the range is resident afterwards and none outside
// it: no piece of the split may be skipped or overrun.
func TestMapColdMapsEveryPage(t *testing.T) {
	page := os.Getpagesize()
	if !populates(t, page) {
		t.Skip("this system does not map pages ahead (MADV_POPULATE_WRITE is refused or, as under qemu-user, ignored)")
	}
	for _, w := range []int{1, 2, 3} {
		for _, c := range []struct{ off, bytes int }{{0, 2 * MapPiece}, {1000, 9<<20 + 333}, {page - 8, 3*MapPiece + 17}, {24, 20 << 20}} {
			region, err := unix.Mmap(-1, 0, c.off+c.bytes+2*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
			if err != nil {
				t.Skip("no anonymous mapping:", err)
			}
			MapCold(unsafe.Pointer(&region[c.off]), c.bytes, w)
			vec := residency(t, region, page)
			first := (c.off + page - 1) / page
			last := (c.off + c.bytes) / page // first page past the whole ones
			for i, v := range vec {
				want := i >= first && i < last
				if got := v&1 != 0; got != want {
					t.Errorf("w=%d off=%d bytes=%d: page %d resident %v, want %v", w, c.off, c.bytes, i, got, want)
					break
				}
			}
			unix.Munmap(region)
		}
	}
}

// residency returns mincore's answer for every page of region.
func residency(t *testing.T, region []byte, page int) []byte {
	vec := make([]byte, (len(region)+page-1)/page)
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&region[0])), uintptr(len(region)), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		t.Fatal(e)
	}
	return vec
}

// populates reports whether storage.MapForStreaming makes fresh pages
// resident here, tried on a fresh mapping of 1 MiB.
func populates(t *testing.T, page int) bool {
	region, err := unix.Mmap(-1, 0, 1<<20, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		t.Skip("no anonymous mapping:", err)
	}
	defer unix.Munmap(region)
	storage.MapForStreaming(unsafe.Pointer(&region[0]), len(region))
	return residency(t, region, page)[0]&1 != 0
}

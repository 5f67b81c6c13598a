package storage

import (
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// resident returns, for each whole page of the size bytes at p, whether it
// is mapped.
func resident(t *testing.T, p unsafe.Pointer, size int) []bool {
	t.Helper()
	start, n := wholePages(p, size)
	vec := make([]byte, n/pageSize)
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(start), uintptr(n), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		t.Skipf("mincore: %v", e)
	}
	in := make([]bool, len(vec))
	for i, v := range vec {
		in[i] = v&1 != 0
	}
	return in
}

// skipUnlessPopulateMaps skips a test where MADV_POPULATE_WRITE is
// accepted but maps nothing, as under qemu's user-mode emulation (CI's
// arm64 lane), which answers madvise advice it does not pass on with
// success: populate is a hint there, and the test's premise is the kernel's.
func skipUnlessPopulateMaps(t *testing.T) {
	t.Helper()
	probe, err := unix.Mmap(-1, 0, 2*pageSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer unix.Munmap(probe)
	if err := unix.Madvise(probe, unix.MADV_POPULATE_WRITE); err != nil {
		t.Skipf("the kernel has no MADV_POPULATE_WRITE: %v", err)
	}
	for i, in := range resident(t, unsafe.Pointer(&probe[0]), len(probe)) {
		if !in {
			t.Skipf("MADV_POPULATE_WRITE succeeded but left page %d of a probe absent (an emulator?)", i)
		}
	}
}

func minorFaults(t *testing.T) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Skip(err)
	}
	return int64(ru.Minflt)
}

// TestPopulateMapsAbsentPagesOnly checks that populate is a hint: it maps
// the runs of absent pages of a buffer (which read as zeros before and
// after), leaves present pages and their contents as they are, and the
// writes that follow take no page fault.
func TestPopulateMapsAbsentPagesOnly(t *testing.T) {
	skipUnlessPopulateMaps(t)
	const pages = 256
	size := pages * pageSize
	p := fresh(size+pageSize, false)
	fill(p, size+pageSize, 5)
	start, _ := wholePages(p, size+pageSize)
	buf := unsafe.Slice((*byte)(start), size)
	// Pages 64..191 go back to the kernel, and page 200 alone: a run
	// shorter than minPopulateRun, which populate leaves to fault.
	hole := buf[64*pageSize : 192*pageSize]
	single := buf[200*pageSize : 201*pageSize]
	for _, b := range [][]byte{hole, single} {
		if err := unix.Madvise(b, unix.MADV_DONTNEED); err != nil {
			t.Skipf("madvise: %v", err)
		}
	}
	got := populate(start, size)
	if populateOff.Load() {
		t.Skip("the kernel has no MADV_POPULATE_WRITE")
	}
	if got != 128 {
		t.Fatalf("populate mapped %d pages, want the 128 of the hole", got)
	}
	for i, in := range resident(t, start, size) {
		if want := i != 200; in != want {
			t.Fatalf("page %d resident %v after populate, want %v", i, in, want)
		}
	}
	for i, b := range buf {
		page := i / pageSize
		want := byte(5)
		if page >= 64 && page < 192 || page == 200 {
			want = 0
		}
		if b != want {
			t.Fatalf("byte %d (page %d) is %d after populate, want %d", i, page, b, want)
		}
	}
	if again := populate(start, size); again != 0 {
		t.Fatalf("populate of a mapped buffer mapped %d pages again", again)
	}
	before := minorFaults(t)
	for i := 0; i < len(hole); i += pageSize {
		hole[i] = 1
	}
	if n := minorFaults(t) - before; n > 16 {
		t.Fatalf("writing the 128 populated pages took %d page faults", n)
	}
}

package tensor

import (
	"runtime"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/tensor-go/tensor/internal/ewise"
	"github.com/tensor-go/tensor/internal/storage"
	"github.com/tensor-go/tensor/internal/vec"
)

// residentPages reports, for each page of mem, whether it is mapped.
func residentPages(t *testing.T, mem []byte) []bool {
	t.Helper()
	v := make([]byte, (len(mem)+4095)/4096)
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&mem[0])), uintptr(len(mem)), uintptr(unsafe.Pointer(&v[0]))); e != 0 {
		t.Skipf("mincore: %v", e)
	}
	in := make([]bool, len(v))
	for i, b := range v {
		in[i] = b&1 != 0
	}
	return in
}

// A cold streamed output is mapped whole by pieces shared between
// goroutines: every page that lies inside it (it starts 64 bytes into a
// page and ends 64 bytes before one, so that the piece boundaries are not
// the buffer's) is mapped after mapStreamed, exactly once (the pool's
// count), none outside it, and a warm output maps nothing.
func TestMapStreamedMapsEveryPage(t *testing.T) {
	if !vec.ExclusiveStreams() || !storage.Populate {
		t.Skip("the active kernel set never streams, or mapping ahead is off")
	}
	const size = 5*ewise.MapPiece + 9*4096 // the last piece more than the few pages populate leaves to fault
	mem, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		t.Skip(err)
	}
	defer unix.Munmap(mem)
	if err := unix.Madvise(mem[:4096], unix.MADV_POPULATE_WRITE); err != nil || !residentPages(t, mem[:4096])[0] {
		t.Skip("MADV_POPULATE_WRITE maps nothing here (qemu's user mode, or an old kernel)")
	}
	out := unsafe.Slice((*float32)(unsafe.Pointer(&mem[64])), (size-128)/4)
	for _, procs := range []int{1, 3} {
		prev := runtime.GOMAXPROCS(procs)
		unix.Madvise(mem, unix.MADV_DONTNEED)
		mapStreamed(out, 16, 16, false, true)
		if got := residentPages(t, mem); got[1] {
			t.Fatalf("procs %d: a warm output had pages mapped", procs)
		}
		before := storage.ReadStats().Populated
		mapStreamed(out, 16, 16, true, true)
		mapped := storage.ReadStats().Populated - before
		runtime.GOMAXPROCS(prev)
		got := residentPages(t, mem)
		for i, in := range got {
			inside := i > 0 && i < len(got)-1
			if in != inside {
				t.Fatalf("procs %d: page %d of %d mapped %v", procs, i, len(got), in)
			}
		}
		if want := len(got) - 2; mapped != want {
			t.Fatalf("procs %d: %d pages counted mapped, want %d", procs, mapped, want)
		}
	}
}

// BenchmarkMapStreamed maps a fresh 64 MiB output (Prod's gradient of a
// 4096² float32 matrix) in one call and in mapStreamed's pieces between
// the goroutines: the same CPU time (cpu-ns/op), less wall time where the
// other cores are free.
func BenchmarkMapStreamed(b *testing.B) {
	const size = 64 << 20
	for _, pieces := range []bool{false, true} {
		b.Run(map[bool]string{false: "whole", true: "pieces"}[pieces], func(b *testing.B) {
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				mem, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
				if err != nil {
					b.Skip(err)
				}
				out := unsafe.Slice((*float32)(unsafe.Pointer(&mem[0])), size/4)
				c := processCPU(b)
				b.StartTimer()
				if pieces {
					mapStreamed(out, 16, 16, true, true)
				} else {
					storage.MapForStreaming(unsafe.Pointer(&out[0]), size)
				}
				b.StopTimer()
				cpu += processCPU(b) - c
				unix.Munmap(mem)
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

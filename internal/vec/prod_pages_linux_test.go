package vec

import (
	"syscall"
	"testing"
	"unsafe"
)

// BenchmarkProdF32Pages times the float32 product of 64 MiB held in 4 KiB
// pages and in 2 MiB (transparent huge) pages. Streaming a run this long is
// bound by the memory system, not by the multiplies, and the page size
// matters several-fold on a virtual machine: NumPy asks for huge pages for
// its large arrays (so PyTorch, reading them through from_numpy, gets them
// too), while the Go heap, under the kernel's usual "madvise" policy, gets
// 4 KiB pages. The gap between the two sub-benchmarks is the part of the
// distance to those peers that only the allocator can close.
func BenchmarkProdF32Pages(b *testing.B) {
	const n = 16 << 20
	for _, c := range []struct {
		name   string
		advice int
	}{{"4K", syscall.MADV_NOHUGEPAGE}, {"2M", syscall.MADV_HUGEPAGE}} {
		a := advisedF32(b, n, c.advice)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(4 * n)
			for b.Loop() {
				ProdF32(a)
			}
		})
	}
}

// advisedF32 returns n float32 ones in a fresh mapping aligned to 2 MiB,
// given the advice before it is first touched.
func advisedF32(b *testing.B, n int, advice int) []float32 {
	const huge = 2 << 20
	mem, err := syscall.Mmap(-1, 0, 4*n+huge, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		b.Skip("mmap:", err)
	}
	b.Cleanup(func() { syscall.Munmap(mem) })
	skip := (huge - int(uintptr(unsafe.Pointer(unsafe.SliceData(mem))))%huge) % huge
	mem = mem[skip : skip+4*n]
	if err := syscall.Madvise(mem, advice); err != nil {
		b.Skip("madvise:", err)
	}
	a := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(mem))), n)
	for i := range a {
		a[i] = 1
	}
	return a
}

package gemm

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/internal/storage"
)

// freshFloats returns n float32 in anonymous memory none of whose pages is
// mapped yet, and its unmapping.
func freshFloats(t *testing.T, n int) ([]float32, func()) {
	t.Helper()
	b, err := syscall.Mmap(-1, 0, n*4, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), n), func() { syscall.Munmap(b) }
}

// TestMulMapsColdC checks that a blocked product of several K blocks into
// a cold contiguous C maps C's absent pages ahead (mapColdC: storage counts them), each
// rectangle of a split its share, and that the result is bit for bit the
// one computed into ordinary memory without the hint, on one and two
// goroutines, for a wide C (split by columns) and a tall one (by rows).
func TestMulMapsColdC(t *testing.T) {
	probe, unmap := freshFloats(t, 64<<10)
	before := storage.ReadStats().Populated
	storage.MapForStreaming(unsafe.Pointer(&probe[0]), len(probe)*4)
	supported := storage.ReadStats().Populated > before
	unmap()
	if !supported {
		t.Skip("this system does not map pages ahead (MADV_POPULATE_WRITE)")
	}
	saved := mapCMinBytes
	mapCMinBytes = 64 << 10
	defer func() { mapCMinBytes = saved }()
	rng := rand.New(rand.NewPCG(60, 61))
	k := 2*kernelFor[float32]().kc + 3 // three K blocks: one is left to fault
	for _, shape := range [][2]int{{150, 420}, {1200, 150}} {
		m, n := shape[0], shape[1]
		a := Matrix[float32]{fill[float32](rng, m*k, false), 0, k, 1}
		b := Matrix[float32]{fill[float32](rng, k*n, false), 0, n, 1}
		for _, threads := range []int{1, 2} {
			want := Matrix[float32]{make([]float32, m*n), 0, n, 1}
			Mul(m, n, k, a, b, want, Options{Threads: threads})
			data, unmap := freshFloats(t, m*n)
			before := storage.ReadStats().Populated
			Mul(m, n, k, a, b, Matrix[float32]{data, 0, n, 1}, Options{Threads: threads, Cold: true})
			pages := storage.ReadStats().Populated - before
			for i := range data {
				if !sameBits(data[i], want.Data[i]) {
					t.Fatalf("%dx%dx%d on %d goroutines: C[%d] = %v into cold memory, %v into ordinary memory", m, n, k, threads, i, data[i], want.Data[i])
				}
			}
			unmap()
			if all := m * n * 4 / 4096; pages < all/2 {
				t.Errorf("%dx%dx%d on %d goroutines: %d pages of C mapped ahead, want most of its %d", m, n, k, threads, pages, all)
			}
		}
	}
}

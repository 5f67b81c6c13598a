package gemm

import (
	"github.com/tensor-go/tensor/internal/kernels"
	"github.com/tensor-go/tensor/internal/scratch"
)

// microKernel computes one full mr×nr tile of C from a packed A sliver and a
// packed B sliver (see packA and packB for their layouts):
//
//	for i := 0; i < mr; i++ {
//		for j := 0; j < nr; j++ {
//			var sum T // +0
//			for p := 0; p < k; p++ {
//				sum += a[p*mr+i] * b[p*nr+j]   // fused multiply-add in the float assembly
//			}
//			if accumulate {
//				sum = c[i*ldc+j] + sum
//			}
//			c[i*ldc+j] = sum
//		}
//	}
//
// Contract shared by every implementation: the tile is always full (edges are
// handled in Go by computing into a tile buffer); when accumulate is false C
// is never read, so the first K block overwrites whatever C held and later K
// blocks add to it; ldc is in elements and may be negative; k may be 0.
type microKernel[T any] func(k int, a, b, c *T, ldc int, accumulate bool)

// microKernelRowA is microKernel reading A in place from a row-major view
// instead of a packed sliver: a[p*mr+i] above becomes a[i*lda+p]. It spares
// the packing of a row-major A, a transpose that costs about a nanosecond per
// element and is repeated for every N block.
type microKernelRowA[T any] func(k int, a, b, c *T, ldc, lda int, accumulate bool)

// kernel is one micro-kernel together with the tile shape it computes and
// the cache blocking that feeds it. The block sizes are data, chosen per
// kernel for a reference core (48 KiB L1d and 2 MiB L2, a large shared
// L3; the tables beside each kernel say why) and scaled to the detected
// caches (blocks.go).
type kernel[T Elem] struct {
	name   string
	mr, nr int // tile: mr rows of C (broadcast from A) by nr columns (vectors of B)
	kc     int // K block: an mr×kc A sliver stays in L1 while B slivers stream past
	mc     int // M block: the packed mc×kc A block stays in L2 beside the B panel
	nc     int // N block: the packed kc×nc B panel fills about half of L2
	micro  microKernel[T]
	// microRowA, when set, is the in-place-A variant of micro.
	microRowA microKernelRowA[T]
	// microRowA4, when set, is microRowA for 4-row tiles: it computes the
	// rows left below the last full tile without padding them to mr.
	microRowA4 microKernelRowA[T]
	// round, when set, is applied to every packed block (TF32 rounding).
	round func([]T)
	spare *scratch.List[workspace[T]] // idle workspaces sized for this blocking (1.2 MiB for float32)
}

// workspace holds one goroutine's packing buffers.
type workspace[T any] struct {
	a, b, tile []T
	half       []uint16 // staging for MulHalf: packed half bits before conversion
	wide       []T      // MulHalf's block of A widened to float32 rows (job.widenedA)
}

// newKernel fills in a kernel description and its list of workspaces. The
// block sizes kc, mc and nc are those measured on the reference core
// (blocks.go), scaled to this machine's caches.
func newKernel[T Elem](name string, mr, nr, kc, mc, nc int, micro microKernel[T]) *kernel[T] {
	kc, mc, nc = scaledBlocks(mr, nr, kc, mc, nc, kernels.CacheSizes())
	return newKernelBlocks(name, mr, nr, kc, mc, nc, micro)
}

// newKernelBlocks is newKernel with the block sizes as given, unscaled.
func newKernelBlocks[T Elem](name string, mr, nr, kc, mc, nc int, micro microKernel[T]) *kernel[T] {
	k := &kernel[T]{name: name, mr: mr, nr: nr, micro: micro}
	k.setBlocks(kc, mc, nc)
	return k
}

// setBlocks sets the kernel's block sizes and a new list of workspaces
// sized for them; it is for building kernels, before any product runs.
func (k *kernel[T]) setBlocks(kc, mc, nc int) {
	k.kc, k.mc, k.nc = kc, mc, nc
	mr, nr := k.mr, k.nr
	k.spare = &scratch.List[workspace[T]]{New: func() *workspace[T] {
		return &workspace[T]{a: make([]T, mc*kc), b: make([]T, kc*nc), tile: make([]T, mr*nr)}
	}}
}

// withRowA sets the in-place-A variants of the kernel (whole tiles and
// four-row tiles) and returns it.
func (k *kernel[T]) withRowA(rows, four microKernelRowA[T]) *kernel[T] {
	k.microRowA, k.microRowA4 = rows, four
	return k
}

// kernelFor returns the kernel of the active set for element type T.
func kernelFor[T Elem]() *kernel[T] { return kernelOf[T](&active) }

// kernelOf returns the set's kernel for element type T.
func kernelOf[T Elem](s *kernelSet) *kernel[T] {
	var z T
	switch any(z).(type) {
	case float32:
		return any(s.f32).(*kernel[T])
	case float64:
		return any(s.f64).(*kernel[T])
	case int32:
		return any(s.i32).(*kernel[T])
	default:
		return any(s.i64).(*kernel[T])
	}
}

// tf32Kernel is the float32 kernel with TF32 rounding of the packed operands.
func tf32Kernel() *kernel[float32] {
	k := *active.f32
	k.round = roundTF32Slice
	return &k
}

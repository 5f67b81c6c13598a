package gemm

import (
	"unsafe"

	"github.com/tensor-go/tensor/internal/kernels"
	"github.com/tensor-go/tensor/internal/storage"
)

// Tiny products (a batch of 8×8 matrices, say) cannot pay for packing, tile
// buffers or a goroutine each. When a row of C fits one vector register the
// small kernels compute it directly from the strided operands, looping over
// the whole batch inside one call.

// smallKernel computes C_i = A_i·B_i for every i, where X_i is the view x
// with Off += xOffs[i]; each element is summed from +0 over p in order:
//
//	for each i, r < m, j < n: C_i(r, j) = 0 + A_i(r, 0)·B_i(0, j) + … + A_i(r, k-1)·B_i(k-1, j)
//
// The assembly versions need b.CS == 1, c.CS == 1 and n ≤ smallWidth[T].
type smallKernel[T any] func(m, n, k int, a, b, c Matrix[T], aOffs, bOffs, cOffs []int)

// tinyWork is the size (m·n·k) under which even the Go loop beats packing.
const tinyWork = 8 * 8 * 8

// smallFor returns the small kernel to use for an m×n×k product with these
// operands, or nil when the blocked path should be used.
func smallFor[T Elem](m, n, k int, b, c Matrix[T]) smallKernel[T] {
	width, fast, twin := smallKernels[T]()
	if n <= width && b.CS == 1 && c.CS == 1 {
		return fast
	}
	if m*n*k <= tinyWork && twin != nil {
		return twin
	}
	return nil
}

// smallKernels returns T's small kernel and the widest n it takes (0 when
// T has no assembly kernel), and its Go twin.
func smallKernels[T Elem]() (width int, fast, twin smallKernel[T]) {
	var z T
	switch any(z).(type) {
	case float32:
		return active.smallWidthF32, any(active.smallF32).(smallKernel[T]), any(smallGoF32).(smallKernel[T])
	case float64:
		return active.smallWidthF64, any(active.smallF64).(smallKernel[T]), any(smallGoF64).(smallKernel[T])
	case int32:
		return 0, nil, any(smallGoI32).(smallKernel[T])
	case int64:
		return 0, nil, any(smallGoI64).(smallKernel[T])
	}
	return 0, nil, nil
}

// maxSmallPanels is how many column panels, each as wide as the small
// kernel takes, a product may be cut into, and maxPanelA the most elements
// of its A (read again for every panel, from L1 or L2 since panelChunk
// products go through one panel at a time). Batches of 16384 cubes and
// more on two goroutines, GFLOP/s through the blocked path against panels:
// float32 20³ 30.6 -> 118, 24³ 38.0 -> 138, 32³ 166 -> 179, 48³ 195 -> 188,
// but 64³ (four panels) 261 -> 227; float64 12³ 13.0 -> 38.6, 16³ 40.7 ->
// 46.5, 24³ 49.3 -> 53.6, but 32³ (four panels) 72.3 -> 56.0. One product
// on one goroutine: float32 24³ 1.42 -> 0.47 µs, 48³ 3.41 -> 1.75; float64
// 24³ 1.18 -> 0.65; float64 32³ (four panels) 1.01 -> 1.16. Variables so
// that the tuning benchmark can move them.
var (
	maxSmallPanels = 3
	maxPanelA      = 64 * 64
)

// smallCall is a small kernel together with the widest n it takes in one
// call (0: any). Wider products go through it in column panels of that
// width, each the same sums in the same order as one call would make.
type smallCall[T Elem] struct {
	kern  smallKernel[T]
	width int
}

// smallPlan returns how an m×n×k product with these operands goes through
// a small kernel: in one call (smallFor), in column panels, or not at all
// (a zero smallCall, whose kern is nil). Panels are for products too wide
// for one call but small enough to gain from them (see maxSmallPanels).
func smallPlan[T Elem](m, n, k int, b, c Matrix[T]) smallCall[T] {
	if kern := smallFor(m, n, k, b, c); kern != nil {
		return smallCall[T]{kern: kern}
	}
	width, fast, _ := smallKernels[T]()
	if width == 0 || n > maxSmallPanels*width || m*k > maxPanelA || b.CS != 1 || c.CS != 1 {
		return smallCall[T]{}
	}
	return smallCall[T]{kern: fast, width: width}
}

// run computes C_i = A_i·B_i for every i, as smallKernel does. In panels it
// takes panelChunk products at a time through one panel before the next,
// so that their A is still in L1 when the next panel reads it again.
func (s smallCall[T]) run(m, n, k int, a, b, c Matrix[T], aOffs, bOffs, cOffs []int) {
	if s.width == 0 || n <= s.width {
		s.kern(m, n, k, a, b, c, aOffs, bOffs, cOffs)
		return
	}
	for i0 := 0; i0 < len(aOffs); i0 += panelChunk {
		i1 := min(i0+panelChunk, len(aOffs))
		for j0 := 0; j0 < n; j0 += s.width {
			s.kern(m, min(s.width, n-j0), k, a, b.shift(0, j0), c.shift(0, j0), aOffs[i0:i1], bOffs[i0:i1], cOffs[i0:i1])
		}
	}
}

// streamed returns s with the set's streaming kernel (smallStreamF32,
// smallStreamF64) for a batch (or one product, batch 1) of m×n results in cold memory at cStride
// elements apart, when that pays: one call per product (no panels), rows
// of 32 or 64 bytes (one or two vectors, which every set's small kernels
// take) and matrices of C contiguous, so that the non-temporal stores fill whole
// lines, and at least streamMinBytes of them. Written in place, each line
// of C is read from memory before it is overwritten, and the result evicts
// the operands from L2; streamed, a plain loop of 16384 8×8 float32
// products took 0.77× the CPU time (0.83× float64) with the result cycling
// through sixteen cold buffers, as the storage pool's are (one goroutine,
// Xeon Sapphire Rapids, KVM). Below L2 the result is better left in cache
// for whatever reads it next. The pages of C not mapped yet are mapped
// first (storage.MapForStreaming): a streaming store that faults has the
// kernel clear the page through the caches for nothing.
func (s smallCall[T]) streamed(batch, m, n int, b, c Matrix[T], cStride int, cold bool) smallCall[T] {
	size := int(unsafe.Sizeof(*new(T)))
	bytes := batch * m * n * size
	if row := n * size; row != 32 && row != 64 || !cold || s.width != 0 || b.CS != 1 || c.CS != 1 || c.RS != n || cStride != m*n || bytes < streamMinBytes || !inside(c) {
		return s
	}
	if kern := smallStreamKernel[T](); kern != nil {
		s.kern = kern
		storage.MapForStreaming(unsafe.Pointer(elementAt(c)), bytes)
	}
	return s
}

// streamMinBytes is the least result the small kernels stream (see
// smallCall.streamed): the size of L2.
var streamMinBytes = kernels.CacheSizes().L2

// smallStreamKernel returns the active set's streaming small kernel for
// T, or nil.
func smallStreamKernel[T Elem]() smallKernel[T] {
	var z T
	switch any(z).(type) {
	case float32:
		if active.smallStreamF32 != nil {
			return any(active.smallStreamF32).(smallKernel[T])
		}
	case float64:
		if active.smallStreamF64 != nil {
			return any(active.smallStreamF64).(smallKernel[T])
		}
	}
	return nil
}

// panelChunk is how many products smallCall.run takes through one panel
// before the next: 16 products of 16×16 float64 A are 32 KiB. Batches on
// two goroutines, chunks of 1 / 4 / 16 / 64 products (ms, medians of
// three): 16384 float64 16³ 4.12 / 3.90 / 3.71 / 3.77, 8192 float64 24³
// 6.95 / 6.20 / 5.59 / 5.52, 2048 float32 48³ 2.70 / 2.61 / 2.74 / 2.87.
const panelChunk = 16

// The Go twins as values of smallKernel: naming smallGo[T] inside generic
// code makes a closure (it carries the type's dictionary) on every call.
var (
	smallGoF32 smallKernel[float32] = smallGo[float32]
	smallGoF64 smallKernel[float64] = smallGo[float64]
	smallGoI32 smallKernel[int32]   = smallGo[int32]
	smallGoI64 smallKernel[int64]   = smallGo[int64]
)

// elementAt returns the address of x's element at x.Off, which must be
// inside x.Data.
func elementAt[T any](x Matrix[T]) *T { return &x.Data[x.Off] }

// streamable reports whether every row of the matrices C_i (c with Off +=
// cOffs[i]), rowBytes long, is contiguous and starts at a multiple of
// rowBytes, as non-temporal vector stores need.
func streamable[T any](c Matrix[T], rowBytes int, cOffs []int) bool {
	size := int(unsafe.Sizeof(*new(T)))
	if c.CS != 1 || !inside(c) || uintptr(unsafe.Pointer(elementAt(c)))%uintptr(rowBytes) != 0 || c.RS*size%rowBytes != 0 {
		return false
	}
	for _, off := range cOffs {
		if off*size%rowBytes != 0 {
			return false
		}
	}
	return true
}

// passedOn computes the products with fallback (or, for strided rows of B
// or C, with smallGo) and reports true unless a streaming small kernel can
// take them: rows of C of 32 or 64 bytes, each at a multiple of align
// bytes (a non-temporal store to an unaligned address faults), and
// operands whose base pointers lie inside their slices.
func passedOn[T float32 | float64](m, n, k int, a, b, c Matrix[T], aOffs, bOffs, cOffs []int, align int, fallback smallKernel[T]) bool {
	if b.CS != 1 || c.CS != 1 {
		smallGo(m, n, k, a, b, c, aOffs, bOffs, cOffs)
		return true
	}
	row := n * int(unsafe.Sizeof(T(0)))
	if len(aOffs) == 0 || row != 32 && row != 64 || !inside(a) || !inside(b) || !streamable(c, align, cOffs) {
		fallback(m, n, k, a, b, c, aOffs, bOffs, cOffs)
		return true
	}
	return false
}

// inside reports whether x.Off indexes an element of x.Data (the assembly
// small kernels take base pointers there).
func inside[T any](x Matrix[T]) bool { return x.Off >= 0 && x.Off < len(x.Data) }

package ewise

import (
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/vec"
)

// Binary is an element-wise binary operation dst = a op b: a kernel per
// dtype for operands [dst, a, b] all of that dtype, the variants that
// stream a large output around the cache, and the fused promotion cases
// that skip the conversion buffers. The engine (Run) and the Promoter are
// written once against it; an operation is its kernel table (see Mul and
// Add).
type Binary struct {
	// Name is the operation's name in error messages ("mul", "add").
	Name string

	kernels   [numDTypes]iter.Kernel
	streaming [numDTypes]iter.Kernel // unfenced: the engine fences once a share
	fenced    [numDTypes]iter.Kernel // streaming[dt] fenced after each call (Streaming)

	// kernelOf[dt] and streamingOf[dt] return kernels[dt] and
	// streaming[dt]: the engine's per-goroutine kernel makers, built once
	// so that a planned operation allocates no closure for them.
	kernelOf, streamingOf [numDTypes]func() iter.Kernel

	// f32i32 is the fused float32 op int32 kernel, dst = a op float32(b),
	// or nil. The operation commutes, so it serves int32 op float32 too.
	f32i32 func(dst, a []float32, b []int32)
}

// numDTypes sizes the per-dtype tables.
const numDTypes = dtype.Complex128 + 1

// newBinary builds an operation's tables once, so that looking a kernel up
// never allocates. kernel returns the kernel of each dtype; streaming
// returns a dedicated streaming kernel of a dtype, or nil where the
// kernel's results are to be streamed out through a buffer (streamedVia).
func newBinary(name string, kernel, streaming func(dtype.DType) iter.Kernel, f32i32 func(dst, a []float32, b []int32)) *Binary {
	op := &Binary{Name: name, f32i32: f32i32}
	for _, dt := range dtype.All {
		op.kernels[dt] = kernel(dt)
		op.streaming[dt] = streaming(dt)
		if op.streaming[dt] == nil && op.kernels[dt] != nil {
			op.streaming[dt] = streamedVia(op.kernels[dt], dt.Size())
		}
		k, sk := op.kernels[dt], op.streaming[dt]
		if sk != nil {
			op.fenced[dt] = func(ptrs []unsafe.Pointer, strides []int, n int) {
				sk(ptrs, strides, n)
				vec.FenceStreaming()
			}
		}
		op.kernelOf[dt] = func() iter.Kernel { return k }
		op.streamingOf[dt] = func() iter.Kernel { return sk }
	}
	return op
}

// Kernel returns the kernel for operands [dst, a, b] that all have dtype
// dt, or nil for an invalid dtype.
func (op *Binary) Kernel(dt dtype.DType) iter.Kernel {
	if !dt.Valid() {
		return nil
	}
	return op.kernels[dt]
}

// Streaming returns the kernel for dtype dt for an output too large for the
// caches: it stores the contiguous runs of the output around the cache,
// saving the read of each output line before it is written, with the same
// bits as Kernel(dt). Where vec has a Streaming kernel of the operation it
// is that; elsewhere Kernel(dt) computes into an L1 buffer that is
// streamed out (streamedVia). Each call ends with a fence, so the kernel
// may be used like any other; the engine's own walks use the unfenced
// form and fence once per goroutine's share.
func (op *Binary) Streaming(dt dtype.DType) iter.Kernel {
	if !dt.Valid() {
		return nil
	}
	return op.fenced[dt]
}

// Promoted returns a kernel that computes operands of dtypes dts in dtype
// c: Kernel(c) itself when every dtype is c, else the Kernel of a Promoter
// of its own (not returned to the pool). Use one per goroutine.
func (op *Binary) Promoted(c dtype.DType, dts [3]dtype.DType) iter.Kernel {
	if dts == [3]dtype.DType{c, c, c} {
		return op.Kernel(c)
	}
	return op.GetPromoter(c, dts).Kernel
}

// stridedLoop is an operation's plain Go loop over one run of any byte
// strides: dst[i] = a[i] op b[i]. Kernels call it once per run, so the
// operator itself is inlined in the loop.
type stridedLoop func(d, a, b unsafe.Pointer, sd, sa, sb, n int)

// realKernel builds the kernel of a number type with fast (vec) versions
// of the contiguous run and the run against a broadcast scalar, and loop
// for everything else. The operations here commute (for every real type,
// NaN included; a complex product's parts are the same rounded products
// summed alike), so a scalar on either side takes fastScalar.
func realKernel[T number | ~complex64 | ~complex128](fast func(dst, a, b []T), fastScalar func(dst, a []T, s T), loop stridedLoop) iter.Kernel {
	return func(ptrs []unsafe.Pointer, strides []int, n int) {
		size := int(unsafe.Sizeof(*new(T)))
		d, a, b := ptrs[0], ptrs[1], ptrs[2]
		sd, sa, sb := strides[0], strides[1], strides[2]
		if UseVec && sd == size {
			switch {
			case sa == size && sb == size:
				fast(run[T](d, n), run[T](a, n), run[T](b, n))
				return
			case sa == size && sb == 0:
				fastScalar(run[T](d, n), run[T](a, n), *(*T)(b))
				return
			case sa == 0 && sb == size:
				fastScalar(run[T](d, n), run[T](b, n), *(*T)(a))
				return
			}
		}
		loop(d, a, b, sd, sa, sb, n)
	}
}

// contiguousOr gives a kernel fast for runs whose operands are all
// contiguous, and other for the rest.
func contiguousOr[T any](fast func(dst, a, b []T), other iter.Kernel) iter.Kernel {
	size := int(unsafe.Sizeof(*new(T)))
	return func(ptrs []unsafe.Pointer, strides []int, n int) {
		if UseVec && strides[0] == size && strides[1] == size && strides[2] == size {
			fast(run[T](ptrs[0], n), run[T](ptrs[1], n), run[T](ptrs[2], n))
			return
		}
		other(ptrs, strides, n)
	}
}

// halfKernel builds the kernel of a 16-bit float type held as its bits:
// each result is computed in float32 by op and rounded once to the 16-bit
// type.
func halfKernel(fast func(dst, a, b []uint16), fastScalar func(dst, a []uint16, s float32),
	widen func(uint16) float32, narrow func(float32) uint16, op func(x, y float32) float32) iter.Kernel {
	return func(ptrs []unsafe.Pointer, strides []int, n int) {
		d, a, b := ptrs[0], ptrs[1], ptrs[2]
		sd, sa, sb := strides[0], strides[1], strides[2]
		if UseVec && sd == 2 {
			switch {
			case sa == 2 && sb == 2:
				fast(run[uint16](d, n), run[uint16](a, n), run[uint16](b, n))
				return
			case sa == 2 && sb == 0:
				fastScalar(run[uint16](d, n), run[uint16](a, n), widen(*(*uint16)(b)))
				return
			case sa == 0 && sb == 2:
				fastScalar(run[uint16](d, n), run[uint16](b, n), widen(*(*uint16)(a)))
				return
			}
		}
		for i := range n {
			*at[uint16](d, i, sd) = narrow(op(widen(*at[uint16](a, i, sa)), widen(*at[uint16](b, i, sb))))
		}
	}
}

// loopKernel builds the kernel of a type with no vec kernels (bool,
// complex): loop does every run.
func loopKernel(loop stridedLoop) iter.Kernel {
	return func(ptrs []unsafe.Pointer, strides []int, n int) {
		loop(ptrs[0], ptrs[1], ptrs[2], strides[0], strides[1], strides[2], n)
	}
}

// unsignedBinary and unsignedScalar serve an unsigned dtype with vec's
// signed kernel of the same width: wrapping products and sums have the
// same bits.
func unsignedBinary[U, S integer](f func(dst, a, b []S)) func(dst, a, b []U) {
	return func(dst, a, b []U) { f(as[S](dst), as[S](a), as[S](b)) }
}

func unsignedScalar[U, S integer](f func(dst, a []S, s S)) func(dst, a []U, s U) {
	return func(dst, a []U, s U) { f(as[S](dst), as[S](a), S(s)) }
}

package ewise

import (
	"sync"
	"unsafe"

	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/vec"
)

// streamBytes is how much of a streamed run is computed at a time: a
// buffer that stays in the L1 cache between the kernel that writes it and
// the copy that streams it out (2, 8 and 16 KiB timed the same within the
// noise in BenchmarkStreamedVia).
const streamBytes = 4096

// minStreamedRun is the shortest contiguous output run that streamedVia
// streams: a shorter one has no more than a few whole lines between its
// partial ones, and goes to the kernel as it is.
const minStreamedRun = 256

// streamScratch is one goroutine's buffer for streamedVia, with the
// operand arrays handed to the kernel (kept here, so that passing them to
// a kernel moves nothing to the heap).
type streamScratch struct {
	buf     [streamBytes / 8]uint64 // 8-byte aligned for every element type
	ptrs    [3]unsafe.Pointer
	strides [3]int
}

var streamScratches = sync.Pool{New: func() any { return new(streamScratch) }}

// streamedVia returns the streaming form of kernel k, whose output elements
// are size bytes: a contiguous output run is computed by k a chunk at a
// time into an L1 buffer, which vec.CopyStreaming then stores around the
// caches. Every element is computed by k exactly as without streaming (the
// same bits); only where the output's bytes go changes. It gives every
// operation and dtype a streaming kernel without a streaming variant of
// each vector kernel. Other runs go to k.
// Like vec's streaming kernels it does not fence: its caller calls
// vec.FenceStreaming after its last call.
func streamedVia(k iter.Kernel, size int) iter.Kernel {
	return func(ptrs []unsafe.Pointer, strides []int, n int) {
		if strides[0] != size || n*size < minStreamedRun {
			k(ptrs, strides, n)
			return
		}
		s := streamScratches.Get().(*streamScratch)
		buf := unsafe.Pointer(&s.buf)
		s.strides = [3]int{size, strides[1], strides[2]}
		per := streamBytes / size
		// The first chunk ends at a line boundary of the output, so that
		// the chunks after it are whole lines, each line stored once.
		m := per - int(uintptr(ptrs[0])&63)/size
		for done := 0; done < n; done, m = done+m, per {
			m = min(m, n-done)
			s.ptrs = [3]unsafe.Pointer{buf, unsafe.Add(ptrs[1], done*strides[1]), unsafe.Add(ptrs[2], done*strides[2])}
			k(s.ptrs[:], s.strides[:], m)
			vec.CopyStreaming(run[byte](unsafe.Add(ptrs[0], done*size), m*size), run[byte](buf, m*size))
		}
		s.ptrs = [3]unsafe.Pointer{} // hold no operand alive from the pool
		streamScratches.Put(s)
	}
}

// Convert converts n contiguous elements (cast.Kernel's convert: from src,
// ss bytes apart, into dst, ds bytes apart), shared between goroutines in
// parts of whole cache lines. cold is Operand.Cold for dst: from
// ColdStreamBytes on, dst is stored around the caches through a buffer
// (streamedVia), its absent pages mapped first, as Run does; the bytes are
// the same either way.
func Convert(convert func(dst unsafe.Pointer, ds int, src unsafe.Pointer, ss, n int), dst unsafe.Pointer, ds int, src unsafe.Pointer, ss, n int, cold bool) {
	stream := cold && n*ds >= ColdStreamBytes
	w := iter.Workers(n)
	if !stream && w <= 1 {
		convert(dst, ds, src, ss, n) // no closure to allocate
		return
	}
	var k iter.Kernel
	if stream {
		MapCold(dst, n*ds, w)
		k = streamedVia(func(ptrs []unsafe.Pointer, strides []int, n int) {
			convert(ptrs[0], strides[0], ptrs[1], strides[1], n)
		}, ds)
	}
	iter.Parallel((n+align-1)/align, w, func(lo, hi int) {
		first, last := lo*align, min(hi*align, n)
		d, s := unsafe.Add(dst, first*ds), unsafe.Add(src, first*ss)
		if k == nil {
			convert(d, ds, s, ss, last-first)
			return
		}
		iter.Call(k, last-first, 3, [iter.MaxOperands]unsafe.Pointer{d, s, s}, [iter.MaxOperands]int{ds, ss, ss})
		vec.FenceStreaming()
	})
}

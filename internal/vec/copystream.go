package vec

import (
	"unsafe"

	"github.com/tensor-go/tensor/internal/kernels"
)

// copyStreamKernels are one set's streaming copy: lines copies whole
// 64-byte lines to a 64-byte aligned dst with non-temporal stores and no
// fence, fence orders them before later stores. The Go twin copies as
// usual and needs no fence (arm64 and purego builds store normally: copy
// is at memory speed there, and a streamed output's bytes are the same).
type copyStreamKernels struct {
	lines func(dst, src []byte)
	fence func()
}

var (
	copyStreamImpl  copyStreamKernels
	copyStreamTable = kernels.NewTable(&copyStreamImpl, copyStreamKernels{
		lines: func(dst, src []byte) { copy(dst, src) },
		fence: func() {},
	})
)

// CopyStreaming copies src into dst (len(src) >= len(dst); they must not
// overlap) and stores the whole 64-byte lines of dst around the caches,
// saving the read of each line before it is written: the engine computes
// a large output a few KiB at a time into a buffer that stays in L1 and
// copies it out with this, which streams the output of any operation with
// one kernel instead of a streaming variant of each (see ewise's
// streamedVia). The partial lines at either end are stored normally.
//
// The streaming stores are not fenced (a fence per few KiB waits for each
// chunk to reach memory before the next is computed): call FenceStreaming
// once the whole output is copied, before another goroutine may read it.
func CopyStreaming(dst, src []byte) {
	src = src[:len(dst)]
	head := min(int(-uintptr(unsafe.Pointer(unsafe.SliceData(dst)))&63), len(dst))
	lines := (len(dst) - head) &^ 63
	copy(dst[:head], src[:head])
	if lines > 0 {
		copyStreamImpl.lines(dst[head:head+lines], src[head:head+lines])
	}
	copy(dst[head+lines:], src[head+lines:])
}

// FenceStreaming orders the streaming stores of CopyStreaming before every
// later store of the goroutine (SFENCE), such as the one that reports its
// work done.
func FenceStreaming() { copyStreamImpl.fence() }

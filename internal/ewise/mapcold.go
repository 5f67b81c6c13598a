package ewise

import (
	"os"
	"unsafe"

	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/storage"
)

// MapPiece is how many bytes of a cold output one goroutine of MapCold
// maps at a time: the 16 pieces of a 64 MiB result keep the goroutines'
// shares even for two system calls a piece (one mincore, one madvise).
const MapPiece = 4 << 20

// MapCold maps the absent pages of the bytes at p, a cold output about to
// be stored around the caches (storage.MapForStreaming), in pieces of
// MapPiece shared between up to w goroutines. The kernel clears each page
// as it maps it, on the core that asks, and one call on one goroutine kept
// the others waiting: a fresh 256 MB broadcast product spent 89% of its
// CPU there (Zen 4, session 19), a 64 MiB Prod gradient as much as its
// backward (BenchmarkMapStreamed). The pieces meet at page boundaries
// MapPiece apart, since populate maps whole pages only; the first and the
// last take the odd ends, so that none is so short that MapForStreaming
// leaves it to fault. An output of fewer than two pieces is one call.
func MapCold(p unsafe.Pointer, bytes, w int) {
	page := uintptr(os.Getpagesize())
	start, end := uintptr(p), uintptr(p)+uintptr(bytes)
	first := (start + page - 1) &^ (page - 1)
	pieces := 0
	if first < end {
		pieces = int((end - first) / MapPiece)
	}
	if w <= 1 || pieces < 2 {
		storage.MapForStreaming(p, bytes)
		return
	}
	bound := func(k int) uintptr {
		switch k {
		case 0:
			return start
		case pieces:
			return end
		}
		return first + uintptr(k)*MapPiece
	}
	iter.Parallel(pieces, w, func(lo, hi int) {
		from, to := bound(lo), bound(hi)
		storage.MapForStreaming(unsafe.Add(p, from-start), int(to-from))
	})
}

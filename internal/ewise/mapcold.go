package ewise

import (
	"os"
	"unsafe"

	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/storage"
)

// mapSplitBytes is the cold output from which MapCold shares the mapping
// between goroutines: the kernel clears every page it maps, so a fresh
// output of this size costs more to map than a parallel dispatch (a
// present one costs only the residency look, about 1 µs per 4 MiB).
const mapSplitBytes = 8 << 20

// mapPiece is the unit MapCold hands out: a whole number of pages from
// the output's first page boundary, the last piece taking the rest, so
// that no piece is too short for MapForStreaming to look at.
const mapPiece = 1 << 20

// MapCold maps the absent pages of the bytes at p, a cold output about to
// be stored around the caches (storage.MapForStreaming), on up to w
// goroutines. The kernel clears each page as it maps it, on the core that
// asks: a fresh 256 MB broadcast product spent 89% of its CPU mapping its
// output on one goroutine while the other waited for it.
func MapCold(p unsafe.Pointer, bytes, w int) {
	if w <= 1 || bytes < mapSplitBytes {
		storage.MapForStreaming(p, bytes)
		return
	}
	page := uintptr(os.Getpagesize())
	start, end := uintptr(p), uintptr(p)+uintptr(bytes)
	first := (start + page - 1) &^ (page - 1)
	pieces := int((end - first) / mapPiece)
	bound := func(k int) uintptr {
		switch k {
		case 0:
			return start
		case pieces:
			return end
		}
		return first + uintptr(k)*mapPiece
	}
	iter.Parallel(pieces, w, func(lo, hi int) {
		from, to := bound(lo), bound(hi)
		storage.MapForStreaming(unsafe.Add(p, from-start), int(to-from))
	})
}

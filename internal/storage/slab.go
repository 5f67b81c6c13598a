package storage

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Results from MinReleased up to MinPooled bytes (at most maxPiece) are
// pieces of shared slabs: one pointer-free allocation of slabPieces times
// the largest piece of its band, handed out by bumping an offset, so that
// eight to sixteen results cost one allocation and one finalizer. The
// collector keeps a slab while any pointer into it lives (a tensor, a view,
// a slice from Elements) and then runs the slab's finalizer, which puts it
// on its band's free list: the slab memory stays mapped, where a result of
// its own would be one span each from 8 KiB, often on pages the runtime's
// scavenger has just handed back to the kernel. A slab that waits
// idleRelease goes back like any free buffer.
//
// One surviving piece keeps its whole slab: at most slabPieces times its
// band's largest piece, so at most 16 times the survivor's own bytes
// (a piece just over half its band's largest), 8 times when it fills its
// band, and never more than a 512 KiB slab.

// maxPiece is the largest result served from a slab.
const maxPiece = 64 << 10

// slabPieces is how many of its band's largest pieces a slab holds: eight
// results share the finalizer and the allocation, and one survivor pins at
// most 16 times its size.
const slabPieces = 8

// pieceAlign aligns every piece to a cache line, so that no two results
// share one (two goroutines writing neighbouring results would otherwise
// contend for it).
const pieceAlign = 64

// bandBudget bounds the bytes of slabs one band tracks, out or free, as
// classBudget bounds a size class. Between two of the program's
// collections a plain loop takes the band's slabs first and fresh memory
// for the rest, which the runtime has often handed back to the kernel (a
// page fault each 4 KiB); a smaller budget cycles through less memory, but
// takes more of it fresh. In plain loops of 8-40 KiB results 64 MiB took
// the least CPU, against 4, 16 and 256 MiB (BenchmarkPlainLoopMemory's
// tiny cases, Xeon Sapphire Rapids, 2 vCPU under KVM, loaded).
const bandBudget = classBudget

// bandCount bands cover pieces up to maxPiece: band i holds pieces of at
// most 2 KiB << i bytes.
const bandCount = 6

// slab is one slab being handed out: off counts the bytes handed out,
// and may pass size when goroutines race for the last piece (the losers
// move to a new slab).
type slab struct {
	base    unsafe.Pointer
	size    int64
	off     atomic.Int64
	tracked bool // the pool counts it and its finalizer returns it
}

// band hands out the pieces of one range of sizes.
type band struct {
	top int // the largest piece; slabs are slabPieces·top bytes
	cur atomic.Pointer[slab]

	refill sync.Mutex // one goroutine at a time replaces cur
	// free, out are guarded by mu, as the classes' lists are.
	free []freeBuffer
	out  int // tracked slabs handed out and not yet returned
	used int // the cycle of the last slab taken (phases.go)
	// failed counts the times yielding found no slab back (see awaitFree)
	// in collection cycle failedIn (phases.go), so that a band whose slabs all stay live
	// stops yielding until the next collection.
	failed, failedIn int

	finalizer func(*uint64)
}

var bands [bandCount]band

func init() {
	for i := range bands {
		bands[i].top = 2 << 10 << i
		bands[i].finalizer = bands[i].reclaim
	}
}

func (b *band) slabSize() int { return slabPieces * b.top }

// pieceSize rounds a result's size up to whole cache lines.
func pieceSize(size int) int { return (size + pieceAlign - 1) &^ (pieceAlign - 1) }

// bandOf returns the band of a piece of n bytes, n <= maxPiece.
func bandOf(n int) *band { return &bands[max(bits.Len(uint(n-1))-11, 0)] }

// takePiece returns a piece of a slab for size bytes, zeroed if asked, and
// its class as Take reports it: minus the piece's size.
func takePiece(size int, zero bool) (p unsafe.Pointer, class int) {
	n := pieceSize(size)
	b := bandOf(n)
	for {
		s := b.cur.Load()
		if s != nil {
			if end := s.off.Add(int64(n)); end <= s.size {
				p = unsafe.Add(s.base, end-int64(n))
				break
			}
		}
		b.replace(s)
	}
	if zero {
		clear(unsafe.Slice((*uint64)(p), (size+7)/8))
	}
	return p, -n
}

// putPiece takes back a piece of n bytes when it is the last one its band's
// current slab handed out, as a stack pops its top: a loop that releases
// each result before the next one gets the same memory every time, still in
// the caches. Any other piece stays with its slab until the collector finds
// the slab unreferenced.
func putPiece(p unsafe.Pointer, n int) {
	s := bandOf(n).cur.Load()
	if s == nil {
		return
	}
	at := int64(uintptr(p) - uintptr(s.base))
	if at < 0 || at >= s.size {
		return // a piece of an older slab
	}
	if s.off.CompareAndSwap(at+int64(n), at) {
		piecesBack.Add(1)
	}
}

// piecesBack counts the pieces putPiece took back, which the band's next
// piece reuses: Stats counts them as hits.
var piecesBack atomic.Int64

// replace makes a new current slab for b unless another goroutine already
// replaced old: a free slab of the band, a new tracked one while the budget
// and the pool's limit allow, and otherwise an untracked one that the
// collector frees as any garbage.
func (b *band) replace(old *slab) {
	b.refill.Lock()
	defer b.refill.Unlock()
	if b.cur.Load() != old {
		return
	}
	size := b.slabSize()
	s := &slab{size: int64(size)}
	mu.Lock()
	b.used = cycle
	b.awaitFree(size)
	switch {
	case len(b.free) > 0:
		last := len(b.free) - 1
		s.base = b.free[last].p
		b.free[last] = freeBuffer{}
		b.free = b.free[:last]
		s.tracked = true
		hits++
	case b.buffers() < b.limit(size) && makeRoom(size):
		s.base = fresh(size, false)
		s.tracked = true
		tracked += size
		grown++
		short = cycle
		watchCollections()
	default:
		short = cycle
	}
	if s.tracked {
		b.out++
	}
	mu.Unlock()
	if s.tracked {
		runtime.SetFinalizer((*uint64)(s.base), b.finalizer)
	} else {
		s.base = fresh(size, false)
	}
	b.cur.Store(s)
}

// buffers is how many slabs b tracks, out or free; mu is held.
func (b *band) buffers() int { return b.out + len(b.free) }

// limit is the most slabs of size bytes that b may track.
func (b *band) limit(size int) int { return max(bandBudget/size, minBuffers) }

// dryYields is how many times a band that has run dry at its budget yields
// the processor before it takes untracked memory, and maxFailed how many
// times in one collection cycle it may find nothing that way before it
// stops trying until the next: a program that keeps all its results pays
// at most maxFailed·dryYields yields a cycle per band (about 0.4 µs each
// at load), where a plain loop's dead slabs come back over many dry
// refills while the sweeper and the finalizer goroutine catch up.
const (
	dryYields = 4
	maxFailed = 16
)

// awaitFree yields the processor, up to dryYields times, while b has no
// free slab and may track no more, so that the slabs the last collection
// found dead can come back first: their finalizers run on the finalizer
// goroutine, and on two busy cores that goroutine (and the sweeper that
// queues them) waits behind the loop that needs the slabs. An untracked
// slab taken meanwhile is fresh memory that brings the next collection
// closer, which then finds the returned slabs on the free list and counts
// them live; the heap goal then swings from one collection to the next and
// the runtime hands the loop's memory back to the kernel between them,
// where each page faults in again (about 2 µs a 4 KiB page under KVM). A
// plain loop of Mul on 4096 float32 took 0.81-0.89x the process CPU with
// the yields and got 0.105-0.110 of its slabs from the free list against
// 0.065 (of at most 1/8; docs/memory.md). mu is held, and held again on
// return.
func (b *band) awaitFree(size int) {
	if b.failedIn != cycle {
		b.failed, b.failedIn = 0, cycle
	}
	for range dryYields {
		if len(b.free) > 0 || b.buffers() < b.limit(size) || b.failed >= maxFailed {
			return
		}
		mu.Unlock()
		runtime.Gosched()
		mu.Lock()
	}
	if len(b.free) == 0 {
		b.failed++
	}
}

// reclaim is the finalizer of a tracked slab: no piece of it is referenced
// any more. It goes on the band's free list, unless the Go runtime's
// memory is near GOMEMLIMIT.
func (b *band) reclaim(p *uint64) {
	mu.Lock()
	defer mu.Unlock()
	b.out--
	if gone := unused(b.used); gone || nearGoLimit() {
		tracked -= b.slabSize()
		dropped++
		if gone {
			unusedDropped++
		}
		return
	}
	b.free = append(b.free, freeBuffer{unsafe.Pointer(p), time.Now(), fromCollection})
	scheduleIdleSweep()
}

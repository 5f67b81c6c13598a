// Package storage allocates the memory of tensors and recycles the large
// buffers of results that are no longer referenced.
//
// # Why
//
// A program that computes y := Matmul(a, b) in a loop drops each result
// right away. C libraries hand the freed block straight back to the next
// call (glibc's malloc reuses it, still mapped and warm in cache). Go's
// allocator cannot know the result is dead until a garbage collection, and
// clears every large allocation (or faults it in fresh from the kernel);
// on the machines we measure, a fresh 25 MB result costs more in page
// faults and clearing than the matrix product that fills it.
//
// # How
//
// Buffers of at least [MinPooled] bytes are rounded up to a size class
// (eight classes per power of two) and carry a finalizer. The finalizer runs
// only when nothing refers to the buffer any more — no tensor, no view, no
// pointer held by a running kernel, since the garbage collector treats a
// pointer into the buffer as a reference — and puts the buffer on its class's
// free list instead of letting it go. [Get] takes from that list first.
//
// The pool never starts a collection: it finds dead buffers through the
// collections the program's own allocation brings (a host program may run
// with a large heap, where a collection costs seconds of marking, or with
// GOGC=off), and through [Put] (Tensor.Release, and the into-forms, which
// allocate nothing). A class that runs dry grows, up to classBudget bytes,
// so that one collection refills it for many calls: a buffer found dead
// by a collection is not counted live by that collection (its finalizer
// resurrects it only afterwards), so the dropped results of a loop do not
// bring the next collection any closer, and the buffers a class holds
// serve the calls in between.
//
// A class that has run dry first borrows a free buffer of a larger class (at
// most maxLend times its size), which goes back to its own class when
// dropped: memory that one phase of a program has finished with serves the
// next phase's smaller results without fresh page faults.
//
// A class that takes nothing for a whole cycle between two collections
// while other takes are short of memory gives its free buffers back to the
// Go heap (phases.go), and so does one that takes nothing while a new loop
// starts (eight short takes of a class in a cycle, or a class budget's
// worth of results above 8 MiB): the next phase's fresh results are made
// of them, still mapped, rather than waiting behind them.
//
// Results from [MinReleased] below MinPooled are pieces of shared slabs
// (slab.go): one allocation and one finalizer serve eight to sixteen of
// them, and Put takes a piece back when it is the last one handed out.
//
// [TakeOutput] says whether a buffer is cold (fresh, or back through a
// collection) so that an operation can store around the caches, and
// [MapForStreaming] then maps the pages the Go runtime has returned to the
// kernel (or never touched) in one call per run of them, rather than a
// page fault at each first streaming store.
//
// # Bounds
//
// The pool tracks at most [Limit] bytes, and at most a quarter of what the
// process may use (internal/memlimit: RAM plus swap, RLIMIT_AS, the
// cgroup's limit, GOMEMLIMIT), so that buffers it keeps free never push the
// heap past GOMEMLIMIT; when the Go runtime's memory comes near GOMEMLIMIT
// it keeps no buffer a collection gives back. Beyond those bounds Get falls
// back to plain allocation. A free buffer idle for idleRelease has its
// pages handed back to the kernel at once (the memory returns without
// waiting for a collection) and leaves the pool.
package storage

import (
	"math/bits"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/tensor-go/tensor/internal/memlimit"
)

// MinPooled is the smallest buffer, in bytes, that the pool tracks one by
// one, each with a finalizer: from there on a fresh buffer costs sixteen
// page faults and more (about 25 µs here, once the Go heap has handed its
// free pages back to the operating system), against about a microsecond
// for the finalizer. Smaller results, from MinReleased, are pieces of
// shared slabs (slab.go), eight to sixteen to a finalizer. A variable so
// that tests can lower it.
var MinPooled = maxPiece

// classBudget bounds the bytes one size class may keep outstanding and free:
// large enough that a 256 KiB class (a 256×256 float32 product) holds the
// 256 results a loop may drop between two of the program's collections,
// and that a 4 MiB class holds 16, so that a loop whose operands are a few
// results' worth gets most of its results from the pool between
// collections.
const classBudget = 64 << 20

// minBuffers is the fewest buffers a class may track whatever their size.
// Between two of the program's collections a loop gets at most the
// class's buffers from the pool and fresh memory for the rest, as much as
// the collector lets the heap grow: the program's live heap (a loop like
// z = x·y keeps two operands of the result's size, which count in the
// class too). With five, a loop of 64 MiB products got three results of
// five from the pool; eight leaves six for the results.
const minBuffers = 8

// idleRelease is how long a free buffer may wait for reuse before its
// memory goes back to the kernel: long enough that a program's phases (a
// pause between requests, a workload's set-up) find their buffers again,
// short enough that an idle program does not hold a burst's memory.
const idleRelease = 2 * time.Second

// Limit is the most bytes the pool tracks (free and handed out) at once;
// the pool also keeps below a quarter of what the process may use (see
// limit). Set it, if at all, before any tensor operation runs.
var Limit = 1 << 30

// Enabled turns the pool on; tests turn it off to compare with plain
// allocation.
var Enabled = true

// class is one size class: buffers of exactly size bytes.
type class struct {
	size int
	free []freeBuffer
	out  int // handed out and not yet returned by their finalizer or Put
	used int // the cycle of the last take (phases.go)

	// lastTake is the count of takes (takes) at its last take; ended is
	// set when endPhase gave its free buffers back, and cleared by its
	// next take (phases.go).
	lastTake int
	ended    bool

	// shorts counts the takes of cycle shortIn that found no free buffer,
	// the first of them take number firstShort (phases.go's endPhase).
	shorts, shortIn, firstShort int

	// finalizer is c.reclaim, bound once so that arming a buffer does not
	// allocate a method value each time.
	finalizer func(*uint64)
}

// freeBuffer is a buffer on a free list and when it got there.
type freeBuffer struct {
	p     unsafe.Pointer
	since time.Time
	from  source // fromCollection or fromPut
}

var (
	mu       sync.Mutex
	classes  = map[int]*class{}
	tracked  int  // bytes handed out or free, over all classes
	sweeping bool // an idle sweep is scheduled

	hits, lent, grown, returned, dropped, unusedDropped int // counts for Stats

	takes int // takes of any class so far (phases.go)
)

// Get returns the address of a buffer of at least size bytes, aligned for
// any element type. When zero is false the contents are unspecified (the
// caller overwrites every byte it reads); otherwise they are zero. The
// buffer lives as long as a pointer into it does.
func Get(size int, zero bool) unsafe.Pointer {
	p, _ := Take(size, zero)
	return p
}

// Take is Get that also returns the buffer's class, which Put needs to
// take the buffer back: positive for a pooled buffer (the size of its
// class), negative for a piece of a slab (minus the piece's size), 0 for
// memory that cannot be given back.
func Take(size int, zero bool) (p unsafe.Pointer, class int) {
	p, class, _ = takeAny(size, zero)
	return p, class
}

// TakeOutput is Take for memory the caller overwrites completely (its
// contents are unspecified) that also says whether the buffer is cold:
// its lines are most likely in no cache, because it is fresh from the Go
// runtime or came back through a collection, not given back with Put just
// now. An operation storing a large result into cold memory can store it
// around the caches (streaming stores) and save reading every line before
// writing it; a warm buffer is better written in place, where the next
// operation finds it.
func TakeOutput(size int) (p unsafe.Pointer, class int, cold bool) {
	return takeAny(size, false)
}

func takeAny(size int, zero bool) (p unsafe.Pointer, class int, cold bool) {
	if size <= 0 {
		return nil, 0, false
	}
	if !Enabled || size < MinReleased {
		return plain(size), 0, true
	}
	if size < MinPooled && size <= maxPiece {
		p, class := takePiece(size, zero)
		return p, class, false // too small for any caller to store around the caches
	}
	p, owner, src := take(classFor(size), zero)
	switch {
	case p == nil:
		return fresh(size, zero), 0, true
	case zero && src != fromRuntime:
		clear(unsafe.Slice((*uint64)(p), (size+7)/8))
	}
	return p, owner.size, src != fromPut
}

// source is where take found a buffer.
type source uint8

const (
	fromRuntime    source = iota // new memory from the Go runtime, zeroed if asked
	fromCollection               // back through its finalizer, after a collection
	fromPut                      // back through Put
)

// Put hands back a buffer that Take returned with a nonzero class, without
// waiting for a garbage collection to find it dead: the next Get of its
// class returns it, still warm in the caches, as malloc returns a block
// just freed. The caller guarantees that nothing refers to the buffer any
// more and that nothing will: the pool cannot check.
func Put(p unsafe.Pointer, class int) {
	if class < 0 {
		putPiece(p, -class)
		return
	}
	runtime.SetFinalizer((*uint64)(p), nil)
	mu.Lock()
	defer mu.Unlock()
	classes[class].putBack(p, fromPut)
}

// MinReleased is the smallest result served from a slab (slab.go), and so
// the smallest that Put can take back; below it results come from Go's
// size-classed spans, which serve them cheaply.
var MinReleased = 1 << 10

// plain allocates zeroed memory that the pool does not track.
func plain(size int) unsafe.Pointer {
	words := make([]uint64, (size+7)/8)
	return unsafe.Pointer(unsafe.SliceData(words))
}

// fresh allocates a new buffer (or slab), zeroed only when zero is set. The result of an operation overwrites every byte, and
// clearing it first is not free: when the collector hands a loop's dropped
// 4 MiB results back as fresh spans, the runtime clears each (10% of a
// plain loop of 16384 8×8 float32 products here, Xeon Sapphire Rapids).
// Go has no API for uncleared memory, but strings.Builder.Grow allocates
// its buffer uncleared (the runtime's MakeNoZero, pointer-free like our
// buffers); the buffer is taken from it whole, and no string of it is
// kept or read. Were a Go release to clear it, this would only cost the
// clearing again.
func fresh(size int, zero bool) unsafe.Pointer {
	if zero {
		return plain(size)
	}
	var b strings.Builder
	b.Grow(size)
	b.WriteByte(0)
	return unsafe.Pointer(unsafe.StringData(b.String()))
}

// MapForStreaming maps the pages of the size bytes at p that are not
// mapped yet (see populate), for a caller about to overwrite them all with
// streaming stores: each such store to an absent page would fault, and the
// kernel's clearing of the page would only cross the caches for nothing.
// Memory written once with ordinary stores is better left to fault: the
// kernel clears each page just before its first write, so the write finds
// the page's lines in cache, where clearing the whole buffer ahead evicts
// them (plain loops of a 64 MiB exclusive product and of 4 MiB Mul and
// batch results took 1.10-1.25× the CPU populated ahead, streamed Mul and
// Add results of 8 and 64 MiB 0.62-0.66×; Xeon Sapphire Rapids, KVM).
// Memory of at least the L2 that ordinary stores write several times (a
// blocked product's C, once a K block) is not in cache between the
// writes either, and is mapped ahead too (internal/gemm's mapColdC).
// A caller with several goroutines maps its parts on each of them, since
// the kernel clears every page it maps (the root's mapStreamed, gemm's
// mapShare).
// Present pages cost a mincore look (about 1 µs for 4 MiB), so any
// buffer may be passed. A no-op while Populate is off, below minPopulate
// bytes, and where the system cannot do it.
func MapForStreaming(p unsafe.Pointer, size int) {
	if !Populate || size < minPopulate {
		return
	}
	populated.Add(int64(populate(p, size)))
}

// Populate turns MapForStreaming on; benchmarks turn it off to compare.
var Populate = true

// minPopulate is the smallest buffer MapForStreaming looks at: a smaller
// one has a few pages at most, whose faults cost less than the calls.
const minPopulate = 64 << 10

// populated counts the pages populate mapped, for Stats.
var populated atomic.Int64

// classSize rounds size up to its class: eight classes per power of two,
// so at most 1/8 of a buffer is wasted.
func classSize(size int) int {
	step := 1 << max(bits.Len(uint(size-1))-4, 3)
	return (size + step - 1) &^ (step - 1)
}

func classFor(size int) *class {
	size = classSize(size)
	mu.Lock()
	defer mu.Unlock()
	c := classes[size]
	if c == nil {
		c = &class{size: size}
		c.finalizer = c.reclaim
		classes[size] = c
	}
	return c
}

// take returns a tracked buffer for c: a free one of c or one lent by a
// larger class, or a new one, zeroed if zero is set; nil when the class or
// the pool is full. src says where it came from (only one from the runtime
// is zero, and only when zero is set). A lent buffer stays its own class's,
// which take returns as owner: its finalizer, or Put, returns it there.
func take(c *class, zero bool) (p unsafe.Pointer, owner *class, src source) {
	mu.Lock()
	owner = c
	takes++
	c.used, c.lastTake, c.ended = cycle, takes, false
	if len(c.free) == 0 {
		if l := lender(c); l != nil {
			owner = l
		}
	}
	if len(owner.free) == 0 {
		// A phase this take ends gives its buffers back mapped before
		// makeRoom drops any with their pages, and before fresh allocates
		// (a collection that allocation starts marks what the pool holds).
		c.wentShort()
	}
	switch {
	case len(owner.free) > 0:
		hits++
		p, src = owner.pop()
		if owner != c {
			lent++ // not a take of owner's own (phases.go)
		}
	case c.buffers() < max(classBudget/c.size, minBuffers) && makeRoom(c.size):
		p, src = fresh(c.size, zero), fromRuntime
		tracked += c.size
		grown++
		watchCollections()
	default:
		mu.Unlock()
		return nil, nil, fromRuntime
	}
	owner.out++
	mu.Unlock()
	runtime.SetFinalizer((*uint64)(p), owner.finalizer)
	return p, owner, src
}

// pop takes the newest buffer off c's free list and says how it got
// there; mu is held.
func (c *class) pop() (unsafe.Pointer, source) {
	last := len(c.free) - 1
	b := c.free[last]
	c.free[last] = freeBuffer{} // the backing array must not keep it alive
	c.free = c.free[:last]
	return b.p, b.from
}

// maxLend bounds how much larger than a class a buffer lent to it may be.
// A class that has run dry borrows a free buffer of a larger class, which
// is resident and costs nothing to touch, rather than fault in fresh memory
// (about 1.5 µs a 4 KiB page here, more than most products spend on each
// page of their result): memory freed by one phase of a program (a
// workload's operands and results) serves the next phase's smaller
// results, as a C allocator would split the freed block. Go cannot split a
// buffer, so a lent buffer stays whole while its tensor lives: the bound
// keeps a long-lived result from holding more than maxLend times its own
// size.
const maxLend = 8

// lender returns the smallest class larger than c, at most maxLend times
// its size, that has a free buffer, or nil; mu is held.
func lender(c *class) *class {
	var best *class
	for _, l := range classes {
		if l.size > c.size && l.size <= maxLend*c.size && len(l.free) > 0 && (best == nil || l.size < best.size) {
			best = l
		}
	}
	return best
}

// buffers is how many buffers c tracks, out or free; mu is held.
func (c *class) buffers() int { return c.out + len(c.free) }

// makeRoom reports whether size more bytes fit under the pool's limit,
// dropping free buffers of any class, oldest first within a class, to make
// them fit: a program that has moved on to other shapes needs the room
// more than the old shapes' idle buffers do. mu is held.
func makeRoom(size int) bool {
	limit := poolLimit()
	for _, c := range classes {
		for tracked+size > limit && len(c.free) > 0 {
			dropFree(&c.free, 0, c.size)
		}
	}
	for i := range bands {
		for b := &bands[i]; tracked+size > limit && len(b.free) > 0; {
			dropFree(&b.free, 0, b.slabSize())
		}
	}
	return tracked+size <= limit
}

// dropFree lets the free buffer (or slab) of size bytes at index i of
// *free go to the garbage collector, its pages handed back to the kernel
// first so that the memory returns at once rather than at the next
// collection; mu is held.
func dropFree(free *[]freeBuffer, i, size int) {
	f := *free
	returned += returnPages(f[i].p, size)
	dropped++
	tracked -= size
	last := len(f) - 1
	copy(f[i:], f[i+1:])
	f[last] = freeBuffer{} // the backing array must not keep it alive
	*free = f[:last]
}

// dropIdle drops the buffers of size bytes on *free that have waited since
// before cutoff, and reports whether any is left; mu is held.
func dropIdle(free *[]freeBuffer, size int, cutoff time.Time) bool {
	for i := 0; i < len(*free); {
		if (*free)[i].since.After(cutoff) {
			i++
			continue
		}
		dropFree(free, i, size)
	}
	return len(*free) > 0
}

// nearGoLimit reports whether the Go runtime's memory is within an eighth
// of GOMEMLIMIT. It reads the runtime's counts at most once a millisecond:
// finalizers of a loop's results run thousands of times a second.
func nearGoLimit() bool {
	if now := time.Now(); now.Sub(pressure.read) >= time.Millisecond {
		pressure.read = now
		pressure.near = memlimit.NearGoLimit(8)
	}
	return pressure.near
}

// pressure caches nearGoLimit's answer; mu guards it.
var pressure struct {
	read time.Time
	near bool
}

// poolLimit is the most bytes the pool may track now: Limit, and a quarter
// of what the process may use at all (internal/memlimit, GOMEMLIMIT
// included), so that free buffers leave the program most of its memory
// and the collector room under GOMEMLIMIT. mu is held.
func poolLimit() int {
	return min(Limit, memlimit.Total()/4)
}

// reclaim is the finalizer of a handed-out buffer of c: nothing refers to
// the buffer any more, and it goes on the free list, unless the Go
// runtime's memory is near GOMEMLIMIT, where a free buffer would only make
// the collector run more often, or c took nothing during the last cycle
// or its phase was ended since its last take (phases.go), where it would
// only wait there. (A buffer handed out again straight from
// the free list is found dead by the very next collection once dropped:
// the finalizer goroutine keeps no reference to the argument of the
// finalizer it ran last; TestReclaimedBufferCanBeReclaimedAgain.)
func (c *class) reclaim(p *uint64) {
	mu.Lock()
	defer mu.Unlock()
	if gone := c.ended || unused(c.used); gone || nearGoLimit() {
		c.out--
		tracked -= c.size
		dropped++
		if gone {
			unusedDropped++
		}
		return
	}
	c.putBack(unsafe.Pointer(p), fromCollection)
}

// putBack puts a handed-out buffer of c on its free list, where the next
// take finds it first, and makes sure idle buffers will be released; mu
// is held.
func (c *class) putBack(p unsafe.Pointer, from source) {
	c.out--
	c.free = append(c.free, freeBuffer{p, time.Now(), from})
	scheduleIdleSweep()
}

// scheduleIdleSweep makes sure releaseIdle runs while a buffer is free;
// mu is held.
func scheduleIdleSweep() {
	if !sweeping {
		sweeping = true
		time.AfterFunc(idleRelease/2, releaseIdle)
	}
}

// releaseIdle drops free buffers that waited idleRelease or longer, and
// schedules itself again while any buffer is free: a buffer leaves at most
// 1.5·idleRelease after it was last used.
func releaseIdle() {
	mu.Lock()
	defer mu.Unlock()
	cutoff := time.Now().Add(-idleRelease)
	left := false
	for _, c := range classes {
		left = dropIdle(&c.free, c.size, cutoff) || left
	}
	for i := range bands {
		left = dropIdle(&bands[i].free, bands[i].slabSize(), cutoff) || left
	}
	sweeping = left
	if left {
		time.AfterFunc(idleRelease/2, releaseIdle)
	}
}

// Stats describes the pool for tests and diagnostics.
type Stats struct {
	Tracked     int // bytes handed out or free
	Free        int // free buffers and slabs
	Outstanding int // handed-out buffers and slabs not yet returned
	Hits        int // Get calls and slabs served from a free list, and slab pieces given back
	Lent        int // of those, served by a larger class
	Grown       int // Get calls and slabs that allocated a new tracked buffer
	Dropped     int // buffers the pool let go (idle, unused, or room needed)
	Unused      int // of those, buffers of classes and bands that took none for a cycle while others were short (phases.go)
	Returned    int // bytes of dropped buffers handed back to the kernel
	Populated   int // pages of fresh buffers mapped ahead of their first write
}

// ReadStats returns the pool's current counts.
func ReadStats() Stats {
	mu.Lock()
	defer mu.Unlock()
	s := Stats{Tracked: tracked, Hits: hits + int(piecesBack.Load()), Lent: lent, Grown: grown, Dropped: dropped, Unused: unusedDropped, Returned: returned, Populated: int(populated.Load())}
	for _, c := range classes {
		s.Free += len(c.free)
		s.Outstanding += c.out
	}
	for i := range bands {
		s.Free += len(bands[i].free)
		s.Outstanding += bands[i].out
	}
	return s
}

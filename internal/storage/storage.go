// Package storage allocates the memory of tensors and recycles the large
// buffers of results that are no longer referenced.
//
// # Why
//
// A program that computes y := Matmul(a, b) in a loop drops each result
// right away. C libraries hand the freed block straight back to the next
// call (glibc's malloc reuses it, still mapped and warm in cache). Go's
// allocator cannot know the result is dead until a garbage collection,
// returns freed pages to the operating system in the background, and zeroes
// every large allocation; on the machines we measure, a fresh 25 MB result
// costs more in page faults and zeroing than the matrix product that fills
// it (about 1.4–10 µs per 4 KiB page).
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
// The collector only finds dead buffers when it runs. For buffers below
// [MinCollecting] the pool waits for the collections the program's own
// allocation brings. From MinCollecting bytes on, a program that reuses
// pooled buffers allocates too little for those to come, so when such a
// class runs dry while some of its buffers are out, the pool starts a
// collection itself, in the background (at most one at a time, spaced so
// that collecting takes at most a fifth of the time), which refills the
// class for later calls; when one buffer is worth more than a collection
// (its size × coldNanosPerByte against the measured cost of recent
// collections) the caller waits for it instead of touching fresh memory.
// A wait that wins nothing back backs the class off exponentially, so a
// program that keeps its results alive does not pay for collections that
// cannot help. Once a class's collections have cost as much as touching
// one more buffer, the class grows by one instead, so that a long loop
// ends up with enough buffers for one collection to refill many calls.
//
// A class that has run dry first borrows a free buffer of a larger class (at
// most maxLend times its size), which goes back to its own class when
// dropped: memory that one phase of a program has finished with serves the
// next phase's smaller results without fresh page faults.
//
// A caller that knows a buffer is dead gives it back at once with [Put]
// (Tensor.Release does), which also serves sizes from [MinReleased] below
// MinPooled: those carry no finalizer, and only given-back ones are kept.
//
// Free buffers idle for idleRelease are dropped so that the memory returns
// to the Go heap; at most [Limit] bytes are tracked at once, and a class
// tracks at most classBudget bytes (or minBuffers buffers); beyond that
// Get falls back to plain allocation.
package storage

import (
	"math/bits"
	"runtime"
	"sync"
	"time"
	"unsafe"
)

// MinPooled is the smallest buffer, in bytes, that the pool tracks: from
// there on a fresh buffer costs four page faults and more (about 6 µs
// here, once the Go heap has handed its free pages back to the operating
// system), while a finalizer costs about a microsecond, and results the
// pool recycles are no allocation that brings the next collection closer.
// Down from 64 KiB, a 64³ product in a loop: float32 11.7 -> 8.6 µs,
// float64 22 -> 17 µs. Smaller buffers come from Go's size-classed spans.
// A variable so that tests can lower it.
var MinPooled = 16 << 10

// MinCollecting is the smallest class for which the pool starts garbage
// collections. Its collections compete with the caller's threads, so below
// it they cost more than they save, while tracking alone pays: a 256³
// product and a batch of 16384 8×8 products in a steady loop ran faster
// tracked without collections (270–345 -> 165–205 µs and 1.3–1.7 ->
// 0.66–0.82 ms). From 1 MiB on, touching fresh memory (256 page faults and
// more) costs a millisecond or more here and collecting wins: medians of
// three alternating runs of the benchmark command, against collecting from
// 16 MiB only, a tall 100000×64 @ 64×64 product 11.6 -> 5.6 ms and the
// 8×8 batch 1.8 -> 1.4 ms; element-wise products of 64 MiB results,
// against no pool, 75 -> 19 ms (float64) and 21 -> 7 ms (row broadcast).
var MinCollecting = 1 << 20

// classBudget bounds the bytes one size class may keep outstanding and free:
// large enough that a 256 KiB class (a 256×256 float32 product) holds the
// 256 results a loop may drop between two of the program's collections.
const classBudget = 64 << 20

// coldNanosPerByte is what touching a buffer that is not resident costs:
// page faults and clearing, measured here between 0.35 ns a byte (1.4 µs
// a 4 KiB page) and 2.5 (a fresh 4 MiB result taking 2–10 ms, 2–8 µs a
// page when the host has to back the page too). A caller waits for a
// collection rather than take fresh memory when one buffer costs more than
// a collection at this rate. 2.0 rather than the 1.0 this was first:
// collections that run beside two busy threads take 1–4 ms here, so at 1.0
// a 4 MiB class often grew instead of waiting, and the growth cost 5–10 ms.
// Six alternating runs of the benchmark command (medians, ms): 1024³
// float32 7.98 -> 7.46, 2048³ 62.3 -> 59.2, a batch of 16384 8×8 products
// 0.99 -> 0.86; 512 64×64 @ 64×64 (8 MiB results, which now always wait)
// 1.25 -> 1.45, still above NumPy's 1.83; float64 and the tall product
// unchanged within noise.
const coldNanosPerByte = 2.0

// minBuffers is the fewest buffers a class may track whatever their size:
// one in use, one the collector has just found dead, one free for the next
// call, one dropped earlier that a collection started in the background
// has yet to return, and the two operands of the same size that a loop
// like z = x·y keeps alive. At four, a loop multiplying two vectors of
// 16 M int8s got a third of its results from Go's heap, cleared and
// faulted in: 1.94-2.02 -> 1.49-1.54 ms a call.
const minBuffers = 6

// gcSpacing spaces background collections: after one that took d, the next
// starts no sooner than gcSpacing·d later, so that the collector, which
// competes with the caller's threads while it runs, takes at most a fifth
// of the time.
const gcSpacing = 4

// idleRelease is how long a free buffer may wait for reuse before the pool
// lets the garbage collector have it.
const idleRelease = 5 * time.Second

// Limit is the most bytes the pool tracks (free and handed out) at once.
// Set it, if at all, before any tensor operation runs.
var Limit = 1 << 30

// Enabled turns the pool on; tests turn it off to compare with plain
// allocation.
var Enabled = true

// class is one size class: buffers of exactly size bytes.
type class struct {
	size    int
	free    []freeBuffer
	out     int // handed out and not yet returned by their finalizer
	skip    int // forced collections to skip after fruitless ones
	backoff int // the next skip after another fruitless collection

	// waited is how long the collections the class started have taken
	// since it last grew. Once that reaches what one more buffer would
	// cost to touch, the class grows instead of collecting again: a loop
	// that drops a result per call pays at most about twice the best of
	// the two (a collection every few calls, or a larger class that one
	// collection refills for many), whichever its length makes best.
	waited time.Duration

	// finalizer is c.reclaim, bound once so that arming a buffer does not
	// allocate a method value each time.
	finalizer func(*uint64)
}

// freeBuffer is a buffer on a free list and when it got there.
type freeBuffer struct {
	p     unsafe.Pointer
	since time.Time
}

var (
	mu       sync.Mutex
	classes  = map[int]*class{}
	tracked  int           // bytes handed out or free, over all classes
	gcCost   time.Duration = 500 * time.Microsecond
	sweeping bool          // an idle sweep is scheduled

	hits, lent, grown, collections int // counts for Stats
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
// class), negative for a buffer of at least [MinReleased] bytes that only
// Put recycles (minus the size of its class), 0 for memory that cannot be
// given back.
func Take(size int, zero bool) (p unsafe.Pointer, class int) {
	if size <= 0 {
		return nil, 0
	}
	if !Enabled || size < MinReleased {
		return plain(size), 0
	}
	if size < MinPooled {
		return takeReleased(classSize(size), size, zero)
	}
	p, owner, recycled := take(classFor(size))
	if p == nil {
		return plain(size), 0
	}
	if zero && recycled {
		clear(unsafe.Slice((*uint64)(p), (size+7)/8))
	}
	return p, owner.size
}

// Put hands back a buffer that Take returned with a nonzero class, without
// waiting for a garbage collection to find it dead: the next Get of its
// class returns it, still warm in the caches, as malloc returns a block
// just freed. The caller guarantees that nothing refers to the buffer any
// more and that nothing will: the pool cannot check.
func Put(p unsafe.Pointer, class int) {
	if class < 0 {
		putReleased(p, -class)
		return
	}
	runtime.SetFinalizer((*uint64)(p), nil)
	mu.Lock()
	defer mu.Unlock()
	classes[class].putBack(p)
}

// MinReleased is the smallest buffer that Put can take back. Buffers below
// MinPooled carry no finalizer and are not tracked (the collector frees
// those nobody gives back, cheaply at their size), but the ones given back
// wait for the next Take of their class, at most maxReleased per class: Go
// clears every new buffer and collects after every few megabytes, so a
// loop of 32×32 float64 products released each result and still paid 3.3
// µs a call for allocation against 1 µs for the product.
var MinReleased = 1 << 10

// maxReleased bounds the given-back buffers kept per class below
// MinPooled: at most 8 × 16 KiB a class, a few megabytes in all.
const maxReleased = 8

// released holds the buffers below MinPooled given back with Put, by
// class size; mu guards it.
var released = map[int][]unsafe.Pointer{}

// takeReleased returns a given-back buffer of the class, or a new one of
// the class's size, and the class as Take reports it.
func takeReleased(class, size int, zero bool) (unsafe.Pointer, int) {
	mu.Lock()
	free := released[class]
	if len(free) == 0 {
		mu.Unlock()
		return plain(class), -class
	}
	p := free[len(free)-1]
	free[len(free)-1] = nil
	released[class] = free[:len(free)-1]
	hits++
	mu.Unlock()
	if zero {
		clear(unsafe.Slice((*uint64)(p), (size+7)/8))
	}
	return p, -class
}

// putReleased keeps a given-back buffer below MinPooled for the next Take
// of its class, unless the class keeps maxReleased already.
func putReleased(p unsafe.Pointer, class int) {
	mu.Lock()
	defer mu.Unlock()
	if free := released[class]; len(free) < maxReleased {
		released[class] = append(free, p)
	}
}

// plain allocates zeroed memory that the pool does not track.
func plain(size int) unsafe.Pointer {
	words := make([]uint64, (size+7)/8)
	return unsafe.Pointer(unsafe.SliceData(words))
}

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
// larger class, one won back by a collection (all recycled), or a new,
// zeroed one; nil when the class or the pool is full. A lent buffer stays
// its own class's, which take returns as owner: its finalizer, or Put,
// returns it there.
func take(c *class) (p unsafe.Pointer, owner *class, recycled bool) {
	mu.Lock()
	owner = c
	if len(c.free) == 0 {
		if l := lender(c); l != nil {
			owner = l
		} else if c.waitsForCollection() {
			done := startCollection(true, c)
			mu.Unlock()
			awaitCollection(done, c)
			mu.Lock()
		}
	}
	switch {
	case len(owner.free) > 0:
		hits++
		recycled = true
		p = owner.pop()
		if owner != c {
			lent++
		}
	case c.buffers() < max(classBudget/c.size, minBuffers) && makeRoom(c.size):
		c.waited = 0
		p = plain(c.size)
		tracked += c.size
		grown++
	default:
		mu.Unlock()
		return nil, nil, false
	}
	owner.out++
	if owner.collectsAhead() {
		// The class has run dry while buffers are out, some of them
		// probably dead: have the collector look for them while the
		// caller computes, so that the next call finds one. For a class
		// whose next call would wait for a collection anyway, start it
		// now whatever the spacing: it overlaps this call's work instead.
		startCollection(worthOneCollection(owner), owner)
	}
	mu.Unlock()
	runtime.SetFinalizer((*uint64)(p), owner.finalizer)
	return p, owner, recycled
}

// waitsForCollection reports whether a caller that finds c dry should wait
// for a collection to win a buffer back rather than grow the class: some
// of its buffers are out (and may be dead), one buffer costs more to touch
// than a collection, and the class's collections have not yet cost as much
// as one more buffer. mu is held.
func (c *class) waitsForCollection() bool {
	return c.out > 0 && c.collects() && mustWait(c)
}

// collectsAhead reports whether, having handed out its last free buffer,
// c should start a collection in the background so that the next call
// finds one: its other buffers are out, some of them probably dead, and
// its collections have not yet cost as much as one more buffer. mu is held.
func (c *class) collectsAhead() bool {
	return len(c.free) == 0 && c.out > 1 && c.collects()
}

// collects reports whether c, dry, should rather collect than grow: never
// below MinCollecting, not while it has fewer than freeBuffers buffers of
// at most maxFreeGrowth bytes (a loop that drops a result per call needs
// that many for a collection to refill it while the caller computes), nor
// once its collections have cost as much as one more buffer would. mu is
// held.
func (c *class) collects() bool {
	if c.size < MinCollecting || c.buffers() < freeBuffers && c.size <= maxFreeGrowth {
		return false
	}
	return c.waited < c.coldCost()
}

// freeBuffers is how many buffers a class of at most maxFreeGrowth bytes
// grows to before it collects: one in use, one the collector is looking
// for, one free and a loop's operand of the same size. More buffers are
// more fresh memory for the first calls of every loop and did not pay:
// with six the 8×8 batch's median in the benchmark command was unchanged,
// with eight it went from 0.29–0.36 to 0.38–0.45 ms (four alternating
// runs each).
const freeBuffers = 4

// maxFreeGrowth bounds the classes that grow to freeBuffers without
// collecting: touching three fresh buffers of 8 MiB costs up to about
// 50 ms here (2 ns a byte), a few collections' worth for the larger ones.
const maxFreeGrowth = 8 << 20

// pop takes the newest buffer off c's free list; mu is held.
func (c *class) pop() unsafe.Pointer {
	last := len(c.free) - 1
	p := c.free[last].p
	c.free[last] = freeBuffer{} // the backing array must not keep it alive
	c.free = c.free[:last]
	return p
}

// maxLend bounds how much larger than a class a buffer lent to it may be.
// A class that has run dry borrows a free buffer of a larger class, which
// is resident and costs nothing to touch, rather than fault in fresh memory
// (about 1.5 µs a 4 KiB page here, more than most products spend on each
// page of their result) or wait for a collection: memory freed by one phase
// of a program (a workload's operands and results) serves the next phase's
// smaller results, as a C allocator would split the freed block. Go cannot
// split a buffer, so a lent buffer stays whole while its tensor lives: the
// bound keeps a long-lived result from holding more than maxLend times its
// own size. Measured with the benchmark command, whose workloads follow one
// another as a program's phases do (medians of six alternating runs, as
// multiples of NumPy's speed in the same session): a batch of 16384 8×8
// products 1.06 -> 1.39, 512 64×64 @ 64×64 1.05 -> 1.42, a tall 100000×64
// product 1.60 -> 2.08, SpGEMM 1.13 -> 1.68, the int32·float32 multiply
// 5.07 -> 7.37; the rest unchanged within noise.
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

// makeRoom reports whether size more bytes fit under Limit, dropping free
// buffers of any class, oldest first within a class, to make them fit: a
// program that has moved on to other shapes needs the room more than the
// old shapes' idle buffers do. mu is held.
func makeRoom(size int) bool {
	for _, c := range classes {
		for tracked+size > Limit && len(c.free) > 0 {
			c.free[0] = freeBuffer{}
			c.free = c.free[1:]
			tracked -= c.size
		}
	}
	return tracked+size <= Limit
}

// mustWait reports whether one buffer of c is worth more than a collection,
// so that the caller should wait for one to win a buffer back instead of
// touching fresh memory; mu is held.
func mustWait(c *class) bool {
	if c.skip > 0 {
		c.skip--
		return false
	}
	return worthOneCollection(c)
}

// coldCost is what touching one fresh buffer of c costs; mu is held.
func (c *class) coldCost() time.Duration {
	return time.Duration(float64(c.size) * coldNanosPerByte)
}

// worthOneCollection reports whether touching one fresh buffer of c costs
// more than a collection; mu is held.
func worthOneCollection(c *class) bool {
	return c.coldCost() >= gcCost
}

// A collection is one garbage collection started by the pool; done is
// closed when it has finished.
type collection struct{ done chan struct{} }

var (
	current     *collection // the collection in flight, if any
	nextAllowed time.Time   // background collections wait until then
)

// startCollection starts a collection in the background unless one is in
// flight, and returns the in-flight one. Background collections (urgent
// false) are rate-limited so that collecting takes at most 1/(1+gcSpacing)
// of the time; urgent ones, which a caller waits for, are not. mu is held.
// It returns nil when no collection runs.
func startCollection(urgent bool, owner *class) *collection {
	if current != nil {
		return current
	}
	if !urgent && time.Now().Before(nextAllowed) {
		return nil
	}
	col := &collection{done: make(chan struct{})}
	current = col
	go func() {
		start := time.Now()
		runtime.GC()
		took := time.Since(start)
		mu.Lock()
		collections++
		gcCost = (3*gcCost + took) / 4
		owner.waited += took
		nextAllowed = time.Now().Add(gcSpacing * took)
		current = nil
		mu.Unlock()
		close(col.done)
	}()
	return col
}

// awaitCollection waits for col and for the finalizers it queued to return
// buffers to c. A collection that returns none backs the class off, so that
// a program that keeps its results alive does not wait for collections that
// cannot help.
func awaitCollection(col *collection, c *class) {
	<-col.done
	if awaitFinalizers(c) {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	c.backoff = min(2*c.backoff+1, 1024)
	c.skip = c.backoff
}

// awaitFinalizers gives the finalizer goroutine, which runs after a
// collection, the processor a few times and reports whether c won a buffer
// back. A class that did is no longer backed off.
func awaitFinalizers(c *class) bool {
	for range 16 {
		mu.Lock()
		won := len(c.free) > 0
		if won {
			c.backoff = 0
		}
		mu.Unlock()
		if won {
			return true
		}
		runtime.Gosched()
	}
	return false
}

// reclaim is the finalizer of a handed-out buffer of c: nothing refers to
// the buffer any more, and it goes on the free list. (A buffer handed out
// again straight from there is found dead by the very next collection once
// dropped: the finalizer goroutine keeps no reference to the argument of
// the finalizer it ran last; TestReclaimedBufferCanBeReclaimedAgain.)
func (c *class) reclaim(p *uint64) {
	mu.Lock()
	defer mu.Unlock()
	c.putBack(unsafe.Pointer(p))
}

// putBack puts a handed-out buffer of c on its free list, where the next
// take finds it first, and makes sure idle buffers will be released; mu
// is held.
func (c *class) putBack(p unsafe.Pointer) {
	c.out--
	c.free = append(c.free, freeBuffer{p, time.Now()})
	if !sweeping {
		sweeping = true
		time.AfterFunc(idleRelease, releaseIdle)
	}
}

// releaseIdle drops free buffers that waited longer than idleRelease, and
// schedules itself again while any buffer is free.
func releaseIdle() {
	mu.Lock()
	defer mu.Unlock()
	cutoff := time.Now().Add(-idleRelease)
	left := false
	for _, c := range classes {
		keep := c.free[:0]
		for _, f := range c.free {
			if f.since.After(cutoff) {
				keep = append(keep, f)
			} else {
				tracked -= c.size
			}
		}
		clear(c.free[len(keep):])
		c.free = keep
		left = left || len(keep) > 0
	}
	sweeping = left
	if left {
		time.AfterFunc(idleRelease, releaseIdle)
	}
}

// Collect runs a garbage collection and waits until the finalizers it
// queued have put the buffers it found dead back on their free lists: it
// returns once no buffer has come back for collectQuiet. The calls that
// follow reuse those buffers instead of touching fresh memory. The
// benchmark command calls it between its warm-up and timed calls.
func Collect() {
	runtime.GC()
	last, since := ReadStats().Free, time.Now()
	for time.Since(since) < collectQuiet {
		// Polling, not sleeping: the finalizer goroutine needs a
		// processor, and a caller about to time work should not leave its
		// cores idle.
		runtime.Gosched()
		if free := ReadStats().Free; free != last {
			last, since = free, time.Now()
		}
	}
}

// collectQuiet is how long Collect waits for one more buffer to come back:
// the finalizer goroutine returns each within microseconds once it runs.
const collectQuiet = time.Millisecond

// Stats describes the pool for tests and diagnostics.
type Stats struct {
	Tracked     int           // bytes handed out or free
	Free        int           // free buffers
	Outstanding int           // handed-out buffers not yet returned
	Hits        int           // Get calls served from a free list
	Lent        int           // of those, served by a larger class
	Grown       int           // Get calls that allocated a new tracked buffer
	Collections int           // collections the pool started
	GCCost      time.Duration // the running estimate of one collection's cost
}

// ReadStats returns the pool's current counts.
func ReadStats() Stats {
	mu.Lock()
	defer mu.Unlock()
	s := Stats{Tracked: tracked, Hits: hits, Lent: lent, Grown: grown, Collections: collections, GCCost: gcCost}
	for _, c := range classes {
		s.Free += len(c.free)
		s.Outstanding += c.out
	}
	return s
}

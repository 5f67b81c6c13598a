package storage

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
	"unsafe"
)

// freeIn returns how many free buffers the class of size holds.
func freeIn(size int) int {
	mu.Lock()
	defer mu.Unlock()
	if c := classes[classSize(size)]; c != nil {
		return len(c.free)
	}
	return 0
}

// shortPhase returns a call that takes a result larger than any before it
// each time, as a phase of new shapes does: no free buffer can serve it,
// so the pool is short of memory in every cycle that calls it.
func shortPhase(from int) func() {
	size := from
	return func() {
		size += 64 << 10
		fill(Get(size, false), size, 2)
	}
}

// collectUntil collects (as the program's own allocation would) until done
// reports true, or fails the test after a second.
func collectUntil(t *testing.T, what string, done func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Second); !done(); {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within a second of collections: %+v", what, ReadStats())
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// TestFinishedPhaseGivesBackItsClass runs a phase of one size, then one of
// a size no earlier buffer can serve: the first phase's free buffers leave
// the pool once the second has gone a cycle short of memory, a buffer of
// the first phase that is still live keeps its contents and comes back to
// nobody when it dies, and the pages of what left stay mapped (the next
// phase's fresh memory is made of them).
func TestFinishedPhaseGivesBackItsClass(t *testing.T) {
	reset()
	const small, large = 256 << 10, 4 << 20
	live, _ := Take(small, false)
	fill(live, small, 7)
	for range 4 {
		fill(Get(small, false), small, 1)
	}
	collectUntil(t, "the first phase's results come back", func() bool { return freeIn(small) >= 4 })
	before := ReadStats()
	start := time.Now()
	next := shortPhase(large)
	collectUntil(t, "the finished phase's free buffers leave", func() bool {
		next()
		return freeIn(small) == 0
	})
	if time.Since(start) >= idleRelease {
		t.Skip("the machine took longer than idleRelease: the idle sweep may have dropped them")
	}
	s := ReadStats()
	if s.Unused <= before.Unused {
		t.Fatalf("no buffer counted as given back unused: before %+v after %+v", before, s)
	}
	if s.Returned != before.Returned {
		t.Fatalf("the unused buffers' pages went to the kernel (%d bytes), want them left mapped", s.Returned-before.Returned)
	}
	if got := unsafe.Slice((*byte)(live), small); got[0] != 7 || got[small-1] != 7 {
		t.Fatal("a live buffer of the finished phase was handed out again")
	}
	mu.Lock()
	outSmall := classes[classSize(small)].out
	mu.Unlock()
	if outSmall != 1 {
		t.Fatalf("the finished phase's class has %d buffers out, want only the live one", outSmall)
	}
	runtime.KeepAlive(live)
	live = nil
	collectUntil(t, "the live buffer, dropped, leaves", func() bool {
		next()
		mu.Lock()
		defer mu.Unlock()
		c := classes[classSize(small)]
		return c.out == 0 && len(c.free) == 0
	})
	checkTracked(t)
}

// TestPausedProgramKeepsItsBuffers collects many times with no tensor work
// in between, as a program pausing between requests does: nothing was short
// of memory, so no class counts as finished, and the free buffers stay.
func TestPausedProgramKeepsItsBuffers(t *testing.T) {
	reset()
	const size = 256 << 10
	for range 4 {
		fill(Get(size, false), size, 1)
	}
	collectUntil(t, "results come back", func() bool { return freeIn(size) >= 4 })
	n := freeIn(size)
	start := time.Now()
	for range 10 {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if time.Since(start) >= idleRelease {
		t.Skip("the machine took longer than idleRelease")
	}
	if got := freeIn(size); got < n {
		t.Fatalf("a pause of collections dropped free buffers: %d left of %d", got, n)
	}
	checkTracked(t)
}

// TestFinishedSlabBandGivesBackItsSlabs is the slab bands' case: a phase
// of small results, then one of large results; the small phase's free
// slabs leave.
func TestFinishedSlabBandGivesBackItsSlabs(t *testing.T) {
	reset()
	withMinPooled(t, func() {
		const small, large = 4 << 10, 4 << 20
		b := bandOf(pieceSize(small))
		bandFree := func() int {
			mu.Lock()
			defer mu.Unlock()
			return len(b.free)
		}
		for range 64 {
			fill(Get(small, false), small, 1)
		}
		b.cur.Store(nil) // the phase is over: its current slab is dropped too
		collectUntil(t, "the small phase's slabs come back", func() bool { return bandFree() >= 2 })
		start := time.Now()
		next := shortPhase(large)
		collectUntil(t, "the finished band's free slabs leave", func() bool {
			next()
			return bandFree() == 0
		})
		if time.Since(start) >= idleRelease {
			t.Skip("the machine took longer than idleRelease")
		}
		checkTracked(t)
	})
}

// checkTracked checks the pool's count of tracked bytes against its
// classes and bands: a buffer that left must leave the count once.
func checkTracked(t *testing.T) {
	t.Helper()
	mu.Lock()
	defer mu.Unlock()
	sum := 0
	for _, c := range classes {
		if c.out < 0 {
			t.Fatalf("class %d has %d buffers out", c.size, c.out)
		}
		sum += c.size * c.buffers()
		if limit := max(classBudget/c.size, minBuffers); c.buffers() > limit {
			t.Fatalf("class %d tracks %d buffers, more than its bound %d", c.size, c.buffers(), limit)
		}
	}
	for i := range bands {
		if bands[i].out < 0 {
			t.Fatalf("band %d has %d slabs out", i, bands[i].out)
		}
		sum += bands[i].slabSize() * bands[i].buffers()
	}
	if sum != tracked {
		t.Fatalf("tracked %d bytes, the classes and bands hold %d", tracked, sum)
	}
}

// TestLenderThatOnlyLendsGivesBack runs a phase of large results, then a
// long one of results half their size, which borrow the large phase's
// free buffers at first: lending is no take of the lender's own, so once
// the pool runs short the lender's buffers leave, and the smaller class
// grows buffers of its own size rather than keep twice the memory it needs.
func TestLenderThatOnlyLendsGivesBack(t *testing.T) {
	reset()
	const large, small = 512 << 10, 256 << 10
	for range 4 {
		fill(Get(large, false), large, 1)
	}
	collectUntil(t, "the large phase's results come back", func() bool { return freeIn(large) >= 4 })
	lentBefore := ReadStats().Lent
	start := time.Now()
	next := shortPhase(4 << 20) // the pool is short of memory meanwhile
	buffersOf := func(size int) int {
		mu.Lock()
		defer mu.Unlock()
		if c := classes[classSize(size)]; c != nil {
			return c.buffers()
		}
		return 0
	}
	collectUntil(t, "the lender's buffers leave", func() bool {
		for range 2 {
			fill(Get(small, false), small, 2)
		}
		next()
		return buffersOf(large) == 0 && buffersOf(small) > 0
	})
	if time.Since(start) >= idleRelease {
		t.Skip("the machine took longer than idleRelease")
	}
	if ReadStats().Lent == lentBefore {
		t.Fatal("the small results never borrowed the large phase's buffers: the test did not test lending")
	}
	checkTracked(t)
}

// TestPhasesStayUnderGOMEMLIMIT runs phases of one size each, growing and
// shrinking, under GOMEMLIMIT with a quarter of it live: buffers that
// leave a finished phase go back to the Go heap with their pages mapped,
// and through it all the pool tracks at most a quarter of the limit and
// the Go runtime's memory stays under the limit.
func TestPhasesStayUnderGOMEMLIMIT(t *testing.T) {
	reset()
	const limit = 256 << 20
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	live := make([]byte, limit/4)
	fill(unsafe.Pointer(&live[0]), len(live), 1)
	samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	peak, peakTracked := 0, 0
	for _, size := range []int{1 << 20, 4 << 20, 8 << 20, 2 << 20, 16 << 20, 3 << 20, 8 << 10} {
		for range 40 {
			fill(Get(size, false), size, 2)
			metrics.Read(samples)
			peak = max(peak, int(samples[0].Value.Uint64()-samples[1].Value.Uint64()))
			peakTracked = max(peakTracked, ReadStats().Tracked)
		}
	}
	runtime.KeepAlive(live)
	if peakTracked > limit/4 {
		t.Errorf("the pool tracked %d bytes under GOMEMLIMIT=%d, more than a quarter", peakTracked, limit)
	}
	if peak > limit+limit/4 { // the collector may lag on a loaded machine; the pool itself is bounded above
		t.Errorf("the Go runtime's memory reached %d MiB under GOMEMLIMIT=%d MiB", peak>>20, limit>>20)
	}
	checkTracked(t)
}

// nextCycle collects until the pool has seen a collection, so that no
// class has taken anything in the cycle that follows.
func nextCycle(t *testing.T) {
	t.Helper()
	mu.Lock()
	from := cycle
	mu.Unlock()
	collectUntil(t, "a cycle passes", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return cycle > from
	})
}

// TestNewLoopEndsUntakenClassesAtOnce: once a loop of a new size has gone
// short minBuffers times in a cycle, a class that has taken nothing in
// that cycle gives its free buffers back at once, pages mapped, without
// waiting for collections (none runs here); one take fewer keeps them.
func TestNewLoopEndsUntakenClassesAtOnce(t *testing.T) {
	reset()
	const small, large = 256 << 10, 4 << 20
	for range 4 {
		fill(Get(small, false), small, 1)
	}
	collectUntil(t, "the first phase's results come back", func() bool { return freeIn(small) >= 4 })
	nextCycle(t)
	n := freeIn(small)
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // the drop must not wait for a collection
	before := ReadStats()
	var keep []unsafe.Pointer // live, so that every take of the new size is short
	for range minBuffers - 1 {
		p := Get(large, false)
		fill(p, large, 2)
		keep = append(keep, p)
	}
	if got := freeIn(small); got != n {
		t.Fatalf("after %d short takes the old class holds %d free buffers, want its %d", minBuffers-1, got, n)
	}
	keep = append(keep, Get(large, false))
	if got := freeIn(small); got != 0 {
		t.Fatalf("after %d short takes the old class still holds %d free buffers", minBuffers, got)
	}
	s := ReadStats()
	if s.Unused-before.Unused != n || s.Returned != before.Returned {
		t.Fatalf("given back unused %d (want %d), pages returned %d (want 0)", s.Unused-before.Unused, n, s.Returned-before.Returned)
	}
	runtime.KeepAlive(keep)
	checkTracked(t)
}

// TestAlternatingClassKeepsItsBuffers: a class that takes in the cycle in
// which another goes short keeps its free buffers, however often the
// other goes short.
func TestAlternatingClassKeepsItsBuffers(t *testing.T) {
	reset()
	const small, large = 256 << 10, 4 << 20
	for range 4 {
		fill(Get(small, false), small, 1)
	}
	collectUntil(t, "the first phase's results come back", func() bool { return freeIn(small) >= 4 })
	nextCycle(t)
	n := freeIn(small)
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var keep []unsafe.Pointer
	keep = append(keep, Get(small, false))
	for range 2 * minBuffers {
		keep = append(keep, Get(large, false))
	}
	if got := freeIn(small); got != n-1 {
		t.Fatalf("the alternating class holds %d free buffers, want %d", got, n-1)
	}
	runtime.KeepAlive(keep)
	checkTracked(t)
}

// TestLargeLoopEndsIdleClassesAtOnce: a loop of results above 8 MiB ends
// the last phase once its short takes make up classBudget bytes (two of
// 32 MiB here), even when the last phase took in the same cycle (its last
// call, or a collection whose sentinel has not run yet): a class that has
// taken nothing since the first of those takes gives its free buffers back
// at once, pages mapped, and a buffer of it that is returned afterwards
// (the last phase's operand, dropped) leaves too, until it takes again.
func TestLargeLoopEndsIdleClassesAtOnce(t *testing.T) {
	reset()
	const small, large = 1 << 20, 32 << 20
	for range 4 {
		fill(Get(small, false), small, 1)
	}
	collectUntil(t, "the first phase's results come back", func() bool { return freeIn(small) >= 4 })
	operand := Get(small, false) // the last phase's last take: this cycle
	fill(operand, small, 3)
	n := freeIn(small)
	before := ReadStats()
	gc := debug.SetGCPercent(-1) // the drop must not wait for a collection
	var keep []unsafe.Pointer    // live, so that every take of the new size is short
	keep = append(keep, Get(large, false))
	if got := freeIn(small); got != n {
		t.Fatalf("after one short take of %d bytes the old class holds %d free buffers, want its %d", large, got, n)
	}
	keep = append(keep, Get(large, false))
	if got := freeIn(small); got != 0 {
		t.Fatalf("after two short takes of %d bytes the old class still holds %d free buffers", large, got)
	}
	s := ReadStats()
	if s.Unused-before.Unused != n || s.Returned != before.Returned {
		t.Fatalf("given back unused %d (want %d), pages returned %d (want 0)", s.Unused-before.Unused, n, s.Returned-before.Returned)
	}
	debug.SetGCPercent(gc)
	runtime.KeepAlive(operand)
	operand = nil
	smallClass := func() (out, free int) {
		mu.Lock()
		defer mu.Unlock()
		c := classes[classSize(small)]
		return c.out, len(c.free)
	}
	collectUntil(t, "the ended class's operand, dropped, leaves", func() bool {
		out, free := smallClass()
		return out == 0 && free == 0
	})
	// Taking again makes it a class like any other: its results come back.
	fill(Get(small, false), small, 4)
	collectUntil(t, "the class's next result comes back", func() bool {
		_, free := smallClass()
		return free == 1
	})
	runtime.KeepAlive(keep)
	checkTracked(t)
}

// TestLargeLoopKeepsAnAlternatingClass: a class that takes between the
// short takes of a loop of large results keeps its free buffers.
func TestLargeLoopKeepsAnAlternatingClass(t *testing.T) {
	reset()
	const small, large = 1 << 20, 32 << 20
	for range 4 {
		fill(Get(small, false), small, 1)
	}
	collectUntil(t, "the first phase's results come back", func() bool { return freeIn(small) >= 4 })
	n := freeIn(small)
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var keep []unsafe.Pointer
	for range 3 {
		keep = append(keep, Get(large, false), Get(small, false))
	}
	if got := freeIn(small); got != n-3 {
		t.Fatalf("the alternating class holds %d free buffers, want %d", got, n-3)
	}
	runtime.KeepAlive(keep)
	checkTracked(t)
}

package storage

import (
	"os"
	"runtime"
	"sync"
	"testing"
	"time"
	"unsafe"
)

// TestMain pools small buffers too, so that the tests stay quick.
func TestMain(m *testing.M) {
	MinPooled = 4 << 10
	os.Exit(m.Run())
}

// reset forgets every class, as if no buffer had been handed out. The
// finalizers of buffers and slabs earlier tests dropped run first: run
// after it, they would count their buffers into the fresh state (the
// counters went negative and free lists gained slabs under -count=3).
func reset() {
	for i := range bands {
		bands[i].cur.Store(nil) // its slab's finalizer runs in the settling
	}
	settleFinalizers()
	mu.Lock()
	defer mu.Unlock()
	classes = map[int]*class{}
	for i := range bands {
		b := &bands[i]
		b.cur.Store(nil)
		b.free, b.out, b.used, b.failed, b.failedIn = nil, 0, 0, 0, 0
	}
	tracked, hits, lent, grown, returned, dropped, unusedDropped = 0, 0, 0, 0, 0, 0, 0
	cycle, short = 0, -1
	piecesBack.Store(0)
	// An earlier test's GOMEMLIMIT may still be in nearGoLimit's cached
	// answer for up to a millisecond: a reclaim would drop its buffer.
	pressure.read, pressure.near = time.Time{}, false
}

// settleFinalizers collects until a sentinel's finalizer has run, twice:
// finalizers run one at a time on one goroutine, so every finalizer queued
// by the first collection has run once the second sentinel's has (the
// first batch is done before the next one is taken).
func settleFinalizers() {
	for range 2 {
		done := make(chan struct{})
		// Holding pointers keeps it out of the tiny allocator, whose
		// objects may never be finalized.
		sentinel := new([2]*int)
		runtime.SetFinalizer(sentinel, func(*[2]*int) { close(done) })
		sentinel = nil
		for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
			runtime.GC()
			select {
			case <-done:
				deadline = time.Time{}
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
}

func TestClassSize(t *testing.T) {
	prev := 0
	for size := MinPooled; size < 1<<26; size += size/7 + 1 {
		c := classSize(size)
		if c < size || c > size+size/8+8 || c%8 != 0 {
			t.Fatalf("classSize(%d) = %d: want in [size, size·9/8], a multiple of 8", size, c)
		}
		if classSize(c) != c {
			t.Fatalf("classSize(%d) = %d, not a fixed point", c, classSize(c))
		}
		if c < prev {
			t.Fatalf("classSize(%d) = %d below the class of a smaller size (%d)", size, c, prev)
		}
		prev = c
	}
	for _, tc := range []struct{ size, want int }{
		{4096, 4096}, {4097, 4608}, {5000, 5120}, {16384, 16384}, {16385, 18432}, {1 << 20, 1 << 20},
	} {
		if got := classSize(tc.size); got != tc.want {
			t.Errorf("classSize(%d) = %d, want %d", tc.size, got, tc.want)
		}
	}
}

// fill writes b to every byte of the size bytes at p.
// It copies in doubling runs rather than byte by byte, so that the race
// detector checks a few ranges, not every byte.
func fill(p unsafe.Pointer, size int, b byte) {
	if size <= 0 {
		return
	}
	s := unsafe.Slice((*byte)(p), size)
	s[0] = b
	for done := 1; done < len(s); done *= 2 {
		copy(s[done:], s[:done])
	}
}

// dropAndCollect calls get, lets go of what it returns and collects until
// the pool has a free buffer, or fails the test after a second.
func dropAndCollect(t *testing.T, get func()) {
	t.Helper()
	get()
	deadline := time.Now().Add(time.Second)
	for ReadStats().Free == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no buffer came back: %+v", ReadStats())
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// TestReclaimedBufferCanBeReclaimedAgain checks that a buffer handed out
// straight after its finalizer ran, then dropped, is found dead by the
// next collection: nothing (the runtime's finalizer goroutine included)
// keeps the argument of the last finalizer reachable.
func TestReclaimedBufferCanBeReclaimedAgain(t *testing.T) {
	reset()
	const size = 64 << 10
	dropAndCollect(t, func() { Get(size, false) })
	for round := range 3 {
		before := ReadStats()
		Get(size, false) // the free buffer, dropped at once
		if s := ReadStats(); s.Hits != before.Hits+1 || s.Free != before.Free-1 {
			t.Fatalf("round %d: the free buffer was not handed out: before %+v after %+v", round, before, s)
		}
		runtime.GC()
		deadline := time.Now().Add(time.Second)
		for ReadStats().Free < before.Free {
			if time.Now().After(deadline) {
				t.Fatalf("round %d: one collection did not win the dropped buffer back: %+v", round, ReadStats())
			}
			time.Sleep(time.Millisecond) // finalizers only, no further collection
		}
	}
}

func TestRecycledBuffersAreZeroedOnRequest(t *testing.T) {
	reset()
	const size = 64 << 10
	dropAndCollect(t, func() { fill(Get(size, false), size, 0xff) })
	before := ReadStats()
	p := Get(size, true)
	if s := ReadStats(); s.Hits != before.Hits+1 {
		t.Fatalf("Get did not reuse a free buffer: before %+v after %+v", before, s)
	}
	for i, b := range unsafe.Slice((*byte)(p), size) {
		if b != 0 {
			t.Fatalf("byte %d of a recycled buffer asked zeroed is %#x", i, b)
		}
	}
}

func TestDryClassBorrowsFromLargerClass(t *testing.T) {
	reset()
	const big = 64 << 10
	dropAndCollect(t, func() { fill(Get(big, false), big, 0xff) })
	owner := classFor(big)
	outstanding := func() int {
		mu.Lock()
		defer mu.Unlock()
		return owner.out
	}

	// A class at most maxLend times smaller takes the free buffer ...
	before, out := ReadStats(), outstanding()
	const small = big / maxLend
	p := Get(small, true)
	if s := ReadStats(); s.Lent != before.Lent+1 || s.Grown != before.Grown {
		t.Fatalf("a dry class did not borrow a larger free buffer: before %+v after %+v", before, s)
	}
	for i, b := range unsafe.Slice((*byte)(p), small) {
		if b != 0 {
			t.Fatalf("byte %d of a lent buffer asked zeroed is %#x", i, b)
		}
	}
	if outstanding() != out+1 {
		t.Fatalf("the lent buffer is not counted out of its own class: %d, want %d", outstanding(), out+1)
	}

	// ... which gets it back when it is dropped.
	p = nil
	deadline := time.Now().Add(time.Second)
	for outstanding() != out {
		if time.Now().After(deadline) {
			t.Fatalf("a dropped lent buffer did not return to its class: %d out, want %d", outstanding(), out)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}

	// A class more than maxLend times smaller grows instead.
	before = ReadStats()
	Get(small/2, false)
	if s := ReadStats(); s.Lent != before.Lent || s.Grown != before.Grown+1 {
		t.Fatalf("a buffer more than %d times larger was lent: before %+v after %+v", maxLend, before, s)
	}
}

func TestReferencedBufferIsNotRecycled(t *testing.T) {
	reset()
	const size = 32 << 10
	p := Get(size, false)
	fill(p, size, 0x5a)
	inner := (*byte)(unsafe.Add(p, size/2)) // a pointer into the middle keeps it alive
	p = nil
	for range 4 {
		runtime.GC()
		time.Sleep(time.Millisecond)
		q := Get(size, false)
		lo, hi := uintptr(q), uintptr(q)+size
		if a := uintptr(unsafe.Pointer(inner)); a >= lo && a < hi {
			t.Fatal("Get handed out a buffer that is still referenced")
		}
		fill(q, size, 0xa5)
	}
	if *inner != 0x5a {
		t.Fatalf("a referenced buffer was overwritten: %#x", *inner)
	}
	runtime.KeepAlive(inner)
}

// TestSmallBuffersAreNotTracked checks that buffers below MinReleased come
// from Go's allocator untracked, and that every small buffer (slab pieces
// too, whose slabs are uncleared) is zero when asked.
func TestSmallBuffersAreNotTracked(t *testing.T) {
	reset()
	for _, size := range []int{1, 8, MinReleased - 1} {
		p := Get(size, true)
		for i, b := range unsafe.Slice((*byte)(p), size) {
			if b != 0 {
				t.Fatalf("Get(%d, true): byte %d is %#x", size, i, b)
			}
		}
	}
	if s := ReadStats(); s.Tracked != 0 || s.Grown != 0 {
		t.Fatalf("small buffers were tracked: %+v", s)
	}
	for _, size := range []int{MinReleased, MinPooled - 1} {
		fill(Get(size, false), size, 0xff)
		for i, b := range unsafe.Slice((*byte)(Get(size, true)), size) {
			if b != 0 {
				t.Fatalf("Get(%d, true): byte %d is %#x", size, i, b)
			}
		}
	}
	if Get(0, true) != nil {
		t.Fatal("Get(0) is not nil")
	}
}

// TestConcurrentUse has goroutines take buffers, stamp them, check the
// stamp after yielding and let them go, while collections run: a buffer
// handed to two owners at once shows up as a torn stamp.
func TestConcurrentUse(t *testing.T) {
	reset()
	const size = 16 << 10
	var wg sync.WaitGroup
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
				time.Sleep(200 * time.Microsecond)
			}
		}
	}()
	for g := range 4 {
		wg.Add(1)
		go func(stamp byte) {
			defer wg.Done()
			for range 300 {
				p := Get(size, g%2 == 0)
				fill(p, size, stamp)
				runtime.Gosched()
				for i, b := range unsafe.Slice((*byte)(p), size) {
					if b != stamp {
						t.Errorf("byte %d of a buffer owned by %d is %d", i, stamp, b)
						return
					}
				}
			}
		}(byte(g + 1))
	}
	wg.Wait()
	close(stop)
	if s := ReadStats(); s.Hits == 0 {
		t.Errorf("no buffer was reused in 1200 calls: %+v", s)
	}
}

// TestLimitEvictsIdleBuffers fills the pool with free buffers of one size
// and then asks for another: the idle buffers make room under Limit.
func TestLimitEvictsIdleBuffers(t *testing.T) {
	reset()
	old := Limit
	defer func() { Limit = old }()
	const size = 1 << 20
	Limit = 3 * size
	dropAndCollect(t, func() { Get(size, false) })
	if s := ReadStats(); s.Tracked > Limit {
		t.Fatalf("tracking %d bytes over the limit of %d", s.Tracked, Limit)
	}
	before := ReadStats()
	for range 3 {
		defer runtime.KeepAlive(Get(2*size, false))
	}
	after := ReadStats()
	if after.Grown-before.Grown < 1 || after.Tracked > Limit {
		t.Fatalf("the new size did not get room under the limit: before %+v after %+v", before, after)
	}
	if after.Free >= before.Free {
		t.Fatalf("no idle buffer was dropped: before %+v after %+v", before, after)
	}
}

// TestPutHandsTheBufferToTheNextGet checks that a buffer given back with
// Put is the next one of its class handed out, without a collection, and
// that its finalizer is gone: a later collection must not put it on the
// free list a second time while it is in use.
func TestPutHandsTheBufferToTheNextGet(t *testing.T) {
	reset()
	const size = 64 << 10
	p, class := Take(size, false)
	if class != classSize(size) {
		t.Fatalf("Take(%d) class = %d, want %d", size, class, classSize(size))
	}
	fill(p, size, 7)
	Put(p, class)
	before := ReadStats()
	q, _ := Take(size, true)
	if q != p {
		t.Fatalf("Take after Put returned another buffer")
	}
	if s := ReadStats(); s.Hits != before.Hits+1 || s.Grown != before.Grown {
		t.Fatalf("Take after Put: %+v, before %+v: want one hit and no new buffer", s, before)
	}
	if got := unsafe.Slice((*byte)(q), size); got[0] != 0 || got[size-1] != 0 {
		t.Fatalf("a zeroed Take of a put-back buffer holds %d ... %d", got[0], got[size-1])
	}
	for range 3 {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if s := ReadStats(); s.Free != 0 || s.Outstanding != 1 {
		t.Fatalf("after collections with the buffer in use: %+v, want 0 free and 1 outstanding", s)
	}
	runtime.KeepAlive(q)
}

// TestPutLentBufferGoesHome checks that a buffer lent by a larger class
// goes back to that class when put back.
func TestPutLentBufferGoesHome(t *testing.T) {
	reset()
	const small, large = 16 << 10, 64 << 10
	big, bigClass := Take(large, false)
	Put(big, bigClass)
	p, class := Take(small, false)
	if p != big || class != bigClass {
		t.Fatalf("Take(%d) after a %d-byte buffer was put back: class %d, same buffer %v; want the lent one, class %d",
			small, large, class, p == big, bigClass)
	}
	Put(p, class)
	if q, _ := Take(large, false); q != big {
		t.Fatalf("the lent buffer did not go back to its own class")
	}
}

// TestFreshBuffersZeroedOnRequest checks that memory asked for zeroed is
// zero even where the pool allocates uncleared memory for other requests:
// uncleared buffers are scribbled on and dropped, the collector frees
// them, and new ones, a class's own and untracked ones, must read as zero.
func TestFreshBuffersZeroedOnRequest(t *testing.T) {
	reset()
	const size = 4 << 20
	for range 4 {
		fill(fresh(size, false), size, 0xff)
	}
	runtime.GC()
	check := func(what string, p unsafe.Pointer) {
		t.Helper()
		for i, b := range unsafe.Slice((*byte)(p), size) {
			if b != 0 {
				t.Fatalf("byte %d of %s asked zeroed is %#x", i, what, b)
			}
		}
	}
	check("a fresh buffer", fresh(size, true))
	var kept []unsafe.Pointer
	for i := range classBudget/size + 2 {
		p, class := Take(size, true)
		what := "a new buffer of a class"
		if class == 0 {
			what = "an untracked buffer"
		}
		check(what, p)
		fill(p, size, byte(i+1))
		kept = append(kept, p)
	}
	runtime.KeepAlive(kept)
}

// TestTakeOutputSaysCold checks the hint TakeOutput gives: a fresh buffer
// and one back through a collection are cold, one given back with Put is
// not, and the hint does not change which buffer is handed out.
func TestTakeOutputSaysCold(t *testing.T) {
	reset()
	const size = 64 << 10
	p, class, cold := TakeOutput(size)
	if class != classSize(size) || !cold {
		t.Fatalf("fresh TakeOutput(%d): class %d, cold %v; want class %d, cold", size, class, cold, classSize(size))
	}
	fill(p, size, 3)
	Put(p, class)
	q, _, cold := TakeOutput(size)
	if q != p || cold {
		t.Fatalf("TakeOutput after Put: same buffer %v, cold %v; want the buffer put back, not cold", q == p, cold)
	}
	Put(q, class)
	reset()
	dropAndCollect(t, func() { TakeOutput(size) })
	before := ReadStats()
	_, _, cold = TakeOutput(size)
	if s := ReadStats(); s.Hits != before.Hits+1 || !cold {
		t.Fatalf("TakeOutput of a reclaimed buffer: %+v (before %+v), cold %v; want a hit, cold", s, before, cold)
	}
}

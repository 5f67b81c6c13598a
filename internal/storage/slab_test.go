package storage

import (
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"unsafe"
)

// slabSizes are result sizes served from slabs under the tests' MinPooled,
// and under the default one: each band's edges and some between.
func slabSizes(limit int) []int {
	var sizes []int
	for _, s := range []int{MinReleased, MinReleased + 1, 2000, 2048, 2049, 4095, 4096, 8 << 10, 16<<10 + 8, 32 << 10, 40000, maxPiece} {
		if s < limit && s <= maxPiece {
			sizes = append(sizes, s)
		}
	}
	return sizes
}

// withMinPooled runs f with MinPooled set to the library's default, so that
// every band serves pieces.
func withMinPooled(t *testing.T, f func()) {
	t.Helper()
	old := MinPooled
	MinPooled = maxPiece + 1
	defer func() { MinPooled = old }()
	f()
}

// TestPiecesNeverAlias writes a distinct byte into every piece of many
// results of every slab size, kept alive, and checks that no later write
// changed an earlier piece: pieces of one slab are disjoint.
func TestPiecesNeverAlias(t *testing.T) {
	reset()
	withMinPooled(t, func() {
		type kept struct {
			p    unsafe.Pointer
			size int
			b    byte
		}
		var all []kept
		for round := range 40 {
			for i, size := range slabSizes(MinPooled) {
				p, class := Take(size, false)
				if class != -pieceSize(size) {
					t.Fatalf("Take(%d): class %d, want %d", size, class, -pieceSize(size))
				}
				if uintptr(p)%pieceAlign != 0 {
					t.Fatalf("Take(%d) = %p, not aligned to %d", size, p, pieceAlign)
				}
				b := byte(round*len(slabSizes(MinPooled)) + i + 1)
				fill(p, size, b)
				all = append(all, kept{p, size, b})
			}
		}
		for _, k := range all {
			s := unsafe.Slice((*byte)(k.p), k.size)
			if s[0] != k.b || s[k.size-1] != k.b || s[k.size/2] != k.b {
				t.Fatalf("a piece of %d bytes was overwritten: %d %d %d, want %d", k.size, s[0], s[k.size/2], s[k.size-1], k.b)
			}
		}
		runtime.KeepAlive(all)
	})
}

// TestPutTakesBackTheLastPiece checks that a released piece serves the next
// result when it was the last one handed out, and that an older piece is
// left alone (the piece after it is still in use).
func TestPutTakesBackTheLastPiece(t *testing.T) {
	reset()
	withMinPooled(t, func() {
		const size = 3000
		p, class := Take(size, false)
		fill(p, size, 9)
		Put(p, class)
		q, _ := Take(size, true)
		if q != p {
			t.Fatal("the piece after Put of the last piece is another one")
		}
		if s := unsafe.Slice((*byte)(q), size); s[0] != 0 || s[size-1] != 0 {
			t.Fatalf("a zeroed Take of a given-back piece holds %d ... %d", s[0], s[size-1])
		}
		r, _ := Take(size, false)
		fill(r, size, 7)
		Put(q, class) // not the last piece: r follows it
		u, _ := Take(size, false)
		if u == q || u == r {
			t.Fatal("a piece still in use was handed out again")
		}
		fill(u, size, 5)
		if s := unsafe.Slice((*byte)(r), size); s[0] != 7 || s[size-1] != 7 {
			t.Fatal("the piece after a released one was overwritten")
		}
		runtime.KeepAlive(r)
		if small, c := Take(MinReleased-1, false); small == nil || c != 0 {
			t.Fatalf("Take(%d): %p, class %d; want memory of class 0", MinReleased-1, small, c)
		}
	})
}

// TestConcurrentPieces takes pieces from several goroutines at once, each
// writing its own byte and checking it after the others have written: -race
// and the check together catch shared pieces.
func TestConcurrentPieces(t *testing.T) {
	reset()
	withMinPooled(t, func() {
		var wg sync.WaitGroup
		errs := make(chan string, 8)
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var mine []unsafe.Pointer
				size := MinReleased + 700*g
				for i := range 300 {
					p, class := Take(size, false)
					fill(p, size, byte(g+1))
					if i%3 == 0 {
						Put(p, class)
						continue
					}
					mine = append(mine, p)
				}
				for _, p := range mine {
					if s := unsafe.Slice((*byte)(p), size); s[0] != byte(g+1) || s[size-1] != byte(g+1) {
						errs <- "a piece was written by another goroutine"
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Fatal(e)
		}
	})
}

// TestDroppedSlabsComeBack drops pieces until the band's current slab has
// moved on, collects, and checks that the old slab came back free and
// serves a later slab, while a slab with one live piece does not.
func TestDroppedSlabsComeBack(t *testing.T) {
	reset()
	withMinPooled(t, func() {
		const size = 4 << 10
		b := bandOf(pieceSize(size))
		perSlab := b.slabSize() / pieceSize(size)
		survivor, _ := Take(size, false)
		fill(survivor, size, 1)
		for range 3*perSlab - 1 {
			fill(Get(size, false), size, 2)
		}
		for range 5 {
			runtime.GC()
		}
		waitForFree(t)
		s := ReadStats()
		if s.Free == 0 || s.Outstanding == 0 {
			t.Fatalf("after collecting dropped pieces: %+v, want free slabs and the survivor's slab outstanding", s)
		}
		if got := unsafe.Slice((*byte)(survivor), size); got[0] != 1 || got[size-1] != 1 {
			t.Fatal("the live piece's slab was handed out again")
		}
		for range 3 * perSlab {
			fill(Get(size, false), size, 3)
		}
		if got := unsafe.Slice((*byte)(survivor), size); got[0] != 1 || got[size-1] != 1 {
			t.Fatal("the live piece's slab was handed out again")
		}
		if h := ReadStats().Hits; h == s.Hits {
			t.Fatalf("no slab was served from the free list: %+v", ReadStats())
		}
		runtime.KeepAlive(survivor)
	})
}

// TestSlabsStartNoCollection takes pieces of every band with the collector
// off: the slabs must not run one.
func TestSlabsStartNoCollection(t *testing.T) {
	reset()
	withMinPooled(t, func() {
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
		before := gcCycles()
		for i := range 2000 {
			sizes := slabSizes(MinPooled)
			size := sizes[i%len(sizes)]
			p, class := Take(size, i%2 == 0)
			fill(p, 64, 1)
			if i%5 == 0 {
				Put(p, class)
			}
		}
		if n := gcCycles() - before; n != 0 {
			t.Fatalf("%d collections ran with the collector off", n)
		}
	})
}

// TestSlabsStayUnderGOMEMLIMIT drops pieces of every band under a
// GOMEMLIMIT with a quarter of it live: the slabs the pool tracks count
// against the same quarter as its buffers, and the Go runtime's memory
// stays under the limit.
func TestSlabsStayUnderGOMEMLIMIT(t *testing.T) {
	reset()
	withMinPooled(t, func() {
		const limit = 64 << 20
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
		live := make([]byte, limit/4)
		fill(unsafe.Pointer(&live[0]), len(live), 1)
		peakTracked := 0
		sizes := slabSizes(MinPooled)
		for i := range 20000 {
			size := sizes[i%len(sizes)]
			fill(Get(size, false), size, 2)
			if i%256 == 0 {
				peakTracked = max(peakTracked, ReadStats().Tracked)
			}
		}
		runtime.KeepAlive(live)
		if peakTracked > limit/4 {
			t.Errorf("the pool tracked %d bytes of slabs under GOMEMLIMIT=%d, more than a quarter", peakTracked, limit)
		}
	})
}

// TestDryBandYieldsToReturningSlabs runs out a band at its budget while a
// dead slab's finalizer waits to run (a goroutine that returns a slab, on
// one processor): the band's next slab must be that one, not untracked
// memory. After maxFailed fruitless yields in one collection cycle a dry
// band takes untracked memory at once, until the next collection.
func TestDryBandYieldsToReturningSlabs(t *testing.T) {
	reset()
	withMinPooled(t, func() {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
		defer debug.SetGCPercent(debug.SetGCPercent(-1)) // the test counts collections itself
		const size = 4 << 10
		b := bandOf(pieceSize(size))
		perSlab := b.slabSize() / pieceSize(size)
		atBudget := func() {
			mu.Lock()
			b.out = b.limit(b.slabSize()) - len(b.free)
			mu.Unlock()
		}
		fillSlab := func() {
			for range perSlab {
				fill(Get(size, false), size, 1)
			}
		}
		Take(size, false) // the band's first slab
		fillSlab()        // and the next
		atBudget()
		back := fresh(b.slabSize(), false)
		go b.reclaim((*uint64)(back)) // the finalizer goroutine, not yet run
		hits := ReadStats().Hits
		fillSlab()
		if got := b.cur.Load(); got.base != back || !got.tracked || ReadStats().Hits != hits+1 {
			t.Fatalf("a dry band took a slab at %p (tracked %v), not the one coming back at %p", got.base, got.tracked, back)
		}

		for range maxFailed {
			fillSlab() // dry again, nothing coming back
			if got := b.cur.Load(); got.tracked {
				t.Fatal("a dry band at its budget took a tracked slab")
			}
		}
		atBudget()
		late := fresh(b.slabSize(), false)
		go b.reclaim((*uint64)(late))
		fillSlab()
		if got := b.cur.Load(); got.base == late {
			t.Fatalf("a band yielded again after %d fruitless tries in one collection cycle", maxFailed)
		}
		mu.Lock()
		cycle++ // the next collection cycle
		mu.Unlock()
		fillSlab()
		if got := b.cur.Load(); got.base != late {
			t.Fatal("a dry band did not yield to a returning slab in the next collection cycle")
		}
	})
	reset()
}

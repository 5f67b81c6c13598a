package storage

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// gcCycles is the number of collections the process has completed.
func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestPoolStartsNoCollection runs a loop of dropped results of sizes that
// used to make the pool collect, kept results, Put and lending, with the
// collector off as GOGC=off turns it off: no collection may run.
func TestPoolStartsNoCollection(t *testing.T) {
	reset()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	before := gcCycles()
	var kept []unsafe.Pointer
	for i := range 120 {
		size := []int{64 << 10, 1 << 20, 4 << 20}[i%3]
		p, class := Take(size, i%2 == 0)
		fill(p, 64, 1)
		switch i % 4 {
		case 1:
			if class != 0 {
				Put(p, class)
			}
		case 2:
			kept = append(kept, p)
		}
	}
	runtime.KeepAlive(kept)
	if n := gcCycles() - before; n != 0 {
		t.Fatalf("%d collections ran with the collector off", n)
	}
}

// TestDryClassGrows checks that a dry class grows (the pool does not wait
// for a collection) up to classBudget, then hands out plain memory.
func TestDryClassGrows(t *testing.T) {
	reset()
	const size = 4 << 20
	var kept []unsafe.Pointer
	for range classBudget/size + 3 {
		p := Get(size, false)
		kept = append(kept, p)
	}
	s := ReadStats()
	if s.Grown != classBudget/size || s.Outstanding != classBudget/size {
		t.Fatalf("after %d kept buffers of %d bytes: %+v, want %d grown and outstanding", len(kept), size, s, classBudget/size)
	}
	seen := map[unsafe.Pointer]bool{}
	for _, p := range kept {
		if seen[p] {
			t.Fatal("a live buffer was handed out twice")
		}
		seen[p] = true
	}
	runtime.KeepAlive(kept)
}

// TestProgramsCollectionsRefillTheClass drops results in a loop whose
// program collects now and then, as programs do: the program's own
// collections must bring dropped buffers back, so that once the class has
// grown most calls reuse one. The test is the program here and collects
// every 64 calls itself, waiting for the finalizers to run, so that a
// loaded machine (a finalizer goroutine scheduled late) cannot decide it.
func TestProgramsCollectionsRefillTheClass(t *testing.T) {
	reset()
	const size, calls = 256 << 10, 1200
	var before Stats
	for i := range calls {
		if i == calls*2/3 {
			before = ReadStats()
		}
		fill(Get(size, false), size, 1) // written, as a kernel writes its result
		if i%64 == 63 {
			runtime.GC() // the program's own collection, not the pool's
			waitForFree(t)
		}
	}
	if s := ReadStats(); s.Hits-before.Hits < calls/3/4 {
		t.Errorf("%d of the last %d dropped results were reused, want a quarter or more: %+v", s.Hits-before.Hits, calls/3, s)
	}
}

// waitForFree waits, up to a few seconds, until the finalizers of the
// buffers a collection found dead have put some of them back.
func waitForFree(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ReadStats().Free == 0; {
		if time.Now().After(deadline) {
			t.Fatalf("no dropped buffer came back within 5 s of a collection: %+v", ReadStats())
		}
		time.Sleep(time.Millisecond)
	}
}

// TestPoolStaysUnderGOMEMLIMIT keeps a quarter of the limit live and drops
// results of many sizes: the pool may track at most a quarter of the
// limit, and the Go runtime's memory stays under the limit.
func TestPoolStaysUnderGOMEMLIMIT(t *testing.T) {
	reset()
	const limit = 256 << 20
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	live := make([]byte, limit/4)
	for i := range live {
		live[i] = 1
	}
	samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	peak, peakTracked := 0, 0
	for i := range 300 {
		size := 64<<10 + (i*7919)%(6<<20) // results of many sizes
		fill(Get(size, false), size, 1)
		metrics.Read(samples)
		peak = max(peak, int(samples[0].Value.Uint64()-samples[1].Value.Uint64()))
		peakTracked = max(peakTracked, ReadStats().Tracked)
	}
	runtime.KeepAlive(live)
	if peakTracked > limit/4 {
		t.Errorf("the pool tracked %d bytes under GOMEMLIMIT=%d, more than a quarter", peakTracked, limit)
	}
	if peak > limit+limit/4 { // the collector may lag on a loaded machine; the pool itself is bounded above
		t.Errorf("the Go runtime's memory reached %d MiB under GOMEMLIMIT=%d MiB", peak>>20, limit>>20)
	}
}

// residentBytes is the process's resident memory, from /proc/self/statm.
func residentBytes(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip("no /proc/self/statm")
	}
	f := strings.Fields(string(b))
	pages, err := strconv.Atoi(f[1])
	if err != nil {
		t.Fatal(err)
	}
	return pages * os.Getpagesize()
}

// TestIdleBuffersReturnToTheKernel fills the pool with free buffers and
// leaves them idle: within a few seconds their memory must leave the
// process's resident set, with no collection.
func TestIdleBuffersReturnToTheKernel(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the idle release")
	}
	reset()
	runtime.GC() // the garbage earlier tests left, out of the resident counts
	const size, n = 1 << 20, 24
	for range n {
		p := Get(size, false)
		fill(p, size, 3)
	}
	deadline := time.Now().Add(2 * time.Second)
	for s := ReadStats(); s.Outstanding > 0 || s.Free < 4; s = ReadStats() {
		if time.Now().After(deadline) {
			t.Fatalf("the dropped buffers did not come back: %+v", ReadStats())
		}
		runtime.GC() // the program's collection, which finds them dead
		time.Sleep(time.Millisecond)
	}
	free := ReadStats().Free
	// The collector off while the pool idles, so that any collection
	// would be one the pool started.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	before, cycles := residentBytes(t), gcCycles()
	start := time.Now()
	for ReadStats().Free > 0 {
		if time.Since(start) > 2*idleRelease {
			t.Fatalf("free buffers still held after %v idle: %+v", time.Since(start), ReadStats())
		}
		time.Sleep(50 * time.Millisecond)
	}
	after := residentBytes(t)
	if s := ReadStats(); runtime.GOOS == "linux" && (s.Returned < free*size*3/4 || before-after < free*size/4) {
		t.Errorf("%d free MiB idle: %d MiB returned, resident %d -> %d MiB", free*size>>20, s.Returned>>20, before>>20, after>>20)
	}
	if gcCycles() != cycles {
		t.Errorf("the idle release ran a collection")
	}
}

package tensor

import (
	"flag"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/tensor-go/tensor/internal/storage"
)

// hostHeap runs TestHostHeap at the scale: a 1 GiB pointer-rich
// live heap and loops of 5 s (go test -run HostHeap . -args -hostheap).
// Without it the test runs scaled down, for CI.
var hostHeap = flag.Bool("hostheap", false, "run TestHostHeap with a 1 GiB host heap and 5 s loops")

// gcStats are the collections completed and the CPU seconds the collector
// has spent so far.
func gcStats() (cycles uint64, cpu float64) {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Float64()
}

// TestLibraryStartsNoCollection runs loops of the operations with results
// of every size the pool treats differently, dropped, released and
// written into, with the collector off as GOGC=off turns it off: the
// library must start no collection.
func TestLibraryStartsNoCollection(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	a := Must(Ones(Float32, 512, 512))
	v := Must(Ones(Float32, 1<<20))
	before, _ := gcStats()
	for i := range 40 {
		c := Must(Matmul(a, a)) // 1 MiB results
		m := Must(Mul(v, 2))    // 4 MiB
		p := Must(Prod(a, Axis(0)))
		if i%2 == 0 {
			c.Release()
			m.Release()
		}
		if err := MatmulInto(c, a, a); err != nil && i%2 == 1 {
			t.Fatal(err)
		}
		_ = p
	}
	if after, _ := gcStats(); after != before {
		t.Fatalf("%d collections ran with the collector off", after-before)
	}
}

// node is one element of the host program's pointer-rich heap.
type node struct {
	next  *node
	left  *node
	value [6]uint64
}

// buildHeap returns about bytes of linked nodes, which every collection
// has to mark.
func buildHeap(bytes int) []*node {
	const perChunk = 1 << 12
	chunks := make([]*node, 0, bytes/64/perChunk+1)
	for range cap(chunks) {
		var head *node
		for range perChunk {
			head = &node{next: head, left: head}
		}
		chunks = append(chunks, head)
	}
	return chunks
}

// TestHostHeap is the host-heap check: beside a large pointer-rich
// live heap, a loop of Matmul with 4 MiB results costs the collector no
// more CPU than the same loop allocating its results with make (the
// collections a program pays for its own allocation), and with GOGC=off
// it runs no collection at all.
func TestHostHeap(t *testing.T) {
	heapBytes, loop := 64<<20, 300*time.Millisecond
	if *hostHeap {
		heapBytes, loop = 1<<30, 5*time.Second
	} else if testing.Short() {
		t.Skip("builds a host heap")
	}
	heap := buildHeap(heapBytes)
	// 2048×64 @ 64×512: 4 MiB results, a few milliseconds a call.
	a, b := Must(Rand(1, Float32, 0, 1, 2048, 64)), Must(Rand(2, Float32, 0, 1, 64, 512))
	run := func(f func()) (cycles uint64, cpu float64, calls int) {
		// The test's own collection, so that both loops start at the same
		// point of the collector's cycle, with the heap's marking done.
		runtime.GC()
		c0, cpu0 := gcStats()
		for start := time.Now(); time.Since(start) < loop; calls++ {
			f()
		}
		c1, cpu1 := gcStats()
		return c1 - c0, cpu1 - cpu0, calls
	}
	var sink *Tensor
	matmul := func() { sink = Must(Matmul(a, b)) }
	matmul() // the pool's first buffer, outside the measurement
	pc, pcpu, pn := run(matmul)
	storage.Enabled = false // every result from make
	mc, mcpu, mn := run(matmul)
	storage.Enabled = true
	t.Logf("host heap %d MiB: pool %d calls, %d collections, %.3f GC CPU-s; make %d calls, %d collections, %.3f GC CPU-s",
		heapBytes>>20, pn, pc, pcpu, mn, mc, mcpu)
	// Per call, the pool's collections are no more than make's (one
	// collection of slack for where the loops start in the collector's cycle).
	if float64(pc) > float64(mc)*float64(pn)/float64(mn)+1 {
		t.Errorf("the pool's loop ran %d collections in %d calls, make's %d in %d", pc, pn, mc, mn)
	}
	if *hostHeap && pcpu/float64(pn) > 1.1*mcpu/float64(mn)+0.01 {
		t.Errorf("GC CPU per call: pool %.4f s, make %.4f s", pcpu/float64(pn), mcpu/float64(mn))
	}

	old := debug.SetGCPercent(-1)
	oc, _, on := run(matmul)
	debug.SetGCPercent(old)
	if oc != 0 {
		t.Errorf("with GOGC=off the loop of %d calls ran %d collections", on, oc)
	}
	runtime.KeepAlive(heap)
	_ = sink
}

package storage

import "runtime"

// A program runs in phases: a loop of one size of result, then a loop of
// another. A free buffer of a class that the current phase no longer takes
// is worse than useless: the collector counts it live, so the heap may grow
// by as much again before the next collection (the current loop then takes
// more of its results fresh, faulting), and it fills the pool's limit, so
// that the current loop's class cannot grow. So the pool counts the
// program's collections, and when some class or band had to take fresh
// memory during a whole cycle between two of them, a class (or slab band)
// that took no buffer during that cycle gives its free buffers back to the
// Go heap, and keeps none that its finalizer returns: its phase is over
// and another one needs the memory. (A program that only pauses keeps its
// buffers until idleRelease.) They go back
// without handing their pages to the kernel: the next collection frees
// them, and the next phase's fresh results are made of that memory,
// still mapped, instead of pages faulted in cleared (the runtime's
// scavenger returns what the heap no longer needs, as for any Go memory).
// A phase that lasts less than a cycle keeps its classes; an idle program
// still gets its memory back through idleRelease. Lending a buffer to a
// smaller class is not a take of the lender's: lending bridges the change
// of phase, but a class that only lends keeps the last phase's buffers
// (up to maxLend times the size the loop needs, a pool's limit of them)
// serving results it should own, and its free ones swell the heap goal.

// A new phase's loop often runs several cycles at the heap goal the last
// phase set (its free buffers were live at the collection that set it),
// taking fresh memory that faults all the while; waiting a whole cycle
// without takes before giving them back, and a collection after that for
// the goal to see them gone, cost 9.4 MB results after 256 MB ones three
// cycles at a goal of 1.6 GB. So once a class has gone short minBuffers
// times in one cycle (a loop, not a one-off shape), every class that has
// taken nothing since the cycle began gives its free buffers back
// at once (endPhase), so that the next collection sets the goal without
// them. A class that alternates with the short one takes in every cycle
// and keeps its buffers. Results above 8 MiB end the phase sooner, once
// their short takes make up a class's budget (wentShort), and the classes
// ended keep none of the buffers their finalizers return until they take
// again.

// cycle counts the collections the pool has seen (each class and band
// records the cycle of its last take in used); short is the last cycle in
// which a take found no free buffer and took fresh memory; watching is set
// once the sentinel is armed. mu guards them.
var (
	cycle    int
	short    = -1
	watching bool
)

// sentinel is an object whose only use is its finalizer, which runs after
// each collection that finds it unreferenced (the next one after it is
// armed). Large enough not to share a tiny-allocator block, whose
// finalizers may never run.
type sentinel struct{ _ [32]byte }

// watchCollections arms the sentinel unless it is armed; mu is held. It is
// called when the pool first grows: a program that never uses the pool
// pays nothing.
func watchCollections() {
	if !watching {
		watching = true
		armSentinel()
	}
}

func armSentinel() { runtime.SetFinalizer(new(sentinel), collected) }

// collected runs after a collection: it starts a new cycle, gives back the
// free buffers of every class and band that took none during the cycle
// that just ended if the pool was short of memory in it, and arms a new
// sentinel for the next collection.
func collected(*sentinel) {
	mu.Lock()
	defer mu.Unlock()
	cycle++
	for _, c := range classes {
		if unused(c.used) {
			dropAllFree(&c.free, c.size)
		}
	}
	for i := range bands {
		if b := &bands[i]; unused(b.used) {
			dropAllFree(&b.free, b.slabSize())
		}
	}
	armSentinel()
}

// unused reports whether a class or band whose last take was during cycle
// used took nothing during the whole cycle that ended last while other
// takes in it or since had to take fresh memory; mu is held.
func unused(used int) bool { return used < cycle-1 && short >= cycle-1 }

// dropAllFree lets every free buffer (or slab) of size bytes on *free go to
// the collector with its pages mapped; mu is held.
func dropAllFree(free *[]freeBuffer, size int) {
	for i := range *free {
		(*free)[i] = freeBuffer{} // the backing array must not keep it alive
		tracked -= size
		dropped++
		unusedDropped++
	}
	*free = (*free)[:0]
}

// wentShort records a take of c that found no free buffer, and ends the
// phase of the classes that took nothing meanwhile once c has gone short
// newLoopShorts times in one cycle; mu is held.
//
// A loop of up to 8 MiB results (minBuffers shorts) ends the classes that
// have taken nothing since the cycle began. A loop of larger results takes
// fresh memory worth a class's whole budget (classBudget) in fewer takes,
// and each of them grows the heap toward the goal that the last phase's
// collection set with that phase's free buffers live, holding off the
// collection that would bring the new results back: a loop of 128 MiB
// float64 results after one of 64 MiB float32 results took its first
// eight or nine results fresh, 32768 page faults each (docs/memory.md).
// So from 16 MiB on, the phase ends after as many shorts as make up the
// budget (four at 16 MiB, two from 32 MiB), and ends the classes that have
// taken nothing since c's first short of the cycle: the cycle the new loop
// starts in is often one in which the last loop took too (its last calls,
// or the collection's finalizer that starts a cycle has not run yet), and
// a class that alternates with c takes between its shorts.
func (c *class) wentShort() {
	short = cycle
	if c.shortIn != cycle {
		c.shortIn, c.shorts, c.firstShort = cycle, 0, takes
	}
	c.shorts++
	switch {
	case c.shorts == minBuffers:
		endPhase(func(o *class) bool { return o.used < cycle })
	case c.shorts == c.budgetShorts():
		since := c.firstShort
		endPhase(func(o *class) bool { return o.lastTake < since })
	}
}

// budgetShorts is how many short takes of c in one cycle make up
// classBudget bytes, at least two, when that is fewer than minBuffers
// (classes above 8 MiB); 0 otherwise, where the count rule decides alone.
func (c *class) budgetShorts() int {
	if n := classBudget / c.size; n < minBuffers {
		return max(2, n)
	}
	return 0
}

// endPhase gives back, with their pages mapped, the free buffers of every
// class that idle reports idle, and marks it ended: the buffers its
// finalizer returns until it takes again leave too (the last phase's
// operands and results, dropped but not yet collected, would otherwise be
// live at the next collection). Slab bands, a budget of small slabs each,
// wait for the collection. mu is held.
func endPhase(idle func(*class) bool) {
	for _, o := range classes {
		if idle(o) {
			dropAllFree(&o.free, o.size)
			o.ended = true
		}
	}
}

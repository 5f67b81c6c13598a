// Package parallel runs the parts of a loop on the calling goroutine and on
// long-lived helper goroutines that poll for work, for the kernels of this
// module (the GEMM driver, the element-wise engine) whose calls last
// microseconds to milliseconds.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// A loop is cut into parts, at least one per goroutine, and the goroutines
// claim parts from a shared counter until none are left, the caller's
// goroutine among them. Callers make the parts such that who computes which
// part changes no bit of the result.
//
// The other goroutines are long-lived helpers that poll for work rather
// than goroutines started (or woken) per call, because here a readied
// goroutine typically starts running on the idle core only after 80 µs or
// more (measured: a goroutine started beside 100 µs of work ran after the
// work had finished, on the caller's core, so a 256³ product ran on one
// core). The runtime queues a readied goroutine to run next on the P that
// readied it, and another P steals it from there only after a usleep(3),
// which Linux timer slack stretches to ~50 µs, on top of waking that P's
// thread. A helper that has just worked keeps polling for the next task for
// helperSpin before it blocks, and a caller waiting for the helpers' last
// parts polls for a while too, so products issued back to back start on
// every core at once and nothing has to be woken. Claiming parts
// dynamically covers the rest: a helper that arrives late (it was blocked,
// or another process has its core) only means that the caller computes
// more of the parts itself; the caller never waits for a part nobody has
// started.

// helperSpin is how long an idle helper keeps polling for work before it
// blocks. A blocked helper's core goes idle, and on a virtual machine an
// idle virtual CPU is halted: waking it again took milliseconds here, not
// the ~100 µs of a busy one, so the first products after any pause of a
// millisecond or more (a collection, a workload's set-up) ran on one core.
// Four alternating runs of the benchmark command, polling 200 µs -> 20 ms:
// matrix-vector 4096 1.25–2.54 -> 1.27–1.42 ms, 512 64×64 @ 64×64
// 1.51–2.16 -> 1.08–1.39 ms, float32·int32 16M 7.0–8.7 -> 4.8–6.6 ms,
// product of 16M float32 1.31–2.42 -> 1.26–1.29 ms; 5 ms measured the same
// as 20 in three more. OpenBLAS's threads poll far longer (about 0.1 s).
// The cost is a core kept busy for 5 ms after the last parallel loop, at
// the lowest priority the loop below can give it (the module's tests: 8.9
// -> 9–10 s of wall time, against 11.4 s with 20 ms).
const helperSpin = 5 * time.Millisecond

// callerSpin is how long a caller polls for the helpers' last parts before
// it blocks. When every goroutine has a core the parts end within
// microseconds of each other and polling saves a wake-up; when the machine
// is oversubscribed a helper may be descheduled for a whole time slice, and
// a caller that kept polling would take CPU from it (or from whoever else
// needs it).
const callerSpin = 50 * time.Microsecond

// task is one parallel loop: parts calls of f, claimed through next, by
// the caller (worker 0) and at most helpers helpers (workers 1, 2, … in the
// order they join).
type task struct {
	id      uint64 // distinguishes tasks without keeping old ones reachable
	f       func(worker, part int)
	parts   int64
	helpers int64
	joined  atomic.Int64 // helpers that have joined
	next    atomic.Int64 // next part to claim
	done    atomic.Int64 // parts finished
	fin     chan struct{}
}

// work claims and runs parts as worker until none are left. A helper
// passes handOff, a caller does not (see below).
func (t *task) work(worker int, handOff bool) {
	for {
		i := t.next.Add(1) - 1
		if i >= t.parts {
			return
		}
		t.f(worker, int(i))
		if t.done.Add(1) == t.parts {
			close(t.fin)
			if handOff {
				// A caller blocked on fin is now queued to run next on
				// this P, where another P would steal it only after a
				// back-off (see above); yielding runs it here at once,
				// and this helper moves to the global queue, which idle
				// Ps take from without delay.
				runtime.Gosched()
			}
		}
	}
}

// join runs parts of t on a helper, unless enough helpers have joined.
func (t *task) join() {
	if n := t.joined.Add(1); n <= t.helpers {
		t.work(int(n), true)
	}
}

// helpers is the pool of helper goroutines. The task on offer is the one
// they join; a helper that finds it after its parts are gone just finds
// nothing to claim.
var helpers struct {
	offer    atomic.Pointer[task]
	lastID   atomic.Uint64
	sleeping atomic.Int64  // helpers blocked (or about to block) on wake
	wake     chan struct{} // tokens for blocked helpers
	mu       sync.Mutex
	started  int
}

// maxHelpers bounds the helper goroutines (and the wake tokens pending).
const maxHelpers = 256

func init() { helpers.wake = make(chan struct{}, maxHelpers) }

// ensureHelpers starts helper goroutines until there are at least n.
func ensureHelpers(n int) {
	helpers.mu.Lock()
	for helpers.started < min(n, maxHelpers) {
		helpers.started++
		go helperLoop()
	}
	helpers.mu.Unlock()
}

// helperLoop joins offered tasks forever: it polls for a new offer for
// helperSpin after the last one, then blocks until a caller wakes it.
func helperLoop() {
	var last uint64 // the id of the last task joined
	for {
		start := time.Now()
		for time.Since(start) < helperSpin {
			if t := helpers.offer.Load(); t != nil && t.id != last {
				last = t.id
				t.join()
				start = time.Now()
				continue
			}
			// Let other goroutines of this P, then other threads of this
			// core, run first: polling must not delay anyone's work.
			runtime.Gosched()
			osYield()
		}
		// Announce the sleep before the last look at the offer: a caller
		// that offers after that look sees the count and sends a token.
		helpers.sleeping.Add(1)
		if t := helpers.offer.Load(); t == nil || t.id == last {
			<-helpers.wake
		}
		helpers.sleeping.Add(-1)
	}
}

// For calls f(worker, 0), …, f(worker, parts-1) on up to threads
// goroutines, the caller's included, and returns when all calls have
// returned. worker, in [0, min(threads, parts, GOMAXPROCS)), names the
// goroutine: no two calls with the same worker run at once, and the
// caller is worker 0. Goroutines beyond GOMAXPROCS could not run at the
// same time, so they are not used.
func For(parts, threads int, f func(worker, part int)) {
	wanted := min(threads, parts, runtime.GOMAXPROCS(0)) - 1
	if wanted <= 0 {
		for i := range parts {
			f(0, i)
		}
		return
	}
	t := &task{id: helpers.lastID.Add(1), f: f, parts: int64(parts), helpers: int64(wanted), fin: make(chan struct{})}
	ensureHelpers(wanted)
	helpers.offer.Store(t)
	for range min(helpers.sleeping.Load(), int64(wanted)) {
		select {
		case helpers.wake <- struct{}{}:
		default:
		}
	}
	t.work(0, false)
	// Parts claimed by helpers are still running, at most one per helper.
	start := time.Now()
	for t.done.Load() < t.parts && time.Since(start) < callerSpin {
		osYield()
	}
	<-t.fin
	// Drop the offer so that it does not keep the operands reachable.
	helpers.offer.CompareAndSwap(t, nil)
}

// Package parallel runs the parts of a loop on the calling goroutine and on
// long-lived helper goroutines that poll for work, for the kernels of this
// module (the GEMM driver, the element-wise engine) whose calls last
// microseconds to milliseconds.
package parallel

import (
	"os"
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
// a while before it blocks (see spinShare), and a caller waiting for the helpers' last
// parts polls for a while too, so products issued back to back start on
// every core at once and nothing has to be woken. Claiming parts
// dynamically covers the rest: a helper that arrives late (it was blocked,
// or another process has its core) only means that the caller computes
// more of the parts itself; the caller never waits for a part nobody has
// started.

// After a task, a helper keeps polling for the next one rather than block
// at once. A blocked helper's core goes idle, and on a virtual machine an
// idle virtual CPU is halted: waking it again took milliseconds here, not
// the ~100 µs of a busy one, so products issued back to back would each
// start on one core. But polling is CPU the program pays for nothing when
// no task comes, so a helper polls at most a quarter of the time it has
// just spent on the task's parts (calls issued now and then cost at most a
// quarter more CPU than their work), and never longer than the spin
// setting (see SetSpin). A helper that has blocked costs nothing.
//
// The exception is a loop: when tasks have come, each offered at most
// twice its span (from its offer until the helper was done with it) after
// the task before it would have ended, for loopSpan times the last one's
// span, the next one is likely to come as soon, and the helper polls for
// as long as that task lasted, the work the call just did (see pollFor).
// A helper's own share is no measure there: one that joined a call late
// took few of its parts. Polling a quarter of a few microseconds of work
// was shorter than the gap between two calls of a plain loop, so the
// helper blocked after every call and the next woke it too late for its
// parts (BenchmarkForBackToBack, BenchmarkSweep's matrix-vector
// products; figures in docs/kernels.md, session 23). Calls further apart still cost at most a
// quarter more CPU than their work (TestSporadicLoadCPU).
const spinShare = 4

// defaultSpin bounds a helper's polling unless TENSOR_SPIN or SetSpin
// says otherwise: OpenBLAS's threads poll far longer (about 0.1 s), but a
// guest in someone else's program should keep its polling short.
const defaultSpin = time.Millisecond

// spinLimit is the longest a helper polls after its work, in nanoseconds.
var spinLimit atomic.Int64

func init() {
	spinLimit.Store(int64(spinFromEnv(os.Getenv("TENSOR_SPIN"))))
}

// spinFromEnv reads TENSOR_SPIN: a Go duration ("0", "200us", "2ms"),
// defaultSpin when empty or not a valid non-negative duration.
func spinFromEnv(v string) time.Duration {
	if v == "" {
		return defaultSpin
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return d
	}
	return defaultSpin
}

// SetSpin sets the longest a helper goroutine polls for more work after a
// parallel call's parts, and returns the previous setting. 0 makes helpers
// block as soon as they run out of work (the least CPU; each call then
// wakes them); longer keeps them ready across longer gaps between calls.
// Whatever the setting, a helper polls at most a quarter of the time it
// has just worked, or, in a loop of calls, as long as the last call
// lasted (see spinShare). Negative values count as 0.
func SetSpin(d time.Duration) time.Duration {
	return time.Duration(spinLimit.Swap(int64(max(d, 0))))
}

// pollFor is how long a helper that has just worked for worked on a task
// that lasted span polls for the next task: a quarter of its work, or in
// a loop the task's span (see spinShare), never longer than the spin
// setting.
func pollFor(worked, span time.Duration, loop bool) time.Duration {
	d := worked / spinShare
	if loop {
		d = max(d, span)
	}
	return min(d, time.Duration(spinLimit.Load()))
}

// cameSoon reports whether a task that lasted span came soon after the
// one before: gap, its offer's distance from the one before less its
// span, is at most twice its span (a negative gap: no task before it).
func cameSoon(gap, span time.Duration) bool { return gap >= 0 && gap <= 2*span }

// loopSpan is how many times its last task's span, once per helper of
// that task, a run of tasks that each came soon after the one before must
// have lasted to count as a loop: the polls after the run's last task,
// which nothing follows, then cost at most a sixteenth of the run. A pair
// of calls now and then is no loop: an operation is often two tasks
// (mapping a fresh result's pages, then computing it), and polling as
// long as the work after every such pair raised TestSporadicLoadCPU's CPU
// to 1.26-1.33 its work at GOMAXPROCS 8 (Zen 4 under KVM).
const loopSpan = 16

// inLoop reports whether a run of tasks that came soon after each other,
// lasting run so far, is a loop, its last task having lasted span (times
// its helpers).
func inLoop(run, span time.Duration) bool { return run >= loopSpan*span }

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
	offered time.Time // when the caller offered it
	// sinceLast is how long after the task before it (of any caller) it
	// was offered, -1 for the first.
	sinceLast time.Duration
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

// join runs parts of t on a helper, unless enough helpers have joined,
// and returns how long it worked on them.
func (t *task) join() time.Duration {
	if n := t.joined.Add(1); n <= t.helpers {
		start := time.Now()
		t.work(int(n), true)
		return time.Since(start)
	}
	return 0
}

// helpers is the pool of helper goroutines. The task on offer is the one
// they join; a helper that finds it after its parts are gone just finds
// nothing to claim.
var helpers struct {
	offer  atomic.Pointer[task]
	lastID atomic.Uint64
	// lastOffer is when the last task was offered, in nanoseconds after
	// epoch (0: none yet).
	lastOffer atomic.Int64
	sleeping  atomic.Int64  // helpers blocked (or about to block) on wake
	wake      chan struct{} // tokens for blocked helpers
	mu        sync.Mutex
	started   int
}

// epoch is the origin of helpers.lastOffer.
var epoch = time.Now()

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

// helperLoop joins offered tasks forever: after each task it polls for a
// new offer as long as pollFor says, then blocks until a caller wakes it.
func helperLoop() {
	var last uint64       // the id of the last task joined
	var runFrom time.Time // when the run of tasks that came soon began
	for {
		if t := helpers.offer.Load(); t != nil && t.id != last {
			last = t.id
			worked := t.join()
			idle := time.Now()
			// The task's span, from its offer until this helper was done
			// with it, is the caller's work on it (a helper that joined
			// late worked less).
			span := idle.Sub(t.offered)
			// The calls' pace is measured between offers, not from this
			// helper's last task: a helper that had blocked wakes tens
			// of microseconds late, after calls it missed.
			gap := time.Duration(-1)
			if t.sinceLast >= 0 {
				gap = max(t.sinceLast-span, 0)
			}
			if !cameSoon(gap, span) {
				runFrom = t.offered
			}
			// The run must outlast every helper's last poll together.
			loop := inLoop(idle.Sub(runFrom), span*time.Duration(t.helpers))
			if poll(&last, pollFor(worked, span, loop)) {
				continue
			}
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

// poll waits up to d for a task other than *last to be offered and
// reports whether one was.
func poll(last *uint64, d time.Duration) bool {
	for start := time.Now(); time.Since(start) < d; {
		if t := helpers.offer.Load(); t != nil && t.id != *last {
			return true
		}
		// Let other goroutines of this P, then other threads of this
		// core, run first: polling must not delay anyone's work.
		runtime.Gosched()
		osYield()
	}
	return false
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
	now := time.Now()
	at, since := now.Sub(epoch), time.Duration(-1)
	if prev := helpers.lastOffer.Swap(int64(at)); prev != 0 {
		since = at - time.Duration(prev)
	}
	t := &task{id: helpers.lastID.Add(1), f: f, parts: int64(parts), helpers: int64(wanted), fin: make(chan struct{}), offered: now, sinceLast: since}
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

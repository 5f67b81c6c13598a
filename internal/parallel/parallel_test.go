package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestForEachPartOnce checks that every part runs exactly once,
// whatever the number of goroutines and parts, and that For
// returns only after all of them have finished.
func TestForEachPartOnce(t *testing.T) {
	for _, threads := range []int{0, 1, 2, 3, 8} {
		for _, parts := range []int{0, 1, 2, 5, 64} {
			counts := make([]atomic.Int32, parts)
			For(parts, threads, func(_, i int) { counts[i].Add(1) })
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Errorf("threads %d, parts %d: part %d ran %d times", threads, parts, i, c)
				}
			}
		}
	}
}

// TestForConcurrentCallers runs many parallel loops at once, some
// nested inside others' parts: every loop must still run each of its parts
// once, with helpers shared between callers (or busy elsewhere).
func TestForConcurrentCallers(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for round := range 20 {
				parts := 1 + (g+round)%9
				var sum atomic.Int64
				For(parts, 3, func(_, i int) {
					var inner atomic.Int64
					For(4, 2, func(_, j int) { inner.Add(int64(j + 1)) })
					if inner.Load() != 10 {
						t.Errorf("nested loop summed %d, want 10", inner.Load())
					}
					sum.Add(int64(i + 1))
				})
				if want := int64(parts * (parts + 1) / 2); sum.Load() != want {
					t.Errorf("goroutine %d round %d: parts summed %d, want %d", g, round, sum.Load(), want)
				}
			}
		})
	}
	wg.Wait()
}

// TestForWorkers checks the worker numbers: in [0, min(threads, parts,
// GOMAXPROCS)), and no two calls of one worker overlap.
func TestForWorkers(t *testing.T) {
	for _, threads := range []int{1, 2, 4} {
		limit := min(threads, 40, runtime.GOMAXPROCS(0))
		busy := make([]atomic.Int32, 64)
		For(40, threads, func(worker, part int) {
			if worker < 0 || worker >= limit {
				t.Errorf("threads %d: worker %d outside [0, %d)", threads, worker, limit)
				return
			}
			if busy[worker].Add(1) != 1 {
				t.Errorf("threads %d: two calls of worker %d at once", threads, worker)
			}
			runtime.Gosched() // give another worker the chance to overlap
			busy[worker].Add(-1)
		})
	}
}

func TestSpinSettings(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want time.Duration
	}{{"", defaultSpin}, {"0", 0}, {"250us", 250 * time.Microsecond}, {"2ms", 2 * time.Millisecond}, {"-1ms", defaultSpin}, {"fast", defaultSpin}} {
		if got := spinFromEnv(tc.env); got != tc.want {
			t.Errorf("TENSOR_SPIN=%q: %v, want %v", tc.env, got, tc.want)
		}
	}
	old := SetSpin(3 * time.Millisecond)
	defer SetSpin(old)
	const us = time.Microsecond
	for _, tc := range []struct {
		worked, span time.Duration
		loop         bool
		want         time.Duration
	}{
		{0, 0, false, 0}, {400 * us, 500 * us, false, 100 * us}, {time.Second, time.Second, false, 3 * time.Millisecond},
		{0, 0, true, 0}, {100 * us, 500 * us, true, 500 * us}, {400 * us, 50 * us, true, 100 * us},
		{time.Second, time.Second, true, 3 * time.Millisecond},
	} {
		if got := pollFor(tc.worked, tc.span, tc.loop); got != tc.want {
			t.Errorf("pollFor(%v, span %v, loop %v) with a 3 ms setting = %v, want %v", tc.worked, tc.span, tc.loop, got, tc.want)
		}
	}
	for _, tc := range []struct {
		gap, span time.Duration
		want      bool
	}{
		{-1, 400 * us, false}, {0, 400 * us, true}, {800 * us, 400 * us, true},
		{801 * us, 400 * us, false}, {time.Second, 400 * us, false}, {0, 0, true},
	} {
		if got := cameSoon(tc.gap, tc.span); got != tc.want {
			t.Errorf("cameSoon(gap %v, span %v) = %v, want %v", tc.gap, tc.span, got, tc.want)
		}
	}
	for _, tc := range []struct {
		run, span time.Duration
		want      bool
	}{
		{0, 0, true}, {0, us, false}, {15 * us, us, false}, {16 * us, us, true}, {time.Second, 100 * time.Millisecond, false},
	} {
		if got := inLoop(tc.run, tc.span); got != tc.want {
			t.Errorf("inLoop(run %v, span %v) = %v, want %v", tc.run, tc.span, got, tc.want)
		}
	}
	if SetSpin(-time.Second); pollFor(time.Second, time.Second, true) != 0 || pollFor(time.Second, time.Second, false) != 0 {
		t.Errorf("a negative setting polls %v, want 0", pollFor(time.Second, time.Second, true))
	}
}

// allAsleep waits up to limit for every helper started to block, and
// returns how long that took, or false.
func allAsleep(limit time.Duration) (time.Duration, bool) {
	start := time.Now()
	for time.Since(start) < limit {
		helpers.mu.Lock()
		n := helpers.started
		helpers.mu.Unlock()
		if helpers.sleeping.Load() == int64(n) {
			return time.Since(start), true
		}
		time.Sleep(20 * time.Microsecond)
	}
	return 0, false
}

// TestHelpersPollNoLongerThanTheirWork runs calls of a few microseconds
// of work per part: the helpers must block soon after (their polling is
// bounded by a quarter of what they worked), however long the setting
// allows, and at once with the setting at 0. Timing on a loaded machine is
// noisy, so each check gets a few tries.
func TestHelpersPollNoLongerThanTheirWork(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("no helpers with GOMAXPROCS 1")
	}
	old := SetSpin(time.Second)
	defer SetSpin(old)
	busy := func(_, _ int) {
		for start := time.Now(); time.Since(start) < 20*time.Microsecond; {
		}
	}
	check := func(what string) {
		t.Helper()
		var took time.Duration
		for range 5 {
			if _, ok := allAsleep(time.Second); !ok {
				t.Fatal("helpers still polling a second after the last call")
			}
			For(4, 2, busy)
			var ok bool
			if took, ok = allAsleep(100 * time.Millisecond); ok && took < 2*time.Millisecond {
				return
			}
		}
		t.Errorf("%s: helpers blocked %v after a call of about 40 µs of work", what, took)
	}
	check("setting 1 s")
	SetSpin(0)
	check("setting 0")
}

// busyFor spins for d, a part's work that holds its core.
func busyFor(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

// TestHelpersPollThroughALoop runs a loop of calls back to back, each two
// parts of 100 µs a goroutine: once it has run for far longer than
// loopSpan calls, a helper must still be polling 120 µs after the last
// call, past the quarter of its work (50 µs) it would poll outside a loop
// and within the call's length (about 200 µs) it polls in one. Timing on
// a loaded machine is noisy, so the check gets a few tries.
func TestHelpersPollThroughALoop(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("no helpers with GOMAXPROCS 1")
	}
	old := SetSpin(time.Second)
	defer SetSpin(old)
	part := func(_, _ int) { busyFor(100 * time.Microsecond) }
	for range 5 {
		if _, ok := allAsleep(time.Second); !ok {
			t.Fatal("helpers still polling a second after the last call")
		}
		for range 60 {
			For(4, 2, part)
		}
		busyFor(120 * time.Microsecond)
		helpers.mu.Lock()
		started := helpers.started
		helpers.mu.Unlock()
		if helpers.sleeping.Load() < int64(started) {
			return
		}
	}
	t.Error("every helper had blocked 120 µs after a loop of 200 µs calls")
}

// BenchmarkForBackToBack times a plain loop of short parallel calls (eight
// parts of 1 µs on two goroutines) with 2 µs of the caller's own work
// between them, as a result's allocation and checks are in a user's loop:
// whether a helper is still polling when the next call comes decides its
// length (see spinShare).
func BenchmarkForBackToBack(b *testing.B) {
	part := func(_, _ int) { busyFor(time.Microsecond) }
	for b.Loop() {
		For(8, 2, part)
		busyFor(2 * time.Microsecond)
	}
}

package gemm

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestTilesUnderSignals multiplies on the tiles in several goroutines while
// another floods the process with SIGURG (Go's preemption signal, so the
// runtime takes it in stride) and forces collections (which stop every
// goroutine): each product must keep the bits of a quiet one. The tile
// state lives inside one assembly call, which Go never preempts, and the
// kernel saves it with the rest of a thread's state at each signal.
func TestTilesUnderSignals(t *testing.T) {
	if active.bf16 == nil {
		t.Skip("the active kernel set has no tile kernel")
	}
	rng := rand.New(rand.NewPCG(21, 38))
	const m, n, k = 160, 130, 600
	a, b := Matrix[uint16]{randomBF16(rng, m*k), 0, k, 1}, Matrix[uint16]{randomBF16(rng, k*n), 0, n, 1}
	want := Matrix[float32]{make([]float32, m*n), 0, n, 1}
	MulHalf(BFloat16, m, n, k, a, b, want, Options{Threads: 1})
	stop := make(chan struct{})
	var noise sync.WaitGroup
	noise.Add(2)
	go func() {
		defer noise.Done()
		for {
			select {
			case <-stop:
				return
			default:
				_ = syscall.Kill(syscall.Getpid(), syscall.SIGURG)
				time.Sleep(20 * time.Microsecond)
			}
		}
	}()
	go func() {
		defer noise.Done()
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
			}
		}
	}()
	var workers sync.WaitGroup
	errs := make(chan string, 4)
	for w := range 4 {
		workers.Add(1)
		go func() {
			defer workers.Done()
			c := Matrix[float32]{make([]float32, m*n), 0, n, 1}
			for range 25 {
				MulHalf(BFloat16, m, n, k, a, b, c, Options{Threads: 1 + w%2})
				for i := range c.Data {
					if math.Float32bits(c.Data[i]) != math.Float32bits(want.Data[i]) {
						errs <- "a product under signals differs from the quiet one"
						return
					}
				}
			}
		}()
	}
	workers.Wait()
	close(stop)
	noise.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

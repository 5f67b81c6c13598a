//go:build !purego && linux

package vec

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/internal/kernels"
)

// threadCPU returns the CPU time the calling thread has used: on a shared
// machine a benchmark's wall time counts the time others had the core.
func threadCPU() int64 {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3 /* CLOCK_THREAD_CPUTIME_ID */, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}

// BenchmarkStreamAhead times the reduction kernels with the prefetch
// distance of this processor's entry in streamAheads and with the
// default, over runs from memory (64 MiB) and from L3 (4 MiB) read in
// the engine's chunks of 64K elements, reporting CPU time per pass: the
// measurement an entry of streamAheads quotes. Run with -count to
// alternate the distances.
func BenchmarkStreamAhead(b *testing.B) {
	defer func(saved int) { streamAhead = saved }(streamAhead)
	const chunk = 1 << 16
	for _, bytes := range []int{64 << 20, 4 << 20} {
		f32 := filled(bytes/4, float32(1))
		f64 := filled(bytes/8, 1.0)
		i32 := filled(bytes/4, int32(1))
		bf16 := filled(bytes/2, uint16(0x3f80))
		kernels := []struct {
			name string
			pass func()
		}{
			{"prodF32Pair", func() {
				for c := 0; c+2*chunk <= len(f32); c += 2 * chunk {
					ProdF32Pair(f32[c:c+chunk], f32[c+chunk:c+2*chunk])
				}
			}},
			{"sumF32Pair", func() {
				for c := 0; c+2*chunk <= len(f32); c += 2 * chunk {
					SumF32Pair(f32[c:c+chunk], f32[c+chunk:c+2*chunk])
				}
			}},
			{"prodF32", func() {
				for c := 0; c+chunk <= len(f32); c += chunk {
					ProdF32(f32[c : c+chunk])
				}
			}},
			{"prodF64", func() {
				for c := 0; c+chunk <= len(f64); c += chunk {
					ProdF64(f64[c : c+chunk])
				}
			}},
			{"sumBF16", func() {
				for c := 0; c+chunk <= len(bf16); c += chunk {
					SumBF16(bf16[c : c+chunk])
				}
			}},
			{"prodI32", func() {
				for c := 0; c+chunk <= len(i32); c += chunk {
					ProdI32(i32[c : c+chunk])
				}
			}},
		}
		for _, k := range kernels {
			for _, ahead := range aheadsForBench() {
				b.Run(fmt.Sprintf("%dMiB/%s/ahead%d", bytes>>20, k.name, ahead), func(b *testing.B) {
					streamAhead = ahead
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					b.SetBytes(int64(bytes))
					c0 := threadCPU()
					for b.Loop() {
						k.pass()
					}
					b.ReportMetric(float64(threadCPU()-c0)/float64(b.N), "cpu-ns/op")
				})
			}
		}
	}
}

func processorForBench() kernels.Processor { return kernels.ProcessorID() }

// BenchmarkRowsCPU times the float64 four-row kernels of every set as a
// two-stage reduction over axes 0 and 2 of 256³ runs them: 16 rows of 64K
// elements from memory into one row of 64K accumulators in L2, block after
// block of a 128 MiB x, in CPU time per block.
func BenchmarkRowsCPU(b *testing.B) {
	defer func(saved rowKernels) { mulRowImpl = saved }(mulRowImpl)
	const n, rows, blocks = 1 << 16, 16, 16
	x := filled(n*rows*blocks, 1.0)
	acc := filled(n, 1.0)
	for _, v := range mulRowTable.Variants() {
		b.Run(v.Name(), func(b *testing.B) {
			mulRowImpl = v.K
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.SetBytes(8 * n * rows)
			c0, k := threadCPU(), 0
			for b.Loop() {
				MulRowsF64(acc, x[k*n*rows:(k+1)*n*rows], rows, n)
				k = (k + 1) % blocks
			}
			b.ReportMetric(float64(threadCPU()-c0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// aheadsForBench returns the distances BenchmarkStreamAhead compares:
// this processor's and the default, or a range of them with AHEADS set.
func aheadsForBench() []int {
	if os.Getenv("AHEADS") != "" {
		return []int{0, 1 << 10, 4 << 10, 8 << 10, 16 << 10, 32 << 10, 64 << 10}
	}
	return []int{streamAheadFor(processorForBench()), defaultStreamAhead}
}

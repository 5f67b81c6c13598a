//go:build unix

package storage

import (
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// rusage returns the process's CPU time (user and system) and minor page
// faults so far.
func rusage(t testing.TB) (time.Duration, int64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Skip(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), int64(ru.Minflt) // int32 on 386
}

// phaseLoop is one phase of a program: a plain loop of calls, each taking a
// result of size bytes and dropping it, beside two live operands of the
// same size (z := x*y). A result is written as an element-wise kernel
// writes a cold one: its absent pages mapped first (MapForStreaming), then
// every byte.
func phaseLoop(size, calls int) {
	x, y := Get(size, false), Get(size, false)
	clear(unsafe.Slice((*byte)(x), size))
	clear(unsafe.Slice((*byte)(y), size))
	for range calls {
		p, _, cold := TakeOutput(size)
		if cold {
			MapForStreaming(p, size)
		}
		clear(unsafe.Slice((*byte)(p), size))
		sink = p
	}
	sink = nil
	keepAlive(x, y)
}

//go:noinline
func keepAlive(...unsafe.Pointer) {}

// phaseEnv names the sequence TestPhaseChangeChild runs: sizes in MiB,
// calls and GOMEMLIMIT in bytes ("64:24,128:12;0").
const phaseEnv = "STORAGE_PHASE_CHANGE"

// TestPhaseChangeChild runs BenchmarkPhaseChange's sequence in a process of
// its own, and prints the last phase's figures; it runs only when the
// benchmark starts it.
func TestPhaseChangeChild(t *testing.T) {
	spec := os.Getenv(phaseEnv)
	if spec == "" {
		t.Skip("run by BenchmarkPhaseChange")
	}
	phases, limit, _ := strings.Cut(spec, ";")
	if l, _ := strconv.ParseInt(limit, 10, 64); l > 0 {
		debug.SetMemoryLimit(l)
	}
	list := strings.Split(phases, ",")
	var cpu time.Duration
	var faults int64
	var hits, calls int
	for i, ph := range list {
		mib, n, _ := strings.Cut(ph, ":")
		size, _ := strconv.Atoi(mib)
		calls, _ = strconv.Atoi(n)
		cpu0, faults0 := rusage(t)
		hits0 := ReadStats().Hits
		phaseLoop(size<<20, calls)
		if i == len(list)-1 {
			cpu1, faults1 := rusage(t)
			cpu, faults, hits = cpu1-cpu0, faults1-faults0, ReadStats().Hits-hits0
		}
	}
	fmt.Printf("phase-change %d %d %d %d\n", cpu.Nanoseconds(), faults, hits, calls)
}

// BenchmarkPhaseChange runs phases of one result size after another, each
// a plain loop (nothing released, no forced collection), in a process of
// their own, and reports the last phase per call: cpu-ns/op (the process's
// CPU time, the collector's and the kernel's page clearing included),
// faults/op (pages faulted in or mapped ahead) and pooled/op (the share of
// results the pool served). Each "alone" case runs the last phase of the
// case before it by itself: a phase change should cost the new loop no
// more than its own first calls cost alone. Before the budget rule of
// phases.go, 128 MiB results after 64 MiB ones (float64 Mul of 16M
// elements after float32's) took their first eight or nine results fresh
// at the heap goal the float32 phase had set, 32768 faults each.
func BenchmarkPhaseChange(b *testing.B) {
	for _, c := range []struct{ name, spec string }{
		{"64MiB>128MiB", "64:48,128:12;0"},
		{"alone/128MiB", "128:12;0"},
		{"1MiB>64MiB", "1:200,64:12;0"},
		{"alone/64MiB", "64:12;0"},
		{"16MiB>256MiB", "16:48,256:8;0"},
		{"alone/256MiB", "256:8;0"},
		{"128MiB>64MiB", "128:24,64:12;0"},
		{"64MiB>128MiB/GOMEMLIMIT=2GiB", "64:48,128:12;2147483648"},
		{"alone/128MiB/GOMEMLIMIT=2GiB", "128:12;2147483648"},
	} {
		b.Run(c.name, func(b *testing.B) {
			var cpu, faults, hits, calls float64
			for b.Loop() {
				cmd := exec.Command(os.Args[0], "-test.run=^TestPhaseChangeChild$", "-test.count=1")
				cmd.Env = append(os.Environ(), phaseEnv+"="+c.spec)
				out, err := cmd.Output()
				if err != nil {
					b.Fatalf("%s: %v\n%s", c.spec, err, out)
				}
				var ns, f, h, n float64
				i := strings.Index(string(out), "phase-change ")
				if _, err := fmt.Sscan(string(out[max(i, 0)+len("phase-change "):]), &ns, &f, &h, &n); i < 0 || err != nil {
					b.Fatalf("%s: no figures in %q", c.spec, out)
				}
				cpu, faults, hits, calls = cpu+ns, faults+f, hits+h, calls+n
			}
			b.ReportMetric(cpu/calls, "cpu-ns/op")
			b.ReportMetric(faults/calls, "faults/op")
			b.ReportMetric(hits/calls, "pooled/op")
			b.ReportMetric(0, "ns/op") // a whole process's wall time: not the figure
		})
	}
}

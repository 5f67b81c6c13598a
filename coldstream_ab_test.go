//go:build unix

package tensor

import (
	"fmt"
	"math"
	"slices"
	"syscall"
	"testing"

	"github.com/tensor-go/tensor/internal/ewise"
)

// BenchmarkColdStreamAB times plain loops of results (dropped, so their
// buffers come back cold through collections) stored as usual and stored
// around the caches, the two sides alternating round by round in one
// process, from 256 KiB to 64 MiB: the figures behind ewise.ColdStreamBytes
// on the machine at hand. Each size reports both sides' median CPU per
// call (the process's, collections included) and "streamed/usual", their
// ratio; a ratio below 1 says streaming pays at that size.
func BenchmarkColdStreamAB(b *testing.B) {
	defer func(s int) { ewise.ColdStreamBytes = s }(ewise.ColdStreamBytes)
	type opCase struct {
		name string
		dt   DType
		call func(x, y any) (*Tensor, error)
		read bool // the result is read once next (Sum), as a chain of operations reads it
	}
	ops := []opCase{
		{"mul-float32", Float32, Mul, false},
		{"add-float64", Float64, Add, false},
		{"mul-int8", Int8, Mul, false},
		{"mul-float32-sum", Float32, Mul, true},
	}
	for _, op := range ops {
		for _, kib := range []int{256, 512, 768, 1024, 1280, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 32768, 65536} {
			b.Run(fmt.Sprintf("%s/%dKiB", op.name, kib), func(b *testing.B) {
				n := kib << 10 / op.dt.Size()
				x := Must(Rand(1, op.dt, 0.9, 1.1, n))
				calls := min(256, max(8, (64<<10)/kib))
				var cpu, faults [2][]float64
				for range 20 { // the class grows on the first calls: both sides start grown
					Must(op.call(x, x))
				}
				for b.Loop() {
					for side := range 2 {
						ewise.ColdStreamBytes = math.MaxInt
						if side == 1 {
							ewise.ColdStreamBytes = 0
						}
						c0, f0 := processCPU(b), minorFaults()
						for range calls {
							r, err := op.call(x, x)
							if err != nil {
								b.Fatal(err)
							}
							if op.read {
								Must(Sum(r))
							}
						}
						cpu[side] = append(cpu[side], float64(processCPU(b)-c0)/float64(calls))
						faults[side] = append(faults[side], float64(minorFaults()-f0)/float64(calls))
					}
				}
				usual, streamed := median(cpu[0]), median(cpu[1])
				b.ReportMetric(usual/1e3, "usual-cpuµs")
				b.ReportMetric(streamed/1e3, "streamed-cpuµs")
				b.ReportMetric(streamed/usual, "streamed/usual")
				b.ReportMetric(median(faults[0]), "usual-faults")
				b.ReportMetric(median(faults[1]), "streamed-faults")
			})
		}
	}
}

// minorFaults is the process's minor page faults so far.
func minorFaults() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return int64(ru.Minflt)
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkHotStreamAB is BenchmarkColdStreamAB for a warm output: MulInto
// of a row broadcast into the same output call after call, streamed
// (ewise.StreamOutputBytes 0) or stored as usual, alone and with the
// output read once next (Sum): the figures behind StreamOutputBytes.
func BenchmarkHotStreamAB(b *testing.B) {
	defer func(s int) { ewise.StreamOutputBytes = s }(ewise.StreamOutputBytes)
	for _, read := range []bool{false, true} {
		for _, kib := range []int{1024, 4096, 8192, 16384, 32768, 65536, 131072} {
			b.Run(fmt.Sprintf("read=%v/%dKiB", read, kib), func(b *testing.B) {
				x := Must(Rand(1, Float32, 0.9, 1.1, kib>>2, 1024))
				row := Must(Rand(2, Float32, 0.9, 1.1, 1024))
				out := Must(Zeros(Float32, kib>>2, 1024))
				calls := min(256, max(8, (64<<10)/kib))
				var cpu [2][]float64
				for b.Loop() {
					for side := range 2 {
						ewise.StreamOutputBytes = math.MaxInt
						if side == 1 {
							ewise.StreamOutputBytes = 0
						}
						c0 := processCPU(b)
						for range calls {
							if err := MulInto(out, x, row); err != nil {
								b.Fatal(err)
							}
							if read {
								Must(Sum(out))
							}
						}
						cpu[side] = append(cpu[side], float64(processCPU(b)-c0)/float64(calls))
					}
				}
				usual, streamed := median(cpu[0]), median(cpu[1])
				b.ReportMetric(usual/1e3, "usual-cpuµs")
				b.ReportMetric(streamed/1e3, "streamed-cpuµs")
				b.ReportMetric(streamed/usual, "streamed/usual")
			})
		}
	}
}

// BenchmarkColdStreamSweep is BenchmarkColdStreamAB over bench/sweep.json's
// element-wise workloads: each plain loop with its cold results stored
// as usual (ewise.ColdStreamBytes past every size) and as the engine
// stores them by default, alternating round by round.
func BenchmarkColdStreamSweep(b *testing.B) {
	defer func(s int) { ewise.ColdStreamBytes = s }(ewise.ColdStreamBytes)
	threshold := ewise.ColdStreamBytes
	for _, w := range readSweep(b) {
		if w.Op != "mul" && w.Op != "add" && w.Op != "sub" || w.Bytes < 1<<20 {
			continue
		}
		b.Run(w.Name, func(b *testing.B) {
			f := w.call(b)
			var cpu [2][]float64
			const calls = 16
			for b.Loop() {
				for side, s := range []int{math.MaxInt, threshold} {
					ewise.ColdStreamBytes = s
					c0 := processCPU(b)
					for range calls {
						if _, err := f(); err != nil {
							b.Fatal(err)
						}
					}
					cpu[side] = append(cpu[side], float64(processCPU(b)-c0)/calls)
				}
			}
			usual, def := median(cpu[0]), median(cpu[1])
			b.ReportMetric(usual/1e3, "usual-cpuµs")
			b.ReportMetric(def/1e3, "default-cpuµs")
			b.ReportMetric(def/usual, "default/usual")
		})
	}
}

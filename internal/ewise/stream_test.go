//go:build unix

package ewise

import (
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/cast"
)

// BenchmarkStreamedVia times cold 16 MiB float32 outputs (beyond
// ColdStreamBytes) of Mul through its streaming kernels, of Mul and Sub
// streamed through a buffer (streamedVia) and of Sub stored as usual, and
// of a conversion from int32 (Convert) and of a float32 × int32 Mul (its
// promoting kernel through the buffer) both ways, the
// outputs rotating over more memory than the L2s hold, as a plain loop's
// dropped results do. The cases alternate call by call in rounds (the
// machine may be shared), and each reports its best round's wall and CPU
// time per call (process CPU, both goroutines): whether the generic path
// is level with the dedicated kernels.
func BenchmarkStreamedVia(b *testing.B) {
	const n, outs, calls = 4 << 20, 6, 8
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = 1+float32(i%7)/8, 1-float32(i%5)/8
	}
	var out [outs][]float32
	for i := range out {
		out[i] = make([]float32, n)
	}
	convert := cast.Kernel(dtype.Float32, dtype.Int32)
	cases := []struct {
		name string
		op   *Binary // nil: Convert from int32
		cold bool
		bdt  dtype.DType
	}{{"mul-kernels", Mul, true, dtype.Float32}, {"mul-via", mulVia, true, dtype.Float32},
		{"sub-via", Sub, true, dtype.Float32}, {"sub-plain", Sub, false, dtype.Float32},
		{"astype-via", nil, true, 0}, {"astype-plain", nil, false, 0},
		{"mulf32i32-via", Mul, true, dtype.Int32}, {"mulf32i32-plain", Mul, false, dtype.Int32}}
	wall, cpu := make([]float64, len(cases)), make([]float64, len(cases))
	next := 0
	for b.Loop() {
		for k, c := range cases {
			t0, c0 := time.Now(), cpuTime()
			for range calls {
				o := out[next%outs]
				next++
				if c.op == nil {
					Convert(convert, unsafe.Pointer(&o[0]), 4, unsafe.Pointer(&y[0]), 4, n, c.cold)
					continue
				}
				c.op.Run(dtype.Float32, n,
					Operand{Base: unsafe.Pointer(&o[0]), DType: dtype.Float32, Stride: 4, Cold: c.cold},
					Operand{Base: unsafe.Pointer(&x[0]), DType: dtype.Float32, Stride: 4},
					Operand{Base: unsafe.Pointer(&y[0]), DType: c.bdt, Stride: 4})
			}
			w, u := float64(time.Since(t0))/calls, float64(cpuTime()-c0)/calls
			if wall[k] == 0 || w < wall[k] {
				wall[k] = w
			}
			if cpu[k] == 0 || u < cpu[k] {
				cpu[k] = u
			}
		}
	}
	for k, c := range cases {
		b.ReportMetric(wall[k]/1e3, c.name+"-µs")
		b.ReportMetric(cpu[k]/1e3, c.name+"-cpuµs")
	}
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

package tensor

import (
	"fmt"
	"math"
	"testing"

	"github.com/tensor-go/tensor/internal/ewise"
)

// BenchmarkColdStream times plain loops of float32 Mul results (dropped,
// so their buffers come back cold through collections) stored as usual
// and stored around the caches (ewise.ColdStreamBytes), at sizes about
// the threshold: the figures behind its value (compare the two sides of a
// size with -count and benchstat; the machine's load moves both, so read
// cpu-ns/op, the process's CPU a call, beside ns/op).
func BenchmarkColdStream(b *testing.B) {
	defer func(s int) { ewise.ColdStreamBytes = s }(ewise.ColdStreamBytes)
	threshold := ewise.ColdStreamBytes
	for _, kib := range []int{256, 2048, 3072, 3906, 4096, 6144, 12288} {
		x := Must(Rand(1, Float32, 0.9, 1.1, kib<<8))
		for _, streamed := range []bool{false, true} {
			b.Run(fmt.Sprintf("%dKiB/streamed=%v", kib, streamed), func(b *testing.B) {
				ewise.ColdStreamBytes = math.MaxInt
				if streamed {
					ewise.ColdStreamBytes = min(threshold, kib<<10)
				}
				for range 40 { // the class grows on the first side's calls: both start grown
					Must(Mul(x, x))
				}
				b.SetBytes(int64(kib) * 3 << 10)
				c0 := processCPU(b)
				for b.Loop() {
					if _, err := Mul(x, x); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(processCPU(b)-c0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

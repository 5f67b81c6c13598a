//go:build !purego

package vec

import "github.com/tensor-go/tensor/internal/kernels"

// streamAhead is how many bytes ahead of the block it reads each float32
// reduction loop of reduce_amd64.s prefetches (LDAHEAD there), for this
// processor: read by the kernels on entry, set once here. The other loops
// prefetch at defaultStreamAhead on every processor.
var streamAhead = streamAheadFor(kernels.ProcessorID())

// defaultStreamAhead is four 4 KiB pages: early enough for the page walk
// and the hardware prefetchers on the next pages (reduce_amd64.s).
const defaultStreamAhead = 16 << 10

// streamAheads lists the processors measured to want another distance
// than defaultStreamAhead, with the measurement.
var streamAheads = []kernels.Measured[int]{
	// Zen 5 (EPYC, family 26, under KVM): the float32 kernels, pair and
	// single, over 64 MiB in the engine's chunks took 15-25% less CPU
	// time on one core without the prefetch (distance 0), from 4 KiB and
	// 2 MiB pages alike, and 8% less over 4 MiB from L3
	// (BenchmarkStreamAhead). The bfloat16 sum from memory took 28% more
	// without, the float64 and int32 products the same: those loops keep
	// the default.
	{Vendor: "AuthenticAMD", Family: 0x1A, Value: 0},
	// Zen 3 (EPYC Milan, family 25 model 1, under Firecracker; session
	// 14): the same without the prefetch, on one core: the float32 pair
	// over 64 MiB 10.0-10.6 GB/s against 7.4-9.7 at 16 KiB (and 6.5-7.3
	// at 1-8 KiB), the single-run product 8.3-8.7 against 6.3-6.4, from
	// L3 (4 MiB) 47-50 against 39-45; the sum pair level
	// (BenchmarkStreamAhead with AHEADS set). Zen 4 (EPYC Genoa, family 25
	// model 17, under Firecracker; session 19) agrees: over 64 MiB on one
	// core the float32 pair 24.3 GB/s without against 15.8-17.5 at 16 KiB,
	// the single-run product 24.7-25.9 against 18.7-19.9, the sum pair
	// 28-31 against 19-21; from L3 (4 MiB) level within 5%.
	{Vendor: "AuthenticAMD", Family: 25, Value: 0},
	// Emerald Rapids (Xeon, family 6 model 207, under KVM; L1d 48 KiB,
	// L2 2 MiB): the float32 pair kernels over 2-8 MiB in the engine's
	// chunks took 0.75-0.88x the CPU time at 2-8 KiB ahead against
	// 16 KiB, on one core, both sets; over 64 MiB level or better, the
	// single-run kernels level from L3 and 10-25% slower at 0-1 KiB
	// from memory (BenchmarkStreamAhead).
	{Vendor: "GenuineIntel", Family: 6, Models: []int{207}, Value: 4 << 10},
}

// streamAheadFor returns the distance for processor p.
func streamAheadFor(p kernels.Processor) int {
	return kernels.ForProcessor(p, streamAheads, defaultStreamAhead)
}

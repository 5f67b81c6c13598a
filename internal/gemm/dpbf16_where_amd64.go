//go:build !purego

package gemm

import (
	"golang.org/x/sys/cpu"

	"github.com/tensor-go/tensor/internal/kernels"
)

// dpFasterOn lists the processors on which the VDPBF16PS kernel was
// measured faster than widening bfloat16 to float32 (the bits are the same
// either way, so this only moves speed), with the measurement. Elsewhere
// the avx512 set widens: an instruction the processor has is not yet a
// faster one.
var dpFasterOn = []kernels.Measured[bool]{
	// Zen 5 (EPYC, family 26, under KVM; session 11): 1024³ 221–274
	// against 164–175 GFLOP per CPU-second on one goroutine, 256³ 175–350
	// against 106–202 (BenchmarkMulBF16). On Sapphire Rapids (session 10)
	// an earlier VDPBF16PS kernel ran at 101 against widening's 144: there
	// the instruction has one port and the FMAs two, so Intel stays on
	// the widening path (and has the amx set). On Emerald Rapids (family
	// 6, model 207, no AMX exposed; session 12) this kernel ran at 64-71
	// against widening's 101-126 at 256³ and 1024³, 61-69 against 77-95
	// at 64³ (BenchmarkMulBF16's dp and widen, three alternating rounds,
	// load 15): no entry.
	{Vendor: "AuthenticAMD", Family: 0x1A, Value: true},
	// Zen 4 (EPYC Genoa, family 25 model 17, 1 MiB L2, under Firecracker;
	// session 19): 1024³ 174 against widening's 85 GFLOP per CPU-second on
	// one goroutine, 256³ 194 against 103, 64³ 134 against 79
	// (BenchmarkMulBF16's dp and widen). Family 25 also holds Zen 3, which
	// has no AVX512_BF16 and so never reaches the table.
	{Vendor: "AuthenticAMD", Family: 0x19, Value: true},
}

// useDPBF16 reports whether processor p, with or without AVX512_BF16
// (hasBF16), multiplies bfloat16 products on the VDPBF16PS kernel.
func useDPBF16(p kernels.Processor, hasBF16 bool) bool {
	return hasBF16 && kernels.ForProcessor(p, dpFasterOn, false)
}

// dpBF16Here is useDPBF16 for this processor.
func dpBF16Here() bool { return useDPBF16(kernels.ProcessorID(), cpu.X86.HasAVX512BF16) }

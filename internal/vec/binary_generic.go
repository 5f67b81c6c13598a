package vec

import "github.com/tensor-go/tensor/internal/kernels"

// number is every element type with a native Go multiply; integer
// multiplication in Go wraps, which is the contract.
type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64
}

// mulGo is the Go twin of every kernel: the loops their doc comments show.
var mulGo = binaryKernels{
	f32: mulNumbers[float32], f64: mulNumbers[float64],
	i8: mulNumbers[int8], i16: mulNumbers[int16],
	i32: mulNumbers[int32], i64: mulNumbers[int64],
	scalarF32: mulScalarNumbers[float32], scalarF64: mulScalarNumbers[float64],
	scalarI8: mulScalarNumbers[int8], scalarI16: mulScalarNumbers[int16],
	scalarI32: mulScalarNumbers[int32], scalarI64: mulScalarNumbers[int64],
	f32i32:    mulF32I32Go,
	f64f32:    mulF64F32Go,
	f16:       mulF16Go,
	bf16:      mulBF16Go,
	scalarF16: mulScalarF16Go, scalarBF16: mulScalarBF16Go,
}

// mulImpl is the active kernel set's entry, which the exported functions
// use; architecture files add their entries to mulTable in init.
var (
	mulImpl  binaryKernels
	mulTable = kernels.NewTable(&mulImpl, mulGo)
)

// streamThreshold is the dst size in bytes from which kernels with
// streaming (non-temporal) stores use them; tests lower it to reach them.
// Below it dst may well be read again while still cached (by the next
// operation, or the engine's next run) and a streaming store would push it
// out to memory. Above it, twice the core's L2 (4 MiB on a 2 MiB L2, where
// it was measured), dst would be evicted anyway, and streaming saves the
// read-for-ownership of every line: a quarter of a multiply's memory
// traffic.
var streamThreshold = max(1<<20, 2*kernels.CacheSizes().L2)

// StreamThreshold is streamThreshold, for the engine's choice of
// streaming for a whole output (ewise.ColdStreamBytes).
func StreamThreshold() int { return streamThreshold }

func mulNumbers[T number](dst, a, b []T) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] * b[i]
	}
}

func mulScalarNumbers[T number](dst, a []T, s T) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] * s
	}
}

func mulF32I32Go(dst, a []float32, b []int32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] * float32(b[i])
	}
}

func mulF64F32Go(dst, a []float64, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] * float64(b[i])
	}
}

func mulF16Go(dst, a, b []uint16) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = f32ToF16(f16ToF32(a[i]) * f16ToF32(b[i]))
	}
}

func mulBF16Go(dst, a, b []uint16) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = f32ToBF16(bf16ToF32(a[i]) * bf16ToF32(b[i]))
	}
}

func mulScalarF16Go(dst, a []uint16, s float32) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = f32ToF16(f16ToF32(a[i]) * s)
	}
}

func mulScalarBF16Go(dst, a []uint16, s float32) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = f32ToBF16(bf16ToF32(a[i]) * s)
	}
}

// mulStreamGo is the Go twin of the Streaming kernels (Go has no streaming
// store; the values are the same).
var mulStreamGo = streamKernels{
	f32: mulNumbers[float32], f64: mulNumbers[float64],
	i8: mulNumbers[int8], i16: mulNumbers[int16], i32: mulNumbers[int32], i64: mulNumbers[int64],
	scalarF32: mulScalarNumbers[float32], scalarF64: mulScalarNumbers[float64],
	scalarI32: mulScalarNumbers[int32],
}

// mulStreamImpl is the Streaming kernel set in use; init in the architecture
// file may replace it.
var (
	mulStreamImpl  streamKernels
	mulStreamTable = kernels.NewTable(&mulStreamImpl, mulStreamGo)
)

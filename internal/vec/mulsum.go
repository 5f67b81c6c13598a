package vec

import "github.com/tensor-go/tensor/internal/kernels"

// mulSumKernels compute a run of both gradients of a broadcasting product
// at once (tensor.MulWithSum): the full operand's gradient out = g·u and
// the broadcast operand's, folded into its accumulators, acc += g·v. Each
// element of g is loaded once for both, where a multiply into a buffer and
// then a fold read it, and the buffer, again: separate kernels each wait
// on memory for their own stream. The products round as MulF32's and
// MulF64's and the sums as AddF64F32's and AddF64's, element by element,
// so the bits are those of the separate kernels.
//
// Where u is one number along the run and the run is summed into one
// accumulator (a column's or a scalar's gradient), the pair kernels make
// out = g·s and buf = g·v in one pass, and the caller folds buf (in L1)
// by the sum's own order.
//
// Each field holds the kernel storing out normally at [0] and streaming it
// at [1] (see streamIndex).
type mulSumKernels struct {
	f32     [2]mulSum[float32]
	f64     [2]mulSum[float64]
	pairF32 [2]mulPair[float32]
	pairF64 [2]mulPair[float64]
}

// mulSum is one kernel of the family, for any length.
type mulSum[T float32 | float64] func(out, g, u, v []T, acc []float64)

// mulPair is one pair kernel, for any length.
type mulPair[T float32 | float64] func(out, buf, g, v []T, s T)

var (
	mulSumImpl  mulSumKernels
	mulSumTable = kernels.NewTable(&mulSumImpl, mulSumKernels{
		f32:     [2]mulSum[float32]{mulWithSumGo[float32], mulWithSumGo[float32]},
		f64:     [2]mulSum[float64]{mulWithSumGo[float64], mulWithSumGo[float64]},
		pairF32: [2]mulPair[float32]{mulScalarPairGo[float32], mulScalarPairGo[float32]},
		pairF64: [2]mulPair[float64]{mulScalarPairGo[float64], mulScalarPairGo[float64]},
	})
)

// streamIndex is the index of a kernel pair's streaming kernel when stream
// is set, of its ordinary one otherwise.
func streamIndex(stream bool) int {
	if stream {
		return 1
	}
	return 0
}

// MulWithSumF32 computes
//
//	for i := range out { out[i] = g[i] * u[i]; acc[i] += float64(g[i] * v[i]) }
//
// With stream, out is stored around the cache from its first 64-byte
// boundary on, where the set can (as MulF32Streaming: the caller fences
// with FenceStreaming).
func MulWithSumF32(out, g, u, v []float32, acc []float64, stream bool) {
	n := len(out)
	mulSumImpl.f32[streamIndex(stream)](out, g[:n], u[:n], v[:n], acc[:n])
}

// MulWithSumF64 computes
//
//	for i := range out { out[i] = g[i] * u[i]; acc[i] += g[i] * v[i] }
//
// each product rounded before its sum (never fused), streaming out as
// MulWithSumF32 does.
func MulWithSumF64(out, g, u, v, acc []float64, stream bool) {
	n := len(out)
	mulSumImpl.f64[streamIndex(stream)](out, g[:n], u[:n], v[:n], acc[:n])
}

// MulScalarPairF32 computes
//
//	for i := range out { out[i] = g[i] * s; buf[i] = g[i] * v[i] }
//
// streaming out as MulWithSumF32 does: the products of MulScalarF32 and
// MulF32 from one load of g.
func MulScalarPairF32(out, buf, g, v []float32, s float32, stream bool) {
	n := len(out)
	mulSumImpl.pairF32[streamIndex(stream)](out, buf[:n], g[:n], v[:n], s)
}

// MulScalarPairF64 is MulScalarPairF32 for float64.
func MulScalarPairF64(out, buf, g, v []float64, s float64, stream bool) {
	n := len(out)
	mulSumImpl.pairF64[streamIndex(stream)](out, buf[:n], g[:n], v[:n], s)
}

// mulScalarPairGo is the Go twin of the pair kernels.
func mulScalarPairGo[T float32 | float64](out, buf, g, v []T, s T) {
	n := len(out)
	buf, g, v = buf[:n], g[:n], v[:n]
	for i := range out {
		x := g[i]
		out[i] = x * s
		buf[i] = x * v[i]
	}
}

// mulWithSumGo is the Go twin of the kernels. The product is of type T,
// and the conversion to float64 rounds it first, so that no fused
// multiply-add forms (arm64, GOAMD64=v3).
func mulWithSumGo[T float32 | float64](out, g, u, v []T, acc []float64) {
	n := len(out)
	g, u, v, acc = g[:n], u[:n], v[:n], acc[:n]
	for i := range out {
		x := g[i]
		out[i] = x * u[i]
		acc[i] += float64(x * v[i])
	}
}

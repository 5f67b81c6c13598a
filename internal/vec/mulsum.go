package vec

import "github.com/tensor-go/tensor/internal/kernels"

// mulSumKernels compute a run of both gradients of a broadcasting product
// at once (tensor.MulWithSum): the full operand's gradient out = g·u and
// the broadcast operand's, folded into its accumulators, acc += g·v. Each
// element of g is loaded once for both, where a multiply into a buffer and
// then a fold read it, and the buffer, again: the separate kernels each
// wait on memory for their own stream, which left the backward of a bias
// product at 2.6-3x its forward. The products round as MulF32's and
// MulF64's and the sums as AddF64F32's and AddF64's, element by element,
// so the bits are those of the separate kernels.
//
// Where u is one number along the run and the run is summed into one
// accumulator (a column's or a scalar's gradient), the pair kernels make
// out = g·s and buf = g·v in one pass, and the caller folds buf (in L1)
// by the sum's own order.
type mulSumKernels struct {
	f32, f32Stream         mulSum[float32]
	f64, f64Stream         mulSum[float64]
	pairF32, pairF32Stream mulPair[float32]
	pairF64, pairF64Stream mulPair[float64]
}

// mulSum is one kernel of the family, for any length.
type mulSum[T float32 | float64] func(out, g, u, v []T, acc []float64)

// mulPair is one pair kernel, for any length.
type mulPair[T float32 | float64] func(out, buf, g, v []T, s T)

var (
	mulSumImpl  mulSumKernels
	mulSumTable = kernels.NewTable(&mulSumImpl, mulSumKernels{
		f32: mulWithSumF32Go, f32Stream: mulWithSumF32Go,
		f64: mulWithSumF64Go, f64Stream: mulWithSumF64Go,
		pairF32: mulScalarPairGo[float32], pairF32Stream: mulScalarPairGo[float32],
		pairF64: mulScalarPairGo[float64], pairF64Stream: mulScalarPairGo[float64],
	})
)

// MulWithSumF32 computes
//
//	for i := range out { out[i] = g[i] * u[i]; acc[i] += float64(g[i] * v[i]) }
//
// With stream, out is stored around the cache from its first 64-byte
// boundary on, where the set can (as MulF32Streaming: the caller fences
// with FenceStreaming).
func MulWithSumF32(out, g, u, v []float32, acc []float64, stream bool) {
	n := len(out)
	if stream {
		mulSumImpl.f32Stream(out, g[:n], u[:n], v[:n], acc[:n])
		return
	}
	mulSumImpl.f32(out, g[:n], u[:n], v[:n], acc[:n])
}

// MulWithSumF64 computes
//
//	for i := range out { out[i] = g[i] * u[i]; acc[i] += g[i] * v[i] }
//
// each product rounded before its sum (never fused), streaming out as
// MulWithSumF32 does.
func MulWithSumF64(out, g, u, v, acc []float64, stream bool) {
	n := len(out)
	if stream {
		mulSumImpl.f64Stream(out, g[:n], u[:n], v[:n], acc[:n])
		return
	}
	mulSumImpl.f64(out, g[:n], u[:n], v[:n], acc[:n])
}

// MulScalarPairF32 computes
//
//	for i := range out { out[i] = g[i] * s; buf[i] = g[i] * v[i] }
//
// streaming out as MulWithSumF32 does: the products of MulScalarF32 and
// MulF32 from one load of g.
func MulScalarPairF32(out, buf, g, v []float32, s float32, stream bool) {
	n := len(out)
	if stream {
		mulSumImpl.pairF32Stream(out, buf[:n], g[:n], v[:n], s)
		return
	}
	mulSumImpl.pairF32(out, buf[:n], g[:n], v[:n], s)
}

// MulScalarPairF64 is MulScalarPairF32 for float64.
func MulScalarPairF64(out, buf, g, v []float64, s float64, stream bool) {
	n := len(out)
	if stream {
		mulSumImpl.pairF64Stream(out, buf[:n], g[:n], v[:n], s)
		return
	}
	mulSumImpl.pairF64(out, buf[:n], g[:n], v[:n], s)
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

// mulWithSumF32Go is the Go twin of the float32 kernels.
func mulWithSumF32Go(out, g, u, v []float32, acc []float64) {
	n := len(out)
	g, u, v, acc = g[:n], u[:n], v[:n], acc[:n]
	for i := range out {
		x := g[i]
		out[i] = x * u[i]
		acc[i] += float64(x * v[i])
	}
}

// mulWithSumF64Go is the Go twin of the float64 kernels; the conversion
// rounds the product, so that no fused multiply-add forms (arm64,
// GOAMD64=v3).
func mulWithSumF64Go(out, g, u, v, acc []float64) {
	n := len(out)
	g, u, v, acc = g[:n], u[:n], v[:n], acc[:n]
	for i := range out {
		x := g[i]
		out[i] = x * u[i]
		acc[i] += float64(x * v[i])
	}
}

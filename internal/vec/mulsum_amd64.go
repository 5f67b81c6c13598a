//go:build !purego

package vec

import "github.com/tensor-go/tensor/internal/kernels"

// The assembly kernels of MulWithSumF32 and MulWithSumF64 take whole steps
// (16 and 8 elements with AVX-512, 8 and 4 with AVX2); the Stream ones
// store out around the cache and need it 64-byte aligned.
//
//go:noescape
func mulWithSumF32AVX512(out, g, u, v []float32, acc []float64)

//go:noescape
func mulWithSumF32StreamAVX512(out, g, u, v []float32, acc []float64)

//go:noescape
func mulWithSumF64AVX512(out, g, u, v, acc []float64)

//go:noescape
func mulWithSumF64StreamAVX512(out, g, u, v, acc []float64)

//go:noescape
func mulWithSumF32AVX2(out, g, u, v []float32, acc []float64)

//go:noescape
func mulWithSumF32StreamAVX2(out, g, u, v []float32, acc []float64)

//go:noescape
func mulWithSumF64AVX2(out, g, u, v, acc []float64)

//go:noescape
func mulWithSumF64StreamAVX2(out, g, u, v, acc []float64)

// The pair kernels' assembly, whole steps as above.
//
//go:noescape
func mulScalarPairF32AVX512(out, buf, g, v []float32, s float32)

//go:noescape
func mulScalarPairF32StreamAVX512(out, buf, g, v []float32, s float32)

//go:noescape
func mulScalarPairF64AVX512(out, buf, g, v []float64, s float64)

//go:noescape
func mulScalarPairF64StreamAVX512(out, buf, g, v []float64, s float64)

//go:noescape
func mulScalarPairF32AVX2(out, buf, g, v []float32, s float32)

//go:noescape
func mulScalarPairF32StreamAVX2(out, buf, g, v []float32, s float32)

//go:noescape
func mulScalarPairF64AVX2(out, buf, g, v []float64, s float64)

//go:noescape
func mulScalarPairF64StreamAVX2(out, buf, g, v []float64, s float64)

func init() {
	mulSumTable.Add(kernels.AVX512, mulSumKernels{
		f32:     mulSumSteps(16, mulWithSumF32AVX512, mulWithSumF32StreamAVX512),
		f64:     mulSumSteps(8, mulWithSumF64AVX512, mulWithSumF64StreamAVX512),
		pairF32: mulPairSteps(16, mulScalarPairF32AVX512, mulScalarPairF32StreamAVX512),
		pairF64: mulPairSteps(8, mulScalarPairF64AVX512, mulScalarPairF64StreamAVX512),
	})
	mulSumTable.Add(kernels.AVX2, mulSumKernels{
		f32:     mulSumSteps(8, mulWithSumF32AVX2, mulWithSumF32StreamAVX2),
		f64:     mulSumSteps(4, mulWithSumF64AVX2, mulWithSumF64StreamAVX2),
		pairF32: mulPairSteps(8, mulScalarPairF32AVX2, mulScalarPairF32StreamAVX2),
		pairF64: mulPairSteps(4, mulScalarPairF64AVX2, mulScalarPairF64StreamAVX2),
	})
}

// stepSplit returns where the kernel's part of out begins and ends: whole
// steps of step elements, from out's first 64-byte boundary when it
// streams (streaming stores need it). The Go twin takes the rest.
func stepSplit[T any](out []T, step int, stream bool) (head, body int) {
	if stream {
		head = alignedSplit(out)
	}
	return head, head + (len(out)-head)&^(step-1)
}

// mulSumSteps makes the ordinary and streaming entries of a set from its
// kernels (whole steps) and the Go twin.
func mulSumSteps[T float32 | float64](step int, plain, streaming mulSum[T]) [2]mulSum[T] {
	var out [2]mulSum[T]
	for i, kernel := range [2]mulSum[T]{plain, streaming} {
		out[i] = func(o, g, u, v []T, acc []float64) {
			head, body := stepSplit(o, step, i == 1)
			mulWithSumGo(o[:head], g, u, v, acc)
			kernel(o[head:body], g[head:], u[head:], v[head:], acc[head:])
			mulWithSumGo(o[body:], g[body:], u[body:], v[body:], acc[body:])
		}
	}
	return out
}

// mulPairSteps is mulSumSteps for the pair kernels.
func mulPairSteps[T float32 | float64](step int, plain, streaming mulPair[T]) [2]mulPair[T] {
	var out [2]mulPair[T]
	for i, kernel := range [2]mulPair[T]{plain, streaming} {
		out[i] = func(o, buf, g, v []T, s T) {
			head, body := stepSplit(o, step, i == 1)
			mulScalarPairGo(o[:head], buf, g, v, s)
			kernel(o[head:body], buf[head:], g[head:], v[head:], s)
			mulScalarPairGo(o[body:], buf[body:], g[body:], v[body:], s)
		}
	}
	return out
}

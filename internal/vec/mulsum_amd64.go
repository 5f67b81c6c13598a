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
		f32:           mulSumSteps(16, false, mulWithSumF32AVX512, mulWithSumF32Go),
		f32Stream:     mulSumSteps(16, true, mulWithSumF32StreamAVX512, mulWithSumF32Go),
		f64:           mulSumSteps(8, false, mulWithSumF64AVX512, mulWithSumF64Go),
		f64Stream:     mulSumSteps(8, true, mulWithSumF64StreamAVX512, mulWithSumF64Go),
		pairF32:       mulPairSteps(16, false, mulScalarPairF32AVX512),
		pairF32Stream: mulPairSteps(16, true, mulScalarPairF32StreamAVX512),
		pairF64:       mulPairSteps(8, false, mulScalarPairF64AVX512),
		pairF64Stream: mulPairSteps(8, true, mulScalarPairF64StreamAVX512),
	})
	mulSumTable.Add(kernels.AVX2, mulSumKernels{
		f32:           mulSumSteps(8, false, mulWithSumF32AVX2, mulWithSumF32Go),
		f32Stream:     mulSumSteps(8, true, mulWithSumF32StreamAVX2, mulWithSumF32Go),
		f64:           mulSumSteps(4, false, mulWithSumF64AVX2, mulWithSumF64Go),
		f64Stream:     mulSumSteps(4, true, mulWithSumF64StreamAVX2, mulWithSumF64Go),
		pairF32:       mulPairSteps(8, false, mulScalarPairF32AVX2),
		pairF32Stream: mulPairSteps(8, true, mulScalarPairF32StreamAVX2),
		pairF64:       mulPairSteps(4, false, mulScalarPairF64AVX2),
		pairF64Stream: mulPairSteps(4, true, mulScalarPairF64StreamAVX2),
	})
}

// mulSumSteps gives kernel the whole steps of step elements (from out's
// first 64-byte boundary when it streams) and twin the rest.
func mulSumSteps[T float32 | float64](step int, stream bool, kernel, twin mulSum[T]) mulSum[T] {
	return func(out, g, u, v []T, acc []float64) {
		head := 0
		if stream {
			head = alignedSplit(out)
		}
		body := head + (len(out)-head)&^(step-1)
		twin(out[:head], g, u, v, acc)
		kernel(out[head:body], g[head:], u[head:], v[head:], acc[head:])
		twin(out[body:], g[body:], u[body:], v[body:], acc[body:])
	}
}

// mulPairSteps is mulSumSteps for the pair kernels.
func mulPairSteps[T float32 | float64](step int, stream bool, kernel mulPair[T]) mulPair[T] {
	return func(out, buf, g, v []T, s T) {
		head := 0
		if stream {
			head = alignedSplit(out)
		}
		body := head + (len(out)-head)&^(step-1)
		mulScalarPairGo(out[:head], buf, g, v, s)
		kernel(out[head:body], buf[head:], g[head:], v[head:], s)
		mulScalarPairGo(out[body:], buf[body:], g[body:], v[body:], s)
	}
}

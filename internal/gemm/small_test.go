package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// checkSmallEdges runs a small kernel against smallGo at every m from 0 to
// three row tiles, every n it takes and every k from 0 to three K unrolls
// (4), with NaN, ±Inf and −0 among the inputs, A in every layout, and
// guard elements around and between the C matrices. The results must also
// equal smallFused's bit for bit: every assembly small kernel, on every
// architecture, fuses the same multiply-adds in the same order.
func checkSmallEdges[T float32 | float64](t *testing.T, k smallUnderTest[T]) {
	rng := rand.New(rand.NewPCG(46, uint64(k.width)))
	gen := func(n int) []T { return fill[T](rng, n, true) }
	for m := 0; m <= 3*k.rows+1; m++ {
		for n := 1; n <= k.width; n++ {
			for kk := 0; kk <= 3*4+1; kk++ {
				const batch = 3
				al, a, b, aOffs, bOffs := smallInputs(gen, batch, m, n, kk)
				crs := n + 2
				cData := make([]T, guard+batch*m*crs+guard)
				for i := range cData {
					cData[i] = sentinel[T]()
				}
				var cOffs []int
				for i := range batch {
					cOffs = append(cOffs, i*m*crs)
				}
				c := Matrix[T]{cData, guard, crs, 1}
				want := Matrix[T]{append([]T(nil), cData...), guard, crs, 1}
				smallGo(m, n, kk, a, b, want, aOffs, bOffs, cOffs)
				k.kern(m, n, kk, a, b, c, aOffs, bOffs, cOffs)
				for i := range cData {
					if !sameValue(cData[i], want.Data[i], 1e-5*float64(kk+1)) {
						t.Fatalf("%s m=%d n=%d k=%d A %v: element %d = %v, Go twin %v", k.name, m, n, kk, al, i, cData[i], want.Data[i])
					}
				}
				fused := append([]T(nil), want.Data...)
				for i := range fused {
					fused[i] = sentinel[T]()
				}
				smallFused(m, n, kk, a, b, Matrix[T]{fused, guard, crs, 1}, aOffs, bOffs, cOffs)
				for i := range cData {
					if !sameBits(cData[i], fused[i]) {
						t.Fatalf("%s m=%d n=%d k=%d A %v: element %d = %v, fused reference %v", k.name, m, n, kk, al, i, cData[i], fused[i])
					}
				}
			}
		}
	}
}

// smallInputs returns the operands of a batch of m×kk by kk×n products for
// the small-kernel edge tests: A in a layout that cycles with the sizes,
// B row-major with a row stride of n to n+2, the B matrices in reverse
// order, and their offsets.
func smallInputs[T Elem](gen func(int) []T, batch, m, n, kk int) (al layout, a, b Matrix[T], aOffs, bOffs []int) {
	al = layout((m + n + kk) % int(numLayouts))
	a = view(batch*m, kk, al, gen)
	brs := n + (m+kk)%3
	b = Matrix[T]{gen(batch*kk*brs + 1), 1, brs, 1}
	for i := range batch {
		aOffs = append(aOffs, i*m*a.RS)
		bOffs = append(bOffs, (batch-1-i)*kk*brs)
	}
	return al, a, b, aOffs, bOffs
}

// sameBits reports whether two floats are the same value, −0 apart from
// +0, with any NaN matching any NaN.
func sameBits[T Elem](x, y T) bool {
	a, b := toFloat(x), toFloat(y)
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return a == b && math.Signbit(a) == math.Signbit(b)
}

// TestSmallKernelSets checks every small kernel this CPU can run at its
// tile edges, and against the fused reference bit for bit.
func TestSmallKernelSets(t *testing.T) {
	for _, k := range smallKernelsF32() {
		checkSmallEdges(t, k)
	}
	for _, k := range smallKernelsF64() {
		checkSmallEdges(t, k)
	}
}

// TestSmallStreamSets checks every streaming small kernel this CPU can run
// (rows of C stored around the caches) against smallGo and, bit for bit,
// smallFused: at every m from 0 to three row tiles and every k from 0 to
// three K unrolls, for rows of exactly one and two vectors (streamed) and
// every other n (passed on), with C contiguous and aligned to 64 bytes or
// one element off (passed on), and guard elements around it.
func TestSmallStreamSets(t *testing.T) {
	for _, v := range kernelSets.Variants() {
		if v.K.smallStreamF32 != nil {
			checkSmallStream(t, v.Name(), v.K.smallStreamF32, v.K.smallWidthF32)
		}
		if v.K.smallStreamF64 != nil {
			checkSmallStream(t, v.Name(), v.K.smallStreamF64, v.K.smallWidthF64)
		}
	}
}

func checkSmallStream[T float32 | float64](t *testing.T, name string, kern smallKernel[T], width int) {
	rng := rand.New(rand.NewPCG(47, uint64(width)))
	gen := func(n int) []T { return fill[T](rng, n, true) }
	const batch = 3
	lineElems := 64 / int(unsafe.Sizeof(T(0)))
	for m := 0; m <= 3*8+1; m++ {
		for n := 1; n <= width; n++ {
			for kk := 0; kk <= 3*4+1; kk++ {
				for shift := range 2 {
					al, a, b, aOffs, bOffs := smallInputs(gen, batch, m, n, kk)
					raw := make([]T, 2*guard+batch*m*n+2*lineElems)
					start := guard + shift
					for uintptr(unsafe.Pointer(&raw[start]))%64 != uintptr(shift)*unsafe.Sizeof(T(0)) {
						start++
					}
					cData := raw[start-guard : start+batch*m*n+guard]
					for i := range cData {
						cData[i] = sentinel[T]()
					}
					var cOffs []int
					for i := range batch {
						cOffs = append(cOffs, i*m*n)
					}
					c := Matrix[T]{cData, guard, n, 1}
					want := append([]T(nil), cData...)
					smallGo(m, n, kk, a, b, Matrix[T]{want, guard, n, 1}, aOffs, bOffs, cOffs)
					fused := append([]T(nil), cData...)
					smallFused(m, n, kk, a, b, Matrix[T]{fused, guard, n, 1}, aOffs, bOffs, cOffs)
					kern(m, n, kk, a, b, c, aOffs, bOffs, cOffs)
					for i := range cData {
						if !sameValue(cData[i], want[i], 1e-5*float64(kk+1)) {
							t.Fatalf("%s stream m=%d n=%d k=%d A %v shift %d: element %d = %v, Go twin %v", name, m, n, kk, al, shift, i, cData[i], want[i])
						}
						if !sameBits(cData[i], fused[i]) {
							t.Fatalf("%s stream m=%d n=%d k=%d A %v shift %d: element %d = %v, fused reference %v", name, m, n, kk, al, shift, i, cData[i], fused[i])
						}
					}
				}
			}
		}
	}
}

// BenchmarkSmallSets times each small kernel this CPU can run, and the Go
// twin, on one goroutine: batches of 8×8 by 8×n products, 16384 of them
// (the 8×8 batch workload, streaming from memory) and 1024 (in L2, where
// the kernel's own speed shows), for rows of one and two vectors.
func BenchmarkSmallSets(b *testing.B) {
	f32 := append([]smallUnderTest[float32]{{"go", smallGoF32, 16, 1}}, smallKernelsF32()...)
	f64 := append([]smallUnderTest[float64]{{"go", smallGoF64, 8, 1}}, smallKernelsF64()...)
	for _, batch := range []int{16384, 1024} {
		for i := range f32 {
			for _, n := range []int{8, 16} {
				b.Run(fmt.Sprintf("%s/f32/%dx8x%dx8", f32[i].name, batch, n), func(b *testing.B) { benchSmall(b, f32[i].kern, batch, n) })
			}
		}
		for i := range f64 {
			for _, n := range []int{4, 8} {
				b.Run(fmt.Sprintf("%s/f64/%dx8x%dx8", f64[i].name, batch, n), func(b *testing.B) { benchSmall(b, f64[i].kern, batch, n) })
			}
		}
	}
}

// benchSmall times one small kernel on a batch of 8×8 by 8×n products.
func benchSmall[T Elem](b *testing.B, kern smallKernel[T], batch, n int) {
	const m, k = 8, 8
	a := Matrix[T]{ones[T](batch * m * k), 0, k, 1}
	bb := Matrix[T]{ones[T](batch * k * n), 0, n, 1}
	c := Matrix[T]{make([]T, batch*m*n), 0, n, 1}
	aOffs, bOffs, cOffs := make([]int, batch), make([]int, batch), make([]int, batch)
	for i := range batch {
		aOffs[i], bOffs[i], cOffs[i] = i*m*k, i*k*n, i*m*n
	}
	cpu := cpuSeconds()
	for b.Loop() {
		kern(m, n, k, a, bb, c, aOffs, bOffs, cOffs)
	}
	reportFlops(b, 2*float64(batch*m*n*k), cpu)
}

package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// checkSmall runs a small kernel against smallGo on batches of random tiny
// products with strided A, row-major B of varying row stride, and a C with
// gaps between rows and between matrices that must stay untouched.
func checkSmall[T Elem](t *testing.T, name string, small smallKernel[T], width int) {
	rng := rand.New(rand.NewPCG(14, 15))
	for trial := range 300 {
		m, n, k := rng.IntN(10), 1+rng.IntN(width), rng.IntN(3*4+2)
		if trial%50 == 0 {
			k = 40 + rng.IntN(30)
		}
		batch := 1 + rng.IntN(4)
		if trial%3 == 0 {
			// Long enough that the kernel's loop over the batch runs many
			// times with C's gaps checked between every pair of matrices.
			batch = 9 + rng.IntN(12)
		}
		gen := func(n int) []T { return fill[T](rng, n, true) }
		al := layout(rng.IntN(int(numLayouts)))
		// One array per operand holding the whole batch.
		a := view(batch*m, k, al, gen)
		b := Matrix[T]{gen(batch*k*(n+2) + 1), 0, n + rng.IntN(3), 1}
		crs := n + 2
		cData := make([]T, guard+batch*m*crs+guard)
		for i := range cData {
			cData[i] = sentinel[T]()
		}
		c := Matrix[T]{cData, guard, crs, 1}
		var aOffs, bOffs, cOffs []int
		for i := range batch {
			aOffs = append(aOffs, i*m*a.RS)
			bOffs = append(bOffs, rng.IntN(batch)*k*b.RS)
			cOffs = append(cOffs, i*m*crs)
		}
		want := Matrix[T]{append([]T(nil), cData...), guard, crs, 1}
		smallGo(m, n, k, a, b, want, aOffs, bOffs, cOffs)
		small(m, n, k, a, b, c, aOffs, bOffs, cOffs)
		for i := range cData {
			if !sameValue(cData[i], want.Data[i], 1e-4*float64(k+1)) {
				t.Fatalf("%s m=%d n=%d k=%d batch=%d A %v: element %d = %v, Go twin %v", name, m, n, k, batch, al, i, cData[i], want.Data[i])
			}
		}
	}
}

// TestSmallKernels checks the small kernels of every kernel set this
// machine runs against the Go twin.
func TestSmallKernels(t *testing.T) {
	for _, v := range kernelSets.Variants() {
		checkSmall(t, v.Name()+"/smallF32", v.K.smallF32, max(v.K.smallWidthF32, 16))
		checkSmall(t, v.Name()+"/smallF64", v.K.smallF64, max(v.K.smallWidthF64, 8))
	}
}

// checkBatch compares MulBatch with one Mul per matrix.
func checkBatch[T Elem](t *testing.T, rng *rand.Rand, batch, m, n, k int, shareB, stack bool, opt Options) {
	t.Helper()
	gen := func(n int) []T { return fill[T](rng, n, false) }
	a := Matrix[T]{gen(batch*m*k + 5), 5, k, 1}
	b := Matrix[T]{gen(batch*k*n + 3), 3, n, 1}
	c := Matrix[T]{make([]T, batch*m*n+2), 2, n, 1}
	var aOffs, bOffs, cOffs []int
	perm := rng.Perm(batch)
	for i := range batch {
		j := i
		if !stack {
			j = perm[i] // scattered matrices defeat the stacked fast path
		}
		aOffs = append(aOffs, j*m*k)
		cOffs = append(cOffs, j*m*n)
		if shareB {
			bOffs = append(bOffs, 0)
		} else {
			bOffs = append(bOffs, rng.IntN(batch)*k*n)
		}
	}
	for i := range c.Data {
		c.Data[i] = fromFloat[T](math.NaN())
	}
	MulBatch(batch, m, n, k, a, b, c, aOffs, bOffs, cOffs, opt)
	for i := range batch {
		want := Matrix[T]{make([]T, m*n), 0, n, 1}
		Mul(m, n, k, a.withOff(a.Off+aOffs[i]), b.withOff(b.Off+bOffs[i]), want, Options{Threads: 1})
		for r := 0; r < m; r++ {
			for j := 0; j < n; j++ {
				got := c.at(r, j+cOffs[i])
				if !sameValue(got, want.Data[r*n+j], 1e-4*float64(k+1)) {
					t.Fatalf("batch %d×%dx%dx%d shareB=%v stack=%v: C_%d[%d,%d] = %v, Mul gives %v", batch, m, n, k, shareB, stack, i, r, j, got, want.Data[r*n+j])
				}
			}
		}
	}
}

func TestMulBatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 17))
	for _, s := range [][4]int{{300, 8, 8, 8}, {50, 3, 5, 7}, {20, 64, 64, 64}, {3, 100, 130, 70}, {1, 5, 5, 5}, {7, 1, 40, 30}, {9, 20, 1, 300}, {40, 7, 12, 9}, {40, 16, 24, 16}, {35, 5, 33, 11}, {17, 20, 48, 20}} {
		for _, shareB := range []bool{false, true} {
			for _, stack := range []bool{false, true} {
				for _, th := range []int{1, 2} {
					opt := Options{Threads: th}
					checkBatch[float32](t, rng, s[0], s[1], s[2], s[3], shareB, stack, opt)
					checkBatch[float64](t, rng, s[0], s[1], s[2], s[3], shareB, stack, opt)
					checkBatch[int32](t, rng, s[0], s[1], s[2], s[3], shareB, stack, opt)
					checkBatch[int64](t, rng, s[0], s[1], s[2], s[3], shareB, stack, opt)
				}
			}
		}
	}
}

package gemm

import (
	"math/rand/v2"
	"testing"
)

// stridedOperand returns a batch of r×c matrices, row- or column-major with
// padded lines, laid out at a random stride: 0 (one matrix for the whole
// batch, when broadcast is allowed), tight, padded, or negative (the batch
// in reverse memory order), with Off chosen so that every matrix fits.
func stridedOperand[T Elem](rng *rand.Rand, batch, r, c int, broadcast bool) (Matrix[T], int) {
	x := Matrix[T]{RS: c + rng.IntN(2), CS: 1}
	size := r * x.RS // one matrix with its padding
	if rng.IntN(3) == 0 {
		x.RS, x.CS = 1, r+rng.IntN(2)
		size = c * x.CS
	}
	stride := size + []int{0, 0, 1, 3}[rng.IntN(4)]
	switch rng.IntN(5) {
	case 0:
		if broadcast {
			stride = 0
		}
	case 1:
		stride = -stride
	}
	lead := 1 + rng.IntN(3)
	x.Data = fill[T](rng, lead+size+(batch-1)*abs(stride)+guard, false)
	x.Off = lead
	if stride < 0 {
		x.Off += (batch - 1) * -stride
	}
	return x, stride
}

// checkStrided compares MulBatchStrided with MulBatch given the offsets
// i·stride, which it must match bit for bit (the same kernels run either
// way), including every element of C's storage outside the matrices.
func checkStrided[T Elem](t *testing.T, rng *rand.Rand, batch, m, n, k int, opt Options) {
	t.Helper()
	a, as := stridedOperand[T](rng, batch, m, k, true)
	b, bs := stridedOperand[T](rng, batch, k, n, true)
	c, cs := stridedOperand[T](rng, batch, m, n, batch == 1)
	if rng.IntN(4) == 0 {
		// A stacked batch sharing B: the one-tall-product path.
		a, as = Matrix[T]{fill[T](rng, batch*m*k, false), 0, k, 1}, m*k
		b, bs = Matrix[T]{fill[T](rng, k*n, false), 0, n, 1}, 0
		c, cs = Matrix[T]{fill[T](rng, batch*m*n, false), 0, n, 1}, m*n
	}
	for i := range c.Data {
		c.Data[i] = sentinel[T]()
	}
	want := c
	want.Data = append([]T(nil), c.Data...)
	var aOffs, bOffs, cOffs []int
	for i := range batch {
		aOffs, bOffs, cOffs = append(aOffs, i*as), append(bOffs, i*bs), append(cOffs, i*cs)
	}
	MulBatch(batch, m, n, k, a, b, want, aOffs, bOffs, cOffs, opt)
	MulBatchStrided(batch, m, n, k, a, b, c, as, bs, cs, opt)
	for i := range c.Data {
		if !sameValue(c.Data[i], want.Data[i], 0) {
			t.Fatalf("batch %d of %dx%dx%d, strides (%d, %d, %d), A %+v B %+v C %+v, %+v: C storage[%d] = %v, MulBatch gives %v",
				batch, m, n, k, as, bs, cs, a.withOff(a.Off), b.withOff(b.Off), c.withOff(c.Off), opt, i, c.Data[i], want.Data[i])
		}
	}
}

func TestMulBatchStrided(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 19))
	trials := 400
	if quick() {
		trials = 100
	}
	for trial := range trials {
		batch, m, n, k := 1+rng.IntN(40), 1+rng.IntN(12), 1+rng.IntN(20), rng.IntN(14)
		if trial%10 == 0 {
			// Products big enough for the packed path and for threads.
			batch, m, n, k = 1+rng.IntN(6), 20+rng.IntN(60), 20+rng.IntN(60), 1+rng.IntN(80)
		}
		opt := Options{Threads: 1 + rng.IntN(3)}
		checkStrided[float32](t, rng, batch, m, n, k, opt)
		checkStrided[float64](t, rng, batch, m, n, k, opt)
		checkStrided[int32](t, rng, batch, m, n, k, opt)
		checkStrided[int64](t, rng, batch, m, n, k, opt)
		opt.TF32 = true
		checkStrided[float32](t, rng, batch, m, n, k, opt)
	}
}

// TestMulBatchStridedRejectsViewsOutsideData checks that the last matrix
// of a batch is bounds-checked, not only the first.
func TestMulBatchStridedRejectsViewsOutsideData(t *testing.T) {
	data := make([]float32, 3*16)
	ok := Matrix[float32]{data, 0, 4, 1}
	for name, strides := range map[string][3]int{"A": {17, 0, 16}, "B": {16, 17, 16}, "C": {16, 0, 17}, "C reversed": {16, 0, -16}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: a batch reaching past its data did not panic", name)
				}
			}()
			MulBatchStrided(3, 4, 4, 4, ok, ok, Matrix[float32]{make([]float32, 3*16), 0, 4, 1}, strides[0], strides[1], strides[2], Options{})
		}()
	}
}

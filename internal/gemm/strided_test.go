package gemm

import (
	"math/rand/v2"
	"testing"
	"unsafe"
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

// TestMulBatchStridedCold checks that a batch into cold memory, strided or
// through offsets (streamed by the small kernels wherever its rows fill
// their vectors and are aligned), gives the bits of the same batch written
// in place, and leaves the elements around C alone, with streaming from
// any size on.
func TestMulBatchStridedCold(t *testing.T) {
	defer func(old int) { streamMinBytes = old }(streamMinBytes)
	streamMinBytes = 0
	rng := rand.New(rand.NewPCG(20, 21))
	for trial := range 200 {
		batch, m, k := 1+rng.IntN(40), 1+rng.IntN(12), rng.IntN(14)
		if trial%4 == 0 {
			// One tall product, whose rows the small kernel streams too.
			batch, m = 1, 1+rng.IntN(300)
		}
		n := []int{4, 8, 16, 1 + rng.IntN(20)}[rng.IntN(4)]
		opt := Options{Threads: 1 + rng.IntN(2)}
		checkCold[float32](t, rng, batch, m, n, k, trial%2, opt)
		checkCold[float64](t, rng, batch, m, n, k, trial%2, opt)
	}
}

// checkCold runs one batch of m×k by k×n products into a contiguous C that
// starts on a 64-byte boundary plus shift elements, with and without
// Options.Cold, and compares the whole storage of C.
func checkCold[T float32 | float64](t *testing.T, rng *rand.Rand, batch, m, n, k, shift int, opt Options) {
	t.Helper()
	a := Matrix[T]{fill[T](rng, batch*m*k+1, true), 1, k, 1}
	b := Matrix[T]{fill[T](rng, batch*k*n, true), 0, n, 1}
	raw := make([]T, 2*guard+batch*m*n+64)
	start := guard
	for uintptr(unsafe.Pointer(&raw[start]))%64 != 0 {
		start++
	}
	start += shift
	cData := raw[start-guard : start+batch*m*n+guard]
	for i := range cData {
		cData[i] = sentinel[T]()
	}
	want := append([]T(nil), cData...)
	MulBatchStrided(batch, m, n, k, a, b, Matrix[T]{want, guard, n, 1}, m*k, k*n, m*n, opt)
	opt.Cold = true
	MulBatchStrided(batch, m, n, k, a, b, Matrix[T]{cData, guard, n, 1}, m*k, k*n, m*n, opt)
	for i := range cData {
		if !sameBits(cData[i], want[i]) {
			t.Fatalf("batch %d of %dx%dx%d, C %d elements past a line, %+v: C storage[%d] = %v, written in place %v", batch, m, n, k, shift, opt, i, cData[i], want[i])
		}
	}
	// The same batch through MulBatch's offsets, B broadcast over pairs of
	// matrices (as a broadcast batch is laid out).
	aOffs, bOffs, cOffs := make([]int, batch), make([]int, batch), make([]int, batch)
	for i := range batch {
		aOffs[i], bOffs[i], cOffs[i] = i*m*k, i/2*k*n, i*m*n
	}
	for i := range cData {
		cData[i], want[i] = sentinel[T](), sentinel[T]()
	}
	opt.Cold = false
	MulBatch(batch, m, n, k, a, b, Matrix[T]{want, guard, n, 1}, aOffs, bOffs, cOffs, opt)
	opt.Cold = true
	MulBatch(batch, m, n, k, a, b, Matrix[T]{cData, guard, n, 1}, aOffs, bOffs, cOffs, opt)
	for i := range cData {
		if !sameBits(cData[i], want[i]) {
			t.Fatalf("MulBatch %d of %dx%dx%d, C %d elements past a line, %+v: C storage[%d] = %v, written in place %v", batch, m, n, k, shift, opt, i, cData[i], want[i])
		}
	}
}

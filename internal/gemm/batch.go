package gemm

// MulBatch computes batch independent products C_i = A_i·B_i, each m×k times
// k×n, where A_i is the view a with Off += aOffs[i] (likewise B_i and C_i);
// offsets may repeat (broadcast batches). Each product follows Mul's rules.
//
// Tiny matrices go through one small-kernel call for the whole batch rather
// than one packed product each; a batch that is really one tall product (B
// shared, A and C stacked at a uniform stride) is computed as that product;
// otherwise matrices are spread over goroutines, or a few large ones use the
// goroutines inside each product.
func MulBatch[T Elem](batch, m, n, k int, a, b, c Matrix[T], aOffs, bOffs, cOffs []int, opt Options) {
	if batch <= 0 || m <= 0 || n <= 0 {
		return
	}
	aOffs, bOffs, cOffs = aOffs[:batch], bOffs[:batch], cOffs[:batch]
	mustFitBatch("C", c, cOffs, m, n)
	mustFitBatch("A", a, aOffs, m, k)
	mustFitBatch("B", b, bOffs, k, n)
	if k <= 0 {
		for _, off := range cOffs {
			fillZero(m, n, c.withOff(c.Off+off))
		}
		return
	}
	if stacked(m, a, c, aOffs, bOffs, cOffs) {
		Mul(batch*m, n, k, a.withOff(a.Off+aOffs[0]), b.withOff(b.Off+bOffs[0]), c.withOff(c.Off+cOffs[0]), opt)
		return
	}
	threads := threadsFor[T](opt.threads(), batch*m*n*k)
	if small := smallPlan(m, n, k, b, c); small.kern != nil && !opt.TF32 {
		if opt.Cold && uniform(cOffs, m*n) {
			small = small.streamed(batch, m, n, b, c.withOff(c.Off+cOffs[0]), m*n, true)
		}
		split(batch, 1, threads, func(i0, i1 int) {
			small.run(m, n, k, a, b, c, aOffs[i0:i1], bOffs[i0:i1], cOffs[i0:i1])
		})
		return
	}
	if batch < threads {
		// Few large products: let each use all the goroutines.
		for i := range batch {
			Mul(m, n, k, a.withOff(a.Off+aOffs[i]), b.withOff(b.Off+bOffs[i]), c.withOff(c.Off+cOffs[i]), opt)
		}
		return
	}
	// Each goroutine keeps one workspace for its products. TF32 products
	// go through Mul, which picks the rounding kernel, or rounded copies
	// for its direct paths: kernelFor's kernel does not round
	// (TestMulBatchTF32).
	one := opt
	one.Threads = 1
	kern := kernelFor[T]()
	split(batch, 1, threads, func(i0, i1 int) {
		var ws *workspace[T]
		if !opt.TF32 {
			ws = kern.spare.Get()
			defer kern.spare.Put(ws)
		}
		for i := i0; i < i1; i++ {
			ai, bi, ci := a.withOff(a.Off+aOffs[i]), b.withOff(b.Off+bOffs[i]), c.withOff(c.Off+cOffs[i])
			if ws == nil {
				Mul(m, n, k, ai, bi, ci, one)
			} else {
				mulWith(kern, ws, m, n, k, ai, bi, ci)
			}
		}
	})
}

// withOff returns the view with its offset replaced.
func (x Matrix[T]) withOff(off int) Matrix[T] { x.Off = off; return x }

// stacked reports whether the batch is one (batch·m)×k by k×n product: every
// B_i is the same matrix and A_i, C_i follow each other at m rows' stride.
func stacked[T any](m int, a, c Matrix[T], aOffs, bOffs, cOffs []int) bool {
	for i := 1; i < len(aOffs); i++ {
		if bOffs[i] != bOffs[0] || aOffs[i]-aOffs[i-1] != m*a.RS || cOffs[i]-cOffs[i-1] != m*c.RS {
			return false
		}
	}
	return true
}

// uniform reports whether the offsets follow each other at stride, as the
// results of a batch do when they fill a new tensor in order.
func uniform(offs []int, stride int) bool {
	for i := 1; i < len(offs); i++ {
		if offs[i]-offs[i-1] != stride {
			return false
		}
	}
	return true
}

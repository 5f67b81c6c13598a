package tensor

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/blocked"
	"github.com/tensor-go/tensor/internal/gemm"
	"github.com/tensor-go/tensor/shape"
)

// Matmul returns the matrix product of a and b with PyTorch's rules
// (semantics §7):
//
//   - 1-D·1-D of equal length is the dot product, a 0-d tensor;
//   - (M, K)@(K, N) is (M, N); a 1-D first operand is a row (1, K) and a
//     1-D second operand a column (K, 1), and the added dimension is
//     dropped from the result;
//   - all but the last two dimensions are batch dimensions, which broadcast
//     mutually: (j, 1, n, m)@(k, m, p) is (j, k, n, p); the matrix
//     dimensions never broadcast;
//   - the dtypes promote as for Mul (uint64 with a signed integer is an
//     error); integers wrap, bool@bool is the OR of ANDs, float16 and
//     bfloat16 accumulate in float32 and round once, complex operands are
//     not conjugated;
//   - nothing is skipped, so 0·Inf in a sum gives NaN, and every sum starts
//     at +0; K = 0 gives zeros.
//
// float32 products are exact IEEE float32 unless TF32 precision is chosen,
// per call with WithPrecision or for the process with SetMatmulPrecision.
//
// The operands may be any views (transposed, stepped, reversed, broadcast);
// broadcast batches are read in place, never materialised. The result is a
// new contiguous tensor.
func Matmul(a, b *Tensor, opts ...MatmulOption) (*Tensor, error) {
	if hasSparse(a, b) {
		return matmulSparse(a, b, opts) // sparse_matmul.go
	}
	p, err := planMatmul(a, b, opts)
	if err != nil {
		return nil, err
	}
	out, err := empty(p.dtype, p.shapes.Out)
	if err != nil {
		return nil, wrapErr("matmul", err)
	}
	if err := p.run(out); err != nil {
		return nil, err
	}
	return out, nil
}

// MatmulInto writes the matrix product of a and b (see Matmul) into out.
// out must have exactly the shape and dtype of the result, or the call
// fails with ErrShape or ErrDType and out is untouched. out may be a
// non-contiguous view and may share storage with a or b: the result is then
// computed into a temporary first, as if out were distinct. Whatever out
// held before is overwritten, even with K = 0. An out whose elements
// overlap each other (a broadcast view) is an ErrLayout error.
func MatmulInto(out, a, b *Tensor, opts ...MatmulOption) error {
	if hasSparse(out, a, b) {
		return matmulSparseInto(out, a, b, opts) // sparse_matmul.go
	}
	p, err := planMatmul(a, b, opts)
	if err != nil {
		return err
	}
	if out == nil {
		return opErr("matmul", ErrValue, "nil output tensor")
	}
	if !shape.Equal(out.shape, p.shapes.Out) {
		return opErr("matmul", ErrShape, "output shape %s differs from the result shape %s of %s and %s",
			shape.String(out.shape), shape.String(p.shapes.Out), shape.String(a.shape), shape.String(b.shape))
	}
	if out.dtype != p.dtype {
		return opErr("matmul", ErrDType, "output dtype %v differs from the result dtype %v of %v and %v",
			out.dtype, p.dtype, a.dtype, b.dtype)
	}
	if out.Size() == 0 {
		return nil
	}
	for i, st := range out.strides {
		if st == 0 && out.shape[i] > 1 {
			return opErr("matmul", ErrLayout, "output of shape %s is a broadcast view (stride 0 in dimension %d): its elements overlap",
				shape.String(out.shape), i)
		}
	}
	if !matmulSharesStorage(out, a) && !matmulSharesStorage(out, b) {
		return p.run(out)
	}
	tmp, err := empty(p.dtype, p.shapes.Out)
	if err != nil {
		return wrapErr("matmul", err)
	}
	if err := p.run(tmp); err != nil {
		return err
	}
	return wrapErr("matmul", copyInto(out, tmp))
}

// matmulSharesStorage reports whether x and y are views of the same
// storage. It does not look at which elements each view reaches: a product
// read while it is written is wrong even when only one element is shared,
// and the temporary that avoids it costs O(n²) against the product's O(n³).
func matmulSharesStorage(x, y *Tensor) bool {
	return x.storage != nil && x.storage == y.storage
}

// matmulPlan is a validated product: operands, result dtype and shapes.
type matmulPlan struct {
	a, b   *Tensor
	dtype  dtype.DType
	shapes shape.MatmulShapes
	tf32   bool
}

// planMatmul checks the operands and options and works out the result.
func planMatmul(a, b *Tensor, opts []MatmulOption) (*matmulPlan, error) {
	if a == nil || b == nil {
		return nil, opErr("matmul", ErrValue, "nil operand")
	}
	cfg, err := resolveMatmulOptions(opts)
	if err != nil {
		return nil, err
	}
	ms, err := shape.Matmul(a.shape, b.shape)
	if err != nil {
		return nil, wrapErr("matmul", err)
	}
	dt, err := dtype.Promote(a.dtype, b.dtype)
	if err != nil {
		return nil, wrapErr("matmul", err)
	}
	return &matmulPlan{a: a, b: b, dtype: dt, shapes: ms, tf32: cfg.precision == TF32}, nil
}

// run computes the product into out, which has the result's shape and dtype
// and shares no storage with the operands.
func (p *matmulPlan) run(out *Tensor) error {
	if out.Size() == 0 {
		return nil
	}
	switch p.dtype {
	case dtype.Int8, dtype.Int16, dtype.Uint8, dtype.Uint16:
		if useFastMatmul {
			return p.runWidened(out)
		}
	}
	a, b, err := p.operands()
	if err != nil {
		return err
	}
	switch p.dtype {
	case dtype.Float16, dtype.BFloat16:
		return p.runHalf(out, a, b)
	case dtype.Bool:
		mulBatches(p, a, b, out, boolKernel)
	case dtype.Int8:
		mulBatches(p, a, b, out, plainKernel[int8](false))
	case dtype.Int16:
		mulBatches(p, a, b, out, plainKernel[int16](false))
	case dtype.Int32:
		mulBatches(p, a, b, out, fastKernel[int32](false))
	case dtype.Int64:
		mulBatches(p, a, b, out, fastKernel[int64](false))
	case dtype.Uint8:
		mulBatches(p, a, b, out, plainKernel[uint8](false))
	case dtype.Uint16:
		mulBatches(p, a, b, out, plainKernel[uint16](false))
	case dtype.Uint32:
		// Wrapping sums of products are the same bits in int32 and uint32
		// (two's complement), so the signed fast kernel serves both.
		mulBatches(p, a, b, out, reinterpretKernel[uint32](fastKernel[int32](false)))
	case dtype.Uint64:
		mulBatches(p, a, b, out, reinterpretKernel[uint64](fastKernel[int64](false)))
	case dtype.Float32:
		mulBatches(p, a, b, out, fastKernel[float32](p.tf32))
	case dtype.Float64:
		mulBatches(p, a, b, out, fastKernel[float64](false))
	case dtype.Complex64:
		mulBatches(p, a, b, out, complexKernel[complex64]())
	case dtype.Complex128:
		mulBatches(p, a, b, out, complexKernel[complex128]())
	default:
		return opErr("matmul", ErrDType, "unsupported dtype %v", p.dtype)
	}
	return nil
}

// operands returns a and b converted to the result dtype. Converting costs a
// copy of each operand, O(n²) against the product's O(n³), and keeps one
// kernel per dtype instead of one per pair.
func (p *matmulPlan) operands() (a, b *Tensor, err error) {
	a, b = p.a, p.b
	if a.dtype != p.dtype {
		if a, err = a.AsType(p.dtype); err != nil {
			return nil, nil, wrapErr("matmul", err)
		}
	}
	if b.dtype != p.dtype {
		if b, err = b.AsType(p.dtype); err != nil {
			return nil, nil, wrapErr("matmul", err)
		}
	}
	return a, b, nil
}

// runWidened multiplies 8- and 16-bit integers with the fast int32 GEMM.
// Sums of products modulo 2^32 truncate to the same value modulo 2^8 or
// 2^16 as the narrow type's own wrapping arithmetic gives, so widening the
// operands (a value-preserving conversion from either operand's dtype, as
// promotion to p.dtype preserves integer values too) and truncating each
// result once is exact.
func (p *matmulPlan) runWidened(out *Tensor) error {
	a32, err := p.a.AsType(dtype.Int32)
	if err != nil {
		return wrapErr("matmul", err)
	}
	b32, err := p.b.AsType(dtype.Int32)
	if err != nil {
		return wrapErr("matmul", err)
	}
	c32, err := empty(dtype.Int32, out.shape)
	if err != nil {
		return wrapErr("matmul", err)
	}
	mulBatches(p, a32, b32, c32, fastKernel[int32](false))
	return wrapErr("matmul", copyInto(out, c32))
}

// runHalf multiplies float16 or bfloat16 operands: each element widens
// exactly to float32, the sums accumulate in float32 and each result rounds
// once to the half type (semantics §7). TF32 does not apply: the operands
// have no more mantissa bits than TF32 keeps, so it would change nothing.
func (p *matmulPlan) runHalf(out, a, b *Tensor) error {
	c32, err := empty(dtype.Float32, out.shape)
	if err != nil {
		return wrapErr("matmul", err)
	}
	if useFastMatmul {
		// The fast GEMM widens the half operands while packing them.
		format := gemm.Float16
		if p.dtype == dtype.BFloat16 {
			format = gemm.BFloat16
		}
		l := p.layout(a, b, c32)
		x, y, z := gemm.Matrix[uint16](view[uint16](l.a, a)), gemm.Matrix[uint16](view[uint16](l.b, b)), gemm.Matrix[float32](view[float32](l.c, c32))
		if len(l.aOffs) == 1 {
			x.Off, y.Off, z.Off = x.Off+l.aOffs[0], y.Off+l.bOffs[0], z.Off+l.cOffs[0]
			gemm.MulHalf(format, l.m, l.n, l.k, x, y, z, gemm.Options{})
		} else {
			gemm.MulHalfBatch(format, len(l.aOffs), l.m, l.n, l.k, x, y, z, l.aOffs, l.bOffs, l.cOffs, gemm.Options{})
		}
	} else {
		a32, err := a.AsType(dtype.Float32)
		if err != nil {
			return wrapErr("matmul", err)
		}
		b32, err := b.AsType(dtype.Float32)
		if err != nil {
			return wrapErr("matmul", err)
		}
		mulBatches(p, a32, b32, c32, plainKernel[float32](false))
	}
	return wrapErr("matmul", copyInto(out, c32))
}

// batchLayout is a product laid out for a kernel: count products
// (m×k)·(k×n), product i reading A and B and writing C at the views a, b
// and c shifted by aOffs[i], bOffs[i] and cOffs[i] elements.
type batchLayout struct {
	m, n, k             int
	a, b, c             blocked.Matrix[struct{}] // offsets and strides only
	aOffs, bOffs, cOffs []int
}

// view returns v's layout over the storage of t, read as elements of T.
func view[T any](v blocked.Matrix[struct{}], t *Tensor) blocked.Matrix[T] {
	return blocked.Matrix[T]{Data: storageOf[T](t), Off: v.Off, RS: v.RS, CS: v.CS}
}

// layout works out the strided views and per-product offsets of a product
// of a and b into c. The batch is walked with the operands' own strides (0
// along broadcast dimensions), so a broadcast operand is read in place; a
// batch that is one taller product is folded into it.
func (p *matmulPlan) layout(a, b, c *Tensor) batchLayout {
	ms := p.shapes
	l := batchLayout{m: ms.M, n: ms.N, k: ms.K,
		a: matrixOf(a, ms.AVector, false), b: matrixOf(b, ms.BVector, true), c: outMatrixOf(c, ms)}
	bs := batchStrides(a, b, c, ms)
	if fold, ok := foldBatch(bs, ms.M, l.a.RS, l.c.RS); ok {
		l.m *= fold
		bs = nil
	}
	count := 1
	for _, d := range bs {
		count *= d.size
	}
	l.aOffs, l.bOffs, l.cOffs = make([]int, count), make([]int, count), make([]int, count)
	idx := make([]int, len(bs))
	aOff, bOff, cOff := 0, 0, 0
	for i := range count {
		l.aOffs[i], l.bOffs[i], l.cOffs[i] = aOff, bOff, cOff
		// Advance the odometer over the batch dimensions, innermost first.
		for d := len(bs) - 1; d >= 0; d-- {
			idx[d]++
			aOff, bOff, cOff = aOff+bs[d].a, bOff+bs[d].b, cOff+bs[d].c
			if idx[d] < bs[d].size {
				break
			}
			aOff, bOff, cOff = aOff-bs[d].size*bs[d].a, bOff-bs[d].size*bs[d].b, cOff-bs[d].size*bs[d].c
			idx[d] = 0
		}
	}
	return l
}

// mulBatches runs the product laid out for a, b and c with kern.
func mulBatches[T any](p *matmulPlan, a, b, c *Tensor, kern kernel[T]) {
	l := p.layout(a, b, c)
	kern(l, view[T](l.a, a), view[T](l.b, b), view[T](l.c, c))
}

// kernel computes every product of a batch layout over the operands'
// storage, overwriting C.
type kernel[T any] func(l batchLayout, a, b, c blocked.Matrix[T])

// plainKernel returns the blocked Go kernel for T, spread over goroutines
// by batch element.
func plainKernel[T blocked.Number](tf32 bool) kernel[T] {
	return func(l batchLayout, a, b, c blocked.Matrix[T]) {
		eachProduct(l, a, b, c, func(a, b, c blocked.Matrix[T]) { blocked.Mul(l.m, l.n, l.k, a, b, c, tf32) })
	}
}

// boolKernel is the logical product's kernel.
func boolKernel(l batchLayout, a, b, c blocked.Matrix[bool]) {
	eachProduct(l, a, b, c, func(a, b, c blocked.Matrix[bool]) { blocked.MulBool(l.m, l.n, l.k, a, b, c) })
}

// parallelMinWork is the number of multiply-adds below which a batch stays
// on one goroutine: starting goroutines costs microseconds.
const parallelMinWork = 1 << 16

// eachProduct calls mul for every product of the layout, splitting the
// batch into contiguous ranges over up to GOMAXPROCS goroutines when there
// is enough work. Products write disjoint parts of C, so no two goroutines
// touch the same element.
func eachProduct[T any](l batchLayout, a, b, c blocked.Matrix[T], mul func(a, b, c blocked.Matrix[T])) {
	run := func(lo, hi int) {
		x, y, z := a, b, c
		for i := lo; i < hi; i++ {
			x.Off, y.Off, z.Off = a.Off+l.aOffs[i], b.Off+l.bOffs[i], c.Off+l.cOffs[i]
			mul(x, y, z)
		}
	}
	count := len(l.aOffs)
	workers := min(runtime.GOMAXPROCS(0), count)
	// In float64: k is not bounded by any tensor's size, so count·m·n·k
	// may not fit in an int; only its magnitude matters here.
	if work := float64(count) * float64(l.m) * float64(l.n) * float64(max(l.k, 1)); workers <= 1 || work < parallelMinWork {
		run(0, count)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := count*w/workers, count*(w+1)/workers
		wg.Go(func() { run(lo, hi) })
	}
	wg.Wait()
}

// reinterpretKernel runs a kernel for a signed integer type S on unsigned
// data U of the same width, whose wrapping arithmetic has the same bits.
func reinterpretKernel[U, S any](k kernel[S]) kernel[U] {
	return func(l batchLayout, a, b, c blocked.Matrix[U]) {
		k(l, reinterpretMatrix[S](a), reinterpretMatrix[S](b), reinterpretMatrix[S](c))
	}
}

// batchDim is one batch dimension with each operand's stride along it.
type batchDim struct{ size, a, b, c int }

// batchStrides returns the batch dimensions of a product with the strides
// of a, b (0 where they broadcast) and c, dropping dimensions of size 1 and
// merging neighbours that all three operands walk as one.
func batchStrides(a, b, c *Tensor, ms shape.MatmulShapes) []batchDim {
	nb := len(ms.Batch)
	as := batchStridesOf(a, ms.ABatch, ms.Batch)
	bs := batchStridesOf(b, ms.BBatch, ms.Batch)
	var dims []batchDim
	for d := 0; d < nb; d++ {
		if ms.Batch[d] == 1 {
			continue
		}
		cur := batchDim{ms.Batch[d], as[d], bs[d], c.strides[d]}
		if n := len(dims); n > 0 {
			prev := &dims[n-1]
			if prev.a == cur.a*cur.size && prev.b == cur.b*cur.size && prev.c == cur.c*cur.size {
				prev.size *= cur.size
				prev.a, prev.b, prev.c = cur.a, cur.b, cur.c
				continue
			}
		}
		dims = append(dims, cur)
	}
	return dims
}

// batchStridesOf returns t's strides along the broadcast batch shape: its
// own batch dimensions right-aligned, 0 where it is broadcast.
func batchStridesOf(t *Tensor, own, batch []int) []int {
	st, err := shape.BroadcastStrides(own, t.strides[:len(own)], batch)
	if err != nil {
		panic("matmul: batch shapes were checked by shape.Matmul: " + err.Error())
	}
	return st
}

// foldBatch reports whether the whole batch is one taller product: b is the
// same matrix for every batch element and the batch steps of a and c are
// exactly M rows, so batch element i's rows follow element i-1's. It returns
// the batch count.
func foldBatch(dims []batchDim, m, ars, crs int) (int, bool) {
	if len(dims) != 1 || m == 0 {
		return 0, false
	}
	d := dims[0]
	if d.b != 0 || d.a != m*ars || d.c != m*crs {
		return 0, false
	}
	return d.size, true
}

// matrixOf returns the strided view of t's last matrix (the first of the
// batch), with a 1-D t seen as a row (column when asColumn) vector.
func matrixOf(t *Tensor, vector, asColumn bool) blocked.Matrix[struct{}] {
	x := blocked.Matrix[struct{}]{Off: t.offset}
	n := len(t.strides)
	switch {
	case vector && asColumn:
		x.RS = t.strides[0]
	case vector:
		x.CS = t.strides[0]
	default:
		x.RS, x.CS = t.strides[n-2], t.strides[n-1]
	}
	return x
}

// outMatrixOf returns the strided view of the first result matrix in c,
// whose shape has the vector dimensions dropped.
func outMatrixOf(c *Tensor, ms shape.MatmulShapes) blocked.Matrix[struct{}] {
	x := blocked.Matrix[struct{}]{Off: c.offset}
	n := len(c.strides)
	switch {
	case ms.AVector && ms.BVector:
	case ms.AVector:
		x.CS = c.strides[n-1]
	case ms.BVector:
		x.RS = c.strides[n-1]
	default:
		x.RS, x.CS = c.strides[n-2], c.strides[n-1]
	}
	return x
}

// useFastMatmul selects the assembly GEMM of package gemm for every dtype
// but bool: float32, float64, int32 and int64 natively, uint32 and uint64
// reinterpreted as signed, 8- and 16-bit integers widened to int32, the
// 16-bit floats widened while packing, complex as four real products. Tests
// turn it off to run everything on the plain blocked kernel of package
// blocked, the independent correctness path.
var useFastMatmul = true

// fastKernel returns the kernel for a dtype package gemm handles: the fast
// GEMM, or the plain kernel when useFastMatmul is off.
func fastKernel[T gemm.Elem](tf32 bool) kernel[T] {
	if !useFastMatmul {
		return plainKernel[T](tf32)
	}
	opt := gemm.Options{TF32: tf32}
	return func(l batchLayout, a, b, c blocked.Matrix[T]) {
		x, y, z := gemm.Matrix[T](a), gemm.Matrix[T](b), gemm.Matrix[T](c)
		if len(l.aOffs) == 1 {
			x.Off, y.Off, z.Off = x.Off+l.aOffs[0], y.Off+l.bOffs[0], z.Off+l.cOffs[0]
			gemm.Mul(l.m, l.n, l.k, x, y, z, opt)
			return
		}
		gemm.MulBatch(len(l.aOffs), l.m, l.n, l.k, x, y, z, l.aOffs, l.bOffs, l.cOffs, opt)
	}
}

// complexKernel returns the kernel for complex64 or complex128: the fast
// GEMM's four real products over the interleaved parts, or the plain
// kernel's complex arithmetic when useFastMatmul is off. The two group the
// sums differently (per real product rather than per complex term), which
// changes only rounding.
func complexKernel[T complex64 | complex128]() kernel[T] {
	if !useFastMatmul {
		return plainKernel[T](false)
	}
	return func(l batchLayout, a, b, c blocked.Matrix[T]) {
		x, y, z := gemm.Matrix[T](a), gemm.Matrix[T](b), gemm.Matrix[T](c)
		if len(l.aOffs) == 1 {
			x.Off, y.Off, z.Off = x.Off+l.aOffs[0], y.Off+l.bOffs[0], z.Off+l.cOffs[0]
			gemm.MulComplex(l.m, l.n, l.k, x, y, z, gemm.Options{})
			return
		}
		gemm.MulComplexBatch(len(l.aOffs), l.m, l.n, l.k, x, y, z, l.aOffs, l.bOffs, l.cOffs, gemm.Options{})
	}
}

// reinterpretMatrix views a matrix of U as one of S, a type of the same size.
func reinterpretMatrix[S, U any](x blocked.Matrix[U]) blocked.Matrix[S] {
	data := unsafe.Slice((*S)(unsafe.Pointer(unsafe.SliceData(x.Data))), len(x.Data))
	return blocked.Matrix[S]{Data: data, Off: x.Off, RS: x.RS, CS: x.CS}
}

package tensor

import (
	"math"
	"runtime"
	"slices"
	"sync"

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
// per call with WithPrecision, by an explicit MatmulConfig, or for the
// process with SetMatmulPrecision. On a CPU TF32 emulates GPU numerics and
// is slower than the default, never faster (see TF32).
//
// The operands may be any views (transposed, stepped, reversed, broadcast);
// broadcast batches are read in place, never materialised. The result is a
// new contiguous tensor. Sparse operands follow the rules given under Layout.
func Matmul(a, b *Tensor, opts ...MatmulOption) (*Tensor, error) {
	if err := requireLive("matmul", a, b); err != nil {
		return nil, err
	}
	if hasSparse(a, b) {
		return matmulSparse(a, b, opts) // sparse_matmul.go
	}
	p, err := planMatmul(a, b, opts)
	if err != nil {
		return nil, err
	}
	var buf [8]int
	out, err := newProductTensor(p.dtype, p.outShape(buf[:0]))
	if err != nil {
		return nil, wrapErr("matmul", err)
	}
	p.cold = out.cold
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
	if err := requireLive("matmul", out, a, b); err != nil {
		return err
	}
	noteWrite(out)
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
	var buf [8]int
	if want := p.outShape(buf[:0]); !shape.Equal(out.shape, want) {
		return opErr("matmul", ErrShape, "output shape %s differs from the result shape %s of %s and %s",
			shape.String(out.shape), shape.String(want), shape.String(a.shape), shape.String(b.shape))
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
	tmp, err := newProductTensor(p.dtype, out.shape)
	if err != nil {
		return wrapErr("matmul", err)
	}
	if err := p.run(tmp); err != nil {
		return err
	}
	err = copyInto(out, tmp)
	tmp.Release()
	return wrapErr("matmul", err)
}

// matmulSharesStorage reports whether x and y are views of the same
// storage. It does not look at which elements each view reaches: a product
// read while it is written is wrong even when only one element is shared,
// and the temporary that avoids it costs O(n²) against the product's O(n³).
func matmulSharesStorage(x, y *Tensor) bool {
	return sharesStorage(x, y)
}

// matmulPlan is a validated product: operands, result dtype and shapes.
// It is built and used by value, so planning a product allocates nothing.
type matmulPlan struct {
	a, b   *Tensor
	dtype  dtype.DType
	shapes shape.MatmulShapes // Out is not set: see outShape
	tf32   bool               // round float32 operands to TF32
	// cold says that the result is a new tensor in cold memory
	// (Tensor.cold), which package gemm may store around the caches; only
	// Matmul sets it, since an output passed in may well be in cache.
	cold bool
}

// planMatmul checks the operands and options and works out the result.
func planMatmul(a, b *Tensor, opts []MatmulOption) (matmulPlan, error) {
	if a == nil || b == nil {
		return matmulPlan{}, opErr("matmul", ErrValue, "nil operand")
	}
	cfg, err := resolveMatmulOptions(opts)
	if err != nil {
		return matmulPlan{}, err
	}
	ms, err := matmulShapes(a.shape, b.shape)
	if err != nil {
		return matmulPlan{}, wrapErr("matmul", err)
	}
	dt, err := dtype.Promote(a.dtype, b.dtype)
	if err != nil {
		return matmulPlan{}, wrapErr("matmul", err)
	}
	return matmulPlan{a: a, b: b, dtype: dt, shapes: ms, tf32: cfg.precision == TF32 && dt == dtype.Float32}, nil
}

// matmulShapes is shape.Matmul without its allocations in the usual cases:
// no batch, a batch on one side only, or equal batches. The batch shapes are
// then subslices of a and b (tensor shapes are never modified), and Out is
// left unset for outShape to build where it is needed. Everything else,
// errors included, is left to shape.Matmul.
func matmulShapes(a, b []int) (shape.MatmulShapes, error) {
	ra, rb := len(a), len(b)
	if ra == 0 || rb == 0 {
		return shape.Matmul(a, b)
	}
	ms := shape.MatmulShapes{AVector: ra == 1, BVector: rb == 1}
	var ka, kb int
	if ms.AVector {
		ms.M, ka = 1, a[0]
	} else {
		ms.ABatch, ms.M, ka = a[:ra-2:ra-2], a[ra-2], a[ra-1]
	}
	if ms.BVector {
		kb, ms.N = b[0], 1
	} else {
		ms.BBatch, kb, ms.N = b[:rb-2:rb-2], b[rb-2], b[rb-1]
	}
	switch {
	case len(ms.BBatch) == 0:
		ms.Batch = ms.ABatch
	case len(ms.ABatch) == 0 || shape.Equal(ms.ABatch, ms.BBatch):
		ms.Batch = ms.BBatch
	default:
		return shape.Matmul(a, b)
	}
	if ka != kb || !resultFits(ms.Batch, ms.M, ms.N) {
		return shape.Matmul(a, b)
	}
	ms.K = ka
	return ms, nil
}

// resultFits reports whether a result of batch shape batch and m×n matrices
// has an element count that fits in an int, checking the dimensions in the
// order shape.Size does so that both accept the same shapes.
func resultFits(batch []int, m, n int) bool {
	count := 1
	fits := func(d int) bool {
		if count == 0 || d == 0 {
			count = 0
			return true
		}
		if count > math.MaxInt/d {
			return false
		}
		count *= d
		return true
	}
	for _, d := range batch {
		if !fits(d) {
			return false
		}
	}
	return fits(m) && fits(n)
}

// outShape appends the result's shape to buf: the batch shape, then M and
// N unless they were added for a 1-D operand.
func (p *matmulPlan) outShape(buf []int) []int {
	buf = append(buf, p.shapes.Batch...)
	if !p.shapes.AVector {
		buf = append(buf, p.shapes.M)
	}
	if !p.shapes.BVector {
		buf = append(buf, p.shapes.N)
	}
	return buf
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
	defer releaseMade(a, p.a)
	defer releaseMade(b, p.b)
	switch p.dtype {
	case dtype.Float16, dtype.BFloat16:
		return p.runHalf(out, a, b)
	case dtype.Bool:
		mulPlain[bool](p, a, b, out, blockedMulBool)
	case dtype.Int8:
		mulPlain[int8](p, a, b, out, blockedMul[int8])
	case dtype.Int16:
		mulPlain[int16](p, a, b, out, blockedMul[int16])
	case dtype.Uint8:
		mulPlain[uint8](p, a, b, out, blockedMul[uint8])
	case dtype.Uint16:
		mulPlain[uint16](p, a, b, out, blockedMul[uint16])
	case dtype.Int32, dtype.Uint32:
		// Wrapping sums of products are the same bits in int32 and uint32
		// (two's complement), so the signed kernels serve both.
		mulReal[int32](p, a, b, out)
	case dtype.Int64, dtype.Uint64:
		mulReal[int64](p, a, b, out)
	case dtype.Float32:
		mulReal[float32](p, a, b, out)
	case dtype.Float64:
		mulReal[float64](p, a, b, out)
	case dtype.Complex64:
		mulComplex[complex64](p, a, b, out)
	case dtype.Complex128:
		mulComplex[complex128](p, a, b, out)
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
		if a, err = converted(a, p.dtype); err != nil {
			return nil, nil, err
		}
	}
	if b.dtype != p.dtype {
		if b, err = converted(b, p.dtype); err != nil {
			return nil, nil, err
		}
	}
	return a, b, nil
}

// releaseMade releases made, an operand converted for this call alone,
// unless it is given itself (no conversion was needed): the next product
// of the same sizes then gets its memory still mapped and in the caches
// instead of waiting for a collection to find it. Release leaves sparse
// tensors to the collector.
func releaseMade(made, given *Tensor) {
	if made != given {
		made.Release()
	}
}

// converted is t.AsType(dt) without clearing the new tensor first, since
// the conversion writes every element of it.
func converted(t *Tensor, dt dtype.DType) (*Tensor, error) {
	out, err := newProductTensor(dt, t.shape)
	if err != nil {
		return nil, wrapErr("matmul", err)
	}
	if err := copyInto(out, t); err != nil {
		return nil, wrapErr("matmul", err)
	}
	return out, nil
}

// runWidened multiplies 8- and 16-bit integers with the fast int32 GEMM.
// Sums of products modulo 2^32 truncate to the same value modulo 2^8 or
// 2^16 as the narrow type's own wrapping arithmetic gives, so widening the
// operands (a value-preserving conversion from either operand's dtype, as
// promotion to p.dtype preserves integer values too) and truncating each
// result once is exact.
func (p *matmulPlan) runWidened(out *Tensor) error {
	if done, err := p.runInt16Pairs(out); done || err != nil {
		return err
	}
	a32, err := converted(p.a, dtype.Int32)
	if err != nil {
		return err
	}
	b32, err := converted(p.b, dtype.Int32)
	if err != nil {
		return err
	}
	c32, err := newProductTensor(dtype.Int32, out.shape)
	if err != nil {
		return wrapErr("matmul", err)
	}
	mulReal[int32](p, a32, b32, c32)
	err = copyInto(out, c32)
	releaseAll(a32, b32, c32) // temporaries of this call alone
	return wrapErr("matmul", err)
}

// runInt16Pairs multiplies one product (no batch) of int8, uint8 or
// int16, whose values are all int16's, on package gemm's kernels of int16
// pairs (VPDPWSSD), which give the int32 product's bits (gemm.MulNarrow)
// and read int8, uint8 and int16 operands as they are (any other operand
// dtype is converted to int16); the sums truncate as in runWidened. It
// reports false, having done nothing, where gemm does not take the
// product (no such kernel, a small product).
func (p *matmulPlan) runInt16Pairs(out *Tensor) (bool, error) {
	switch p.dtype {
	case dtype.Int8, dtype.Uint8, dtype.Int16:
	default:
		return false, nil
	}
	ms := p.shapes
	if len(ms.Batch) > 0 || !gemm.Int16Pairs(ms.M, ms.N, ms.K) {
		return false, nil
	}
	narrow := func(t *Tensor) (*Tensor, error) {
		switch t.dtype {
		case dtype.Int8, dtype.Uint8, dtype.Int16:
			return t, nil
		}
		return converted(t, dtype.Int16)
	}
	a, err := narrow(p.a)
	if err != nil {
		return false, err
	}
	defer releaseMade(a, p.a)
	b, err := narrow(p.b)
	if err != nil {
		return false, err
	}
	defer releaseMade(b, p.b)
	c32, err := newProductTensor(dtype.Int32, out.shape)
	if err != nil {
		return false, wrapErr("matmul", err)
	}
	defer c32.Release() // a temporary of this call alone
	l := p.stridedLayout(a, b, c32)
	done := mulNarrowA(&l, a, b, c32)
	l.release()
	if !done {
		return false, nil
	}
	return true, wrapErr("matmul", copyInto(out, c32))
}

// mulNarrowA is gemm.MulNarrow on the layout's views of a and b, whose
// dtypes are int8, uint8 or int16, into the int32 c.
func mulNarrowA(l *batchLayout, a, b, c *Tensor) bool {
	switch a.dtype {
	case dtype.Int8:
		return mulNarrowB(l, gemm.Matrix[int8](view[int8](l.a, a)), b, c)
	case dtype.Uint8:
		return mulNarrowB(l, gemm.Matrix[uint8](view[uint8](l.a, a)), b, c)
	default:
		return mulNarrowB(l, gemm.Matrix[int16](view[int16](l.a, a)), b, c)
	}
}

func mulNarrowB[A gemm.Narrow](l *batchLayout, x gemm.Matrix[A], b, c *Tensor) bool {
	z := gemm.Matrix[int32](view[int32](l.c, c))
	switch b.dtype {
	case dtype.Int8:
		return gemm.MulNarrow(l.m, l.n, l.k, x, gemm.Matrix[int8](view[int8](l.b, b)), z, gemm.Options{})
	case dtype.Uint8:
		return gemm.MulNarrow(l.m, l.n, l.k, x, gemm.Matrix[uint8](view[uint8](l.b, b)), z, gemm.Options{})
	default:
		return gemm.MulNarrow(l.m, l.n, l.k, x, gemm.Matrix[int16](view[int16](l.b, b)), z, gemm.Options{})
	}
}

// releaseAll releases a call's own temporaries (see releaseMade).
func releaseAll(ts ...*Tensor) {
	for _, t := range ts {
		t.Release()
	}
}

// runHalf multiplies float16 or bfloat16 operands: each element widens
// exactly to float32, the sums accumulate in float32 and each result rounds
// once to the half type (semantics §7). TF32 does not apply: the operands
// have no more mantissa bits than TF32 keeps, so it would change nothing.
func (p *matmulPlan) runHalf(out, a, b *Tensor) error {
	if useFastMatmul && p.dtype == dtype.BFloat16 {
		if done, err := p.runBF16Tiles(out, a, b); done || err != nil {
			return err
		}
	}
	c32, err := newProductTensor(dtype.Float32, out.shape)
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
		if l.count == 1 {
			gemm.MulHalf(format, l.m, l.n, l.k, x, y, z, gemm.Options{})
		} else {
			gemm.MulHalfBatch(format, l.count, l.m, l.n, l.k, x, y, z, l.aOffs, l.bOffs, l.cOffs, gemm.Options{})
		}
		l.release()
	} else {
		a32, err := converted(a, dtype.Float32)
		if err != nil {
			return err
		}
		b32, err := converted(b, dtype.Float32)
		if err != nil {
			return err
		}
		mulPlain[float32](p, a32, b32, c32, blockedMul[float32])
		releaseAll(a32, b32)
	}
	// The float32 sums are this call's alone: released, the next product of
	// the same size finds them mapped and cached (a fresh temporary was 62%
	// of a 256³ bfloat16 plain loop on AMX, faulting its pages in).
	err = copyInto(out, c32)
	c32.Release()
	return wrapErr("matmul", err)
}

// runBF16Tiles multiplies bfloat16 products on the tile kernels (AMX
// tiles, or VDPBF16PS on the avx512 set with the float32 path's bits), which round
// each block of float32 sums to bfloat16 straight into out (the same bits
// as rounding a float32 result): no float32 result is made, only the
// float32 sums between K blocks when K has several (a single product's;
// a batch takes the tiles only when K is one block). It reports false when
// the tiles do not take the products (another kernel set, small products,
// a subnormal operand), leaving out for runHalf to overwrite.
func (p *matmulPlan) runBF16Tiles(out, a, b *Tensor) (bool, error) {
	l := p.layout(a, b, out)
	defer l.release()
	partials, ok := gemm.BF16Tiles(l.m, l.n, l.k)
	if !ok {
		return false, nil
	}
	if l.count != 1 {
		x, y, z := gemm.Matrix[uint16](view[uint16](l.a, a)), gemm.Matrix[uint16](view[uint16](l.b, b)), gemm.Matrix[uint16](view[uint16](l.c, out))
		return gemm.MulBF16TilesBatch(l.count, l.m, l.n, l.k, x, y, z, l.aOffs, l.bOffs, l.cOffs, gemm.Options{}), nil
	}
	var sums []float32
	if partials > 0 {
		t, err := newProductTensor(dtype.Float32, []int{partials})
		if err != nil {
			return false, wrapErr("matmul", err)
		}
		defer t.Release() // this call's alone, as runHalf's float32 result
		sums = storageOf[float32](t)[:partials]
	}
	x, y, z := gemm.Matrix[uint16](view[uint16](l.a, a)), gemm.Matrix[uint16](view[uint16](l.b, b)), gemm.Matrix[uint16](view[uint16](l.c, out))
	return gemm.MulBF16Tiles(l.m, l.n, l.k, x, y, z, sums, gemm.Options{}), nil
}

// batchLayout is a product laid out for a kernel: count products
// (m×k)·(k×n), product i reading A and B and writing C at the views a, b
// and c shifted by aOffs[i], bOffs[i] and cOffs[i] elements.
type batchLayout struct {
	m, n, k             int
	count               int
	a, b, c             blocked.Matrix[struct{}] // offsets and strides only
	aOffs, bOffs, cOffs []int
	pooled              *batchOffsets // the buffer behind the offsets, for release

	// strided, set only by stridedLayout, replaces the offsets: product i
	// is at i·aStride, i·bStride and i·cStride.
	strided                   bool
	aStride, bStride, cStride int
}

// singleOffset is the offsets of a single product, which never change: the
// views already start at it.
var singleOffset = []int{0}

// offsetPool recycles the offset buffers of batches (*batchOffsets), so
// that a batch of many small products does not allocate, clear and fill
// three offsets per product on every call.
var offsetPool sync.Pool

// batchOffsets holds the offsets of a batch's products (A's, then B's, then
// C's) and the batch dimensions they were computed from, so that the next
// batch of the same layout (a loop over same-shaped products, the usual
// case) reuses them without writing them again.
type batchOffsets struct {
	dims  [4]batchDim // valid when 0 < ndims <= len(dims)
	ndims int
	offs  []int
}

// holds reports whether b holds the offsets of the batch dims.
func (b *batchOffsets) holds(dims []batchDim) bool {
	return b.ndims == len(dims) && b.ndims > 0 && b.ndims <= len(b.dims) && slices.Equal(b.dims[:b.ndims], dims)
}

// fill makes b hold the offsets of the batch dims, count products in all:
// the operands' offsets for each batch index, the last dimension varying
// fastest.
func (b *batchOffsets) fill(dims []batchDim, count int) {
	if b.holds(dims) {
		return
	}
	b.ndims = 0 // not valid while it is rewritten
	if cap(b.offs) < 3*count {
		b.offs = make([]int, 3*count)
	}
	b.offs = b.offs[:3*count]
	aOffs, bOffs, cOffs := b.offs[:count], b.offs[count:2*count], b.offs[2*count:]
	var idxBuf [4]int
	idx := idxBuf[:0]
	for range dims {
		idx = append(idx, 0)
	}
	aOff, bOff, cOff := 0, 0, 0
	for i := range count {
		aOffs[i], bOffs[i], cOffs[i] = aOff, bOff, cOff
		// Advance the odometer over the batch dimensions, innermost first.
		for d := len(dims) - 1; d >= 0; d-- {
			idx[d]++
			aOff, bOff, cOff = aOff+dims[d].a, bOff+dims[d].b, cOff+dims[d].c
			if idx[d] < dims[d].size {
				break
			}
			aOff, bOff, cOff = aOff-dims[d].size*dims[d].a, bOff-dims[d].size*dims[d].b, cOff-dims[d].size*dims[d].c
			idx[d] = 0
		}
	}
	if len(dims) <= len(b.dims) {
		b.ndims = copy(b.dims[:], dims)
	}
}

// release returns the layout's offset buffer to offsetPool. The kernels
// have returned, so nothing reads the offsets any more.
func (l *batchLayout) release() {
	if l.pooled != nil {
		offsetPool.Put(l.pooled)
		l.pooled = nil
	}
	l.aOffs, l.bOffs, l.cOffs = nil, nil, nil
}

// view returns v's layout over the storage of t, read as elements of T.
func view[T any](v blocked.Matrix[struct{}], t *Tensor) blocked.Matrix[T] {
	return blocked.Matrix[T]{Data: storageOf[T](t), Off: v.Off, RS: v.RS, CS: v.CS}
}

// layout works out the strided views and per-product offsets of a product
// of a and b into c. The batch is walked with the operands' own strides (0
// along broadcast dimensions), so a broadcast operand is read in place; a
// batch that is one taller product is folded into it. A batch's offsets
// come from offsetPool: the caller releases the layout once its kernels
// have returned.
func (p *matmulPlan) layout(a, b, c *Tensor) batchLayout {
	return p.layoutFor(a, b, c, false)
}

// stridedLayout is layout for a caller that takes strided batches: a batch
// whose dimensions merge into one (contiguous batches, a broadcast operand:
// the usual cases) is described by one stride per operand instead of
// offsets, which would cost three ints per product to write and to read.
func (p *matmulPlan) stridedLayout(a, b, c *Tensor) batchLayout {
	return p.layoutFor(a, b, c, true)
}

// layoutFor is layout, or stridedLayout when strided is set.
func (p *matmulPlan) layoutFor(a, b, c *Tensor, strided bool) batchLayout {
	ms := p.shapes
	l := batchLayout{m: ms.M, n: ms.N, k: ms.K, count: 1,
		a: matrixOf(a, ms.AVector, false), b: matrixOf(b, ms.BVector, true), c: outMatrixOf(c, ms)}
	var dimBuf [4]batchDim
	bs := batchStrides(dimBuf[:0], a, b, c, ms)
	if fold, ok := foldBatch(bs, ms.M, l.a.RS, l.c.RS); ok {
		l.m *= fold
		bs = bs[:0]
	}
	for _, d := range bs {
		l.count *= d.size
	}
	if l.count == 1 {
		l.aOffs, l.bOffs, l.cOffs = singleOffset, singleOffset, singleOffset
		return l
	}
	if strided && len(bs) == 1 {
		l.strided = true
		l.aStride, l.bStride, l.cStride = bs[0].a, bs[0].b, bs[0].c
		return l
	}
	l.pooled, _ = offsetPool.Get().(*batchOffsets)
	if l.pooled == nil {
		l.pooled = new(batchOffsets)
	}
	n := l.count
	l.pooled.fill(bs, n)
	offs := l.pooled.offs
	l.aOffs, l.bOffs, l.cOffs = offs[:n:n], offs[n:2*n:2*n], offs[2*n:]
	return l
}

// useFastMatmul selects the assembly GEMM of package gemm for every dtype
// but bool: float32, float64, int32 and int64 natively, uint32 and uint64
// reinterpreted as signed, 8- and 16-bit integers widened to int32, the
// 16-bit floats widened while packing, complex as four real products. Tests
// turn it off to run everything on the plain blocked kernel of package
// blocked, the independent correctness path.
var useFastMatmul = true

// mulReal computes the product of a and b into c, reading their storage as
// T (the dtype's own type, or the signed type of an unsigned dtype's width):
// with package gemm's real kernels, or package blocked's plain kernel when
// useFastMatmul is off. It calls gemm directly, with no closure or other
// per-call setup beyond the layout, since small products take microseconds.
func mulReal[T gemm.Elem](p *matmulPlan, a, b, c *Tensor) {
	if !useFastMatmul {
		mulPlain[T](p, a, b, c, blockedMul[T])
		return
	}
	l := p.stridedLayout(a, b, c)
	x, y, z := gemm.Matrix[T](view[T](l.a, a)), gemm.Matrix[T](view[T](l.b, b)), gemm.Matrix[T](view[T](l.c, c))
	gemmMul(&l, x, y, z, gemm.Options{TF32: p.tf32, Cold: p.cold})
	l.release()
}

// gemmMul computes the products of the layout with package gemm's real
// kernels over the operand views x, y and z.
func gemmMul[T gemm.Elem](l *batchLayout, x, y, z gemm.Matrix[T], opt gemm.Options) {
	switch {
	case l.count == 1:
		gemm.Mul(l.m, l.n, l.k, x, y, z, opt)
	case l.strided:
		gemm.MulBatchStrided(l.count, l.m, l.n, l.k, x, y, z, l.aStride, l.bStride, l.cStride, opt)
	default:
		gemm.MulBatch(l.count, l.m, l.n, l.k, x, y, z, l.aOffs, l.bOffs, l.cOffs, opt)
	}
}

// mulComplex computes the complex product of a and b into c: the fast
// GEMM's four real products over the interleaved parts, or the plain
// kernel's complex arithmetic when useFastMatmul is off. The two group the
// sums differently (per real product rather than per complex term), which
// changes only rounding.
func mulComplex[T complex64 | complex128](p *matmulPlan, a, b, c *Tensor) {
	if !useFastMatmul {
		mulPlain[T](p, a, b, c, blockedMul[T])
		return
	}
	l := p.layout(a, b, c)
	x, y, z := gemm.Matrix[T](view[T](l.a, a)), gemm.Matrix[T](view[T](l.b, b)), gemm.Matrix[T](view[T](l.c, c))
	if l.count == 1 {
		gemm.MulComplex(l.m, l.n, l.k, x, y, z, gemm.Options{})
	} else {
		gemm.MulComplexBatch(l.count, l.m, l.n, l.k, x, y, z, l.aOffs, l.bOffs, l.cOffs, gemm.Options{})
	}
	l.release()
}

// blockedMul is package blocked's kernel for T with TF32 rounding of
// float32 operands as tf32 says (blocked.Mul ignores it for other types).
func blockedMul[T blocked.Number](m, n, k int, a, b, c blocked.Matrix[T], tf32 bool) {
	blocked.Mul(m, n, k, a, b, c, tf32)
}

// blockedMulBool is package blocked's logical product, with blockedMul's
// signature.
func blockedMulBool(m, n, k int, a, b, c blocked.Matrix[bool], _ bool) {
	blocked.MulBool(m, n, k, a, b, c)
}

// mulPlain computes the product of a and b into c with a plain kernel of
// package blocked, reading their storage as T.
func mulPlain[T any](p *matmulPlan, a, b, c *Tensor, mul func(m, n, k int, a, b, c blocked.Matrix[T], tf32 bool)) {
	l := p.layout(a, b, c)
	// The closure runs on other goroutines: it captures copies, so that
	// neither the layout's owner nor the plan has to live on the heap.
	m, n, k, tf32 := l.m, l.n, l.k, p.tf32
	eachProduct(&l, view[T](l.a, a), view[T](l.b, b), view[T](l.c, c), func(a, b, c blocked.Matrix[T]) {
		mul(m, n, k, a, b, c, tf32)
	})
	l.release()
}

// parallelMinWork is the number of multiply-adds below which a batch stays
// on one goroutine: starting goroutines costs microseconds.
const parallelMinWork = 1 << 16

// eachProduct calls mul for every product of the layout, splitting the
// batch into contiguous ranges over up to GOMAXPROCS goroutines when there
// is enough work. Products write disjoint parts of C, so no two goroutines
// touch the same element.
func eachProduct[T any](l *batchLayout, a, b, c blocked.Matrix[T], mul func(a, b, c blocked.Matrix[T])) {
	run := func(lo, hi int) {
		x, y, z := a, b, c
		for i := lo; i < hi; i++ {
			x.Off, y.Off, z.Off = a.Off+l.aOffs[i], b.Off+l.bOffs[i], c.Off+l.cOffs[i]
			mul(x, y, z)
		}
	}
	count := l.count
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

// batchDim is one batch dimension with each operand's stride along it.
type batchDim struct{ size, a, b, c int }

// batchStrides appends to dims the batch dimensions of a product with the
// strides of a, b (0 where they broadcast) and c, dropping dimensions of
// size 1 and merging neighbours that all three operands walk as one.
func batchStrides(dims []batchDim, a, b, c *Tensor, ms shape.MatmulShapes) []batchDim {
	nb := len(ms.Batch)
	for d := 0; d < nb; d++ {
		if ms.Batch[d] == 1 {
			continue
		}
		cur := batchDim{ms.Batch[d],
			batchStride(a, ms.ABatch, d-(nb-len(ms.ABatch))),
			batchStride(b, ms.BBatch, d-(nb-len(ms.BBatch))),
			c.strides[d]}
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

// batchStride returns t's stride along dimension i of its own batch shape
// own, right-aligned with the broadcast batch: 0 when t lacks the dimension
// (i < 0) or has it of size 1, so that it is broadcast.
func batchStride(t *Tensor, own []int, i int) int {
	if i < 0 || own[i] == 1 {
		return 0
	}
	return t.strides[i]
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

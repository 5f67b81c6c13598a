package tensor

import (
	"slices"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/cast"
	"github.com/tensor-go/tensor/internal/ewise"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/internal/scratch"
	"github.com/tensor-go/tensor/internal/vec"
	"github.com/tensor-go/tensor/shape"
)

// MulSum returns Sum(Mul(x, y), opts...) without forming the product: the
// operands broadcast and promote as Mul's, each product is rounded to the
// promoted dtype as Mul rounds it, and the products are summed over the
// axes of the broadcast shape the options choose, with Sum's rules (result
// dtype, keepdims, accumulation in float64 for float32 and the half
// floats). It is the gradient of a broadcast operand of a product, summed
// back to the operand's shape, and reads each operand once where the
// product and then its sum would write and read a tensor of the broadcast
// shape as well.
//
// The sum's order of additions is fixed by the shapes and layouts alone, as
// Sum's is, but it is its own: the result may differ from Sum(Mul(x, y))
// in the last place of the accumulator before its one rounding.
func MulSum(x, y any, opts ...ReduceOption) (*Tensor, error) {
	return reduceOfBinary(ewise.Sum, ewise.Mul, x, y, opts)
}

// MulWithSum returns Mul(g, u) and MulSum(g, v, opts...), the two
// gradients of a broadcasting product with cotangent g (u and v the other
// operands, conjugated), reading g once where the two calls would read it
// twice: each piece of g is multiplied by u into the first result and by v
// into a buffer that is summed at once. g must have the broadcast shape of
// each pair. The results have the bits the two calls give.
func MulWithSum(g, u, v any, opts ...ReduceOption) (prod, sum *Tensor, err error) {
	side := func() (*Tensor, *Tensor, error) {
		p, err := Mul(g, u)
		if err != nil {
			return nil, nil, err
		}
		s, err := MulSum(g, v, opts...)
		if err != nil {
			return nil, nil, err
		}
		return p, s, nil
	}
	if err := requireLive("mul", g, u, v); err != nil {
		return nil, nil, err
	}
	gt, ok := g.(*Tensor)
	ut, uok := u.(*Tensor)
	if !ok || !uok || isSparse(gt) || isSparse(u) || isSparse(v) || !gt.IsContiguous() {
		return side()
	}
	f, formed, err := prepareReduceOfBinary(ewise.Sum, ewise.Mul, gt, v, opts)
	if err != nil || formed {
		return side()
	}
	c := f.c
	if gt.dtype != c || ut.dtype != c || f.dts[1] != c {
		return side()
	}
	us, err := shape.Broadcast(gt.shape, ut.shape)
	if err != nil || !shape.Equal(us, gt.shape) || !shape.Equal(f.shape, gt.shape) {
		return side()
	}
	// The side operand joins the plan as a fourth operand; where it would
	// change the plan's runs (and so MulSum's order of additions), the two
	// calls go separately.
	uStrides := byteStrides(ut, f.shape)
	p4 := iter.NewPlan(f.shape, f.strides[0], f.strides[1], f.strides[2], uStrides)
	if !slices.Equal(p4.Shape(), f.plan.Shape()) {
		return side()
	}
	prod, err = newProductTensor(c, f.shape)
	if err != nil {
		return nil, nil, wrapErr("mul", err)
	}
	bytes := prod.Size() * c.Size()
	stream := prod.cold && bytes >= ewise.ColdStreamBytes || bytes >= ewise.StreamOutputBytes
	if prod.cold && stream {
		ewise.MapCold(prod.storage, bytes, iter.Workers(prod.Size()))
	}
	f.side = &fusedSide{out: prod.storage, g: f.bases[1], u: firstElement(ut), uStrides: uStrides, kernel: ewise.Mul.Kernel(c),
		both: ewise.MulWithSum(c, stream), pair: ewise.MulScalarPair(c, stream), fence: stream}
	if stream {
		f.side.kernel = ewise.Mul.Streaming(c)
	}
	f.plan = p4
	sum, err = f.run()
	if err != nil {
		return nil, nil, err
	}
	return prod, sum, nil
}

// reduceOfBinary returns r over op(x, y) on the axes the options choose,
// the operation's results made a piece at a time in a buffer that stays in
// the first-level cache and folded into the accumulators at once (see
// fusedRun). Where that does not pay, or the options ask for another
// accumulator, the result of op is formed and reduced.
func reduceOfBinary(r *ewise.Reduction, op *ewise.Binary, x, y any, opts []ReduceOption) (*Tensor, error) {
	if err := requireLive(op.Name, x, y); err != nil {
		return nil, err
	}
	if isSparse(x) || isSparse(y) {
		if op != ewise.Mul {
			return nil, opErr(op.Name, ErrLayout, "a sparse operand has no %s", op.Name)
		}
		p, err := Mul(x, y) // a sparse product: Sum then refuses it as it would
		if err != nil {
			return nil, err
		}
		return reduction(r, p, opts)
	}
	f, formed, err := prepareReduceOfBinary(r, op, x, y, opts)
	if err != nil {
		return nil, err
	}
	if formed {
		p, err := elementwise(op, x, y)
		if err != nil {
			return nil, err
		}
		return reduction(r, p, opts)
	}
	return f.run()
}

// prepareReduceOfBinary checks the operands and options of r over op(x, y)
// and sets up the fused walk; formed says that the result of op should be
// formed and reduced instead (which then reports any error).
func prepareReduceOfBinary(r *ewise.Reduction, op *ewise.Binary, x, y any, opts []ReduceOption) (f *fusedReduce, formed bool, err error) {
	a, b, c, err := binaryOperands(op.Name, x, y)
	if err != nil {
		return nil, false, err
	}
	s, err := shape.Broadcast(a.shape, b.shape)
	if err != nil {
		return nil, false, wrapErr(op.Name, err)
	}
	mask, rs, rd, err := reduceShapeOf(r, s, c, opts)
	if err != nil {
		return nil, false, err
	}
	accType := r.Accumulator(c)
	size, err := shape.Size(s)
	if err != nil || size < fusedReduceMin || r.Accumulator(rd) != accType {
		return nil, true, nil
	}
	kept := shape.Reduced(s, mask, true)
	accStrides := shape.ContiguousStrides(kept)
	for i := range accStrides {
		if mask[i] {
			accStrides[i] = 0
		}
		accStrides[i] *= accType.Size()
	}
	st := [3][]int{accStrides, byteStrides(a, s), byteStrides(b, s)}
	p := iter.NewPlan(s, st[0], st[1], st[2])
	if p.Inner() < fusedRunMin {
		return nil, true, nil // short runs: a kernel call per run would cost more than the product's round trip
	}
	n := shape.MustSize(rs)
	split, w := -1, iter.Workers(size)
	if n > 1 {
		// The outermost kept dimension long enough for two parts of two
		// indices: a part is then a slab of whole rows where it can be.
		for i, d := range s {
			if !mask[i] && d >= 4 {
				split = i
				break
			}
		}
		if split < 0 {
			return nil, true, nil // nothing to share out or tile without partial sums
		}
		w = min(w, s[split]/2)
	}
	blocks := 0
	if n > 1 && mask[0] && n*accType.Size() <= fusedBlockAcc && s[0] >= 2*fusedBlockMin {
		// Few accumulators and an outermost reduced dimension (a bias's
		// rows): blocks of whole rows, each a slab of memory read straight
		// through, into partial accumulators of their own, rather than
		// strips of every row for each goroutine. The count is the shape's.
		blocks = min(fusedBlocks, s[0]/fusedBlockMin)
	}
	return &fusedReduce{r: r, op: op, c: c, accType: accType, rd: rd, rs: rs, n: n, split: split, w: w, blocks: blocks,
		dts: [3]dtype.DType{c, a.dtype, b.dtype}, bases: [3]unsafe.Pointer{nil, firstElement(a), firstElement(b)},
		strides: st, shape: s, plan: p}, false, nil
}

// A fused reduction onto at most fusedBlockAcc bytes of accumulators whose
// outermost dimension is reduced goes in up to fusedBlocks blocks of at
// least fusedBlockMin indices of it (see prepareReduceOfBinary).
const (
	fusedBlockAcc = 64 << 10
	fusedBlocks   = 8
	fusedBlockMin = 64
)

// inBlocks runs the plan in f.blocks blocks along dimension 0, block k
// into accumulators of its own (block 0 into the result's), the blocks
// shared between goroutines, then combines the partial accumulators into
// the result's in block order, so that the bits do not depend on the
// goroutines.
func (f *fusedReduce) inBlocks() {
	size := f.accType.Size()
	partials, _ := empty(f.accType, []int{f.blocks - 1, f.n})
	f.r.Fill(f.accType, partials.storage, (f.blocks-1)*f.n, false)
	d := f.shape[0]
	step := (d + f.blocks - 1) / f.blocks
	ops := f.operands()
	iter.ParallelWorkers(f.blocks, f.w, func(_, lo, hi int) {
		run := f.newRun()
		defer run.release()
		sub := slices.Clone(f.shape)
		bases := run.bases
		for k := lo; k < hi; k++ {
			first, last := k*step, min((k+1)*step, d)
			sub[0] = last - first
			for i := range ops {
				run.bases[i] = unsafe.Add(bases[i], first*ops[i][0])
			}
			if k > 0 {
				run.bases[0] = unsafe.Add(partials.storage, (k-1)*f.n*size)
			} else {
				run.bases[0] = bases[0]
			}
			iter.NewPlan(sub, ops...).Run(run.bases[:run.nops], run.kernel)
		}
	})
	combine := f.r.Combine(f.accType)
	for k := range f.blocks - 1 {
		combine([]unsafe.Pointer{f.bases[0], unsafe.Add(partials.storage, k*f.n*size)}, []int{size, size}, f.n)
	}
}

// run makes the accumulators and walks the plan into them. Where the
// accumulators are wider than the result (float32 summed in float64) and
// each tile's are contiguous, they live in a tile buffer of the goroutine's
// and are rounded into the result as each tile is done (see part): no
// accumulator array of the result's size to fault in, fill and convert.
func (f *fusedReduce) run() (*Tensor, error) {
	if f.tiledAccumulators() {
		out, err := newProductTensor(f.rd, f.rs)
		if err != nil {
			return nil, wrapErr(f.r.Name, err)
		}
		f.out = out.storage
		if f.w <= 1 {
			f.part(f.split, 0, 0)
		} else {
			f.kept()
		}
		return out, nil
	}
	acc, err := newProductTensor(f.accType, f.rs)
	if err != nil {
		return nil, wrapErr(f.r.Name, err)
	}
	f.r.Fill(f.accType, acc.storage, f.n, false)
	f.bases[0] = acc.storage
	switch {
	case f.n == 1:
		f.all()
	case f.blocks > 1:
		f.inBlocks()
	case f.w <= 1:
		f.part(f.split, 0, 0)
	default:
		f.kept()
	}
	if f.accType == f.rd {
		return acc, nil
	}
	out, err := newProductTensor(f.rd, f.rs)
	if err != nil {
		return nil, wrapErr(f.r.Name, err)
	}
	err = copyInto(out, acc)
	acc.Release() // the accumulators are this call's alone
	return out, err
}

// tiledAccumulators reports whether part keeps the accumulators in tile
// buffers: they are not the result's dtype, there are several, the kept
// dimensions outside split have one index (so a tile's accumulators are
// contiguous), and two indices of split fit a tile buffer.
func (f *fusedReduce) tiledAccumulators() bool {
	if f.accType == f.rd || f.n <= 1 || f.split < 0 || f.blocks > 1 {
		return false
	}
	for i := range f.split {
		if f.strides[0][i] != 0 && f.shape[i] > 1 {
			return false
		}
	}
	return 2*f.accPerIndex() <= fusedAccTile
}

// accPerIndex is the accumulator bytes per index of split.
func (f *fusedReduce) accPerIndex() int { return f.n / f.shape[f.split] * f.accType.Size() }

// fusedReduceMin is the product size from which reduceOfBinary fuses: below
// it the product is a few cache lines and forming it costs nothing.
const fusedReduceMin = 1 << 12

// fusedRunMin is the shortest run reduceOfBinary fuses: each run costs two
// kernel calls per piece, which rows of a few elements would not repay.
const fusedRunMin = 128

// fusedReduce is one reduction of a binary operation's results: its
// operation, operands (accumulators, a, b), their byte strides over the
// broadcast shape and its plan, how the work is shared (w goroutines,
// along dimension split), and the side product, if any.
type fusedReduce struct {
	r          *ewise.Reduction
	op         *ewise.Binary
	c, accType dtype.DType
	rd         dtype.DType // the result's dtype
	rs         []int       // the result's shape
	n          int         // the number of accumulators
	split, w   int
	blocks     int // blocks along dimension 0 (see inBlocks), or 0
	dts        [3]dtype.DType
	bases      [3]unsafe.Pointer
	strides    [3][]int
	shape      []int
	plan       *iter.Plan
	side       *fusedSide
	out        unsafe.Pointer // the result, when the accumulators are tiled
}

// fusedSide is MulWithSum's side product out = a·u, out contiguous like a
// (and of its dtype), so that a piece's place in out follows from its
// place in a, and u the plan's fourth operand.
type fusedSide struct {
	out, g, u unsafe.Pointer
	uStrides  []int
	kernel    iter.Kernel
	both      ewise.MulWithSumKernel    // contiguous runs of both results at once, or nil
	pair      ewise.MulScalarPairKernel // u one number along the run: both products at once, or nil
	fence     bool                      // both streams out: each goroutine fences when done
}

// operands are the plan's operands' strides: three, or four with the side
// product's.
func (f *fusedReduce) operands() [][]int {
	if f.side != nil {
		return [][]int{f.strides[0], f.strides[1], f.strides[2], f.side.uStrides}
	}
	return f.strides[:]
}

// all reduces everything into the one accumulator: each chunk of
// reduceChunk elements, in the plan's order, into a partial of its own,
// the chunks shared between goroutines, then the partials in chunk order
// (as reduceAll does), so that the bits do not depend on the goroutines.
func (f *fusedReduce) all() {
	p := f.plan
	chunks := p.Chunks(reduceChunk)
	partials, _ := empty(f.accType, []int{chunks})
	f.r.Fill(f.accType, partials.storage, chunks, false)
	size := f.accType.Size()
	iter.ParallelWorkers(chunks, f.w, func(_, lo, hi int) {
		run := f.newRun()
		defer run.release()
		for c := lo; c < hi; c++ {
			run.bases = [4]unsafe.Pointer{unsafe.Add(partials.storage, c*size), f.bases[1], f.bases[2], run.bases[3]}
			p.RunChunk(run.bases[:run.nops], c, reduceChunk, run.kernel)
		}
	})
	f.r.Combine(f.accType)([]unsafe.Pointer{f.bases[0], partials.storage}, []int{0, size}, chunks)
}

// kept shares the work out along the kept dimension split, in w equal
// parts of at least two indices (so that no part's plan drops the
// dimension and walks the others in another order): every accumulator is
// then computed by one goroutine, in the order one goroutine alone would
// take. Equal parts rather than Parallel's many small ones: a part is a
// strip of every row when split is the inner dimension, and narrow strips
// would read each row in pieces far apart in time.
func (f *fusedReduce) kept() {
	split, w := f.split, f.w
	d := f.shape[split]
	pairs := d / 2
	iter.ParallelWorkers(w, w, func(_, lo, hi int) {
		for k := lo; k < hi; k++ {
			first, last := 2*(k*pairs/w), 2*((k+1)*pairs/w)
			if k == w-1 {
				last = d
			}
			f.part(split, first, last)
		}
	})
}

// part runs indices [lo, hi) of dimension split (all of it when hi is 0),
// in tiles along it whose accumulators stay in the second-level cache
// while every reduced index folds into them: the plan walks dimensions in
// memory order, so a reduced dimension outside the kept ones (a batch
// summed onto one matrix) would sweep all the accumulators once per index.
// Tiles change which runs the kernel sees, never the order in which an
// accumulator receives its terms.
func (f *fusedReduce) part(split, lo, hi int) {
	run := f.newRun()
	defer run.release()
	if hi == 0 {
		if split < 0 {
			f.plan.Run(run.bases[:run.nops], run.kernel)
			return
		}
		hi = f.shape[split]
	}
	per := f.accPerIndex()
	t := max(2, fusedAccTile/per)
	ops := f.operands()
	sub := slices.Clone(f.shape)
	bases := run.bases
	var tile *fusedTile
	if f.out != nil {
		tile = fusedTilePool.Get()
		defer fusedTilePool.Put(tile)
	}
	for first := lo; first < hi; first += t {
		last := min(first+t, hi)
		if hi-last < 2 {
			last = hi // no tile of one index: its plan would drop the dimension
		}
		sub[split] = last - first
		for k := range ops {
			if k > 0 || tile == nil { // tiled accumulators have no array to offset
				run.bases[k] = unsafe.Add(bases[k], first*ops[k][split])
			}
		}
		if tile != nil {
			// The tile's accumulators, contiguous, start the buffer.
			count := (last - first) * per / f.accType.Size()
			run.bases[0] = unsafe.Pointer(&tile[0])
			f.r.Fill(f.accType, run.bases[0], count, false)
			iter.NewPlan(sub, ops...).Run(run.bases[:run.nops], run.kernel)
			rs := f.rd.Size()
			cast.Kernel(f.rd, f.accType)(unsafe.Add(f.out, first*per/f.accType.Size()*rs), rs, run.bases[0], f.accType.Size(), count)
		} else {
			iter.NewPlan(sub, ops...).Run(run.bases[:run.nops], run.kernel)
		}
		first = last - t
	}
}

// fusedTile is a tile buffer of accumulators: fusedAccTile bytes and one
// more index's worth (the last tile of a part may take one index more).
type fusedTile [fusedAccTile + fusedAccTile/2]byte

var fusedTilePool = scratch.List[fusedTile]{New: func() *fusedTile { return new(fusedTile) }}

// fusedAccTile bounds the accumulators one tile of part folds into: half
// the 2 MiB second-level cache of current cores, the rest for the operands
// streaming through.
const fusedAccTile = 512 << 10

// newRun returns a goroutine's fused kernel, with a buffer of its own, and
// its operands' bases.
func (f *fusedReduce) newRun() *fusedRun {
	run := fusedRunPool.Get()
	run.red, run.size = f.r.Kernel(f.c), f.c.Size()
	run.piece = len(run.buf) / run.size
	run.accSize = f.accType.Size()
	run.bin, run.promoter = f.op.Kernel(f.c), nil
	if f.dts != [3]dtype.DType{f.c, f.c, f.c} {
		run.promoter = f.op.GetPromoter(f.c, f.dts)
		run.bin = run.promoter.Kernel
	}
	run.bases = [4]unsafe.Pointer{f.bases[0], f.bases[1], f.bases[2]}
	run.nops, run.side = 3, f.side
	if f.side != nil {
		run.bases[3], run.nops = f.side.u, 4
	}
	return run
}

// fusedRun is one goroutine's kernel of a fused reduction: each run of
// [acc, a, b] is cut into pieces of the buffer's length; a piece's results
// of the binary operation go into the buffer and are folded into the
// piece's accumulators (one, when the run is along reduced dimensions) by
// the reduction's run kernel while they are in the first-level cache. With
// a side product, the piece of a is first multiplied by u's into out.
type fusedRun struct {
	bin, red iter.Kernel
	promoter *ewise.Promoter
	side     *fusedSide
	size     int // the compute dtype's element size
	accSize  int // the accumulators' element size
	piece    int // elements per piece
	kernel   iter.Kernel
	bases    [4]unsafe.Pointer
	nops     int
	ptrs3    [3]unsafe.Pointer
	strides3 [3]int
	ptrs2    [2]unsafe.Pointer
	strides2 [2]int
	buf      [fusedPieceBytes]byte
}

// fusedPieceBytes is a piece's buffer: with a piece of each operand and of
// the accumulators it stays in the 48 KiB first-level cache.
const fusedPieceBytes = 8 << 10

var fusedRunPool = scratch.List[fusedRun]{New: func() *fusedRun {
	f := new(fusedRun)
	f.kernel = f.run // bound once: a method value made per use would allocate
	return f
}}

func (f *fusedRun) run(ptrs []unsafe.Pointer, strides []int, n int) {
	sacc, sa, sb := strides[0], strides[1], strides[2]
	if s := f.side; s != nil && s.both != nil && sacc == f.accSize && sa == f.size && sb == f.size && strides[3] == f.size {
		// A run along kept dimensions, everything contiguous (a bias's
		// rows, a batch operand's): each accumulator takes one term, so
		// one pass over the run gives the pieces' bits.
		s.both(unsafe.Add(s.out, int(uintptr(ptrs[1])-uintptr(s.g))), ptrs[1], ptrs[3], ptrs[2], ptrs[0], n)
		return
	}
	buf := unsafe.Pointer(&f.buf[0])
	s := f.side
	pair := s != nil && s.pair != nil && strides[3] == 0 && sa == f.size && sb == f.size
	for i := 0; i < n; i += f.piece {
		k := min(f.piece, n-i)
		a, b := unsafe.Add(ptrs[1], i*sa), unsafe.Add(ptrs[2], i*sb)
		switch {
		case pair:
			// u one number along the run (a column's, a scalar's): both
			// products from one load of a, the buffer folded below. out
			// is laid out like a, whose dtype it has.
			s.pair(unsafe.Add(s.out, int(uintptr(a)-uintptr(s.g))), buf, a, b, ptrs[3], k)
		case s != nil:
			f.ptrs3 = [3]unsafe.Pointer{unsafe.Add(s.out, int(uintptr(a)-uintptr(s.g))), a, unsafe.Add(ptrs[3], i*strides[3])}
			f.strides3 = [3]int{sa, sa, strides[3]}
			s.kernel(f.ptrs3[:], f.strides3[:], k)
			fallthrough
		default:
			f.ptrs3 = [3]unsafe.Pointer{buf, a, b}
			f.strides3 = [3]int{f.size, sa, sb}
			f.bin(f.ptrs3[:], f.strides3[:], k)
		}
		f.ptrs2 = [2]unsafe.Pointer{unsafe.Add(ptrs[0], i*sacc), buf}
		f.strides2 = [2]int{sacc, f.size}
		f.red(f.ptrs2[:], f.strides2[:], k)
	}
}

// release returns the kernel to its pool, dropping what it pointed at.
func (f *fusedRun) release() {
	if f.side != nil && f.side.fence {
		vec.FenceStreaming() // before the goroutine hands its part of out over
	}
	if f.promoter != nil {
		f.promoter.Release()
	}
	f.promoter, f.bin, f.red, f.side = nil, nil, nil, nil
	f.bases, f.ptrs3, f.ptrs2 = [4]unsafe.Pointer{}, [3]unsafe.Pointer{}, [2]unsafe.Pointer{}
	fusedRunPool.Put(f)
}

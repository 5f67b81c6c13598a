package ewise

import (
	"math"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/cast"
	"github.com/tensor-go/tensor/internal/scratch"
	"github.com/tensor-go/tensor/internal/vec"
)

// MaxSegment is the longest segment a SegmentsKernel takes. Up to it the
// canonical order of vec's folds (32 lanes, folded pairwise) is a tree of
// at most 16 leaves that the kernels write out; a longer run is worth the
// run kernel's call.
const MaxSegment = 16

// SegmentsKernel folds n short segments of x, each into one accumulator:
// accumulator i (at acc + i·sacc bytes, of the Accumulator dtype) takes
// segment i, seg ≤ MaxSegment elements that start at x + i·sx bytes and lie
// sseg bytes apart. It computes what the run kernel computes with each
// segment as a run into one accumulator (acc stride 0), in the same order,
// so results are the same bit for bit; it only saves the call per segment,
// which for a reduction over a last axis of length 3 was nine tenths of
// the time.
type SegmentsKernel func(acc, x unsafe.Pointer, sacc, sx, n, seg, sseg int)

// Segments returns the SegmentsKernel for input dtype dt, or nil when dt
// has none.
func (r *Reduction) Segments(dt dtype.DType) SegmentsKernel {
	if !dt.Valid() || r.segments == nil {
		return nil
	}
	return r.segments[dt]
}

// withSegments fills r's table of segment kernels from table.
func (r *Reduction) withSegments(table func(dtype.DType) SegmentsKernel) *Reduction {
	r.segments = new([numDTypes]SegmentsKernel)
	for _, dt := range dtype.All {
		r.segments[dt] = table(dt)
	}
	return r
}

// prodSegments is Prod's table of segment kernels.
func prodSegments(dt dtype.DType) SegmentsKernel {
	switch dt {
	case dtype.Bool:
		return loopSegments(prodBoolLoop)
	case dtype.Int8:
		return prodIntSegments[int8, int32]
	case dtype.Uint8:
		return prodIntSegments[uint8, uint32]
	case dtype.Int16:
		return prodIntSegments[int16, int32]
	case dtype.Uint16:
		return prodIntSegments[uint16, uint32]
	case dtype.Int32:
		return prodIntSegments[int32, int32]
	case dtype.Uint32:
		return prodIntSegments[uint32, uint32]
	case dtype.Int64:
		return prodIntSegments[int64, int64]
	case dtype.Uint64:
		return prodIntSegments[uint64, uint64]
	case dtype.Float32:
		return prodFloatSegments[float32](prodLoop[float32, float64])
	case dtype.Float64:
		return prodFloatSegments[float64](prodLoop[float64, float64])
	case dtype.Float16:
		return halfSegments(dt, true, prodHalfLoop(f16ToF32))
	case dtype.BFloat16:
		return halfSegments(dt, true, prodHalfLoop(bf16ToF32))
	case dtype.Complex64:
		return complexProdSegments[complex64]
	case dtype.Complex128:
		return complexProdSegments[complex128]
	}
	return nil
}

// sumSegments is Sum's table of segment kernels.
func sumSegments(dt dtype.DType) SegmentsKernel {
	switch dt {
	case dtype.Bool:
		return sumIntSegments[uint8, int32] // bool bytes are 0 or 1
	case dtype.Int8:
		return sumIntSegments[int8, int32]
	case dtype.Uint8:
		return sumIntSegments[uint8, uint32]
	case dtype.Int16:
		return sumIntSegments[int16, int32]
	case dtype.Uint16:
		return sumIntSegments[uint16, uint32]
	case dtype.Int32:
		return sumIntSegments[int32, int32]
	case dtype.Uint32:
		return sumIntSegments[uint32, uint32]
	case dtype.Int64:
		return sumIntSegments[int64, int64]
	case dtype.Uint64:
		return sumIntSegments[uint64, uint64]
	case dtype.Float32:
		return sumFloatSegments[float32](sumLoop[float32, float64])
	case dtype.Float64:
		return sumFloatSegments[float64](sumLoop[float64, float64])
	case dtype.Float16:
		return halfSegments(dt, false, sumHalfLoop(f16ToF32))
	case dtype.BFloat16:
		return halfSegments(dt, false, sumHalfLoop(bf16ToF32))
	case dtype.Complex64:
		return complexSumSegments[complex64]
	case dtype.Complex128:
		return complexSumSegments[complex128]
	}
	return nil
}

// loopSegments runs a reduction's plain loop once per segment: the run
// kernel's own path for the dtypes and layouts that have no vec kernel.
func loopSegments(loop reduceLoop) SegmentsKernel {
	return func(acc, x unsafe.Pointer, sacc, sx, n, seg, sseg int) {
		for i := range n {
			loop(unsafe.Add(acc, i*sacc), unsafe.Add(x, i*sx), 0, sseg, seg)
		}
	}
}

// prodIntSegments multiplies integer segments into their accumulators.
// Wrapping products have the same bits in any order, vec's lanes included.
func prodIntSegments[X, A integer](acc, x unsafe.Pointer, sacc, sx, n, seg, sseg int) {
	for i := range n {
		a, s := at[A](acc, i, sacc), unsafe.Add(x, i*sx)
		p := *a
		for j := range seg {
			p *= A(*at[X](s, j, sseg))
		}
		*a = p
	}
}

// sumIntSegments is prodIntSegments for the sum.
func sumIntSegments[X, A integer](acc, x unsafe.Pointer, sacc, sx, n, seg, sseg int) {
	for i := range n {
		a, s := at[A](acc, i, sacc), unsafe.Add(x, i*sx)
		p := *a
		for j := range seg {
			p += A(*at[X](s, j, sseg))
		}
		*a = p
	}
}

// The float kernels. A contiguous run goes to vec, whose order puts
// element j in lane j (lanes start at the identity) and folds the lanes
// pairwise: lane j with lane j+16, then j+8, j+4, j+2, j+1. For a run of
// seg ≤ 16 elements the lanes past seg hold the identity, an exact no-op
// on every value (NaN stays NaN), so the result is the tree that pairing
// makes of the seg elements: ((x0 x2) x1) for three, ((x0 x2)(x1 x3))
// for four; the accumulator then takes it with one more operation. A
// strided run goes to the plain loop, one element after another, and so
// do these kernels.

// prodFloatSegments multiplies segments of T into float64 accumulators.
func prodFloatSegments[T float32 | float64](loop reduceLoop) SegmentsKernel {
	return func(acc, x unsafe.Pointer, sacc, sx, n, seg, sseg int) {
		if !UseVec || sseg != int(unsafe.Sizeof(T(0))) {
			loopSegments(loop)(acc, x, sacc, sx, n, seg, sseg)
			return
		}
		prodTree[T](acc, x, sacc, sx, n, seg)
	}
}

// prodTree is prodFloatSegments for contiguous segments, in vec's order.
func prodTree[T float32 | float64](acc, x unsafe.Pointer, sacc, sx, n, seg int) {
	switch seg {
	case 1:
		for i := range n {
			*at[float64](acc, i, sacc) *= float64(*at[T](x, i, sx))
		}
	case 2:
		for i := range n {
			s := (*[2]T)(unsafe.Add(x, i*sx))
			*at[float64](acc, i, sacc) *= float64(s[0]) * float64(s[1])
		}
	case 3:
		if sacc == 8 && sx == 3*int(unsafe.Sizeof(T(0))) { // rows of three, one after another
			seg3[T](acc, x, n, vec.ProdSeg3F32, vec.ProdSeg3F64)
			return
		}
		for i := range n {
			s := (*[3]T)(unsafe.Add(x, i*sx))
			*at[float64](acc, i, sacc) *= float64(s[0]) * float64(s[2]) * float64(s[1])
		}
	case 4:
		for i := range n {
			s := (*[4]T)(unsafe.Add(x, i*sx))
			*at[float64](acc, i, sacc) *= (float64(s[0]) * float64(s[2])) * (float64(s[1]) * float64(s[3]))
		}
	case 5:
		for i := range n {
			s := (*[5]T)(unsafe.Add(x, i*sx))
			*at[float64](acc, i, sacc) *= ((float64(s[0]) * float64(s[4])) * float64(s[2])) * (float64(s[1]) * float64(s[3]))
		}
	case 6:
		for i := range n {
			s := (*[6]T)(unsafe.Add(x, i*sx))
			*at[float64](acc, i, sacc) *= ((float64(s[0]) * float64(s[4])) * float64(s[2])) * ((float64(s[1]) * float64(s[5])) * float64(s[3]))
		}
	case 7:
		for i := range n {
			s := (*[7]T)(unsafe.Add(x, i*sx))
			*at[float64](acc, i, sacc) *= ((float64(s[0]) * float64(s[4])) * (float64(s[2]) * float64(s[6]))) * ((float64(s[1]) * float64(s[5])) * float64(s[3]))
		}
	case 8:
		for i := range n {
			s := (*[8]T)(unsafe.Add(x, i*sx))
			*at[float64](acc, i, sacc) *= ((float64(s[0]) * float64(s[4])) * (float64(s[2]) * float64(s[6]))) * ((float64(s[1]) * float64(s[5])) * (float64(s[3]) * float64(s[7])))
		}
	default:
		for i := range n {
			*at[float64](acc, i, sacc) *= prodFold[T](unsafe.Add(x, i*sx), seg)
		}
	}
}

// sumFloatSegments adds segments of T into float64 accumulators.
func sumFloatSegments[T float32 | float64](loop reduceLoop) SegmentsKernel {
	return func(acc, x unsafe.Pointer, sacc, sx, n, seg, sseg int) {
		if !UseVec || sseg != int(unsafe.Sizeof(T(0))) {
			loopSegments(loop)(acc, x, sacc, sx, n, seg, sseg)
			return
		}
		sumTree[T](acc, x, sacc, sx, n, seg)
	}
}

// sumTree is sumFloatSegments for contiguous segments, in vec's order.
func sumTree[T float32 | float64](acc, x unsafe.Pointer, sacc, sx, n, seg int) {
	switch seg {
	case 1:
		for i := range n {
			*at[float64](acc, i, sacc) += float64(*at[T](x, i, sx))
		}
	case 2:
		for i := range n {
			s := (*[2]T)(unsafe.Add(x, i*sx))
			*at[float64](acc, i, sacc) += float64(s[0]) + float64(s[1])
		}
	case 3:
		if sacc == 8 && sx == 3*int(unsafe.Sizeof(T(0))) {
			seg3[T](acc, x, n, vec.SumSeg3F32, vec.SumSeg3F64)
			return
		}
		for i := range n {
			s := (*[3]T)(unsafe.Add(x, i*sx))
			*at[float64](acc, i, sacc) += float64(s[0]) + float64(s[2]) + float64(s[1])
		}
	case 4:
		for i := range n {
			s := (*[4]T)(unsafe.Add(x, i*sx))
			*at[float64](acc, i, sacc) += (float64(s[0]) + float64(s[2])) + (float64(s[1]) + float64(s[3]))
		}
	case 5:
		for i := range n {
			s := (*[5]T)(unsafe.Add(x, i*sx))
			*at[float64](acc, i, sacc) += ((float64(s[0]) + float64(s[4])) + float64(s[2])) + (float64(s[1]) + float64(s[3]))
		}
	case 6:
		for i := range n {
			s := (*[6]T)(unsafe.Add(x, i*sx))
			*at[float64](acc, i, sacc) += ((float64(s[0]) + float64(s[4])) + float64(s[2])) + ((float64(s[1]) + float64(s[5])) + float64(s[3]))
		}
	case 7:
		for i := range n {
			s := (*[7]T)(unsafe.Add(x, i*sx))
			*at[float64](acc, i, sacc) += ((float64(s[0]) + float64(s[4])) + (float64(s[2]) + float64(s[6]))) + ((float64(s[1]) + float64(s[5])) + float64(s[3]))
		}
	case 8:
		for i := range n {
			s := (*[8]T)(unsafe.Add(x, i*sx))
			*at[float64](acc, i, sacc) += ((float64(s[0]) + float64(s[4])) + (float64(s[2]) + float64(s[6]))) + ((float64(s[1]) + float64(s[5])) + (float64(s[3]) + float64(s[7])))
		}
	default:
		for i := range n {
			*at[float64](acc, i, sacc) += sumFold[T](unsafe.Add(x, i*sx), seg)
		}
	}
}

// seg3 hands n contiguous rows of three T at x, into n contiguous float64
// accumulators, to vec's kernel for T (the same steps as the trees' loops,
// so the same bits).
func seg3[T float32 | float64](acc, x unsafe.Pointer, n int, f32 func([]float64, []float32), f64 func(acc, x []float64)) {
	if unsafe.Sizeof(T(0)) == 4 {
		f32(run[float64](acc, n), run[float32](x, 3*n))
		return
	}
	f64(run[float64](acc, n), run[float64](x, 3*n))
}

// halfSegments folds segments of a 16-bit float type dt by widening them,
// a batch at a time, to float32 and handing them to the float32 tree
// (prodTree or sumTree, as prod says), which carries them in float64:
// widening is exact and vec's half folds take the same lanes in the same
// order, so the bits are the same. float32, not float64: the widening is
// one vector pass (F16C, or a shift) instead of two, the batch half the
// size, and rows of three go to the float32 kernels (a sum over a last
// axis of 10^6×3 bfloat16: 9.2 -> 5.6 ms of CPU, one thread, Xeon
// Sapphire Rapids under KVM).
func halfSegments(dt dtype.DType, prod bool, loop reduceLoop) SegmentsKernel {
	widen := cast.BrainToFloat32
	if dt == dtype.Float16 {
		widen = cast.HalfToFloat32
	}
	return func(acc, x unsafe.Pointer, sacc, sx, n, seg, sseg int) {
		if !UseVec || sseg != 2 {
			loopSegments(loop)(acc, x, sacc, sx, n, seg, sseg)
			return
		}
		b := halfBuffers.Get()
		defer halfBuffers.Put(b)
		buf := b[:]
		per := halfBatch / seg
		for lo := 0; lo < n; lo += per {
			k := min(per, n-lo)
			xb := unsafe.Add(x, lo*sx)
			if sx == 2*seg { // the batch is one run: cast's vector widening
				widen(buf[:k*seg], run[uint16](xb, k*seg))
			} else {
				for i := range k {
					widenHalves(dt, buf[i*seg:], run[uint16](unsafe.Add(xb, i*sx), seg))
				}
			}
			if prod {
				prodTree[float32](unsafe.Add(acc, lo*sacc), unsafe.Pointer(b), sacc, 4*seg, k, seg)
			} else {
				sumTree[float32](unsafe.Add(acc, lo*sacc), unsafe.Pointer(b), sacc, 4*seg, k, seg)
			}
		}
	}
}

// widenHalves converts the float16 or bfloat16 (as dt says) elements of x
// into dst, exactly: for segments apart, each too short for a call of
// cast's kernels to pay.
func widenHalves(dt dtype.DType, dst []float32, x []uint16) {
	dst = dst[:len(x)]
	if dt == dtype.BFloat16 {
		for j, v := range x {
			dst[j] = bf16ToF32(v)
		}
		return
	}
	for j, v := range x {
		dst[j] = f16ToF32(v)
	}
}

// halfBatch is the float32 elements halfSegments widens at a time: 8 KiB,
// in the L1 cache while the float32 kernel reads them.
const halfBatch = 2048

// halfBuffers keeps halfSegments' batches between calls. On the stack the
// batch escaped to the heap (it goes to cast's kernels through a function
// value), so each call of the kernel, every 512 segments, allocated and
// cleared 8 KiB: 16 MB per sum over the last axis of 10^6×3 bfloat16.
var halfBuffers = scratch.List[[halfBatch]float32]{New: func() *[halfBatch]float32 { return new([halfBatch]float32) }}

// complexProdSegments multiplies segments of C into complex128
// accumulators one element after another, as prodComplexLoop does.
func complexProdSegments[C complex64 | complex128](acc, x unsafe.Pointer, sacc, sx, n, seg, sseg int) {
	for i := range n {
		a, s := at[complex128](acc, i, sacc), unsafe.Add(x, i*sx)
		p := *a
		for j := range seg {
			p = prodComplexStep(p, complex128(*at[C](s, j, sseg)))
		}
		*a = p
	}
}

// complexSumSegments adds segments of C into complex128 accumulators: a
// contiguous segment in vec's order for complex sums (element j in
// complex lane j, the lanes folded pairwise, as for floats), any other one
// element after another.
func complexSumSegments[C complex64 | complex128](acc, x unsafe.Pointer, sacc, sx, n, seg, sseg int) {
	if !UseVec || sseg != int(unsafe.Sizeof(C(0))) {
		for i := range n {
			a, s := at[complex128](acc, i, sacc), unsafe.Add(x, i*sx)
			p := *a
			for j := range seg {
				p += complex128(*at[C](s, j, sseg))
			}
			*a = p
		}
		return
	}
	for i := range n {
		var l [MaxSegment]complex128
		for j := range l {
			l[j] = complex(negZero, negZero)
		}
		for j, v := range run[C](unsafe.Add(x, i*sx), seg) {
			l[j] = complex128(v)
		}
		for j := range 8 {
			l[j] += l[j+8]
		}
		for j := range 4 {
			l[j] += l[j+4]
		}
		l[0] += l[2]
		l[1] += l[3]
		*at[complex128](acc, i, sacc) += l[0] + l[1]
	}
}

// negZero is -0, where float sums start (the identity of IEEE addition).
var negZero = math.Copysign(0, -1)

// prodFold is vec's fold for a segment of 9 to 16 elements at p: element
// j in lane j, lanes folded pairwise (j with j+8, then j+4, j+2, j+1).
// The lanes past the segment would hold 1, whose products are exact
// no-ops, so the first round multiplies element j by element j+8 where
// there is one, and the last three rounds are the full tree of eight; the
// written-out cases above are the same tree for shorter segments.
func prodFold[T float32 | float64](p unsafe.Pointer, seg int) float64 {
	e := int(unsafe.Sizeof(T(0)))
	x := func(j int) float64 { return float64(*at[T](p, j, e)) }
	l0, l1, l2, l3, l4, l5, l6, l7 := x(0), x(1), x(2), x(3), x(4), x(5), x(6), x(7)
	switch seg {
	case 16:
		l7 *= x(15)
		fallthrough
	case 15:
		l6 *= x(14)
		fallthrough
	case 14:
		l5 *= x(13)
		fallthrough
	case 13:
		l4 *= x(12)
		fallthrough
	case 12:
		l3 *= x(11)
		fallthrough
	case 11:
		l2 *= x(10)
		fallthrough
	case 10:
		l1 *= x(9)
		fallthrough
	case 9:
		l0 *= x(8)
	}
	return ((l0 * l4) * (l2 * l6)) * ((l1 * l5) * (l3 * l7))
}

// sumFold is prodFold for the sum (the left-out lanes would hold -0).
func sumFold[T float32 | float64](p unsafe.Pointer, seg int) float64 {
	e := int(unsafe.Sizeof(T(0)))
	x := func(j int) float64 { return float64(*at[T](p, j, e)) }
	l0, l1, l2, l3, l4, l5, l6, l7 := x(0), x(1), x(2), x(3), x(4), x(5), x(6), x(7)
	switch seg {
	case 16:
		l7 += x(15)
		fallthrough
	case 15:
		l6 += x(14)
		fallthrough
	case 14:
		l5 += x(13)
		fallthrough
	case 13:
		l4 += x(12)
		fallthrough
	case 12:
		l3 += x(11)
		fallthrough
	case 11:
		l2 += x(10)
		fallthrough
	case 10:
		l1 += x(9)
		fallthrough
	case 9:
		l0 += x(8)
	}
	return ((l0 + l4) + (l2 + l6)) + ((l1 + l5) + (l3 + l7))
}

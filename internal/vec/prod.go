package vec

// Lane counts of the canonical product order (see the package comment): 256
// bytes of accumulators, one AVX-512 register set of four or AVX2 set of
// eight.
const (
	lanes4 = 64 // 4-byte accumulators
	lanes8 = 32 // 8-byte accumulators
)

// prodKernels is one implementation of every product-reduction kernel. Each
// multiplies the full blocks of a run (the caller passes a length that is a
// multiple of the lane count) into lanes that start at 1 and returns them;
// the exported functions fold in the tail and combine the lanes in Go, so
// every implementation shares that part of the order by construction.
// Returning the lanes by value keeps them off the heap.
type prodKernels struct {
	f32 func(a []float32) [lanes8]float64
	// f32Pair is ProdF32 of a and of b, runs of equal length, whole
	// (tails and folds included, so the two results travel as two
	// floats); nil where the set has none, and ProdF32Pair then reduces
	// the runs one after the other.
	f32Pair func(a, b []float32) (float64, float64)
	f64     func(a []float64) [lanes8]float64
	// f64Pair is f32Pair for float64 runs (ProdF64 of each).
	f64Pair   func(a, b []float64) (float64, float64)
	i32       func(a []int32) [lanes4]int32
	i64       func(a []int64) [lanes8]int64
	i8        func(a []int8) [lanes4]int32
	u8        func(a []uint8) [lanes4]int32
	i16       func(a []int16) [lanes4]int32
	u16       func(a []uint16) [lanes4]int32
	f16, bf16 func(a []uint16) [lanes8]float64
	// c64 multiplies the full blocks of a complex64 run (at least one)
	// into 16 complex128 lanes, planar (see ProdC64 and unplanar).
	c64 func(a []complex64) [lanes8]float64
	// c128 is c64 for complex128 runs (see ProdC128).
	c128 func(a []complex128) [lanes8]float64

	// foldF64 is fold for float64 lanes: the same products in the same
	// order, so any implementation gives the same bits. The lanes pass by
	// value: through a function value a pointer would escape, and every
	// reduction would allocate its lanes.
	foldF64 func(l [lanes8]float64) float64
}

// ProdF32 returns the product of a, in float64, in the canonical order:
//
//	lane[j] = 1; for i, v := range a { lane[i%32] *= float64(v) }; fold lane pairwise
//
// A float64 product of float32 factors has no error that grows in one
// direction with the length: each of the n products rounds at 2^-53, far
// below the float32 result's own rounding, which the caller does once.
func ProdF32(a []float32) float64 {
	full := len(a) &^ (lanes8 - 1)
	lane := prodImpl.f32(a[:full])
	for j, v := range a[full:] {
		lane[j] *= float64(v)
	}
	return prodImpl.foldF64(lane)
}

// ProdF32Pair returns ProdF32(a) and ProdF32(b), bit for bit. Runs of
// equal length are read side by side where the kernel set can (see
// prodF32PairAVX512: two streams of memory in flight); a reduction with
// many runs (chunks of one, rows of a matrix) passes them in pairs.
func ProdF32Pair(a, b []float32) (float64, float64) {
	if len(a) != len(b) || prodImpl.f32Pair == nil {
		return ProdF32(a), ProdF32(b)
	}
	return prodImpl.f32Pair(a, b)
}

// ProdF64 returns the product of a in the canonical order:
//
//	lane[j] = 1; for i, v := range a { lane[i%32] *= v }; fold lane pairwise
func ProdF64(a []float64) float64 {
	full := len(a) &^ (lanes8 - 1)
	lane := prodImpl.f64(a[:full])
	for j, v := range a[full:] {
		lane[j] *= v
	}
	return prodImpl.foldF64(lane)
}

// ProdF64Pair returns ProdF64(a) and ProdF64(b), bit for bit, reading
// runs of equal length side by side, tails and folds included, where the
// kernel set can (AVX-512); others reduce the runs one after the other.
// Rows of a thousand float64 (a reduction over the last axis) then cost
// one call a pair instead of a block kernel, a Go tail and a fold a row.
func ProdF64Pair(a, b []float64) (float64, float64) {
	if len(a) != len(b) || prodImpl.f64Pair == nil {
		return ProdF64(a), ProdF64(b)
	}
	return prodImpl.f64Pair(a, b)
}

// ProdI32 returns the wrapping product of a (also serves uint32):
//
//	p := int32(1); for _, v := range a { p *= v }
func ProdI32(a []int32) int32 {
	full := len(a) &^ (lanes4 - 1)
	lane := prodImpl.i32(a[:full])
	for j, v := range a[full:] {
		lane[j] *= v
	}
	return fold(lane[:])
}

// ProdI64 returns the wrapping product of a (also serves uint64):
//
//	p := int64(1); for _, v := range a { p *= v }
func ProdI64(a []int64) int64 {
	full := len(a) &^ (lanes8 - 1)
	lane := prodImpl.i64(a[:full])
	for j, v := range a[full:] {
		lane[j] *= v
	}
	return fold(lane[:])
}

// ProdI8 returns the wrapping int32 product of a, int8 reducing to int32:
//
//	p := int32(1); for _, v := range a { p *= int32(v) }
func ProdI8(a []int8) int32 { return prodWiden(a, prodImpl.i8) }

// ProdU8 returns the wrapping uint32 product of a, uint8 reducing to uint32:
//
//	p := uint32(1); for _, v := range a { p *= uint32(v) }
func ProdU8(a []uint8) uint32 { return uint32(prodWiden(a, prodImpl.u8)) }

// ProdI16 returns the wrapping int32 product of a, int16 reducing to int32:
//
//	p := int32(1); for _, v := range a { p *= int32(v) }
func ProdI16(a []int16) int32 { return prodWiden(a, prodImpl.i16) }

// ProdU16 returns the wrapping uint32 product of a, uint16 reducing to
// uint32:
//
//	p := uint32(1); for _, v := range a { p *= uint32(v) }
func ProdU16(a []uint16) uint32 { return uint32(prodWiden(a, prodImpl.u16)) }

// ProdF16 returns the float64 product of binary16 bit patterns in the
// canonical order; the caller rounds it once to float16:
//
//	lane[j] = 1; for i, v := range a { lane[i%32] *= float64(f16ToF32(v)) }; fold lane pairwise
func ProdF16(a []uint16) float64 {
	full := len(a) &^ (lanes8 - 1)
	lane := prodImpl.f16(a[:full])
	for j, v := range a[full:] {
		lane[j] *= float64(f16ToF32(v))
	}
	return prodImpl.foldF64(lane)
}

// ProdBF16 returns the float64 product of bfloat16 bit patterns in the
// canonical order; the caller rounds it once to bfloat16:
//
//	lane[j] = 1; for i, v := range a { lane[i%32] *= float64(bf16ToF32(v)) }; fold lane pairwise
func ProdBF16(a []uint16) float64 {
	full := len(a) &^ (lanes8 - 1)
	lane := prodImpl.bf16(a[:full])
	for j, v := range a[full:] {
		lane[j] *= float64(bf16ToF32(v))
	}
	return prodImpl.foldF64(lane)
}

// small is an integer type narrow enough to be reduced in int32. Zero- or
// sign-extending it to int32 and multiplying there wraps to the same low 32
// bits whichever of int32 and uint32 the result is read as.
type small interface {
	~int8 | ~uint8 | ~int16 | ~uint16
}

// prodWiden reduces a narrow integer run with the given block kernel.
func prodWiden[E small](a []E, blocks func([]E) [lanes4]int32) int32 {
	full := len(a) &^ (lanes4 - 1)
	lane := blocks(a[:full])
	for j, v := range a[full:] {
		lane[j] *= int32(v)
	}
	return fold(lane[:])
}

// fold combines lanes pairwise, halving their number each round, and
// returns lane 0:
//
//	for half := len(lane) / 2; half > 0; half /= 2 { for j := range half { lane[j] *= lane[j+half] } }
//
// It is written out per lane count, with constant bounds, so that it runs
// free of bounds checks: on runs of a few hundred elements (a reduction
// over an inner axis of a 3-D tensor, say) the fold is a sizeable share of
// the work.
func fold[T number](lane []T) T {
	switch len(lane) {
	case lanes4:
		return fold64((*[lanes4]T)(lane))
	case lanes8:
		return fold32((*[lanes8]T)(lane))
	}
	for half := len(lane) / 2; half > 0; half /= 2 {
		for j := range half {
			lane[j] *= lane[j+half]
		}
	}
	return lane[0]
}

// foldGoF64 is the Go twin of the float fold.
func foldGoF64(l [lanes8]float64) float64 { return fold32(&l) }

// fold64 is fold for 64 lanes.
func fold64[T number](l *[64]T) T {
	for j := range 32 {
		l[j] *= l[j+32]
	}
	return fold32((*[32]T)(l[:32]))
}

// fold32 is fold for 32 lanes.
func fold32[T number](l *[32]T) T {
	for j := range 16 {
		l[j] *= l[j+16]
	}
	for j := range 8 {
		l[j] *= l[j+8]
	}
	for j := range 4 {
		l[j] *= l[j+4]
	}
	l[0] *= l[2]
	l[1] *= l[3]
	return l[0] * l[1]
}

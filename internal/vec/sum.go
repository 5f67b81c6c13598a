package vec

// sumKernels is one implementation of every sum-reduction kernel, laid out
// as prodKernels: each adds the full blocks of a run into lanes and
// returns them; the exported functions add in the tail and fold the lanes
// in Go (or, for float64 lanes, with foldF64), so every implementation
// shares that part of the order by construction.
//
// float32, float16 and bfloat16 are summed in float64 lanes: a float64
// sum of float32 values has no error that grows with the length in one
// direction (see the package comment on the order), and the caller rounds
// it once to the result type.
type sumKernels struct {
	f32     func(a []float32) [lanes8]float64
	f32Pair func(a, b []float32) (float64, float64) // see prodKernels.f32Pair
	// c64Pair is SumC64 of two complex64 runs of equal length, passed as
	// their parts (see SumC64Pair).
	c64Pair   func(a, b []float32) (complex128, complex128)
	f64       func(a []float64) [lanes8]float64
	f64Pair   func(a, b []float64) (float64, float64) // see prodKernels.f64Pair
	i32       func(a []int32) [lanes4]int32
	i64       func(a []int64) [lanes8]int64
	i8        func(a []int8) [lanes4]int32
	u8        func(a []uint8) [lanes4]int32
	i16       func(a []int16) [lanes4]int32
	u16       func(a []uint16) [lanes4]int32
	f16, bf16 func(a []uint16) [lanes8]float64

	// foldF64 is sumFold for float64 lanes (see prodKernels.foldF64).
	foldF64 func(l [lanes8]float64) float64
}

// SumF32 returns the sum of a, in float64, in the canonical order:
//
//	lane[j] = -0; for i, v := range a { lane[i%32] += float64(v) }; fold lane pairwise
//
// Lanes start at -0, the identity of IEEE addition, so that a sum of
// negative zeros is -0, as -0 + -0 is.
func SumF32(a []float32) float64 {
	full := len(a) &^ (lanes8 - 1)
	lane := sumImpl.f32(a[:full])
	for j, v := range a[full:] {
		lane[j] += float64(v)
	}
	return sumImpl.foldF64(lane)
}

// SumF32Pair returns SumF32(a) and SumF32(b), bit for bit, reading runs
// of equal length side by side where the kernel set can (see
// ProdF32Pair).
func SumF32Pair(a, b []float32) (float64, float64) {
	if len(a) != len(b) || sumImpl.f32Pair == nil {
		return SumF32(a), SumF32(b)
	}
	return sumImpl.f32Pair(a, b)
}

// SumF64 returns the sum of a in the canonical order:
//
//	lane[j] = -0; for i, v := range a { lane[i%32] += v }; fold lane pairwise
func SumF64(a []float64) float64 {
	full := len(a) &^ (lanes8 - 1)
	lane := sumImpl.f64(a[:full])
	for j, v := range a[full:] {
		lane[j] += v
	}
	return sumImpl.foldF64(lane)
}

// SumF64Pair returns SumF64(a) and SumF64(b), bit for bit, reading runs
// of equal length side by side where the kernel set can (see
// ProdF64Pair).
func SumF64Pair(a, b []float64) (float64, float64) {
	if len(a) != len(b) || sumImpl.f64Pair == nil {
		return SumF64(a), SumF64(b)
	}
	return sumImpl.f64Pair(a, b)
}

// SumF16 returns the float64 sum of binary16 bit patterns in the
// canonical order; the caller rounds it once to float16:
//
//	lane[j] = -0; for i, v := range a { lane[i%32] += float64(f16ToF32(v)) }; fold lane pairwise
func SumF16(a []uint16) float64 {
	full := len(a) &^ (lanes8 - 1)
	lane := sumImpl.f16(a[:full])
	for j, v := range a[full:] {
		lane[j] += float64(f16ToF32(v))
	}
	return sumImpl.foldF64(lane)
}

// SumBF16 returns the float64 sum of bfloat16 bit patterns in the
// canonical order; the caller rounds it once to bfloat16:
//
//	lane[j] = -0; for i, v := range a { lane[i%32] += float64(bf16ToF32(v)) }; fold lane pairwise
func SumBF16(a []uint16) float64 {
	full := len(a) &^ (lanes8 - 1)
	lane := sumImpl.bf16(a[:full])
	for j, v := range a[full:] {
		lane[j] += float64(bf16ToF32(v))
	}
	return sumImpl.foldF64(lane)
}

// SumI32 returns the wrapping sum of a (also serves uint32):
//
//	s := int32(0); for _, v := range a { s += v }
func SumI32(a []int32) int32 {
	full := len(a) &^ (lanes4 - 1)
	lane := sumImpl.i32(a[:full])
	for j, v := range a[full:] {
		lane[j] += v
	}
	return sumFold(lane[:])
}

// SumI64 returns the wrapping sum of a (also serves uint64):
//
//	s := int64(0); for _, v := range a { s += v }
func SumI64(a []int64) int64 {
	full := len(a) &^ (lanes8 - 1)
	lane := sumImpl.i64(a[:full])
	for j, v := range a[full:] {
		lane[j] += v
	}
	return sumFold(lane[:])
}

// SumI8 returns the wrapping int32 sum of a:
//
//	s := int32(0); for _, v := range a { s += int32(v) }
func SumI8(a []int8) int32 { return sumWiden(a, sumImpl.i8) }

// SumU8 returns the wrapping uint32 sum of a (also serves bool, whose
// bytes are 0 and 1: the sum counts the true elements):
//
//	s := uint32(0); for _, v := range a { s += uint32(v) }
func SumU8(a []uint8) uint32 { return uint32(sumWiden(a, sumImpl.u8)) }

// SumI16 returns the wrapping int32 sum of a:
//
//	s := int32(0); for _, v := range a { s += int32(v) }
func SumI16(a []int16) int32 { return sumWiden(a, sumImpl.i16) }

// SumU16 returns the wrapping uint32 sum of a:
//
//	s := uint32(0); for _, v := range a { s += uint32(v) }
func SumU16(a []uint16) uint32 { return uint32(sumWiden(a, sumImpl.u16)) }

// sumWiden sums a narrow integer run with the given block kernel.
func sumWiden[E small](a []E, blocks func([]E) [lanes4]int32) int32 {
	full := len(a) &^ (lanes4 - 1)
	lane := blocks(a[:full])
	for j, v := range a[full:] {
		lane[j] += int32(v)
	}
	return sumFold(lane[:])
}

// sumFold is fold for sums: lanes added pairwise, halving their number
// each round, written out per lane count as fold is.
func sumFold[T number](lane []T) T {
	switch len(lane) {
	case lanes4:
		l := (*[lanes4]T)(lane)
		for j := range 32 {
			l[j] += l[j+32]
		}
		return sumFold32((*[32]T)(l[:32]))
	case lanes8:
		return sumFold32((*[lanes8]T)(lane))
	}
	for half := len(lane) / 2; half > 0; half /= 2 {
		for j := range half {
			lane[j] += lane[j+half]
		}
	}
	return lane[0]
}

// sumFold32 is sumFold for 32 lanes.
func sumFold32[T number](l *[32]T) T {
	fold32To2(l)
	return l[0] + l[1]
}

// fold32To2 folds 32 lanes pairwise into lanes 0 and 1 (each lane j with
// j+16, then j+8, j+4, j+2): sumFold32's tree before its last addition,
// which is also how complexFold's 16 complex lanes meet.
func fold32To2[T number](l *[32]T) {
	for j := range 16 {
		l[j] += l[j+16]
	}
	for j := range 8 {
		l[j] += l[j+8]
	}
	for j := range 4 {
		l[j] += l[j+4]
	}
	l[0] += l[2]
	l[1] += l[3]
}

// sumFoldGoF64 is the Go twin of the float64 sum fold.
func sumFoldGoF64(l [lanes8]float64) float64 { return sumFold32(&l) }

package vec

import (
	"math"
	"math/rand/v2"
)

// guard is how many sentinel elements surround every output buffer.
const guard = 16

// maxEdge is the longest length tested exhaustively for an element of size
// bytes: three AVX-512 unrolled iterations (four vectors each) plus one.
func maxEdge(size int) int { return 3*4*64/size + 1 }

// testLengths returns every length up to maxEdge and some random longer
// ones.
func testLengths(r *rand.Rand, size int) []int {
	var ns []int
	for n := 0; n <= maxEdge(size); n++ {
		ns = append(ns, n)
	}
	for range 8 {
		ns = append(ns, maxEdge(size)+r.IntN(5000))
	}
	return ns
}

// testOffsets returns the alignment offsets (in elements) tried at length n:
// all sixteen near the edges that matter most, a rotating few elsewhere.
func testOffsets(n int) []int {
	if n <= 80 || n%61 == 0 {
		return []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	}
	return []int{n % 16, (n * 7) % 16}
}

// sliceAt returns n elements of a fresh buffer starting off elements in
// (after guard sentinels), and the whole buffer.
func sliceAt[T any](n, off int, fill func() T) (s, buf []T) {
	buf = make([]T, guard+off+n+guard)
	for i := range buf {
		buf[i] = fill()
	}
	return buf[guard+off : guard+off+n], buf
}

// sameF32 and sameF64 compare floats bit for bit, except that any NaN
// equals any NaN: payloads are not part of the contract.
func sameF32(x, y float32) bool {
	return math.Float32bits(x) == math.Float32bits(y) || x != x && y != y
}

func sameF64(x, y float64) bool {
	return math.Float64bits(x) == math.Float64bits(y) || x != x && y != y
}

func sameF16(x, y uint16) bool {
	isNaN := func(h uint16) bool { return h&0x7c00 == 0x7c00 && h&0x03ff != 0 }
	return x == y || isNaN(x) && isNaN(y)
}

func sameBF16(x, y uint16) bool {
	isNaN := func(h uint16) bool { return h&0x7f80 == 0x7f80 && h&0x007f != 0 }
	return x == y || isNaN(x) && isNaN(y)
}

func same[T comparable](x, y T) bool { return x == y }

// Random inputs. Floats mix specials (NaN, ±Inf, ±0, denormals, extremes)
// into values of random sign and exponent; half types use random bits,
// which cover every class.
var (
	specialsF32 = []float32{
		float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)),
		0, float32(math.Copysign(0, -1)), math.SmallestNonzeroFloat32, -1e-40,
		math.MaxFloat32, -math.MaxFloat32, 1, -1,
	}
	specialsF64 = []float64{
		math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
		math.SmallestNonzeroFloat64, -1e-310, math.MaxFloat64, -math.MaxFloat64, 1, -1,
	}
)

func randF32(r *rand.Rand) float32 {
	if r.IntN(8) == 0 {
		return specialsF32[r.IntN(len(specialsF32))]
	}
	v := float32(math.Ldexp(r.Float64()+0.5, r.IntN(80)-40))
	if r.IntN(2) == 0 {
		v = -v
	}
	return v
}

func randF64(r *rand.Rand) float64 {
	if r.IntN(8) == 0 {
		return specialsF64[r.IntN(len(specialsF64))]
	}
	v := math.Ldexp(r.Float64()+0.5, r.IntN(600)-300)
	if r.IntN(2) == 0 {
		v = -v
	}
	return v
}

func randI8(r *rand.Rand) int8     { return int8(r.Uint32()) }
func randI16(r *rand.Rand) int16   { return int16(r.Uint32()) }
func randI32(r *rand.Rand) int32   { return int32(r.Uint32()) }
func randI64(r *rand.Rand) int64   { return int64(r.Uint64()) }
func randU8(r *rand.Rand) uint8    { return uint8(r.Uint32()) }
func randU16(r *rand.Rand) uint16  { return uint16(r.Uint32()) }
func randBits(r *rand.Rand) uint16 { return uint16(r.Uint32()) }

// randSmallI32 keeps int32→float32 conversions exact about half the time
// and inexact (rounding) otherwise.
func randSmallI32(r *rand.Rand) int32 {
	if r.IntN(2) == 0 {
		return int32(r.Uint32())
	}
	return int32(r.IntN(1<<20)) - 1<<19
}

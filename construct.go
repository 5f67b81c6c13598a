package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"unsafe"

	"github.com/tensor-go/tensor/bfloat16"
	"github.com/tensor-go/tensor/dtype"
	"github.com/x448/float16"
)

// FromNested returns a new tensor holding a copy of v, which is a Go value
// of an element type (a 0-d tensor) or nested slices or arrays of one, to
// any depth: [][]int32{{1, 2, 3}, {4, 5, 6}} is an int32 tensor of shape
// (2, 3). The dtype follows the Go element type, as in FromSlice ([]int is
// int64, []float64 is float64); types defined on a basic type (type Celsius
// float64) count as that type.
//
// Every nesting level is one dimension, so the rank comes from the Go type:
// an empty [][]float32 has shape (0, 0). Rows of different lengths are an
// ErrShape error; a value that is not a number or bool is an ErrDType error.
func FromNested(v any) (*Tensor, error) {
	const op = "from_nested"
	if v == nil {
		return nil, opErr(op, ErrDType, "nil has no element type")
	}
	val := reflect.ValueOf(v)
	rank := 0
	et := val.Type()
	for et.Kind() == reflect.Slice || et.Kind() == reflect.Array {
		et = et.Elem()
		rank++
	}
	dt, ok := dtypeOfGoType(et)
	if !ok {
		return nil, opErr(op, ErrDType, "element type %v is not a tensor element type", et)
	}
	dims := make([]int, rank)
	cur := val
	for d := range rank {
		dims[d] = cur.Len()
		if dims[d] == 0 {
			break // deeper dimensions stay 0: there is no row to measure
		}
		cur = cur.Index(0)
	}
	t, err := empty(dt, dims)
	if err != nil {
		return nil, wrapErr(op, err)
	}
	if t.n == 0 {
		return t, nil
	}
	// View the storage as a Go array of the caller's element type, so that
	// each innermost row is one reflect.Copy. The layouts agree: the dtype
	// was chosen from that very type.
	dst := reflect.NewAt(reflect.ArrayOf(t.n, et), t.storage).Elem()
	if rank == 0 {
		dst.Index(0).Set(val)
		return t, nil
	}
	if _, err := copyNested(dst, 0, val, dims); err != nil {
		return nil, wrapErr(op, err)
	}
	return t, nil
}

// copyNested copies the nested value v, whose dimensions must be dims, into
// dst starting at element at, and returns the position after the last
// element written.
func copyNested(dst reflect.Value, at int, v reflect.Value, dims []int) (int, error) {
	if v.Len() != dims[0] {
		return 0, fmt.Errorf("ragged nested slice: a row has %d elements where %d were expected: %w", v.Len(), dims[0], ErrShape)
	}
	if len(dims) == 1 {
		reflect.Copy(dst.Slice(at, at+dims[0]), v)
		return at + dims[0], nil
	}
	for i := range dims[0] {
		var err error
		if at, err = copyNested(dst, at, v.Index(i), dims[1:]); err != nil {
			return 0, err
		}
	}
	return at, nil
}

var (
	float16Type  = reflect.TypeFor[float16.Float16]()
	bfloat16Type = reflect.TypeFor[bfloat16.BFloat16]()
)

// dtypeOfGoType maps a Go element type to its dtype by its kind, after the
// two 16-bit float types, which are recognised by identity (their kind is
// uint16).
func dtypeOfGoType(t reflect.Type) (DType, bool) {
	switch t {
	case float16Type:
		return Float16, true
	case bfloat16Type:
		return BFloat16, true
	}
	switch t.Kind() {
	case reflect.Bool:
		return Bool, true
	case reflect.Int:
		return dtypeOf[int](), true
	case reflect.Int8:
		return Int8, true
	case reflect.Int16:
		return Int16, true
	case reflect.Int32:
		return Int32, true
	case reflect.Int64:
		return Int64, true
	case reflect.Uint:
		return dtypeOf[uint](), true
	case reflect.Uint8:
		return Uint8, true
	case reflect.Uint16:
		return Uint16, true
	case reflect.Uint32:
		return Uint32, true
	case reflect.Uint64:
		return Uint64, true
	case reflect.Float32:
		return Float32, true
	case reflect.Float64:
		return Float64, true
	case reflect.Complex64:
		return Complex64, true
	case reflect.Complex128:
		return Complex128, true
	}
	return dtype.Invalid, false
}

// Zeros returns a new tensor of the given dtype and shape filled with zeros
// (false for bool).
func Zeros(dt DType, shape ...int) (*Tensor, error) {
	if err := checkDType("zeros", dt); err != nil {
		return nil, err
	}
	t, err := empty(dt, shape)
	return t, wrapErr("zeros", err)
}

// Ones returns a new tensor of the given dtype and shape filled with ones
// (true for bool).
func Ones(dt DType, shape ...int) (*Tensor, error) {
	return full("ones", 1, dt, shape)
}

// Full returns a new tensor of the given dtype and shape with every element
// equal to value, a Go bool or number (including float16.Float16 and
// bfloat16.BFloat16). The value must fit the dtype: an integer dtype takes
// only whole numbers within its range, a real dtype no complex number with
// a non-zero imaginary part; anything else is an ErrValue error. Floats
// round to the nearest value of the dtype (1e5 becomes +Inf in float16). A
// bool dtype takes any value, true when it is non-zero; a bool value is 1
// or 0 in a numeric dtype.
func Full(value any, dt DType, shape ...int) (*Tensor, error) {
	return full("full", value, dt, shape)
}

// full is Full under the name of the calling operation.
func full(op string, value any, dt DType, shape []int) (*Tensor, error) {
	if err := checkDType(op, dt); err != nil {
		return nil, err
	}
	elem, err := encodeElement(value, dt)
	if err != nil {
		return nil, wrapErr(op, err)
	}
	t, err := empty(dt, shape)
	if err != nil {
		return nil, wrapErr(op, err)
	}
	fillBytes(t, elem)
	return t, nil
}

// checkDType rejects dtype values outside the fifteen element types.
func checkDType(op string, dt DType) error {
	if !dt.Valid() {
		return opErr(op, ErrDType, "%v is not an element type", dt)
	}
	return nil
}

// elementBytes holds the encoding of one element of any dtype (at most 16
// bytes, for complex128), aligned for every element type.
type elementBytes [2]uint64

// fillBytes sets every element of the contiguous tensor t to the encoded
// element e, doubling the filled prefix with copy so that the fill costs a
// logarithmic number of calls whatever the element size.
func fillBytes(t *Tensor, e elementBytes) {
	size := t.dtype.Size()
	buf := unsafe.Slice((*byte)(t.storage), t.n*size)
	if len(buf) == 0 {
		return
	}
	copy(buf, unsafe.Slice((*byte)(unsafe.Pointer(&e)), size))
	for filled := size; filled < len(buf); filled *= 2 {
		copy(buf[filled:], buf[:filled])
	}
}

// Arange returns the int32 tensor [0, 1, ..., n-1], or one of the dtype
// given (at most one). It fails for a negative n, and for an integer dtype
// too narrow to hold n-1.
func Arange(n int, dt ...DType) (*Tensor, error) {
	const op = "arange"
	d := Int32
	switch len(dt) {
	case 0:
	case 1:
		d = dt[0]
	default:
		return nil, opErr(op, ErrValue, "at most one dtype, got %d", len(dt))
	}
	if n < 0 {
		return nil, opErr(op, ErrShape, "negative length %d", n)
	}
	return arange(op, 0, 1, n, d)
}

// ArangeRange returns the values start, start+step, start+2*step, ...
// that lie before stop (after it, for a negative step), as NumPy's
// arange(start, stop, step, dtype) does: ceil((stop-start)/step) elements,
// the i-th computed as start + i*step in float64 and then converted to dt.
// An integer dtype needs a whole start and step whose values all fit it.
// A zero or non-finite step, or a non-finite start or stop, is an ErrValue
// error. Use ArangeRange(0, 1, 0.25, tensor.Float32) for [0 0.25 0.5 0.75].
func ArangeRange(start, stop, step float64, dt DType) (*Tensor, error) {
	const op = "arange"
	for _, v := range []float64{start, stop, step} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, opErr(op, ErrValue, "start %v, stop %v and step %v must be finite", start, stop, step)
		}
	}
	if step == 0 {
		return nil, opErr(op, ErrValue, "step must not be zero")
	}
	count := math.Ceil((stop - start) / step)
	if count <= 0 {
		count = 0
	}
	if count > float64(maxBytes) {
		return nil, opErr(op, ErrShape, "%v elements are too many", count)
	}
	if dt.IsInteger() && (start != math.Trunc(start) || step != math.Trunc(step)) {
		return nil, opErr(op, ErrValue, "start %v and step %v must be whole numbers for %v", start, step, dt)
	}
	return arange(op, start, step, int(count), dt)
}

// arange fills a new tensor of n elements with start + i*step.
func arange(op string, start, step float64, n int, dt DType) (*Tensor, error) {
	if err := checkDType(op, dt); err != nil {
		return nil, err
	}
	if dt == Bool && n > 2 {
		return nil, opErr(op, ErrValue, "bool holds only 0 and 1, not %d values", n)
	}
	t, err := empty(dt, []int{n})
	if err != nil {
		return nil, wrapErr(op, err)
	}
	// The values are monotonic: if both ends fit the dtype, all do.
	if n > 0 {
		for _, v := range []float64{start, start + float64(float64(n-1)*step)} {
			if _, err := encodeElement(v, dt); err != nil {
				return nil, wrapErr(op, err)
			}
		}
	}
	// The product is rounded before the sum (no fused multiply-add on
	// any architecture), so every machine computes the same values.
	at := func(i int) float64 { return start + float64(float64(i)*step) }
	switch dt {
	case Bool:
		fillIndexed(storageOf[bool](t), func(i int) bool { return at(i) != 0 })
	case Int8:
		fillIndexed(storageOf[int8](t), func(i int) int8 { return int8(at(i)) })
	case Int16:
		fillIndexed(storageOf[int16](t), func(i int) int16 { return int16(at(i)) })
	case Int32:
		fillIndexed(storageOf[int32](t), func(i int) int32 { return int32(at(i)) })
	case Int64:
		fillIndexed(storageOf[int64](t), func(i int) int64 { return int64(at(i)) })
	case Uint8:
		fillIndexed(storageOf[uint8](t), func(i int) uint8 { return uint8(at(i)) })
	case Uint16:
		fillIndexed(storageOf[uint16](t), func(i int) uint16 { return uint16(at(i)) })
	case Uint32:
		fillIndexed(storageOf[uint32](t), func(i int) uint32 { return uint32(at(i)) })
	case Uint64:
		fillIndexed(storageOf[uint64](t), func(i int) uint64 { return uint64(at(i)) })
	case Float16:
		fillIndexed(storageOf[float16.Float16](t), func(i int) float16.Float16 { return halfFromFloat64(at(i)) })
	case BFloat16:
		fillIndexed(storageOf[bfloat16.BFloat16](t), func(i int) bfloat16.BFloat16 { return bfloat16.FromFloat64(at(i)) })
	case Float32:
		fillIndexed(storageOf[float32](t), func(i int) float32 { return float32(at(i)) })
	case Float64:
		fillIndexed(storageOf[float64](t), at)
	case Complex64:
		fillIndexed(storageOf[complex64](t), func(i int) complex64 { return complex(float32(at(i)), 0) })
	case Complex128:
		fillIndexed(storageOf[complex128](t), func(i int) complex128 { return complex(at(i), 0) })
	}
	return t, nil
}

// fillIndexed sets s[i] to value(i) for every i.
func fillIndexed[T any](s []T, value func(int) T) {
	for i := range s {
		s[i] = value(i)
	}
}

// Rand returns a tensor of the given dtype and shape filled with uniform
// pseudo-random values from a PCG generator seeded with seed, so that the
// same call always returns the same tensor. It is meant for tests and
// benchmarks.
//
// Floats are uniform in [lo, hi) before rounding to the dtype (rounding may
// reach hi in float16 and bfloat16); complex numbers have real and
// imaginary parts drawn that way. Integers are uniform over the whole
// numbers x with lo <= x < hi that the dtype holds (there must be one):
// Rand(seed, Int8, -3, 3) draws from -3..2, and Rand(seed, Uint8, 0, 1e9)
// from 0..255. Bools are fair coin flips; lo and hi are ignored.
func Rand(seed uint64, dt DType, lo, hi float64, shape ...int) (*Tensor, error) {
	const op = "rand"
	if err := checkDType(op, dt); err != nil {
		return nil, err
	}
	if dt != Bool && !(lo < hi && !math.IsInf(hi-lo, 0)) {
		return nil, opErr(op, ErrValue, "need finite lo < hi, got [%v, %v)", lo, hi)
	}
	t, err := empty(dt, shape)
	if err != nil {
		return nil, wrapErr(op, err)
	}
	// The second PCG word is a fixed odd constant so that one seed word
	// is enough to name a stream.
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	switch {
	case dt == Bool:
		fillRandom(storageOf[bool](t), func() bool { return rng.Uint64()&1 == 1 })
	case dt.IsInteger():
		first, last, ok := integerBounds(lo, hi, dt)
		if !ok {
			return nil, opErr(op, ErrValue, "no %v value lies in [%v, %v)", dt, lo, hi)
		}
		randomIntegers(t, rng, first, last)
	default:
		uniform := func() float64 { return lo + float64((hi-lo)*rng.Float64()) } // unfused: the same stream everywhere
		switch dt {
		case Float16:
			fillRandom(storageOf[float16.Float16](t), func() float16.Float16 { return halfFromFloat64(uniform()) })
		case BFloat16:
			fillRandom(storageOf[bfloat16.BFloat16](t), func() bfloat16.BFloat16 { return bfloat16.FromFloat64(uniform()) })
		case Float32:
			fillRandom(storageOf[float32](t), func() float32 { return float32(uniform()) })
		case Float64:
			fillRandom(storageOf[float64](t), uniform)
		case Complex64:
			fillRandom(storageOf[complex64](t), func() complex64 {
				re := uniform()
				return complex(float32(re), float32(uniform()))
			})
		case Complex128:
			fillRandom(storageOf[complex128](t), func() complex128 {
				re := uniform()
				return complex(re, uniform())
			})
		}
	}
	return t, nil
}

// integerBounds returns the first and last whole number in [lo, hi) that
// the integer dtype dt holds, as the bits of that dtype widened to 64 (two's
// complement for signed dtypes), and false when there is none.
func integerBounds(lo, hi float64, dt DType) (first, last uint64, ok bool) {
	minI, maxU := integerRange(dt)
	// Both ends of the dtype's range are powers of two (or their
	// negatives), exact in float64; top is one past the largest value.
	bottom, top := float64(minI), float64(maxU)+1
	if dt.Bits() == 64 && !dt.IsSigned() {
		top = 1 << 64
	}
	f, l := max(math.Ceil(lo), bottom), math.Ceil(hi)-1
	if f > l || f >= top || l < bottom {
		return 0, 0, false
	}
	toBits := func(x float64) uint64 {
		if x >= top {
			return maxU
		}
		if x < 0 {
			return uint64(int64(x))
		}
		return uint64(x)
	}
	return toBits(f), toBits(l), true
}

// randomIntegers fills the integer tensor t with whole numbers uniform in
// [first, last], given as the 64-bit patterns of values of its dtype.
func randomIntegers(t *Tensor, rng *rand.Rand, first, last uint64) {
	// Draw an offset below the span and add it to first in wrapping
	// 64-bit arithmetic, which is exact for signed values too.
	span := last - first + 1 // 0 stands for the full 2^64 values
	draw := func() uint64 {
		if span == 0 {
			return rng.Uint64()
		}
		return rng.Uint64N(span)
	}
	if t.dtype.IsSigned() {
		next := func() int64 { return int64(first + draw()) }
		switch t.dtype {
		case Int8:
			fillRandom(storageOf[int8](t), func() int8 { return int8(next()) })
		case Int16:
			fillRandom(storageOf[int16](t), func() int16 { return int16(next()) })
		case Int32:
			fillRandom(storageOf[int32](t), func() int32 { return int32(next()) })
		case Int64:
			fillRandom(storageOf[int64](t), next)
		}
		return
	}
	next := func() uint64 { return first + draw() }
	switch t.dtype {
	case Uint8:
		fillRandom(storageOf[uint8](t), func() uint8 { return uint8(next()) })
	case Uint16:
		fillRandom(storageOf[uint16](t), func() uint16 { return uint16(next()) })
	case Uint32:
		fillRandom(storageOf[uint32](t), func() uint32 { return uint32(next()) })
	case Uint64:
		fillRandom(storageOf[uint64](t), next)
	}
}

// fillRandom sets each element of s to a fresh draw.
func fillRandom[T any](s []T, draw func() T) {
	for i := range s {
		s[i] = draw()
	}
}

// encodeElement converts a Go bool or number to one element of dtype dt
// under Full's rules.
func encodeElement(value any, dt DType) (elementBytes, error) {
	var e elementBytes
	c, err := complexOf(value)
	if err != nil {
		return e, err
	}
	p := unsafe.Pointer(&e)
	switch {
	case dt == Bool:
		*(*bool)(p) = c != 0
		return e, nil
	case dt.IsComplex():
		if dt == Complex64 {
			*(*complex64)(p) = complex64(c)
		} else {
			*(*complex128)(p) = c
		}
		return e, nil
	}
	if imag(c) != 0 {
		return e, fmt.Errorf("complex value %v does not fit %v: %w", value, dt, ErrValue)
	}
	if dt.IsFloat() {
		f := real(c)
		switch dt {
		case Float16:
			*(*float16.Float16)(p) = halfFromFloat64(f)
		case BFloat16:
			*(*bfloat16.BFloat16)(p) = bfloat16.FromFloat64(f)
		case Float32:
			*(*float32)(p) = float32(f)
		case Float64:
			*(*float64)(p) = f
		}
		return e, nil
	}
	return encodeInteger(value, real(c), dt)
}

// encodeInteger stores value, whose float64 approximation is f, as an
// element of the integer dtype dt. Go integers are converted exactly, not
// through f, so that int64 and uint64 values beyond 2^53 survive.
func encodeInteger(value any, f float64, dt DType) (elementBytes, error) {
	var e elementBytes
	var i int64
	var u uint64
	negative := false
	switch v := value.(type) {
	case bool:
		if v {
			i, u = 1, 1
		}
	case int, int8, int16, int32, int64:
		i = reflect.ValueOf(v).Int()
		u, negative = uint64(i), i < 0
	case uint, uint8, uint16, uint32, uint64, uintptr:
		u = reflect.ValueOf(v).Uint()
		i = int64(u)
		if u > math.MaxInt64 {
			i = -1 // marks "too big for any signed dtype" below
		}
	default:
		if err := fitsInteger(f, dt); err != nil {
			return e, err
		}
		if f < 0 {
			i, u, negative = int64(f), uint64(int64(f)), true
		} else if f >= 1<<63 {
			u, i = uint64(f), -1
		} else {
			i, u = int64(f), uint64(f)
		}
	}
	lo, hi := integerRange(dt)
	fits := false
	if dt.IsSigned() {
		fits = (negative || i >= 0) && i >= lo && (i < 0 || uint64(i) <= hi)
	} else {
		fits = !negative && u <= hi
	}
	if !fits {
		return e, fmt.Errorf("value %v is outside the range of %v: %w", value, dt, ErrValue)
	}
	p := unsafe.Pointer(&e)
	switch dt {
	case Int8:
		*(*int8)(p) = int8(i)
	case Int16:
		*(*int16)(p) = int16(i)
	case Int32:
		*(*int32)(p) = int32(i)
	case Int64:
		*(*int64)(p) = i
	case Uint8:
		*(*uint8)(p) = uint8(u)
	case Uint16:
		*(*uint16)(p) = uint16(u)
	case Uint32:
		*(*uint32)(p) = uint32(u)
	case Uint64:
		*(*uint64)(p) = u
	}
	return e, nil
}

// integerRange returns the smallest and largest value of an integer dtype.
func integerRange(dt DType) (lo int64, hi uint64) {
	bits := dt.Bits()
	if dt.IsSigned() {
		return -1 << (bits - 1), 1<<(bits-1) - 1
	}
	return 0, 1<<bits - 1 // for 64 bits the shift wraps to 0 and -1 is the maximum
}

// fitsInteger reports (as an error) whether the float f is a whole number
// within the range of the integer dtype dt.
func fitsInteger(f float64, dt DType) error {
	if f != math.Trunc(f) || math.IsInf(f, 0) {
		return fmt.Errorf("value %v is not a whole number, as %v needs: %w", f, dt, ErrValue)
	}
	lo, hi := integerRange(dt)
	// 2^64 and 2^63 are exact in float64, so the upper test is exact.
	if f < float64(lo) || f >= float64(hi)+1 {
		return fmt.Errorf("value %v is outside the range of %v: %w", f, dt, ErrValue)
	}
	return nil
}

// complexOf returns a Go bool or number as a complex128 (exact for every
// float and for integers up to 2^53).
func complexOf(value any) (complex128, error) {
	switch v := value.(type) {
	case bool:
		if v {
			return 1, nil
		}
		return 0, nil
	case float16.Float16:
		return complex(float64(v.Float32()), 0), nil
	case bfloat16.BFloat16:
		return complex(v.Float64(), 0), nil
	case complex64:
		return complex128(v), nil
	case complex128:
		return v, nil
	}
	rv := reflect.ValueOf(value)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return complex(float64(rv.Int()), 0), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return complex(float64(rv.Uint()), 0), nil
	case reflect.Float32, reflect.Float64:
		return complex(rv.Float(), 0), nil
	}
	return 0, fmt.Errorf("%v of type %T is not a bool or number: %w", value, value, ErrDType)
}

// halfFromFloat64 rounds f to the nearest float16, ties to even, with a
// single rounding: converting through float32 could round twice.
func halfFromFloat64(f float64) float16.Float16 {
	f32 := float32(f)
	if f != f || math.IsInf(float64(f32), 0) || float64(f32) == f {
		return float16.Fromfloat32(f32)
	}
	// float32(f) rounded. Step back toward zero to the float32 that
	// truncates f and set its lowest bit as a sticky bit: float32 keeps 13
	// more fraction bits than float16, so the sticky bit only breaks ties
	// in the direction f really lies.
	bits := math.Float32bits(f32)
	if math.Abs(float64(f32)) > math.Abs(f) {
		bits--
	}
	bits |= 1
	return float16.Fromfloat32(math.Float32frombits(bits))
}

package cast

import (
	"math"
	"math/bits"
	"unsafe"

	"github.com/tensor-go/tensor/dtype"
)

// This file is the tests' reference: it converts one element at a time by
// the package's rules, written from the IEEE-754 definitions with integer
// arithmetic and sharing no code with the kernels.

// value is one element read from memory, widened without loss.
type value struct {
	kind dtype.Kind
	b    bool
	i    int64      // KindSigned
	u    uint64     // KindUnsigned; also the raw bits of any integer destination
	f    float64    // KindFloat (16-bit floats widen exactly)
	c    complex128 // KindComplex
}

// format describes a binary floating-point format: p significand bits
// (with the implicit one), emin the exponent of the smallest normal, emax
// the exponent of the largest finite value.
type format struct{ p, emin, emax int }

var formats = map[dtype.DType]format{
	dtype.Float16:    {11, -14, 15},
	dtype.BFloat16:   {8, -126, 127},
	dtype.Float32:    {24, -126, 127},
	dtype.Float64:    {53, -1022, 1023},
	dtype.Complex64:  {24, -126, 127},
	dtype.Complex128: {53, -1022, 1023},
}

// decodeFloat reads the bits of a binary format with e exponent bits and
// m fraction bits into the float64 it denotes (exact for every format
// here).
func decodeFloat(raw uint64, e, m uint) float64 {
	sign := raw >> (e + m) & 1
	exp := int(raw >> m & (1<<e - 1))
	frac := raw & (1<<m - 1)
	bias := 1<<(e-1) - 1
	var f float64
	switch {
	case exp == 1<<e-1 && frac != 0:
		return math.NaN()
	case exp == 1<<e-1:
		f = math.Inf(1)
	case exp == 0:
		f = math.Ldexp(float64(frac), 1-bias-int(m))
	default:
		f = math.Ldexp(float64(frac|1<<m), exp-bias-int(m))
	}
	if sign == 1 {
		f = -f
	}
	return f
}

// load reads one element of dtype dt at p.
func load(dt dtype.DType, p unsafe.Pointer) value {
	v := value{kind: dt.Kind()}
	raw := func(size int) uint64 {
		var u uint64
		for k := range size {
			u |= uint64(*(*byte)(unsafe.Add(p, k))) << (8 * k)
		}
		return u
	}
	switch dt {
	case dtype.Bool:
		v.b = *(*byte)(p) != 0
	case dtype.Int8, dtype.Int16, dtype.Int32, dtype.Int64:
		shift := 64 - dt.Bits()
		v.u = raw(dt.Size())
		v.i = int64(v.u<<shift) >> shift // sign-extend
	case dtype.Uint8, dtype.Uint16, dtype.Uint32, dtype.Uint64:
		v.u = raw(dt.Size())
	case dtype.Float16:
		v.f = decodeFloat(raw(2), 5, 10)
	case dtype.BFloat16:
		v.f = decodeFloat(raw(2), 8, 7)
	case dtype.Float32:
		v.f = decodeFloat(raw(4), 8, 23)
	case dtype.Float64:
		v.f = math.Float64frombits(raw(8))
	case dtype.Complex64:
		v.c = complex(decodeFloat(raw(4), 8, 23), decodeFloat(uint64(*(*uint32)(unsafe.Add(p, 4))), 8, 23))
	case dtype.Complex128:
		v.c = complex(math.Float64frombits(raw(8)), math.Float64frombits(*(*uint64)(unsafe.Add(p, 8))))
	}
	return v
}

// roundBits rounds the integer m right by s bits to nearest, ties to even.
func roundBits(m uint64, s int) uint64 {
	switch {
	case s <= 0:
		return m
	case s > 64: // m < 2^64 <= half of the quantum
		return 0
	case s == 64:
		if m > 1<<63 {
			return 1
		}
		return 0
	}
	q, r, half := m>>s, m&(1<<s-1), uint64(1)<<(s-1)
	if r > half || r == half && q&1 == 1 {
		q++
	}
	return q
}

// roundExact rounds ±m·2^e to the format, to nearest even, with gradual
// underflow and overflow to infinity.
func roundExact(neg bool, m uint64, e int, f format) float64 {
	r := 0.0
	if m != 0 {
		top := e + bits.Len64(m) - 1 // exponent of the leading bit
		q := max(top, f.emin) - (f.p - 1)
		if e < q {
			m, e = roundBits(m, q-e), q
		}
		if m != 0 && e+bits.Len64(m)-1 > f.emax {
			r = math.Inf(1)
		} else {
			r = math.Ldexp(float64(m), e)
		}
	}
	if neg {
		r = -r
	}
	return r
}

// roundFloat rounds a float64 to the format.
func roundFloat(x float64, f format) float64 {
	if x != x || math.IsInf(x, 0) || x == 0 {
		return x
	}
	frac, exp := math.Frexp(math.Abs(x))
	return roundExact(x < 0, uint64(frac*(1<<53)), exp-53, f)
}

// realOf returns a non-complex, non-bool source value as a float64 rounded
// to f, once.
func realOf(v value, f format) float64 {
	switch v.kind {
	case dtype.KindBool:
		if v.b {
			return 1
		}
		return 0
	case dtype.KindSigned:
		if v.i < 0 {
			return roundExact(true, -uint64(v.i), 0, f)
		}
		return roundExact(false, uint64(v.i), 0, f)
	case dtype.KindUnsigned:
		return roundExact(false, v.u, 0, f)
	case dtype.KindFloat:
		return roundFloat(v.f, f)
	}
	return roundFloat(real(v.c), f)
}

// truncRef is the float → integer rule: truncate toward zero, the 64-bit
// pattern 1<<63 for NaN and for values no 64-bit integer of the kind
// accepted holds.
func truncRef(x float64, unsigned bool) uint64 {
	t := math.Trunc(x)
	switch {
	case x != x:
		return 1 << 63
	case unsigned && t >= 0 && t < 0x1p64:
		return uint64(t)
	case t >= math.MinInt64 && t < 0x1p63:
		return uint64(int64(t))
	}
	return 1 << 63
}

// expect converts v to dtype dt by the rules, returning the value the
// destination must hold (integers as raw bits in u, masked to the width).
func expect(v value, dt dtype.DType) value {
	out := value{kind: dt.Kind()}
	switch out.kind {
	case dtype.KindBool:
		switch v.kind {
		case dtype.KindBool:
			out.b = v.b
		case dtype.KindSigned:
			out.b = v.i != 0
		case dtype.KindUnsigned:
			out.b = v.u != 0
		case dtype.KindFloat:
			out.b = v.f != 0
		case dtype.KindComplex:
			out.b = v.c != 0
		}
	case dtype.KindSigned, dtype.KindUnsigned:
		var u uint64
		switch v.kind {
		case dtype.KindBool:
			if v.b {
				u = 1
			}
		case dtype.KindSigned:
			u = uint64(v.i)
		case dtype.KindUnsigned:
			u = v.u
		case dtype.KindFloat:
			u = truncRef(v.f, out.kind == dtype.KindUnsigned)
		case dtype.KindComplex:
			u = truncRef(real(v.c), out.kind == dtype.KindUnsigned)
		}
		if dt.Bits() < 64 {
			u &= 1<<dt.Bits() - 1
		}
		out.u = u
	case dtype.KindFloat:
		out.f = realOf(v, formats[dt])
	case dtype.KindComplex:
		f := formats[dt]
		if v.kind == dtype.KindComplex {
			out.c = complex(roundFloat(real(v.c), f), roundFloat(imag(v.c), f))
		} else {
			out.c = complex(realOf(v, f), 0)
		}
	}
	return out
}

// sameFloat compares floats bit for bit, except that all NaNs are equal.
func sameFloat(a, b float64) bool {
	if a != a || b != b {
		return a != a && b != b
	}
	return math.Float64bits(a) == math.Float64bits(b)
}

// same reports whether got (read from a destination) equals want.
func same(got, want value) bool {
	switch want.kind {
	case dtype.KindBool:
		return got.b == want.b
	case dtype.KindSigned, dtype.KindUnsigned:
		return got.u == want.u
	case dtype.KindFloat:
		return sameFloat(got.f, want.f)
	}
	return sameFloat(real(got.c), real(want.c)) && sameFloat(imag(got.c), imag(want.c))
}

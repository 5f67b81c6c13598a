package tensor

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/bfloat16"
	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/cast"
	"github.com/tensor-go/tensor/internal/ewise"
	"github.com/tensor-go/tensor/internal/iter"
	"github.com/tensor-go/tensor/shape"
	"github.com/x448/float16"
)

// ---- test helpers shared by the mul and prod tests ----

// mpRaw returns a tensor over fresh storage of n elements of dt filled
// with random values (small integers and floats, some negative, some
// special), viewed with the given shape, strides and offset.
func mpRaw(rng *rand.Rand, dt DType, n int, shp, strides []int, offset int) *Tensor {
	p, _, err := alloc(dt, n, true)
	if err != nil {
		panic(err)
	}
	t := &Tensor{dtype: dt, shape: shp, strides: strides, offset: offset, storage: p, n: n}
	for i := range n {
		mpSetRandom(rng, dt, unsafe.Add(p, i*dt.Size()))
	}
	return t
}

// mpSetRandom writes a random mpValue of dt at p: for floats mostly numbers in
// [-4, 4) with a sprinkling of zeros of both signs, infinities and NaN.
func mpSetRandom(rng *rand.Rand, dt DType, p unsafe.Pointer) {
	v := float64(rng.IntN(17) - 8)
	if dt.IsFloat() || dt.IsComplex() {
		v = rng.Float64()*8 - 4
		switch rng.IntN(24) {
		case 0:
			v = math.NaN()
		case 1:
			v = math.Inf(1)
		case 2:
			v = math.Inf(-1)
		case 3:
			v = math.Copysign(0, -1)
		case 4:
			v = 0
		}
	}
	if dt.IsInteger() && rng.IntN(8) == 0 {
		v = float64(rng.Int32()) // large values exercise the wrap
	}
	if dt == Bool {
		v = float64(rng.IntN(2))
	}
	src := v
	cast.Run(p, dt, 0, unsafe.Pointer(&src), Float64, 0, 1)
	if dt.IsComplex() {
		im := rng.Float64()*8 - 4
		half := dt.Size() / 2
		cast.Run(unsafe.Add(p, half), mpPartDType(dt), 0, unsafe.Pointer(&im), Float64, 0, 1)
	}
}

// mpRandomView returns a random view of shape shp over fresh storage: the
// dimensions laid out in a random order, with steps of ±1 or ±2, and each
// dimension of size > 1 broadcast (stride 0) with probability pb.
func mpRandomView(rng *rand.Rand, dt DType, shp []int, pb float64) *Tensor {
	nd := len(shp)
	perm := rng.Perm(nd)
	strides := make([]int, nd)
	extent := 1
	for i := nd - 1; i >= 0; i-- {
		d := perm[i]
		if shp[d] > 1 && rng.Float64() < pb {
			continue // stride 0
		}
		step := 1 + rng.IntN(2)
		strides[d] = step * extent
		extent *= max(1, step*shp[d])
	}
	offset := 0
	for d := range nd {
		if rng.IntN(3) == 0 && strides[d] != 0 {
			offset += strides[d] * max(0, shp[d]-1)
			strides[d] = -strides[d]
		}
	}
	n := extent
	if slices.Contains(shp, 0) {
		n = 0
	}
	return mpRaw(rng, dt, n, append([]int(nil), shp...), strides, offset)
}

// mpRandom returns a random contiguous tensor.
func mpRandom(rng *rand.Rand, dt DType, shp ...int) *Tensor {
	n := shape.MustSize(shp)
	return mpRaw(rng, dt, n, append([]int(nil), shp...), shape.ContiguousStrides(shp), 0)
}

// mpElemPtr returns the address of t's element at the given index.
func mpElemPtr(t *Tensor, index []int) unsafe.Pointer {
	off := t.offset
	for i, x := range index {
		off += x * t.strides[i]
	}
	return unsafe.Add(t.storage, off*t.dtype.Size())
}

// mpBroadcastIndex maps an index of shape to into t's own index.
func mpBroadcastIndex(t *Tensor, index []int) []int {
	lead := len(index) - len(t.shape)
	out := make([]int, len(t.shape))
	for i, d := range t.shape {
		if d != 1 {
			out[i] = index[lead+i]
		}
	}
	return out
}

// mpForEachIndex calls f with every index of shp in row-major order.
func mpForEachIndex(shp []int, f func(index []int)) {
	if slices.Contains(shp, 0) {
		return
	}
	index := make([]int, len(shp))
	for {
		f(index)
		d := len(shp) - 1
		for ; d >= 0; d-- {
			if index[d]++; index[d] < shp[d] {
				break
			}
			index[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// mpValue is an element of any dtype held as 16 bytes.
type mpValue [16]byte

// mpConvert converts one element from dtype from to dtype to.
func mpConvert(to, from DType, v mpValue) mpValue {
	var out mpValue
	cast.Run(unsafe.Pointer(&out), to, 0, unsafe.Pointer(&v), from, 0, 1)
	return out
}

func mpLoad(t *Tensor, index []int) mpValue {
	var v mpValue
	copy(v[:], unsafe.Slice((*byte)(mpElemPtr(t, index)), t.dtype.Size()))
	return v
}

// mpRefMul multiplies two elements of dtype c the slow, obvious way.
func mpRefMul(c DType, x, y mpValue) mpValue {
	var z mpValue
	px, py, pz := unsafe.Pointer(&x), unsafe.Pointer(&y), unsafe.Pointer(&z)
	switch c {
	case Bool:
		*(*bool)(pz) = *(*bool)(px) && *(*bool)(py)
	case Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64:
		// Multiply the zero-extended 64-bit patterns; the low bits of a
		// product depend only on the low bits of its factors.
		var a, b uint64
		copy((*[8]byte)(unsafe.Pointer(&a))[:], x[:c.Size()])
		copy((*[8]byte)(unsafe.Pointer(&b))[:], y[:c.Size()])
		p := a * b
		copy(z[:c.Size()], (*[8]byte)(unsafe.Pointer(&p))[:])
	case Float16:
		a, b := float16.Frombits(*(*uint16)(px)).Float32(), float16.Frombits(*(*uint16)(py)).Float32()
		*(*uint16)(pz) = float16.Fromfloat32(float32(float64(a) * float64(b))).Bits()
	case BFloat16:
		a, b := bfloat16.BFloat16(*(*uint16)(px)).Float64(), bfloat16.BFloat16(*(*uint16)(py)).Float64()
		*(*uint16)(pz) = bfloat16.FromFloat64(a * b).Bits()
	case Float32:
		*(*float32)(pz) = float32(float64(*(*float32)(px)) * float64(*(*float32)(py)))
	case Float64:
		*(*float64)(pz) = *(*float64)(px) * *(*float64)(py)
	case Complex64:
		a, b := *(*complex64)(px), *(*complex64)(py)
		re := float32(float64(real(a))*float64(real(b))) - float32(float64(imag(a))*float64(imag(b)))
		im := float32(float64(real(a))*float64(imag(b))) + float32(float64(imag(a))*float64(real(b)))
		*(*complex64)(pz) = complex(re, im)
	case Complex128:
		a, b := *(*complex128)(px), *(*complex128)(py)
		// Each product rounded before the sum, explicitly: Go may fuse
		// ac-bd into one multiply-add (arm64, GOAMD64=v3), and the
		// library does not.
		ac, bd := float64(real(a)*real(b)), float64(imag(a)*imag(b))
		ad, bc := float64(real(a)*imag(b)), float64(imag(a)*real(b))
		*(*complex128)(pz) = complex(ac-bd, ad+bc)
	}
	return z
}

// mpSame reports whether two elements of dt are identical, counting
// every NaN as the same (per component for complex numbers).
func mpSame(dt DType, x, y mpValue) bool {
	n := dt.Size()
	if slices.Equal(x[:n], y[:n]) {
		return true
	}
	isNaN := func(v mpValue, off int) bool {
		f := mpConvert(Float64, mpPartDType(dt), mpShift(v, off))
		return math.IsNaN(*(*float64)(unsafe.Pointer(&f)))
	}
	switch {
	case dt.IsFloat():
		return isNaN(x, 0) && isNaN(y, 0)
	case dt.IsComplex():
		h := n / 2
		okRe := slices.Equal(x[:h], y[:h]) || isNaN(x, 0) && isNaN(y, 0)
		okIm := slices.Equal(x[h:n], y[h:n]) || isNaN(x, h) && isNaN(y, h)
		return okRe && okIm
	}
	return false
}

func mpPartDType(dt DType) DType {
	switch dt {
	case Complex64:
		return Float32
	case Complex128:
		return Float64
	}
	return dt
}

func mpShift(v mpValue, off int) mpValue {
	var out mpValue
	copy(out[:], v[off:])
	return out
}

// mpShow formats an element for failure messages.
func mpShow(dt DType, v mpValue) string {
	c := mpConvert(Complex128, dt, v)
	z := *(*complex128)(unsafe.Pointer(&c))
	if dt.IsComplex() {
		return fmt.Sprint(z)
	}
	return fmt.Sprint(real(z))
}

// mpCheckMul compares out with the element-by-element product of a and b in
// dtype c.
func mpCheckMul(t *testing.T, out, a, b *Tensor, c DType) {
	t.Helper()
	mpCheckBinary(t, "×", mpRefMul, out, a, b, c)
}

// mpCheckBinary compares out with the element-by-element ref(a, b) in
// dtype c (sym names the operation in messages).
func mpCheckBinary(t *testing.T, sym string, ref func(c DType, x, y mpValue) mpValue, out, a, b *Tensor, c DType) {
	t.Helper()
	bad := 0
	mpForEachIndex(out.shape, func(index []int) {
		x := mpConvert(c, a.dtype, mpLoad(a, mpBroadcastIndex(a, index)))
		y := mpConvert(c, b.dtype, mpLoad(b, mpBroadcastIndex(b, index)))
		want := mpConvert(out.dtype, c, ref(c, x, y))
		got := mpLoad(out, index)
		if !mpSame(out.dtype, got, want) && bad < 5 {
			bad++
			t.Errorf("%v %s %v → %v at %v: %s %s %s = %s, want %s", a.dtype, sym, b.dtype, out.dtype, index,
				mpShow(c, x), sym, mpShow(c, y), mpShow(out.dtype, got), mpShow(out.dtype, want))
		}
	})
}

// mpWithFastPaths runs f with ewise.UseVec on and off.
func mpWithFastPaths(t *testing.T, f func(t *testing.T)) {
	for _, use := range []bool{true, false} {
		t.Run(fmt.Sprintf("vec=%v", use), func(t *testing.T) {
			old := ewise.UseVec
			ewise.UseVec = use
			defer func() { ewise.UseVec = old }()
			f(t)
		})
	}
}

// ---- Mul ----

func TestMulBroadcastShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct{ a, b, want []int }{
		{[]int{2, 3}, []int{2, 3}, []int{2, 3}},
		{[]int{2, 3}, []int{3}, []int{2, 3}},
		{[]int{2, 1}, []int{1, 3}, []int{2, 3}},
		{[]int{}, []int{4, 5}, []int{4, 5}},
		{[]int{4, 5}, []int{}, []int{4, 5}},
		{[]int{}, []int{}, []int{}},
		{[]int{5, 1, 4}, []int{3, 1}, []int{5, 3, 4}},
		{[]int{0}, []int{1}, []int{0}},
		{[]int{2, 0}, []int{2, 1}, []int{2, 0}},
		{[]int{1, 1, 1}, []int{7}, []int{1, 1, 7}},
	}
	for _, c := range cases {
		a, b := mpRandom(rng, Int32, c.a...), mpRandom(rng, Int32, c.b...)
		got, err := Mul(a, b)
		if err != nil {
			t.Fatalf("Mul(%v, %v): %v", c.a, c.b, err)
		}
		if !slices.Equal(got.shape, c.want) || got.dtype != Int32 || !got.IsContiguous() {
			t.Fatalf("Mul(%v, %v) has shape %v dtype %v, want %v int32 contiguous", c.a, c.b, got.shape, got.dtype, c.want)
		}
		mpCheckMul(t, got, a, b, Int32)
	}
}

func TestMulBadShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 3))
	cases := []struct {
		a, b []int
		msg  string
	}{
		{[]int{2, 3}, []int{4}, "tensor: mul: shapes (2, 3) and (4,) do not broadcast"},
		{[]int{2, 0}, []int{2, 2}, "tensor: mul: shapes (2, 0) and (2, 2) do not broadcast"},
		{[]int{3, 2}, []int{2, 1, 4}, "tensor: mul: shapes (3, 2) and (2, 1, 4) do not broadcast"},
	}
	for _, c := range cases {
		_, err := Mul(mpRandom(rng, Float32, c.a...), mpRandom(rng, Float32, c.b...))
		if !errors.Is(err, ErrShape) || !strings.HasPrefix(err.Error(), c.msg) {
			t.Errorf("Mul(%v, %v) error %v, want ErrShape %q", c.a, c.b, err, c.msg)
		}
	}
}

func TestMulIntoErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 4))
	a, b := mpRandom(rng, Float32, 2, 3), mpRandom(rng, Float32, 3)
	if err := MulInto(mpRandom(rng, Float32, 3, 2), a, b); !errors.Is(err, ErrShape) {
		t.Errorf("wrong output shape: %v, want ErrShape", err)
	}
	if err := MulInto(mpRandom(rng, Int32, 2, 3), a, b); !errors.Is(err, ErrDType) {
		t.Errorf("float product into int32: %v, want ErrDType", err)
	}
	bcast := &Tensor{dtype: Float32, shape: []int{2, 3}, strides: []int{0, 1}, storage: a.storage, n: a.n}
	if err := MulInto(bcast, a, b); !errors.Is(err, ErrLayout) {
		t.Errorf("broadcast output: %v, want ErrLayout", err)
	}
	if err := MulInto(nil, a, b); err == nil {
		t.Errorf("nil output: no error")
	}
	if _, err := Mul(mpRandom(rng, Uint64, 2), mpRandom(rng, Int8, 2)); !errors.Is(err, ErrDType) {
		t.Errorf("uint64 × int8: %v, want ErrDType", err)
	}
	// Allowed: a float32 product into float64 and complex64 outputs.
	for _, dt := range []DType{Float64, Float16, Complex64} {
		out := mpRandom(rng, dt, 2, 3)
		if err := MulInto(out, a, b); err != nil {
			t.Fatalf("float32 product into %v: %v", dt, err)
		}
		mpCheckMul(t, out, a, b, Float32)
	}
}

// mpSpecials are float values whose products exercise every IEEE case.
var mpSpecials = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -2.5, 3, math.Inf(1), math.Inf(-1), math.NaN(),
	1e-30, -1e-30, 1e30, 6e4, -6e4, 1e-7, 3.4e38, 1e300, -1e-300, 5e-324}

func TestMulFloatSpecials(t *testing.T) {
	for _, dt := range []DType{Float16, BFloat16, Float32, Float64} {
		mpWithFastPaths(t, func(t *testing.T) {
			n := len(mpSpecials)
			a := make([]float64, 0, n*n)
			b := make([]float64, 0, n*n)
			for _, x := range mpSpecials {
				for _, y := range mpSpecials {
					a, b = append(a, x), append(b, y)
				}
			}
			ta, tb := mpFromFloat64s(dt, a), mpFromFloat64s(dt, b)
			got, err := Mul(ta, tb)
			if err != nil {
				t.Fatal(err)
			}
			mpCheckMul(t, got, ta, tb, dt)
			// The rules of §5 stated directly, independent of mpRefMul.
			for i := range a {
				x, y := mpFloatAt(ta, i), mpFloatAt(tb, i)
				z := mpFloatAt(got, i)
				switch {
				case math.IsNaN(x) || math.IsNaN(y), math.IsInf(x, 0) && y == 0, x == 0 && math.IsInf(y, 0):
					if !math.IsNaN(z) {
						t.Errorf("%v: %v × %v = %v, want NaN", dt, x, y, z)
					}
				default:
					if math.Signbit(z) != (math.Signbit(x) != math.Signbit(y)) {
						t.Errorf("%v: %v × %v = %v: sign is not the XOR of the signs", dt, x, y, z)
					}
				}
			}
		})
	}
}

// mpFromFloat64s returns a 1-D tensor of dt holding vs rounded once.
func mpFromFloat64s(dt DType, vs []float64) *Tensor {
	t, _ := empty(dt, []int{len(vs)})
	for i, v := range vs {
		cast.Run(unsafe.Add(t.storage, i*dt.Size()), dt, 0, unsafe.Pointer(&v), Float64, 0, 1)
	}
	return t
}

// mpFloatAt returns element i of a contiguous real tensor as float64.
func mpFloatAt(t *Tensor, i int) float64 {
	var f float64
	cast.Run(unsafe.Pointer(&f), Float64, 0, unsafe.Add(firstElement(t), i*t.dtype.Size()), t.dtype, 0, 1)
	return f
}

func TestMulHalfRoundsOnce(t *testing.T) {
	// 1.0009765625 = 1 + 2^-10 in float16; its square 1 + 2^-9 + 2^-20 rounds
	// to 1 + 2^-9. 300 × 300 overflows float16's 65504 to inf.
	ta, _ := FromSlice([]float16.Float16{float16.Fromfloat32(1.0009765625), float16.Fromfloat32(300)})
	got, err := Mul(ta, ta)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1 + 1.0/512, math.Inf(1)}
	for i, w := range want {
		if z := mpFloatAt(got, i); z != w {
			t.Errorf("float16 element %d: %v, want %v", i, z, w)
		}
	}
	// bfloat16: (1 + 2^-7)^2 = 1 + 2^-6 + 2^-14 rounds to 1 + 2^-6.
	tb, _ := FromSlice([]bfloat16.BFloat16{bfloat16.FromFloat32(1 + 1.0/128)})
	gb, _ := Mul(tb, tb)
	if z := mpFloatAt(gb, 0); z != 1+1.0/64 {
		t.Errorf("bfloat16 square: %v, want %v", z, 1+1.0/64)
	}
}

func TestMulIntegerWrap(t *testing.T) {
	check := func(name string, got *Tensor, err error, want any) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var g any
		switch got.dtype {
		case Int8:
			g = contiguousData[int8](got)
		case Int16:
			g = contiguousData[int16](got)
		case Int32:
			g = contiguousData[int32](got)
		case Int64:
			g = contiguousData[int64](got)
		case Uint8:
			g = contiguousData[uint8](got)
		case Uint16:
			g = contiguousData[uint16](got)
		case Uint32:
			g = contiguousData[uint32](got)
		case Uint64:
			g = contiguousData[uint64](got)
		}
		if fmt.Sprint(g) != fmt.Sprint(want) {
			t.Errorf("%s = %v, want %v", name, g, want)
		}
	}
	mpWithFastPaths(t, func(t *testing.T) {
		i8, _ := FromSlice([]int8{100, -128, 127, -7})
		i8b, _ := FromSlice([]int8{3, -1, 127, 9})
		r, err := Mul(i8, i8b)
		check("int8", r, err, []int8{44, -128, 1, -63})
		u8, _ := FromSlice([]uint8{200, 255, 16})
		u8b, _ := FromSlice([]uint8{2, 255, 16})
		r, err = Mul(u8, u8b)
		check("uint8", r, err, []uint8{144, 1, 0})
		i16, _ := FromSlice([]int16{300, math.MinInt16})
		r, err = Mul(i16, i16)
		check("int16", r, err, []int16{24464, 0})
		u16, _ := FromSlice([]uint16{65535, 300})
		r, err = Mul(u16, u16)
		check("uint16", r, err, []uint16{1, 24464})
		i32, _ := FromSlice([]int32{536870910, math.MinInt32, 65536})
		i32b, _ := FromSlice([]int32{536870910, -1, 65536})
		r, err = Mul(i32, i32b)
		check("int32", r, err, []int32{-2147483644, math.MinInt32, 0})
		u32, _ := FromSlice([]uint32{1 << 31, 4294967295})
		r, err = Mul(u32, u32)
		check("uint32", r, err, []uint32{0, 1})
		i64, _ := FromSlice([]int64{math.MinInt64, 1 << 32, 3037000500})
		i64b, _ := FromSlice([]int64{-1, 1 << 32, 3037000500})
		r, err = Mul(i64, i64b)
		check("int64", r, err, []int64{math.MinInt64, 0, -9223372036709301616})
		u64, _ := FromSlice([]uint64{math.MaxUint64, 1 << 63})
		r, err = Mul(u64, u64)
		check("uint64", r, err, []uint64{1, 0})
	})
}

func TestMulBoolAndComplex(t *testing.T) {
	a, _ := FromSlice([]bool{true, true, false, false})
	b, _ := FromSlice([]bool{true, false, true, false})
	got, err := Mul(a, b)
	if err != nil || got.dtype != Bool || fmt.Sprint(contiguousData[bool](got)) != "[true false false false]" {
		t.Errorf("bool × bool = %v (%v), want [true false false false] bool", contiguousData[bool](got), err)
	}
	inf, nan := math.Inf(1), math.NaN()
	xs := []complex128{complex(1, 2), complex(inf, 0), complex(inf, 1), complex(0, 1), complex(nan, 0)}
	ys := []complex128{complex(3, -4), complex(2, 0), complex(1, 0), complex(0, 1), complex(1, 0)}
	// By the plain formula (ac−bd) + (ad+bc)i: (1+2i)(3−4i) = 11+2i;
	// (∞+0i)(2+0i) = (2∞ − 0) + (∞·0 + 0)i = ∞+NaN·i, where C99's Annex G
	// would recover ∞+0i; i·i = −1; NaN spreads to both parts.
	want := []complex128{complex(11, 2), complex(inf, nan), complex(inf, nan), complex(-1, 0), complex(nan, nan)}
	for _, dt := range []DType{Complex64, Complex128} {
		ta, _ := FromSlice(xs)
		tb, _ := FromSlice(ys)
		if dt == Complex64 {
			ta, tb = mpComplex64s(xs), mpComplex64s(ys)
		}
		got, err := Mul(ta, tb)
		if err != nil {
			t.Fatal(err)
		}
		mpCheckMul(t, got, ta, tb, dt)
		for i, w := range want {
			var z complex128
			cast.Run(unsafe.Pointer(&z), Complex128, 0, unsafe.Add(firstElement(got), i*dt.Size()), dt, 0, 1)
			if !mpSameComplex(z, w) {
				t.Errorf("%v: %v × %v = %v, want %v (the plain formula)", dt, xs[i], ys[i], z, w)
			}
		}
	}
}

func mpComplex64s(xs []complex128) *Tensor {
	c := make([]complex64, len(xs))
	for i, x := range xs {
		c[i] = complex64(x)
	}
	t, _ := FromSlice(c)
	return t
}

func mpSameComplex(x, y complex128) bool {
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	return same(real(x), real(y)) && same(imag(x), imag(y))
}

// mpBroadcastShapes returns an output shape and two operand shapes that
// broadcast to it.
func mpBroadcastShapes(rng *rand.Rand, maxRank, maxDim int) (out, a, b []int) {
	out = make([]int, rng.IntN(maxRank+1))
	for i := range out {
		out[i] = rng.IntN(maxDim + 1)
		if out[i] == 0 && rng.IntN(4) != 0 {
			out[i] = 1 + rng.IntN(maxDim) // zero sizes, but not too often
		}
	}
	operand := func() []int {
		s := slices.Clone(out[rng.IntN(len(out)+1):])
		for i := range s {
			if rng.IntN(4) == 0 {
				s[i] = 1
			}
		}
		return s
	}
	a, b = operand(), operand()
	full, _ := shape.Broadcast(a, b)
	// Re-extend to out's rank when both operands dropped leading dims.
	return full, a, b
}

func TestMulRandomViewsAndDTypes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	mpWithFastPaths(t, func(t *testing.T) {
		for iter := range 400 {
			outShape, as, bs := mpBroadcastShapes(rng, 4, 5)
			da, db := dtype.All[rng.IntN(len(dtype.All))], dtype.All[rng.IntN(len(dtype.All))]
			if iter%2 == 0 {
				db = da
			}
			a, b := mpRandomView(rng, da, as, 0.3), mpRandomView(rng, db, bs, 0.3)
			c, perr := dtype.Promote(da, db)
			got, err := Mul(a, b)
			if perr != nil {
				if !errors.Is(err, ErrDType) {
					t.Fatalf("%v × %v: error %v, want ErrDType", da, db, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("Mul(%v %v, %v %v): %v", da, as, db, bs, err)
			}
			if got.dtype != c || !slices.Equal(got.shape, outShape) {
				t.Fatalf("Mul(%v %v, %v %v) is %v %v, want %v %v", da, as, db, bs, got.dtype, got.shape, c, outShape)
			}
			mpCheckMul(t, got, a, b, c)
			// The same product into a random view of a random allowed dtype.
			var od DType
			for {
				od = dtype.All[rng.IntN(len(dtype.All))]
				if dtype.CanCastInto(c, od) {
					break
				}
			}
			out := mpRandomView(rng, od, outShape, 0)
			if err := MulInto(out, a, b); err != nil {
				t.Fatalf("MulInto(%v %v): %v", od, outShape, err)
			}
			mpCheckMul(t, out, a, b, c)
		}
	})
}

func TestMulIntoAliasing(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	mpWithFastPaths(t, func(t *testing.T) {
		for _, dt := range []DType{Float32, Int16, Float16, Complex128} {
			// In place: x *= y, with y broadcast.
			x := mpRandom(rng, dt, 3, 4)
			y := mpRandom(rng, dt, 4)
			orig := mpClone(x)
			if err := MulInto(x, x, y); err != nil {
				t.Fatal(err)
			}
			mpCheckMul(t, x, orig, y, dt)
			// x *= x.
			orig = mpClone(x)
			if err := MulInto(x, x, x); err != nil {
				t.Fatal(err)
			}
			mpCheckMul(t, x, orig, orig, dt)
			// Partial overlap: out is x's transpose, so each element is read
			// by the product of a different position.
			sq := mpRandom(rng, dt, 4, 4)
			orig = mpClone(sq)
			tr := &Tensor{dtype: dt, shape: []int{4, 4}, strides: []int{1, 4}, storage: sq.storage, n: sq.n}
			if err := MulInto(tr, sq, sq); err != nil {
				t.Fatal(err)
			}
			trOut := &Tensor{dtype: dt, shape: []int{4, 4}, strides: []int{1, 4}, storage: sq.storage, n: sq.n}
			mpCheckMul(t, trOut, orig, orig, dt)
			// Shifted overlap: out is x[1:], inputs x[:-1].
			v := mpRandom(rng, dt, 9)
			orig = mpClone(v)
			head := &Tensor{dtype: dt, shape: []int{8}, strides: []int{1}, storage: v.storage, n: v.n}
			tail := &Tensor{dtype: dt, shape: []int{8}, strides: []int{1}, offset: 1, storage: v.storage, n: v.n}
			origHead := &Tensor{dtype: dt, shape: []int{8}, strides: []int{1}, storage: orig.storage, n: orig.n}
			if err := MulInto(tail, head, head); err != nil {
				t.Fatal(err)
			}
			mpCheckMul(t, tail, origHead, origHead, dt)
		}
	})
}

// mpClone returns a contiguous copy of t.
func mpClone(t *Tensor) *Tensor {
	c, _ := empty(t.dtype, t.shape)
	_ = copyInto(c, t)
	return c
}

func TestMulLargeThreaded(t *testing.T) {
	// Sizes above the parallel threshold, contiguous, broadcast and
	// strided, with 1 and 2 threads: the results must be identical.
	rng := rand.New(rand.NewPCG(11, 12))
	n := 3*iter.MinParallel + 17
	a := mpRandom(rng, Float32, n)
	b := mpRandom(rng, Int32, n)
	s := mpRandom(rng, Float32)
	m := mpRandom(rng, Float64, 300, 700)
	mt := &Tensor{dtype: Float64, shape: []int{700, 300}, strides: []int{1, 700}, storage: m.storage, n: m.n}
	m2 := mpRandom(rng, Float64, 700, 300)
	row := mpRandom(rng, Float32, 300)
	rev := &Tensor{dtype: Float32, shape: []int{n}, strides: []int{-1}, offset: n - 1, storage: a.storage, n: a.n}
	cases := [][2]*Tensor{{a, a}, {a, b}, {b, a}, {a, s}, {s, b}, {mt, m2}, {m2, row}, {mt, row}, {rev, a}}
	for _, c := range cases {
		var results []*Tensor
		for _, procs := range []int{1, 2} {
			old := runtime.GOMAXPROCS(procs)
			got, err := Mul(c[0], c[1])
			runtime.GOMAXPROCS(old)
			if err != nil {
				t.Fatal(err)
			}
			results = append(results, got)
		}
		mpCheckMul(t, results[1], c[0], c[1], results[1].dtype)
		if !mpBytesEqual(results[0], results[1]) {
			t.Errorf("%v × %v: one and two threads differ", c[0].shape, c[1].shape)
		}
	}
}

// mpBytesEqual reports whether two contiguous tensors hold the same bytes.
func mpBytesEqual(x, y *Tensor) bool {
	nx, ny := x.Size()*x.dtype.Size(), y.Size()*y.dtype.Size()
	return x.dtype == y.dtype && nx == ny &&
		slices.Equal(unsafe.Slice((*byte)(firstElement(x)), nx), unsafe.Slice((*byte)(firstElement(y)), ny))
}

// mpPoolsDrop reports whether sync.Pool drops some of the items put back
// (the race detector makes it), so that pooled buffers are reallocated.
func mpPoolsDrop() bool {
	pool := sync.Pool{New: func() any { return new([64]byte) }}
	for range 100 {
		if testing.AllocsPerRun(1, func() { pool.Put(pool.Get()) }) > 0 {
			return true
		}
	}
	return false
}

func TestMulIntoAllocatesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	a := mpRandom(rng, Float32, 1000)
	b := mpRandom(rng, Float32, 1000)
	s := mpRandom(rng, Float32)
	out := mpRandom(rng, Float32, 1000)
	cases := [][2]*Tensor{{a, b}, {a, s}, {out, b}}
	// Mixed dtypes too: their conversion buffers come from a sync.Pool,
	// unless pools drop what is put back, as they do on purpose under the
	// race detector.
	if !mpPoolsDrop() {
		i := mpRandom(rng, Int32, 1000)
		h := mpRandom(rng, Float16, 1000)
		cases = append(cases, [][2]*Tensor{{a, i}, {i, h}, {h, s}}...)
	}
	for _, c := range cases {
		if n := testing.AllocsPerRun(50, func() { _ = MulInto(out, c[0], c[1]) }); n != 0 {
			t.Errorf("MulInto allocates %v times per call", n)
		}
	}
}

// ---- NumPy golden values (testdata/gen_mul_prod.py) ----

// mpGoldenArray is an array as the generator writes it.
type mpGoldenArray struct {
	DType string            `json:"dtype"`
	Shape []int             `json:"shape"`
	Data  []json.RawMessage `json:"data"`
}

// mpGoldenCase is one multiply or prod case with NumPy's result.
type mpGoldenCase struct {
	Op       string          `json:"op"`
	A        *mpGoldenArray  `json:"a"`
	B        *mpGoldenArray  `json:"b"`
	X        *mpGoldenArray  `json:"x"`
	AView    json.RawMessage `json:"a_view"`
	BView    json.RawMessage `json:"b_view"`
	XView    json.RawMessage `json:"x_view"`
	Axis     json.RawMessage `json:"axis"`
	KeepDims bool            `json:"keepdims"`
	Out      *mpGoldenArray  `json:"out"`
}

// tensor decodes a golden array into a contiguous tensor.
func (g *mpGoldenArray) tensor(t *testing.T) *Tensor {
	t.Helper()
	dt, err := dtype.Parse(g.DType)
	if err != nil {
		t.Fatal(err)
	}
	x, err := empty(dt, g.Shape)
	if err != nil {
		t.Fatal(err)
	}
	for i, raw := range g.Data {
		p := unsafe.Add(x.storage, i*dt.Size())
		if dt.IsComplex() {
			var parts [2]json.RawMessage
			if err := json.Unmarshal(raw, &parts); err != nil {
				t.Fatal(err)
			}
			z := complex(mpGoldenFloat(t, parts[0]), mpGoldenFloat(t, parts[1]))
			cast.Run(p, dt, 0, unsafe.Pointer(&z), Complex128, 0, 1)
			continue
		}
		switch s := string(raw); {
		case s == "true" || s == "false":
			*(*bool)(p) = s == "true"
		case dt.IsFloat():
			f := mpGoldenFloat(t, raw)
			cast.Run(p, dt, 0, unsafe.Pointer(&f), Float64, 0, 1)
		case strings.HasPrefix(s, "-"):
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			cast.Run(p, dt, 0, unsafe.Pointer(&v), Int64, 0, 1)
		default:
			v, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			cast.Run(p, dt, 0, unsafe.Pointer(&v), Uint64, 0, 1)
		}
	}
	return x
}

func mpGoldenFloat(t *testing.T, raw json.RawMessage) float64 {
	switch string(raw) {
	case `"nan"`:
		return math.NaN()
	case `"inf"`:
		return math.Inf(1)
	case `"-inf"`:
		return math.Inf(-1)
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// mpGoldenView applies the generator's view: ["T"] transposes, ["step",
// [s0, s1, ...]] takes every s-th element (from the end when negative).
func mpGoldenView(t *testing.T, x *Tensor, raw json.RawMessage) *Tensor {
	t.Helper()
	var spec []json.RawMessage
	if err := json.Unmarshal(raw, &spec); err != nil || len(spec) == 0 {
		return x
	}
	v := &Tensor{dtype: x.dtype, shape: slices.Clone(x.shape), strides: slices.Clone(x.strides), offset: x.offset, storage: x.storage, n: x.n}
	if string(spec[0]) == `"T"` {
		slices.Reverse(v.shape)
		slices.Reverse(v.strides)
		return v
	}
	var steps []int
	if err := json.Unmarshal(spec[1], &steps); err != nil {
		t.Fatal(err)
	}
	for i, s := range steps {
		d := v.shape[i]
		if s < 0 && d > 0 {
			v.offset += (d - 1) * v.strides[i]
		}
		v.shape[i] = (d + mpAbs(s) - 1) / mpAbs(s)
		v.strides[i] *= s
	}
	return v
}

func mpAbs(x int) int { return max(x, -x) }

func TestMulProdGolden(t *testing.T) {
	raw, err := os.ReadFile("testdata/mul_prod_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct{ Cases []mpGoldenCase }
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) < 200 {
		t.Fatalf("only %d golden cases", len(file.Cases))
	}
	mpWithFastPaths(t, func(t *testing.T) {
		for i, c := range file.Cases {
			want := c.Out.tensor(t)
			var got *Tensor
			var err error
			var reduced int
			switch c.Op {
			case "mul":
				got, err = Mul(mpGoldenView(t, c.A.tensor(t), c.AView), mpGoldenView(t, c.B.tensor(t), c.BView))
			case "prod":
				x := mpGoldenView(t, c.X.tensor(t), c.XView)
				reduced = x.Size()
				var opts []ReduceOption
				var axes []int
				var one int
				switch {
				case string(c.Axis) == "null":
				case json.Unmarshal(c.Axis, &one) == nil:
					opts = append(opts, Axis(one))
				case json.Unmarshal(c.Axis, &axes) == nil:
					opts = append(opts, Axis(axes...))
				}
				got, err = Prod(x, append(opts, KeepDims(c.KeepDims))...)
			}
			if err != nil {
				t.Fatalf("case %d (%s): %v", i, c.Op, err)
			}
			if got.dtype != want.dtype || !slices.Equal(got.shape, want.shape) {
				t.Fatalf("case %d (%s): %v %v, NumPy %v %v", i, c.Op, got.dtype, got.shape, want.dtype, want.shape)
			}
			bad := 0
			mpForEachIndex(want.shape, func(index []int) {
				g, w := mpLoad(got, index), mpLoad(want, index)
				ok := mpSame(want.dtype, g, w)
				// NumPy multiplies prods in another order, and fuses complex128's
				// ac−bd into a multiply-add: those agree to a tolerance only.
				if !ok && (c.Op == "prod" && (want.dtype.IsFloat() || want.dtype.IsComplex()) || want.dtype == Complex128) {
					gc, wc := mpConvert(Complex128, want.dtype, g), mpConvert(Complex128, want.dtype, w)
					gz, wz := *(*complex128)(unsafe.Pointer(&gc)), *(*complex128)(unsafe.Pointer(&wc))
					// A complex NaN is one with either part NaN; NumPy's prod
					// over no axes multiplies by 1 and spreads it to both parts.
					ok = mpClose(gz, wz, mpProdTolerance(want.dtype, reduced)) || cmplx.IsNaN(gz) && cmplx.IsNaN(wz)
				}
				if !ok && bad < 3 {
					bad++
					t.Errorf("case %d (%s %v): at %v got %s, NumPy %s", i, c.Op, want.dtype, index, mpShow(want.dtype, g), mpShow(want.dtype, w))
				}
			})
		}
	})
}

// FuzzMul decodes the fuzz bytes into two operand shapes that broadcast (or
// not), their dtypes and their views (permuted, stepped, reversed,
// broadcast strides), and checks Mul against the naive reference. It must
// never panic; shapes that do not broadcast and dtypes that do not
// promote must give errors of the right class.
func FuzzMul(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{255, 17, 3, 3, 1, 4, 0, 2, 11, 12, 200, 7, 3})
	f.Add([]byte{2, 4, 4, 4, 4, 4, 4, 12, 9, 1, 1, 1, 1, 0, 5})
	f.Add([]byte{3, 1, 0, 2, 3, 1, 4, 6, 14, 2, 99})
	f.Fuzz(func(t *testing.T, data []byte) {
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return int(b)
		}
		operandShape := func() []int {
			s := make([]int, next()%5)
			for i := range s {
				s[i] = next() % 5
			}
			return s
		}
		as, bs := operandShape(), operandShape()
		da, db := dtype.All[next()%len(dtype.All)], dtype.All[next()%len(dtype.All)]
		rng := rand.New(rand.NewPCG(uint64(next()), uint64(next())))
		a, b := mpRandomView(rng, da, as, 0.3), mpRandomView(rng, db, bs, 0.3)
		got, err := Mul(a, b)
		outShape, serr := shape.Broadcast(as, bs)
		c, perr := dtype.Promote(da, db)
		switch {
		case perr != nil:
			if !errors.Is(err, ErrDType) {
				t.Fatalf("%v × %v: %v, want ErrDType", da, db, err)
			}
		case serr != nil:
			if !errors.Is(err, ErrShape) {
				t.Fatalf("%v × %v: %v, want ErrShape", as, bs, err)
			}
		case err != nil:
			t.Fatalf("Mul(%v %v, %v %v): %v", da, as, db, bs, err)
		default:
			if got.dtype != c || !slices.Equal(got.shape, outShape) {
				t.Fatalf("Mul(%v %v, %v %v) is %v %v", da, as, db, bs, got.dtype, got.shape)
			}
			mpCheckMul(t, got, a, b, c)
		}
	})
}

// ---- Benchmarks: the mul/ workloads of /work/shared/bench/workloads.json ----
//
// Each is named after its workload and reports the workload's byte count
// (inputs read plus output written), so MB/s compares directly with the
// peers' GB/s.

func benchMul(b *testing.B, x, y *Tensor, bytes int64) {
	b.SetBytes(bytes)
	b.ResetTimer()
	for range b.N {
		if _, err := Mul(x, y); err != nil {
			b.Fatal(err)
		}
	}
}

// mpBenchRand returns the peers' data: floats uniform in [0.9999, 1.0001),
// so that long products neither overflow nor crawl through subnormals,
// integers 1 or 2.
func mpBenchRand(b *testing.B, seed uint64, dt DType, shp ...int) *Tensor {
	lo, hi := 0.9999, 1.0001
	if dt.IsInteger() {
		lo, hi = 1, 3
	}
	x, err := Rand(seed, dt, lo, hi, shp...)
	if err != nil {
		b.Fatal(err)
	}
	return x
}

const n16M = 1 << 24

func BenchmarkMulContig16MFloat32(b *testing.B) {
	benchMul(b, mpBenchRand(b, 1, Float32, n16M), mpBenchRand(b, 2, Float32, n16M), 201326592)
}

func BenchmarkMulContig16MFloat64(b *testing.B) {
	benchMul(b, mpBenchRand(b, 1, Float64, n16M), mpBenchRand(b, 2, Float64, n16M), 402653184)
}

func BenchmarkMulContig16MInt32(b *testing.B) {
	benchMul(b, mpBenchRand(b, 1, Int32, n16M), mpBenchRand(b, 2, Int32, n16M), 201326592)
}

func BenchmarkMulOuter4096Float32(b *testing.B) {
	benchMul(b, mpBenchRand(b, 1, Float32, 4096, 1), mpBenchRand(b, 2, Float32, 1, 4096), 67141632)
}

func BenchmarkMulRowBcast4096Float32(b *testing.B) {
	benchMul(b, mpBenchRand(b, 1, Float32, 4096, 4096), mpBenchRand(b, 2, Float32, 4096), 134234112)
}

func BenchmarkMulTransposed4096Float32(b *testing.B) {
	a := mpBenchRand(b, 1, Float32, 4096, 4096)
	at := &Tensor{dtype: Float32, shape: []int{4096, 4096}, strides: []int{1, 4096}, storage: a.storage, n: a.n}
	benchMul(b, at, mpBenchRand(b, 2, Float32, 4096, 4096), 201326592)
}

func BenchmarkMulPromote16MFloat32Int32(b *testing.B) {
	benchMul(b, mpBenchRand(b, 1, Float32, n16M), mpBenchRand(b, 2, Int32, n16M), 201326592)
}

func TestMulTiledTransposed(t *testing.T) {
	// Shapes large enough for the tiled walk (two innermost dimensions of
	// at least 2·32 × 2·512), not multiples of the tile, with an operand
	// whose memory order is the transpose of the output's, for every
	// element size, with one and two threads.
	rng := rand.New(rand.NewPCG(21, 22))
	for _, dt := range []DType{Bool, Int8, Float16, Float32, Float64, Complex128} {
		shp := []int{2, 67, 1030}
		base := mpRandom(rng, dt, 2, 1030, 67)
		// a[i, j, k] = base[i, k, j]: transposed in its two inner dimensions,
		// and reversed along the last one for good measure.
		a := &Tensor{dtype: dt, shape: shp, strides: []int{1030 * 67, 1, -67}, offset: 1029 * 67, storage: base.storage, n: base.n}
		b := mpRandom(rng, dt, shp...)
		var results []*Tensor
		for _, procs := range []int{1, 2} {
			old := runtime.GOMAXPROCS(procs)
			got, err := Mul(a, b)
			runtime.GOMAXPROCS(old)
			if err != nil {
				t.Fatal(err)
			}
			results = append(results, got)
		}
		mpCheckMul(t, results[0], a, b, dt)
		if !mpBytesEqual(results[0], results[1]) {
			t.Errorf("%v: one and two threads differ", dt)
		}
		// Mixed dtypes through the same tiles: float32 × transposed int16.
		if dt == Float32 {
			ai := mpRandom(rng, Int16, 2, 1030, 67)
			at := &Tensor{dtype: Int16, shape: shp, strides: []int{1030 * 67, 1, 67}, storage: ai.storage, n: ai.n}
			got, err := Mul(b, at)
			if err != nil {
				t.Fatal(err)
			}
			mpCheckMul(t, got, b, at, Float32)
		}
	}
}

// BenchmarkMulIntoContig16MFloat32 is BenchmarkMulContig16MFloat32 into a
// preallocated output: the difference is the cost of allocating (and
// zeroing) the result.
func BenchmarkMulIntoContig16MFloat32(b *testing.B) {
	x, y := mpBenchRand(b, 1, Float32, n16M), mpBenchRand(b, 2, Float32, n16M)
	out := mpBenchRand(b, 3, Float32, n16M)
	b.SetBytes(201326592)
	b.ResetTimer()
	for range b.N {
		if err := MulInto(out, x, y); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMulStreamingBroadcast covers the broadcast multiplies into a given
// output large enough to be stored around the cache (ewise.StreamOutputBytes): a
// row broadcast, an outer product and a transposed input (which is not
// streamed) of float32 and float64, with one and two threads, against the
// reference and against the plain Go loops (identical bits).
func TestMulStreamingBroadcast(t *testing.T) {
	defer func(b int) { ewise.StreamOutputBytes = b }(ewise.StreamOutputBytes)
	ewise.StreamOutputBytes = 256 << 10
	rng := rand.New(rand.NewPCG(51, 52))
	for _, dt := range []DType{Float32, Float64} {
		rows := ewise.StreamOutputBytes/dt.Size()/1030 + 1
		big := mpRandom(rng, dt, rows, 1030)
		cases := []struct{ a, b *Tensor }{
			{big, mpRandom(rng, dt, 1030)},
			{mpRandom(rng, dt, rows, 1), mpRandom(rng, dt, 1, 1030)},
			{mpRandom(rng, dt, 1030, rows).Transpose(), mpRandom(rng, dt, 1030)},
		}
		for _, c := range cases {
			var results []*Tensor
			for _, use := range []bool{true, false} {
				for _, procs := range []int{1, 2} {
					ewise.UseVec = use
					old := runtime.GOMAXPROCS(procs)
					got, err := Mul(c.a, c.b)
					if err == nil {
						// Again into a given output (the streamed
						// path), over bytes no product would leave.
						b := unsafe.Slice((*byte)(got.storage), got.n*got.dtype.Size())
						for i := range b {
							b[i] = 0xa5
						}
						err = MulInto(got, c.a, c.b)
					}
					runtime.GOMAXPROCS(old)
					ewise.UseVec = true
					if err != nil {
						t.Fatal(err)
					}
					results = append(results, got)
				}
			}
			for i, r := range results[1:] {
				if !mpBytesEqual(results[0], r) {
					t.Errorf("%v %v x %v: result %d (vec, threads) differs", dt, c.a.shape, c.b.shape, i+1)
				}
			}
			mpCheckMul(t, results[0], c.a, c.b, dt)
		}
	}
}

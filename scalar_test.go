package tensor

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"strings"
	"testing"
	"unsafe"

	"github.com/tensor-go/tensor/bfloat16"
	"github.com/tensor-go/tensor/dtype"
	"github.com/tensor-go/tensor/internal/cast"
	"github.com/x448/float16"
)

// scalarValue reads the only element of a 0-d tensor as a complex128
// (exact for every value these tests use).
func scalarValue(t *testing.T, x *Tensor) complex128 {
	t.Helper()
	if x.NDim() != 0 || x.Size() != 1 {
		t.Fatalf("shape %v, want a 0-d tensor", x.shape)
	}
	var c complex128
	cast.Run(unsafe.Pointer(&c), Complex128, 0, addressOf(x, nil), x.dtype, 0, 1)
	return c
}

func sameComplex(a, b complex128) bool {
	if cmplx.IsNaN(a) || cmplx.IsNaN(b) {
		return cmplx.IsNaN(a) && cmplx.IsNaN(b)
	}
	return a == b
}

// TestBinaryOperandsSemantics checks the examples of semantics §3 and §4.
func TestBinaryOperandsSemantics(t *testing.T) {
	tensorOf := func(dt DType) *Tensor { return Must(Zeros(dt, 2)) }
	for _, c := range []struct {
		name   string
		x, y   any
		result DType
		value  complex128 // of the scalar operand, once materialised
	}{
		{"int32 tensor × 2", tensorOf(Int32), 2, Int32, 2},
		{"2 × int32 tensor", 2, tensorOf(Int32), Int32, 2},
		{"float16 tensor × 2.5", tensorOf(Float16), 2.5, Float16, 2.5},
		{"float16 tensor × 1e5", tensorOf(Float16), 1e5, Float16, complex(math.Inf(1), 0)},
		{"float16 tensor × 100000", tensorOf(Float16), 100000, Float16, complex(math.Inf(1), 0)},
		{"bfloat16 tensor × 1/3", tensorOf(BFloat16), 1.0 / 3, BFloat16, complex(float64(bfloat16.FromFloat64(1.0/3).Float32()), 0)},
		{"int32 tensor × 2.5", tensorOf(Int32), 2.5, Float32, 2.5},
		{"int64 tensor × 2.5", tensorOf(Int64), 2.5, Float32, 2.5},
		{"bool tensor × 2", tensorOf(Bool), 2, Int32, 2},
		{"bool tensor × true", tensorOf(Bool), true, Bool, 1},
		{"uint8 tensor × true", tensorOf(Uint8), true, Uint8, 1},
		{"float64 tensor × 1i", tensorOf(Float64), 1i, Complex128, 1i},
		{"float32 tensor × 1i", tensorOf(Float32), 1i, Complex64, 1i},
		{"int8 tensor × 1i", tensorOf(Int8), complex64(1i), Complex64, 1i},
		{"complex128 tensor × 2", tensorOf(Complex128), 2, Complex128, 2},
		{"int8 tensor × -128", tensorOf(Int8), -128, Int8, -128},
		{"int8 tensor × int64(127)", tensorOf(Int8), int64(127), Int8, 127},
		{"uint64 tensor × uint64 max", tensorOf(Uint64), uint64(math.MaxUint64), Uint64, complex(math.MaxUint64, 0)},
		{"uint8 tensor × 255", tensorOf(Uint8), uint(255), Uint8, 255},
		{"float32 tensor × float64 max", tensorOf(Float32), math.MaxFloat64, Float32, complex(math.Inf(1), 0)},
		{"float16 tensor × bfloat16 scalar", tensorOf(Float16), bfloat16.FromFloat32(3), Float16, 3},
		{"int16 tensor × float16 scalar", tensorOf(Int16), float16.Fromfloat32(0.5), Float32, 0.5},
		{"scalars 1.0 × 4.0", 1.0, 4.0, Float32, 1},
		{"scalars -3 × -4", -3, -4, Int32, -3},
		{"scalars true × true", true, true, Bool, 1},
		{"scalars true × 2", true, 2, Int32, 1},
		{"scalars 2 × 1.5", 2, 1.5, Float32, 2},
		{"scalars 1i × 2", 1i, 2, Complex64, 1i},
		{"scalars uint64 × int8", uint64(7), int8(-1), Int32, 7},
	} {
		a, b, result, err := binaryOperands("mul", c.x, c.y)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if result != c.result {
			t.Errorf("%s: result %v, want %v", c.name, result, c.result)
		}
		// The scalar comes back in the result dtype; a tensor as given.
		scalar := a
		if tx, ok := c.x.(*Tensor); ok {
			if a != tx {
				t.Errorf("%s: tensor operand not returned as given", c.name)
			}
			scalar = b
		} else if ty, ok := c.y.(*Tensor); ok && b != ty {
			t.Errorf("%s: tensor operand not returned as given", c.name)
		}
		if scalar.dtype != result {
			t.Errorf("%s: scalar materialised as %v, want %v", c.name, scalar.dtype, result)
		}
		if got := scalarValue(t, scalar); !sameComplex(got, c.value) {
			t.Errorf("%s: scalar value %v, want %v", c.name, got, c.value)
		}
	}
}

func TestBinaryOperandsTensors(t *testing.T) {
	i8 := Must(Zeros(Int8, 3))
	u8 := Must(Zeros(Uint8, 1, 3))
	a, b, result, err := binaryOperands("mul", i8, u8)
	if err != nil || a != i8 || b != u8 || result != Int16 {
		t.Errorf("int8 × uint8 = %v, %v, %v, %v; want the tensors and int16", a, b, result, err)
	}
	// A 0-d tensor is not weak.
	zeroD, _ := Must(FromSlice([]float64{2})).Reshape()
	if _, _, result, err := binaryOperands("mul", i8, zeroD); err != nil || result != Float64 {
		t.Errorf("int8 × 0-d float64 = %v, %v; want float64", result, err)
	}
	_, _, _, err = binaryOperands("mul", Must(Zeros(Uint64, 2)), i8)
	if !errors.Is(err, ErrDType) || !strings.Contains(err.Error(), "mul") {
		t.Errorf("uint64 × int8 error %v, want ErrDType naming mul", err)
	}
}

// TestBinaryOperandsErrors checks the error class and that messages name
// the operation and the offending value, type or dtype.
func TestBinaryOperandsErrors(t *testing.T) {
	i8 := Must(Zeros(Int8, 2))
	u8 := Must(Zeros(Uint8, 2))
	var nilTensor *Tensor
	type errCase struct {
		name    string
		x, y    any
		class   error
		mention []string
	}
	cases := []errCase{
		{"int8 × 300", i8, 300, ErrValue, []string{"matmul", "300", "int8"}},
		{"uint8 × -1", u8, -1, ErrValue, []string{"matmul", "-1", "uint8"}},
		{"-1 × uint8", int8(-1), u8, ErrValue, []string{"-1", "uint8"}},
		{"int8 × uint64(128)", i8, uint64(128), ErrValue, []string{"128", "int8"}},
		{"int64 × uint64 max", Must(Zeros(Int64, 1)), uint64(math.MaxUint64), ErrValue, []string{"18446744073709551615", "int64"}},
		{"int8 × -129", i8, -129, ErrValue, []string{"-129"}},
		{"bool × 2^40", Must(Zeros(Bool, 1)), int64(1) << 40, ErrValue, []string{"1099511627776", "int32"}},
		{"scalars 2^40 × 2", int64(1) << 40, 2, ErrValue, []string{"int32"}},
		{"string", i8, "x", ErrDType, []string{"matmul", "string"}},
		{"nil", nil, i8, ErrDType, []string{"<nil>"}},
		{"slice", i8, []int{1}, ErrDType, []string{"[]int"}},
		{"nil tensor", nilTensor, i8, ErrValue, []string{"nil"}},
	}
	if big, ok := intBeyond32(); ok {
		cases = append(cases, errCase{"bool × int 2^40", Must(Zeros(Bool, 1)), big, ErrValue, []string{"1099511627776", "int32"}},
			errCase{"scalars int 2^40 × 2", big, 2, ErrValue, []string{"int32"}})
	}
	for _, c := range cases {
		_, _, _, err := binaryOperands("matmul", c.x, c.y)
		if !errors.Is(err, c.class) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.class)
			continue
		}
		for _, m := range c.mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s: message %q does not mention %q", c.name, err, m)
			}
		}
	}
}

// kindRank orders kinds as semantics §3 does, written out here
// independently of package dtype.
func kindRank(k dtype.Kind) int {
	return map[dtype.Kind]int{dtype.KindBool: 0, dtype.KindSigned: 1, dtype.KindUnsigned: 1, dtype.KindFloat: 2, dtype.KindComplex: 3}[k]
}

// TestEveryScalarTypeWithEveryDType pairs the value 3 (true for bool) of
// every Go scalar type with a tensor of every dtype, in both orders.
func TestEveryScalarTypeWithEveryDType(t *testing.T) {
	type celsius float64 // a defined type reads as its underlying type
	type flag bool
	scalars := []struct {
		v    any
		kind dtype.Kind
	}{
		{true, dtype.KindBool}, {flag(true), dtype.KindBool},
		{int(3), dtype.KindSigned}, {int8(3), dtype.KindSigned}, {int16(3), dtype.KindSigned},
		{int32(3), dtype.KindSigned}, {int64(3), dtype.KindSigned},
		{uint(3), dtype.KindUnsigned}, {uint8(3), dtype.KindUnsigned}, {uint16(3), dtype.KindUnsigned},
		{uint32(3), dtype.KindUnsigned}, {uint64(3), dtype.KindUnsigned},
		{float16.Fromfloat32(3), dtype.KindFloat}, {bfloat16.FromFloat32(3), dtype.KindFloat},
		{float32(3), dtype.KindFloat}, {float64(3), dtype.KindFloat}, {celsius(3), dtype.KindFloat},
		{complex64(3), dtype.KindComplex}, {complex128(3), dtype.KindComplex},
	}
	for _, s := range scalars {
		want := complex128(3)
		if s.kind == dtype.KindBool {
			want = 1
		}
		for _, dt := range dtype.All {
			// §4: a scalar of a kind no higher than the tensor's takes the
			// tensor's dtype; a higher one the default of its kind, for
			// complex the complex of the tensor's precision.
			result := dt
			if kindRank(s.kind) > kindRank(dt.Kind()) {
				switch {
				case s.kind == dtype.KindComplex && dt == Float64:
					result = Complex128
				case s.kind == dtype.KindComplex:
					result = Complex64
				case s.kind == dtype.KindFloat:
					result = Float32
				default:
					result = Int32
				}
			}
			x := Must(Zeros(dt, 2, 1))
			for order := range 2 {
				var sc *Tensor
				var err error
				var got DType
				if order == 0 {
					_, sc, got, err = binaryOperands("mul", x, s.v)
				} else {
					sc, _, got, err = binaryOperands("mul", s.v, x)
				}
				if err != nil {
					t.Fatalf("%T × %v: %v", s.v, dt, err)
				}
				if got != result || sc.dtype != result {
					t.Errorf("%T × %v: result %v, scalar %v; want %v", s.v, dt, got, sc.dtype, result)
				}
				if v := scalarValue(t, sc); v != want {
					t.Errorf("%T × %v: scalar value %v, want %v", s.v, dt, v, want)
				}
			}
		}
	}
}

func TestScalar(t *testing.T) {
	for _, c := range []struct {
		v     any
		dt    DType
		value complex128
	}{
		{2.5, Float32, 2.5},
		{int64(7), Int32, 7},
		{uint8(200), Int32, 200},
		{true, Bool, 1},
		{1i, Complex64, 1i},
		{float16.Fromfloat32(0.5), Float32, 0.5},
		{math.MinInt32, Int32, math.MinInt32},
		{1e300, Float32, complex(math.Inf(1), 0)},
		{0.1, Float32, complex(float64(float32(0.1)), 0)},
	} {
		x, err := Scalar(c.v)
		if err != nil {
			t.Errorf("Scalar(%T %v): %v", c.v, c.v, err)
			continue
		}
		if x.dtype != c.dt {
			t.Errorf("Scalar(%T %v) dtype %v, want %v", c.v, c.v, x.dtype, c.dt)
		}
		if got := scalarValue(t, x); got != c.value {
			t.Errorf("Scalar(%T %v) = %v, want %v", c.v, c.v, got, c.value)
		}
	}
	type errCase struct {
		v     any
		class error
	}
	cases := []errCase{
		{int64(math.MaxInt32) + 1, ErrValue}, {uint64(1 << 40), ErrValue}, {"3", ErrDType}, {nil, ErrDType}, {[]float64{1}, ErrDType},
	}
	if big, ok := intBeyond32(); ok {
		cases = append(cases, errCase{big, ErrValue})
	}
	for _, c := range cases {
		if _, err := Scalar(c.v); !errors.Is(err, c.class) {
			t.Errorf("Scalar(%T %v) error %v, want %v", c.v, c.v, err, c.class)
		}
	}
}

func TestScalarOf(t *testing.T) {
	check := func(x *Tensor, dt DType, value complex128) {
		t.Helper()
		if x.dtype != dt {
			t.Errorf("dtype %v, want %v", x.dtype, dt)
		}
		if got := scalarValue(t, x); got != value {
			t.Errorf("%v value %v, want %v", dt, got, value)
		}
	}
	check(ScalarOf(int8(-3)), Int8, -3)
	check(ScalarOf(3), goIntDType, 3)
	check(ScalarOf(uint(9)), goUintDType, 9)
	check(ScalarOf(2.5), Float64, 2.5)
	check(ScalarOf(float32(0.1)), Float32, complex(float64(float32(0.1)), 0))
	check(ScalarOf(bfloat16.FromFloat32(1.5)), BFloat16, 1.5)
	check(ScalarOf(float16.Fromfloat32(-2)), Float16, -2)
	check(ScalarOf(complex64(1+2i)), Complex64, 1+2i)
	check(ScalarOf(true), Bool, 1)
	x := ScalarOf(int64(math.MinInt64))
	if got := *(*int64)(x.storage); got != math.MinInt64 {
		t.Errorf("ScalarOf(int64 min) holds %d", got)
	}
}

// A Go scalar on its own takes the default dtype of its kind; ScalarOf
// keeps the dtype of the Go type.
func ExampleScalar() {
	fmt.Println(Must(Scalar(2.5)))
	fmt.Println(Must(Scalar(int64(7))))
	fmt.Println(ScalarOf(int64(7)))
	_, err := Scalar(int64(1) << 40)
	fmt.Println(err)
	// Output:
	// Tensor(2.5, device=xpux:0)
	// Tensor(7, dtype=int32, device=xpux:0)
	// Tensor(7, dtype=int64, device=xpux:0)
	// tensor: scalar: Go scalar 1099511627776 (int64) is outside the range of int32
}

package dtype

import (
	"errors"
	"strings"
	"testing"
)

// wantPromotion is semantics §3 written out pair by pair, rows and columns in
// the order of All. It agrees with torch.promote_types wherever PyTorch
// supports both dtypes, and differs from NumPy exactly where the contract
// says so (uint64 with signed integers is an error; integers never widen a
// float: int32×float32 is float32).
var wantPromotion = [][]string{
	{"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "bfloat16", "float32", "float64", "complex64", "complex128"},
	{"int8", "int8", "int16", "int32", "int64", "int16", "int32", "int64", "error", "float16", "bfloat16", "float32", "float64", "complex64", "complex128"},
	{"int16", "int16", "int16", "int32", "int64", "int16", "int32", "int64", "error", "float16", "bfloat16", "float32", "float64", "complex64", "complex128"},
	{"int32", "int32", "int32", "int32", "int64", "int32", "int32", "int64", "error", "float16", "bfloat16", "float32", "float64", "complex64", "complex128"},
	{"int64", "int64", "int64", "int64", "int64", "int64", "int64", "int64", "error", "float16", "bfloat16", "float32", "float64", "complex64", "complex128"},
	{"uint8", "int16", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "bfloat16", "float32", "float64", "complex64", "complex128"},
	{"uint16", "int32", "int32", "int32", "int64", "uint16", "uint16", "uint32", "uint64", "float16", "bfloat16", "float32", "float64", "complex64", "complex128"},
	{"uint32", "int64", "int64", "int64", "int64", "uint32", "uint32", "uint32", "uint64", "float16", "bfloat16", "float32", "float64", "complex64", "complex128"},
	{"uint64", "error", "error", "error", "error", "uint64", "uint64", "uint64", "uint64", "float16", "bfloat16", "float32", "float64", "complex64", "complex128"},
	{"float16", "float16", "float16", "float16", "float16", "float16", "float16", "float16", "float16", "float16", "float32", "float32", "float64", "complex64", "complex128"},
	{"bfloat16", "bfloat16", "bfloat16", "bfloat16", "bfloat16", "bfloat16", "bfloat16", "bfloat16", "bfloat16", "float32", "bfloat16", "float32", "float64", "complex64", "complex128"},
	{"float32", "float32", "float32", "float32", "float32", "float32", "float32", "float32", "float32", "float32", "float32", "float32", "float64", "complex64", "complex128"},
	{"float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "complex128", "complex128"},
	{"complex64", "complex64", "complex64", "complex64", "complex64", "complex64", "complex64", "complex64", "complex64", "complex64", "complex64", "complex64", "complex128", "complex64", "complex128"},
	{"complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128"},
}

func TestPromoteAllPairs(t *testing.T) {
	if len(wantPromotion) != len(All) {
		t.Fatalf("table has %d rows, want %d", len(wantPromotion), len(All))
	}
	for i, a := range All {
		for j, b := range All {
			want := wantPromotion[i][j]
			got, err := Promote(a, b)
			if want == "error" {
				if !errors.Is(err, ErrDType) {
					t.Errorf("Promote(%v, %v) = %v, %v; want an ErrDType error", a, b, got, err)
				}
				continue
			}
			if err != nil || got.String() != want {
				t.Errorf("Promote(%v, %v) = %v, %v; want %s", a, b, got, err, want)
			}
		}
	}
}

func TestPromoteInvalid(t *testing.T) {
	if _, err := Promote(Invalid, Float32); !errors.Is(err, ErrDType) {
		t.Errorf("Promote(Invalid, float32) error = %v, want ErrDType", err)
	}
}

func TestParseRoundTrip(t *testing.T) {
	for _, d := range All {
		got, err := Parse(d.String())
		if err != nil || got != d {
			t.Errorf("Parse(%q) = %v, %v", d.String(), got, err)
		}
	}
	if _, err := Parse("float8"); !errors.Is(err, ErrDType) {
		t.Errorf("Parse(float8) error = %v, want ErrDType", err)
	}
	// A huge name is quoted by a short prefix only.
	huge := strings.Repeat("f", 1<<20)
	if _, err := Parse(huge); !errors.Is(err, ErrDType) || len(err.Error()) > 200 {
		t.Errorf("Parse of a 1 MB name: an error of %d bytes", len(err.Error()))
	}
}

func TestSizesAndKinds(t *testing.T) {
	want := map[DType]struct {
		size int
		kind Kind
	}{
		Bool: {1, KindBool}, Int8: {1, KindSigned}, Int16: {2, KindSigned}, Int32: {4, KindSigned},
		Int64: {8, KindSigned}, Uint8: {1, KindUnsigned}, Uint16: {2, KindUnsigned}, Uint32: {4, KindUnsigned},
		Uint64: {8, KindUnsigned}, Float16: {2, KindFloat}, BFloat16: {2, KindFloat}, Float32: {4, KindFloat},
		Float64: {8, KindFloat}, Complex64: {8, KindComplex}, Complex128: {16, KindComplex},
	}
	for _, d := range All {
		if d.Size() != want[d].size || d.Kind() != want[d].kind {
			t.Errorf("%v: size %d kind %d, want %d %d", d, d.Size(), d.Kind(), want[d].size, want[d].kind)
		}
	}
}

func TestProdResult(t *testing.T) {
	want := map[DType]DType{
		Bool: Int32, Int8: Int32, Int16: Int32, Int32: Int32, Int64: Int64,
		Uint8: Uint32, Uint16: Uint32, Uint32: Uint32, Uint64: Uint64,
		Float16: Float16, BFloat16: BFloat16, Float32: Float32, Float64: Float64,
		Complex64: Complex64, Complex128: Complex128,
	}
	for _, d := range All {
		if got := ProdResult(d); got != want[d] {
			t.Errorf("ProdResult(%v) = %v, want %v", d, got, want[d])
		}
	}
}

func TestScalarResult(t *testing.T) {
	cases := []struct {
		tensor DType
		scalar Kind
		want   DType
	}{
		{Int32, KindSigned, Int32},
		{Int8, KindSigned, Int8},
		{Uint8, KindSigned, Uint8},
		{Float16, KindFloat, Float16},
		{Float16, KindSigned, Float16},
		{Int32, KindFloat, Float32},
		{Int64, KindFloat, Float32},
		{Bool, KindSigned, Int32},
		{Bool, KindBool, Bool},
		{Bool, KindFloat, Float32},
		{Float64, KindComplex, Complex128},
		{Float32, KindComplex, Complex64},
		{BFloat16, KindComplex, Complex64},
		{Int64, KindComplex, Complex64},
		{Complex128, KindFloat, Complex128},
	}
	for _, c := range cases {
		if got := ScalarResult(c.tensor, c.scalar); got != c.want {
			t.Errorf("ScalarResult(%v, kind %d) = %v, want %v", c.tensor, c.scalar, got, c.want)
		}
	}
}

func TestCanCastInto(t *testing.T) {
	cases := []struct {
		from, to DType
		want     bool
	}{
		{Float32, Float64, true}, {Float64, Float32, true}, {Float32, Int32, false},
		{Int32, Float32, true}, {Int64, Int8, true}, {Int32, Uint8, true}, {Int32, Bool, false},
		{Complex64, Float64, false}, {Float16, Complex64, true}, {Bool, Bool, true},
	}
	for _, c := range cases {
		if got := CanCastInto(c.from, c.to); got != c.want {
			t.Errorf("CanCastInto(%v, %v) = %v, want %v", c.from, c.to, got, c.want)
		}
	}
}

package expr

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/tensor-go/tensor"
	"github.com/tensor-go/tensor/dtype"
)

func TestCheck(t *testing.T) {
	bound := func(name string) bool { return name == "x" || name == "F" }
	tests := []struct {
		src  string
		kind string // "" for no error
		col  int
	}{
		{"mul(x, 2)", "", 0},
		{"x.prod(axis=0).T.shape", "", 0},
		{"np.float16", "", 0},
		{"tensor([1], dtype=int8)", "", 0},
		{"x[..., ::2]", "", 0},
		{"y", "name", 1},
		{"x * y", "name", 5},
		// A bound F shadows the module prefix: F.mul(x, 2) is then the
		// method mul of F with one argument too many.
		{"F.mul(x, 2)", "call", 6},
		{"F.mul(x)", "", 0},
		{"np.mul", "name", 3},
		{"np.bogus", "name", 4},
		{"np", "name", 1},
		{"x.bogus", "name", 3},
		{"mul(1, 2, x=3)", "call", 11},
		{"zeros()", "call", 6},
		{"x.reshape(2, 3)", "", 0},
		{"x.zeros(2)", "name", 3},
		{"x()", "name", 1},
		{"nan(1)", "name", 1},
		{"size(x)", "name", 1},
		{"F.size(x)", "call", 7}, // F is bound here: the method size of F takes no argument
		{"np.size(x)", "name", 4},
		{"TENSOR([1])", "name", 1},
	}
	for _, tc := range tests {
		n, err := Parse(tc.src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.src, err)
		}
		err = Check(n, bound)
		var ce *CheckError
		switch {
		case tc.kind == "" && err != nil:
			t.Errorf("Check(%q) = %v, want no error", tc.src, err)
		case tc.kind == "":
		case !errors.As(err, &ce):
			t.Errorf("Check(%q) = %v, want a %s error", tc.src, err, tc.kind)
		case ce.Kind != tc.kind || ce.Col != tc.col:
			t.Errorf("Check(%q) = %s error at column %d (%s), want %s at %d", tc.src, ce.Kind, ce.Col, ce.Msg, tc.kind, tc.col)
		}
	}
}

func evalString(t *testing.T, src string, vars map[string]*tensor.Tensor) (Value, error) {
	t.Helper()
	n, err := Parse(src)
	if err != nil {
		t.Fatalf("Parse(%q): %v", src, err)
	}
	env := &Env{Vars: vars}
	if err := Check(n, env.Bound); err != nil {
		t.Fatalf("Check(%q): %v", src, err)
	}
	return env.Eval(n)
}

func TestFormatValues(t *testing.T) {
	tests := []struct{ src, want string }{
		{"1", "1"},
		{"-9223372036854775808", "-9223372036854775808"},
		{"0b101", "5"},
		{"0o17", "15"},
		{"0b_101", "5"},
		{"0X_1f", "31"},
		{"000", "0"},
		{"1_000", "1000"},
		{"1.0", "1.0"},
		{"0.1", "0.1"},
		{"1e16", "1e+16"},
		{"123456789.0", "123456789.0"},
		{"0.0001", "0.0001"},
		{"0.00001", "1e-05"},
		{"-0.0", "-0.0"},
		{"nan", "nan"},
		{"-inf", "-inf"},
		{"2j", "2j"},
		{"-2.5j", "(-0-2.5j)"},
		{"True", "True"},
		{"-True", "-1"},
		{"None", "None"},
		{"'int8'", "int8"},
		{"(1, (2.5, None), 'a')", "(1, (2.5, None), 'a')"},
		{"(1,)", "(1,)"},
		{"x.shape", "(2, 3)"},
		{"x.T.shape", "(3, 2)"},
		{"x.size()", "(2, 3)"},
		{"x.ndim", "2"},
		{"x.dtype", "int64"},
	}
	x, err := tensor.FromSlice([]int64{1, 2, 3, 4, 5, 6}, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		v, err := evalString(t, tc.src, map[string]*tensor.Tensor{"x": x})
		if err != nil {
			t.Errorf("Eval(%q): %v", tc.src, err)
			continue
		}
		got, err := Format(v)
		if err != nil || got != tc.want {
			t.Errorf("Format(Eval(%q)) = %q, %v; want %q", tc.src, got, err, tc.want)
		}
	}
}

// TestListDTypes checks the default dtypes of list literals and the
// explicit dtype of tensor(...).
func TestListDTypes(t *testing.T) {
	tests := []struct {
		src   string
		dt    dtype.DType
		shape []int
	}{
		{"[[1, 2], [3, 4]]", dtype.Int32, []int{2, 2}},
		{"[1, 2.5]", dtype.Float32, []int{2}},
		{"[True, False]", dtype.Bool, []int{2}},
		{"[True, 2]", dtype.Int32, []int{2}},
		{"[1, 2j]", dtype.Complex64, []int{2}},
		{"[]", dtype.Float32, []int{0}},
		{"[[], []]", dtype.Float32, []int{2, 0}},
		{"tensor(5)", dtype.Int32, []int{}},
		{"tensor(5.0)", dtype.Float32, []int{}},
		{"tensor([1, 2], dtype='uint8')", dtype.Uint8, []int{2}},
		{"tensor([1, 2], dtype=float64)", dtype.Float64, []int{2}},
		{"tensor([[1.5]], dtype=bfloat16)", dtype.BFloat16, []int{1, 1}},
		{"tensor(((1, 2), (3, 4)))", dtype.Int32, []int{2, 2}},
		{"tensor([9223372036854775807], dtype=int64)", dtype.Int64, []int{1}},
	}
	for _, tc := range tests {
		v, err := evalString(t, "tensor("+tc.src+")", nil)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		x := v.(*tensor.Tensor)
		if x.DType() != tc.dt || len(x.Shape()) != len(tc.shape) {
			t.Errorf("%s: %v %v, want %v %v", tc.src, x.DType(), x.Shape(), tc.dt, tc.shape)
			continue
		}
		for i, d := range tc.shape {
			if x.Shape()[i] != d {
				t.Errorf("%s: shape %v, want %v", tc.src, x.Shape(), tc.shape)
			}
		}
	}
	// Values survive the trip through the widest Go type exactly.
	v, err := evalString(t, "tensor([-9223372036854775808, 9223372036854775807], dtype=int64)", nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := tensor.ToSlice[int64](v.(*tensor.Tensor))
	if err != nil || got[0] != math.MinInt64 || got[1] != math.MaxInt64 {
		t.Errorf("int64 extremes = %v, %v", got, err)
	}
}

func TestFitsInteger(t *testing.T) {
	tests := []struct {
		v    int64
		dt   dtype.DType
		want bool
	}{
		{127, dtype.Int8, true}, {128, dtype.Int8, false}, {-128, dtype.Int8, true}, {-129, dtype.Int8, false},
		{255, dtype.Uint8, true}, {256, dtype.Uint8, false}, {-1, dtype.Uint8, false},
		{math.MaxInt32, dtype.Int32, true}, {math.MaxInt32 + 1, dtype.Int32, false},
		{math.MaxUint32, dtype.Uint32, true}, {math.MaxUint32 + 1, dtype.Uint32, false},
		{math.MinInt64, dtype.Int64, true}, {math.MaxInt64, dtype.Uint64, true}, {-1, dtype.Uint64, false},
	}
	for _, tc := range tests {
		if got := fitsInteger(tc.v, tc.dt); got != tc.want {
			t.Errorf("fitsInteger(%d, %v) = %v, want %v", tc.v, tc.dt, got, tc.want)
		}
	}
}

// TestReserve checks that results over Env.MaxBytes fail with ErrShape
// before anything is allocated, for every operation that allocates.
func TestReserve(t *testing.T) {
	big, err := tensor.Zeros(dtype.Float32, 100, 3)
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]*tensor.Tensor{"x": big} // 1200 bytes
	tests := []struct {
		src string
		ok  bool
	}{
		{"zeros(250)", true},
		{"zeros(251)", false},
		{"zeros(126, dtype=float64)", false},
		{"ones((10, 26))", false},
		{"full((10, 26), 1)", false},
		{"arange(251)", false},
		{"arange(0, 251, 1)", false},
		{"arange(250)", true},
		{"x[:83] * 2", true},
		{"x * 2", false},
		{"-x", false},
		{"broadcast_to(1.0, (1000, 1000))", true}, // a view
		{"broadcast_to(1.0, (1000, 1000)) * 2", false},
		{"broadcast_to(1.0, (1000, 1)) @ broadcast_to(1.0, (1, 1000))", false},
		{"broadcast_to(1.0, (1, 1000)) @ broadcast_to(1.0, (1000, 1))", true},
		{"astype(x[:50], float64)", false},
		{"tensor(x[:50], dtype=float64)", false},
		{"prod(x)", true},
		{"prod(broadcast_to(1.0, (1000, 200)), axis=0)", true},
		{"prod(broadcast_to(1.0, (1000, 1000)), axis=())", false},
		{"prod(broadcast_to(1.0, (251, 4)), axis=1, keepdims=True)", false},
		{"x.T.reshape(-1)", false},
	}
	// A size that overflows 64 bits is said in words, not as its remainder
	// ("needs 0 bytes" for 2^62 float32 elements, before).
	env := &Env{Vars: vars, MaxBytes: 1000}
	n, err := Parse("prod(zeros((0, 4611686018427387904)), axis=0)")
	if err != nil {
		t.Fatal(err)
	}
	_, err = env.Eval(n)
	if math.MaxInt == math.MaxInt32 {
		// No int holds 2^62: refused as a value, never cut to its low bits.
		if !errors.Is(err, tensor.ErrValue) || !strings.Contains(err.Error(), "4611686018427387904") {
			t.Errorf("the 2^62-element prod with a 32-bit int: %v, want an ErrValue error naming the size", err)
		}
	} else if !errors.Is(err, tensor.ErrShape) || strings.Contains(err.Error(), "needs 0 bytes") || !strings.Contains(err.Error(), "more than 2^64") {
		t.Errorf("the 2^62-element prod: %v, want a budget error saying more than 2^64 bytes", err)
	}
	for _, tc := range tests {
		n, err := Parse(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		env := &Env{Vars: vars, MaxBytes: 1000}
		if err := Check(n, env.Bound); err != nil {
			t.Fatal(err)
		}
		_, err = env.Eval(n)
		switch {
		case tc.ok && err != nil:
			t.Errorf("%s: %v, want success within the budget", tc.src, err)
		case !tc.ok && (!errors.Is(err, tensor.ErrShape) || !strings.Contains(err.Error(), "more than the 1000 bytes of memory available")):
			t.Errorf("%s: %v, want the budget error", tc.src, err)
		}
	}
}

// FuzzEval evaluates arbitrary expressions over two small tensors with a
// small memory budget: evaluation must return a value or an error, never
// panic. Expressions with large numbers are skipped: they could build
// huge broadcast views whose reductions run for minutes.
func FuzzEval(f *testing.F) {
	for _, s := range []string{
		"mul(Tensor([[1, 2, 3], [4, 5, 6]]), 2)",
		"F.prod(x, axis=(0, -1), keepdims=True)",
		"x[1, ::2] @ y.mT",
		"y[..., 0] * -2.5e-3",
		"tensor([], dtype='int8') * 300",
		"astype(x, bfloat16) * 2j",
		"reshape(arange(6), (3, -1)).T[::-1]",
		"broadcast_to(x, (2, 2, 3)).prod(axis=1)",
		"matmul([1, 2], [[1], [2]])",
		"full((2,), 7, dtype=uint64) * tensor([1], dtype=int8)",
		"to_sparse_csr(y) @ x",
		"to_sparse_coo(x) * x.astype(float16)",
		"(to_sparse_coo(x).T @ to_sparse_csr(x) * 2).to_dense()[0]",
	} {
		f.Add(s)
	}
	x, err := tensor.FromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3)
	if err != nil {
		f.Fatal(err)
	}
	y, err := tensor.FromSlice([]float32{0.5, -1, 2, 3}, 2, 2)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		n, err := Parse(src)
		if err != nil {
			return
		}
		env := &Env{Vars: map[string]*tensor.Tensor{"x": x, "y": y}, MaxBytes: 1 << 16}
		if Check(n, env.Bound) != nil || huge(n) {
			return
		}
		v, err := env.Eval(n)
		if err == nil {
			if _, err := Format(v); err != nil {
				var oe *tensor.OpError
				if !errors.As(err, &oe) {
					t.Fatalf("Format(Eval(%q)) error %v is not an OpError", src, err)
				}
			}
		}
	})
}

// huge reports whether n holds an integer literal above 10000, which
// could make a broadcast view whose reduction takes minutes.
func huge(n Node) bool {
	found := false
	var walk func(Node)
	walk = func(n Node) {
		if n == nil || found {
			return
		}
		switch n := n.(type) {
		case *IntLit:
			v, err := parseInt(n.Text)
			if i, ok := v.(int64); err != nil || !ok || i > 10000 || i < -10000 {
				found = true
			}
		case *FloatLit:
			found = math.Abs(n.Value) > 10000 || math.IsInf(n.Value, 0)
		case *ListLit:
			for _, e := range n.Elems {
				walk(e)
			}
		case *TupleLit:
			for _, e := range n.Elems {
				walk(e)
			}
		case *Unary:
			walk(n.X)
		case *Binary:
			walk(n.X)
			walk(n.Y)
		case *Attr:
			walk(n.X)
		case *Call:
			walk(n.Fn)
			for _, a := range n.Args {
				walk(a)
			}
			for _, kw := range n.Kwargs {
				walk(kw.Value)
			}
		case *Index:
			walk(n.X)
			for _, it := range n.Items {
				walk(it)
			}
		case *Slice:
			walk(n.Lo)
			walk(n.Hi)
			walk(n.Step)
		}
	}
	walk(n)
	return found
}

// TestIntsBeyondInt32 checks that literals beyond 32 bits are never cut to
// their low bits where int has 32 (a 386 build took (2, 2^32+2) for
// (2, 2) and x[2^32] for x[0]): a shape is refused, an index stays out of
// range, a slice bound clamps as in Python. The same holds with 64 bits.
func TestIntsBeyondInt32(t *testing.T) {
	env := &Env{MaxBytes: 1 << 20}
	eval := func(src string) (Value, error) {
		n, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		return env.Eval(n)
	}
	if v, err := eval("zeros((2, 4294967298))"); err == nil {
		t.Errorf("zeros((2, 2^32+2)) = %v, want an error", v)
	}
	if v, err := eval("tensor([1, 2, 3])[4294967296]"); !errors.Is(err, tensor.ErrIndex) {
		t.Errorf("x[2^32] of three elements = %v, %v; want an ErrIndex error", v, err)
	}
	v, err := eval("tensor([1, 2, 3])[1:4294967296]")
	if x, ok := v.(*tensor.Tensor); err != nil || !ok || x.Size() != 2 {
		t.Errorf("x[1:2^32] of three elements = %v, %v; want its last two", v, err)
	}
}

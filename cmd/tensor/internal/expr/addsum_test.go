package expr

import (
	"errors"
	"testing"

	"github.com/tensor-go/tensor"
)

// TestAddSumDType covers add, sum, + and the dtype= argument of prod and
// sum, also inside vjp (where the conversions are recorded).
func TestAddSumDType(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"[1, 2] + [[10], [20]]", "Tensor([[11 12]\n [21 22]], dtype=int32, device=xpux:0)"},
		{"add([1.5, 2], 1)", "Tensor([2.5 3. ], device=xpux:0)"},
		{"[1, 2].add(3)", "Tensor([4 5], dtype=int32, device=xpux:0)"},
		{"2 * [1, 2] + 1", "Tensor([3 5], dtype=int32, device=xpux:0)"},
		{"1 + [1, 2] * 2", "Tensor([3 5], dtype=int32, device=xpux:0)"},
		{"-[1, 2] + 1", "Tensor([ 0 -1], dtype=int32, device=xpux:0)"},
		{"[True, False] + [True, True]", "Tensor([ True  True], dtype=bool, device=xpux:0)"},
		{"sum([[1, 2], [3, 4]])", "Tensor(10, dtype=int32, device=xpux:0)"},
		{"sum([[1, 2], [3, 4]], axis=0)", "Tensor([4 6], dtype=int32, device=xpux:0)"},
		{"np.sum([[1, 2], [3, 4]], axis=-1, keepdims=True)", "Tensor([[3]\n [7]], dtype=int32, device=xpux:0)"},
		{"[[1., 2], [3, 4]].sum(1)", "Tensor([3. 7.], device=xpux:0)"},
		{"sum(tensor([100, 100], dtype=int8))", "Tensor(200, dtype=int32, device=xpux:0)"},
		{"sum([])", "Tensor(0.0, device=xpux:0)"},
		{"prod(arange(1, 21), dtype=int64)", "Tensor(2432902008176640000, dtype=int64, device=xpux:0)"},
		{"prod(arange(1, 21))", "Tensor(-2102132736, dtype=int32, device=xpux:0)"},
		{"sum([1, 2], dtype='float64')", "Tensor(3.0, dtype=float64, device=xpux:0)"},
		{"sum([True, True], dtype=bool)", "Tensor(True, dtype=bool, device=xpux:0)"},
		{"vjp(lambda x: sum(x, dtype=float64), [1., 2.], seed=tensor(2., dtype=float64))[0]", "Tensor([2. 2.], device=xpux:0)"},
		{"vjp(lambda x: prod(x, dtype=float64), [3., 2.], seed=tensor(1., dtype=float64))[0]", "Tensor([2. 3.], device=xpux:0)"},
		{"vjp(lambda x, y: x + y, [1., 2.], 3., seed=[1., 1.])[0]", "Tensor([1. 1.], device=xpux:0)"},
	} {
		n, err := Parse(tc.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.src, err)
			continue
		}
		env := &Env{Vars: map[string]*tensor.Tensor{}}
		v, err := env.Eval(n)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		if got, err := Format(v); err != nil || got != tc.want {
			t.Errorf("%s = %q (%v), want %q", tc.src, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		src string
		err error
	}{
		{"sum([1.5], dtype=int32)", tensor.ErrDType},
		{"prod([1j], dtype=float64)", tensor.ErrDType},
		{"sum([1], dtype='int4')", tensor.ErrDType},
		{"sum([1], axis=1)", tensor.ErrAxis},
		{"[1, 2] + [1, 2, 3]", tensor.ErrShape},
		{"sum([1], keepdims=1)", tensor.ErrValue},
	} {
		env := &Env{Vars: map[string]*tensor.Tensor{}}
		if err := evalIn(t, env, tc.src); !errors.Is(err, tc.err) {
			t.Errorf("%s: %v, want %v", tc.src, err, tc.err)
		}
	}
}

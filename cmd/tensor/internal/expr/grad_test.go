package expr

import (
	"errors"
	"testing"

	"github.com/tensor-go/tensor"
)

func evalGrad(t *testing.T, src string, vars map[string]*tensor.Tensor) (string, error) {
	t.Helper()
	n, err := Parse(src)
	if err != nil {
		return "", err
	}
	env := &Env{Vars: vars}
	if err := Check(n, env.Bound); err != nil {
		return "", err
	}
	v, err := env.Eval(n)
	if err != nil {
		return "", err
	}
	return Format(v)
}

// formatted is an expression and what it prints.
type formatted struct{ src, want string }

// expectFormatted evaluates each expression with vars bound and compares
// what it prints.
func expectFormatted(t *testing.T, vars map[string]*tensor.Tensor, cases []formatted) {
	t.Helper()
	for _, tc := range cases {
		got, err := evalGrad(t, tc.src, vars)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

func TestGradExpressions(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float64{1, 2, 3}))
	vars := map[string]*tensor.Tensor{"X": x}
	expectFormatted(t, vars, []formatted{
		{"vjp(lambda a, b: a*b, [1., 2.], [3., 4.], seed=[1., 1.])",
			"(Tensor([3. 4.], device=xpux:0), Tensor([1. 2.], device=xpux:0))"},
		{"grad(lambda x: prod(x), [2., 0., 4.])", "(Tensor([0. 8. 0.], device=xpux:0),)"},
		{"grad(lambda x: prod(x), [0., 3., 0.])[0]", "Tensor([0. 0. 0.], device=xpux:0)"},
		{"grad(lambda x: prod(x), [inf, 1., 2.])[-1]", "Tensor([ 2. inf inf], device=xpux:0)"},
		// Hessian rows of prod at [0, 3, 0], nested.
		{"vjp(lambda x: vjp(lambda y: prod(y), x, seed=1.0)[0], [0., 3., 0.], seed=[1., 0., 0.])",
			"(Tensor([0. 0. 3.], device=xpux:0),)"},
		{"vjp(lambda x: grad(lambda y: prod(y), x)[0], [2., 0., 4.], seed=[0., 1., 0.])",
			"(Tensor([4. 0. 2.], device=xpux:0),)"},
		// Two parameters bound to one tensor get their own gradients; the
		// body's own use of X by name is a constant.
		{"vjp(lambda a, b: a * b * X, X, X, seed=X)",
			"(Tensor([ 1.  8. 27.], dtype=float64, device=xpux:0), Tensor([ 1.  8. 27.], dtype=float64, device=xpux:0))"},
		{"vjp(lambda a: a.T @ a, X, seed=1.0)", "(Tensor([2. 4. 6.], dtype=float64, device=xpux:0),)"},
		{"vjp(lambda a: a[::-1][1:], X, seed=[5., 7.])", "(Tensor([7. 5. 0.], dtype=float64, device=xpux:0),)"},
		{"vjp(lambda a: (a * 2., prod(a)), X, seed=([1., 1., 1.], 1.))", "(Tensor([8. 5. 4.], dtype=float64, device=xpux:0),)"},
		// A parameter the result does not depend on gets zeros.
		{"vjp(lambda a, b: a * 2., [1., 2.], [3.], seed=[1., 1.])", "(Tensor([2. 2.], device=xpux:0), Tensor([0.], device=xpux:0))"},
		// A result that depends on no parameter: zeros for every one, as
		// torch.autograd.functional.vjp gives, also for the gradient of a
		// linear function differentiated again.
		{"vjp(lambda x: [1., 2.], [5., 6.], seed=[1., 1.])", "(Tensor([0. 0.], device=xpux:0),)"},
		{"grad(lambda x: prod([1., 2.]), [1.])", "(Tensor([0.], device=xpux:0),)"},
		{"vjp(lambda x: vjp(lambda y: y * 3., x, seed=[1., 1.])[0], [1., 2.], seed=[1., 1.])", "(Tensor([0. 0.], device=xpux:0),)"},
		{"vjp(lambda x, w: vjp(lambda y: y * w, x, seed=[1., 1.])[0], [1., 2.], [3., 4.], seed=[1., 1.])", "(Tensor([0. 0.], device=xpux:0), Tensor([1. 1.], device=xpux:0))"},
		{"vjp(lambda z: z * z, [1j], seed=[1j])", "(Tensor([2.+0.j], dtype=complex64, device=xpux:0),)"},
		{"(1, 2, 3)[1:]", "(2, 3)"},
		{"(1, 2, 3)[::-1][0]", "3"},
	})
}

func TestGradExpressionErrors(t *testing.T) {
	for _, tc := range []struct {
		src   string
		class error // nil: a CheckError or SyntaxError
	}{
		{"grad(lambda x: x, [1., 2.])", tensor.ErrValue},
		{"grad(lambda x: x * 1j, [1.])", tensor.ErrValue},
		{"grad(lambda x: prod(x), [1, 2])", tensor.ErrDType},
		{"vjp(lambda x: x, [1., 2.], seed=[1j, 1j])", tensor.ErrDType},
		{"vjp(lambda x: x * 1j, [1., 2.], seed=[1., 1.])", tensor.ErrDType},
		{"vjp(lambda x: x, [1., 2.], seed=[1., 1., 1.])", tensor.ErrShape},
		{"(1, 2)[2]", tensor.ErrIndex},
		{"vjp(lambda x: x, [1.])", nil},
		{"grad(lambda x: x, [1.], seed=1.)", nil},
		{"grad(lambda x, y: x, [1.])", nil},
		{"grad(prod, [1.])", nil},
		{"lambda x: x", nil},
		{"grad(lambda x: y, [1.])", nil},
		{"grad(lambda x, x: x, [1.], [2.])", nil},
	} {
		_, err := evalGrad(t, tc.src, nil)
		var ce *CheckError
		var se *SyntaxError
		switch {
		case err == nil:
			t.Errorf("%s: no error", tc.src)
		case tc.class == nil && !errors.As(err, &ce) && !errors.As(err, &se):
			t.Errorf("%s: %v, want a check or syntax error", tc.src, err)
		case tc.class != nil && !errors.Is(err, tc.class):
			t.Errorf("%s: %v, want %v", tc.src, err, tc.class)
		}
	}
}

// TestGradErrorMessages checks that the messages spell shapes and dtypes
// as the rest of the command line does (Python tuples, not Go slices).
func TestGradErrorMessages(t *testing.T) {
	for src, want := range map[string]string{
		"vjp(lambda x: x * 2., [1., 2.], seed=1.)":    "tensor: vjp: seed of shape () for a result of shape (2,)",
		"vjp(lambda x: x, [[1., 2.]], seed=[1., 2.])": "tensor: vjp: seed of shape (2,) for a result of shape (1, 2)",
		"grad(lambda x: prod(x), [1, 2])":             "tensor: grad: argument 'x' is an int32 tensor: only float and complex tensors have gradients",
		"grad(lambda x: x, [1., 2.])":                 "tensor: grad: grad needs a real floating result of one element, got a float32 tensor of shape (2,); use vjp with a seed",
	} {
		_, err := evalGrad(t, src, nil)
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
}

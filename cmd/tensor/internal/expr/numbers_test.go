package expr

import (
	"errors"
	"testing"

	"github.com/tensor-go/tensor"
)

// TestNumberArithmetic checks that arithmetic between Python numbers is
// Python's, and that its result meets a tensor as a weak scalar.
func TestNumberArithmetic(t *testing.T) {
	expectFormatted(t, nil, []formatted{
		{"1 + 2", "3"},
		{"2 - 5", "-3"},
		{"3 * 1000000000", "3000000000"},
		{"-9223372036854775807 - 1", "-9223372036854775808"},
		{"-4611686018427387904 * 2", "-9223372036854775808"},
		{"-1 * -9223372036854775807", "9223372036854775807"},
		{"0.1 * 3", "0.30000000000000004"},
		{"0.1 + 0.2", "0.30000000000000004"},
		{"1 - 0.5", "0.5"},
		{"True + True", "2"},
		{"True * False", "0"},
		{"True - 2.5", "-1.5"},
		{"(1 + 2j) * 2", "(2+4j)"},
		{"(1 + 2j) * (3 - 1j)", "(5+5j)"},
		{"2j - 1", "(-1+2j)"},
		// The result stays weak: a float16 tensor stays float16, an int8 one int8.
		{"tensor([1., 2.], dtype=float16) * (0.1 * 3)", "Tensor([0.3 0.6], dtype=float16, device=xpux:0)"},
		{"tensor([1, 2], dtype=int8) + (2 * 3)", "Tensor([7 8], dtype=int8, device=xpux:0)"},
		{"tensor([2 * 3, 1.5 + 1])", "Tensor([6.  2.5], device=xpux:0)"},
		{"grad(lambda x: x * (2 * 3), tensor([1.]))", "(Tensor([6.], device=xpux:0),)"},
	})
	for _, src := range []string{
		"9223372036854775807 + 1", "-9223372036854775807 - 2", "4611686018427387904 * 2",
		"3037000500 * 3037000500", "-1 * (-9223372036854775807 - 1)",
	} {
		if _, err := evalGrad(t, src, nil); !errors.Is(err, tensor.ErrValue) {
			t.Errorf("%s: error %v, want ErrValue (beyond int64)", src, err)
		}
	}
}

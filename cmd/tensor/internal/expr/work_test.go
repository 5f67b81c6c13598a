package expr

import (
	"errors"
	"testing"

	"github.com/tensor-go/tensor"
)

// evalIn parses and evaluates src in env.
func evalIn(t *testing.T, env *Env, src string) error {
	t.Helper()
	n, err := Parse(src)
	if err != nil {
		t.Fatalf("Parse(%q): %v", src, err)
	}
	_, err = env.Eval(n)
	return err
}

// TestWorkIsCountedOverTheWholeExpression checks that MaxOps bounds the
// sum over every operation, with prod counting its input and a matrix
// product an eighth of its multiply-adds.
func TestWorkIsCountedOverTheWholeExpression(t *testing.T) {
	for _, tc := range []struct {
		src    string
		maxOps int64
		ok     bool
	}{
		{"prod(ones((100, 100)))", 20001, true}, // ones 10^4, prod's input 10^4 and its result 1
		{"prod(ones((100, 100)))", 20000, false},
		{"prod(broadcast_to(1., (1000, 1000)))", 1 << 20, true},
		{"prod(broadcast_to(1., (1000, 2000)))", 1 << 20, false},
		{"ones((64, 64)) @ ones((64, 64))", 2*4096 + 4096 + 64*4096/8, true},
		{"ones((64, 64)) @ ones((64, 64))", 2*4096 + 4096 + 64*4096/8 - 1, false},
		{"ones((10,)) * 2 * 2 * 2", 40, true},
		{"ones((10,)) * 2 * 2 * 2 * 2", 40, false},
	} {
		env := &Env{Vars: map[string]*tensor.Tensor{}, MaxOps: tc.maxOps}
		err := evalIn(t, env, tc.src)
		if tc.ok != (err == nil) || err != nil && !errors.Is(err, tensor.ErrValue) {
			t.Errorf("%s under MaxOps %d: %v, want ok=%v (ErrValue otherwise)", tc.src, tc.maxOps, err, tc.ok)
		}
	}
}

// TestAvailableCountsWhatIsHeld checks that Reserve subtracts what was
// reserved since Available last answered, and asks again for a large
// result.
func TestAvailableCountsWhatIsHeld(t *testing.T) {
	calls := 0
	env := &Env{Vars: map[string]*tensor.Tensor{}, Available: func() int { calls++; return 1 << 20 }}
	// Three results of 400 KB each: the third no longer fits in 1 MiB.
	if err := evalIn(t, env, "ones((100000,)) * ones((100000,))"); err == nil || !errors.Is(err, tensor.ErrShape) {
		t.Errorf("three 400 KB results under 1 MiB available: %v, want ErrShape", err)
	}
	if calls != 1 {
		t.Errorf("Available asked %d times for small results, want once", calls)
	}
	calls = 0
	env = &Env{Vars: map[string]*tensor.Tensor{}, Available: func() int { calls++; return 1 << 30 }}
	if err := evalIn(t, env, "ones((5000, 1000)) * 2"); err != nil || calls != 2 {
		t.Errorf("two 20 MB results: %v, Available asked %d times, want no error and twice", err, calls)
	}
}

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// runLimited runs the command under prlimit with the given arguments
// before the command's own, and returns its stderr and exit status.
func runLimited(t *testing.T, env []string, limits []string, args ...string) (string, int) {
	t.Helper()
	prlimit, err := exec.LookPath("prlimit")
	if err != nil && len(limits) > 0 {
		t.Skip("no prlimit")
	}
	if len(limits) > 0 && len(runner) > 0 {
		t.Skip("the limits would apply to the emulator running the command")
	}
	cmd := command(args...)
	if len(limits) > 0 {
		cmd = exec.Command(prlimit, slices.Concat(limits, cmd.Args)...)
	}
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return stderr.String(), exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stderr.String(), 0
}

// TestBudgetHonoursMemoryLimits checks the cases: under
// RLIMIT_AS=2GiB a 3.6 GB result is the budget error, exit 1, not the Go
// runtime's fatal out-of-memory, and a result that fits still works; under
// GOMEMLIMIT the same; and the budget counts what the evaluation holds
// live, not one result alone.
func TestBudgetHonoursMemoryLimits(t *testing.T) {
	if testing.Short() && len(runner) > 0 {
		t.Skip("fills gigabytes: minutes under an emulator")
	}
	for _, tc := range []struct {
		env, limits []string
		expr        string
		code        int
	}{
		{nil, []string{"--as=2147483648"}, "ones((30000, 30000))", 1},
		{nil, []string{"--as=2147483648"}, "prod(ones((9000, 9000)))", 0},
		{[]string{"GOMEMLIMIT=200MiB"}, nil, "ones((10000, 10000))", 1},
		// Each result fits alone (380 MB); the two held at once, with the
		// third, do not.
		{[]string{"GOMEMLIMIT=1000MiB"}, nil, "prod(ones((9800, 9800)) * ones((9800, 9800)))", 1},
		{[]string{"GOMEMLIMIT=1000MiB"}, nil, "prod(ones((9800, 9800)))", 0},
	} {
		stderr, code := runLimited(t, tc.env, tc.limits, "eval", tc.expr)
		if code != tc.code || code == 1 && !strings.Contains(stderr, "needs") {
			t.Errorf("%v %v eval %q: exit %d, %q; want exit %d with the budget error", tc.env, tc.limits, tc.expr, code, stderr, tc.code)
		}
		if strings.Contains(stderr, "fatal") || strings.Contains(stderr, "goroutine") {
			t.Errorf("%v %v eval %q aborted: %s", tc.env, tc.limits, tc.expr, stderr)
		}
	}
}

// TestMaxOps checks the bound on work: a 43-character expression asking
// for 10^10 multiplications is refused at once by default, exit 1; a
// smaller bound refuses less, and --max-ops 0 lifts it.
func TestMaxOps(t *testing.T) {
	start := time.Now()
	stderr, code := runLimited(t, nil, nil, "eval", "prod(broadcast_to(1., (100000, 100000)))")
	if strconv.IntSize < 64 { // no 10^10-element shape: the library's own error
		if code != 1 || !strings.Contains(stderr, "more elements than fit in an int") {
			t.Errorf("the 10^10-element prod with a 32-bit int: exit %d, %q; want exit 1 with the shape error", code, stderr)
		}
	} else if code != 1 || !strings.Contains(stderr, "element operations") {
		t.Errorf("the 10^10-element prod: exit %d, %q; want exit 1 with the work bound's error", code, stderr)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("refusing the 10^10-element prod took %v", took)
	}
	if stderr, code := runLimited(t, nil, nil, "eval", "--max-ops", "1000", "prod(ones((100, 100)))"); code != 1 || !strings.Contains(stderr, "--max-ops") {
		t.Errorf("10^4 elements under --max-ops 1000: exit %d, %q; want exit 1", code, stderr)
	}
	if _, code := runLimited(t, nil, nil, "eval", "--max-ops", "0", "prod(broadcast_to(1., (1000, 1000)))"); code != 0 {
		t.Errorf("--max-ops 0: exit %d, want 0", code)
	}
	if _, code := runLimited(t, nil, nil, "eval", "prod(ones((1024, 1024)) @ ones((1024, 1024)))"); code != 0 {
		t.Errorf("a 1024³ product under the default bound: exit %d, want 0", code)
	}
	if _, code := runLimited(t, nil, nil, "eval", "--max-ops", "x", "1"); code != 2 {
		t.Errorf("--max-ops x: exit %d, want 2", code)
	}
}

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
)

// qemuNames maps GOARCH to the name of its qemu user-mode emulator.
var qemuNames = map[string]string{
	"386": "i386", "amd64": "x86_64", "arm": "arm", "arm64": "aarch64",
	"loong64": "loongarch64", "mips64le": "mips64el", "ppc64le": "ppc64le",
	"riscv64": "riscv64", "s390x": "s390x",
}

// commandRunner returns the emulator that must run the command built for
// the test's architecture, or nil when it runs directly. The tests build
// the command for GOARCH, so under `GOARCH=arm64 go test -exec
// qemu-aarch64-static` on an amd64 machine the binary cannot be executed
// by the host unless binfmt_misc is set up. TENSOR_TEST_EXEC, when set,
// names the wrapper (words separated by spaces); otherwise a binary the
// kernel refuses as an exec format error is run through
// qemu-<arch>-static or qemu-<arch> from PATH.
func commandRunner(bin string) ([]string, error) {
	if w := strings.Fields(os.Getenv("TENSOR_TEST_EXEC")); len(w) > 0 {
		return w, nil
	}
	err := exec.Command(bin, "--help").Run()
	if !errors.Is(err, syscall.ENOEXEC) {
		return nil, nil // it runs (whatever its exit status)
	}
	name := qemuNames[runtime.GOARCH]
	for _, q := range []string{"qemu-" + name + "-static", "qemu-" + name} {
		if path, lookErr := exec.LookPath(q); name != "" && lookErr == nil {
			return []string{path}, nil
		}
	}
	return nil, fmt.Errorf("the %s command cannot run on this machine (%v): install qemu-user-static or set TENSOR_TEST_EXEC", runtime.GOARCH, err)
}

package tensor

import (
	"os"
	"slices"
	"testing"

	"github.com/tensor-go/tensor/internal/kernels"
)

// TestKernelSetHonoursEnvironment checks that KernelSet names a set of
// this architecture, the one TENSOR_KERNELS asked for when the processor
// runs it.
func TestKernelSetHonoursEnvironment(t *testing.T) {
	name := KernelSet()
	var names []string
	for _, s := range kernels.Sets() {
		names = append(names, s.Name)
	}
	if !slices.Contains(names, name) {
		t.Fatalf("KernelSet() = %q, not one of %v", name, names)
	}
	if req := os.Getenv("TENSOR_KERNELS"); req != "" {
		for _, s := range kernels.Sets() {
			if s.Name == req && s.Supported() && name != req {
				t.Fatalf("TENSOR_KERNELS=%s, which this processor runs, but KernelSet() = %q", req, name)
			}
		}
	}
	t.Logf("kernel set %s (%s)", name, kernels.Why())
}

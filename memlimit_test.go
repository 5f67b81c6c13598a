package tensor

import (
	"errors"
	"runtime/debug"
	"testing"
)

func TestHugeShapeIsAnErrorNotACrash(t *testing.T) {
	// 2^39 float32 elements is 2 TiB: more than the 1 TiB bound, and more
	// than this machine holds, so it must be refused before the runtime tries.
	_, err := Zeros(Float32, 1<<20, 1<<19)
	if !errors.Is(err, ErrShape) {
		t.Fatalf("Zeros(float32, 2^20, 2^19) error = %v, want ErrShape", err)
	}
	if maxBytes <= 0 || int64(maxBytes) > 1<<40 {
		t.Fatalf("maxBytes = %d, want a positive bound of at most 1 TiB", maxBytes)
	}
}

// TestAllocationOverGOMEMLIMITIsAnError checks that GOMEMLIMIT, set by the
// program at run time, bounds one allocation: 256 MiB under a 128 MiB
// limit is refused, and fits again once the limit is lifted.
func TestAllocationOverGOMEMLIMITIsAnError(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	debug.SetMemoryLimit(128 << 20)
	if _, err := Zeros(Float32, 64<<20); !errors.Is(err, ErrShape) {
		t.Fatalf("256 MiB under GOMEMLIMIT=128MiB: error %v, want ErrShape", err)
	}
	debug.SetMemoryLimit(old)
	x, err := Zeros(Float32, 16<<20)
	if err != nil {
		t.Fatalf("64 MiB with the limit lifted: %v", err)
	}
	x.Release()
}

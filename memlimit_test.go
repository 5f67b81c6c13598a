package tensor

import (
	"errors"
	"testing"
)

func TestHugeShapeIsAnErrorNotACrash(t *testing.T) {
	// 2^39 float32 elements is 2 TiB: more than the 1 TiB bound, and more
	// than this machine holds, so it must be refused before the runtime tries.
	_, err := Zeros(Float32, 1<<20, 1<<19)
	if !errors.Is(err, ErrShape) {
		t.Fatalf("Zeros(float32, 2^20, 2^19) error = %v, want ErrShape", err)
	}
	if maxBytes <= 0 || maxBytes > 1<<40 {
		t.Fatalf("maxBytes = %d, want a positive bound of at most 1 TiB", maxBytes)
	}
}

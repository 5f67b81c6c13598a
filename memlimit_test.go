package tensor

import (
	"errors"
	"testing"
)

func TestHugeShapeIsAnErrorNotACrash(t *testing.T) {
	// 2^38 float32 elements is 1 TiB: more than any machine this runs on
	// can hold, so it must be refused before the runtime tries.
	_, err := Zeros(Float32, 1<<19, 1<<19)
	if !errors.Is(err, ErrShape) {
		t.Fatalf("Zeros(float32, 2^19, 2^19) error = %v, want ErrShape", err)
	}
	if maxBytes <= 0 || maxBytes > 1<<40 {
		t.Fatalf("maxBytes = %d, want a positive bound of at most 1 TiB", maxBytes)
	}
}

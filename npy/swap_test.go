package npy

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tensor-go/tensor/dtype"
)

// TestSwapBytes compares swapBytes with reversing each unit by hand, for
// lengths around the 32-byte block and the 8-byte word, at every offset of
// the buffer start, with guard bytes around the swapped region.
func TestSwapBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, d := range []dtype.DType{dtype.Int16, dtype.Float32, dtype.Uint64, dtype.Complex64, dtype.Complex128, dtype.Int8} {
		unit := d.Size()
		if d.IsComplex() {
			unit /= 2
		}
		for n := 0; n <= 80; n++ {
			for off := 0; off < 8; off++ {
				size := n * d.Size()
				buf := make([]byte, off+size+8)
				for i := range buf {
					buf[i] = byte(rng.Uint32())
				}
				orig := slices.Clone(buf)
				swapBytes(buf[off:off+size], d)

				want := slices.Clone(orig)
				for i := off; i < off+size; i += unit {
					slices.Reverse(want[i : i+unit])
				}
				if !bytes.Equal(buf, want) {
					t.Fatalf("%v n=%d off=%d: got %v, want %v", d, n, off, buf, want)
				}
			}
		}
	}
}
